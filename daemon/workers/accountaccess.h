// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "result.h"

#include <QList>
#include <QString>
#include <sys/types.h>

namespace pepsi {

// What the account the daemon's workers run as may do with a path. Started as
// root the daemon drops to USER, so root checks as USER: it takes USER's
// groups, gid and uid as its effective ids for the one access() call and takes
// root's back after it. The kernel then decides as it would for the worker's
// execve() (ACLs, directory search bits, noexec mounts), which mode bits read
// by hand would miss. Not root, the daemon does not drop: the caller's own
// account is checked.
class AccountAccess
{
public:
    static Result<AccountAccess, QString> forUser(const QString &user);
    QString accountName() const { return m_name; }
    // 0 when `mode` (R_OK, W_OK, X_OK) is granted, else the errno.
    int check(const QString &path, int mode) const;
    // PROGRAM as WorkerPool finds it: an absolute path as it is, a bare name
    // on PATH. Returns the path found, or empty with *why set.
    QString findProgram(const QString &program, QString *why) const;

private:
    QString m_name;
    bool m_switch = false;
    uid_t m_uid = 0;
    gid_t m_gid = 0;
    QList<gid_t> m_groups;
};

} // namespace pepsi
