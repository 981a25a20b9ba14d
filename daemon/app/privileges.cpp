// SPDX-License-Identifier: AGPL-3.0-or-later
#include "app/privileges.h"

#include <cerrno>
#include <cstring>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

namespace pepsi {

namespace {

QString errnoText() { return QString::fromLocal8Bit(std::strerror(errno)); }

} // namespace

QString dropPrivileges(const QString &user)
{
    if (::geteuid() != 0)
        return {};
    const QByteArray name = user.toLocal8Bit();
    errno = 0;
    const passwd *account = ::getpwnam(name.constData());
    if (!account)
        return QStringLiteral("USER: the service account \"%1\" does not exist%2")
            .arg(user, errno ? QStringLiteral(" (%1)").arg(errnoText()) : QString());
    if (account->pw_uid == 0)
        return QStringLiteral("USER: \"%1\" is root; the dispatcher does not run its workers as root").arg(user);
    const uid_t uid = account->pw_uid;
    const gid_t gid = account->pw_gid;
    if (::initgroups(name.constData(), gid) != 0)
        return QStringLiteral("setting the groups of \"%1\" failed: %2").arg(user, errnoText());
    if (::setgid(gid) != 0)
        return QStringLiteral("setgid(%1) failed: %2").arg(gid).arg(errnoText());
    if (::setuid(uid) != 0)
        return QStringLiteral("setuid(%1) failed: %2").arg(uid).arg(errnoText());
    if (::setuid(0) == 0 || ::geteuid() == 0)
        return QStringLiteral("root could be regained after dropping to \"%1\"").arg(user);
    return {};
}

} // namespace pepsi
