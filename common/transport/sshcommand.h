// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "transport/target.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace pepsi::transport {

// The system's ssh for an ssh:// target, as libvirt's qemu+ssh:// runs it:
// `ssh -o BatchMode=yes -T [-p PORT] [-l USER] -- HOST pepsi-ctl bridge
// [--socket PATH]`. ssh's own configuration and agent choose keys, jump
// hosts and known hosts; BatchMode makes a question (a password, an unknown
// host key) a failure with ssh's message instead of a prompt nobody sees.
struct SshCommand
{
    QString program = QStringLiteral("ssh");
    QStringList arguments;

    // remoteCtl: how the far host runs pepsi-ctl, put verbatim at the start of
    // the remote command line (the far shell reads it: "/opt/pepsi/bin/pepsi-ctl",
    // "sudo -u pepsi pepsi-ctl").
    static SshCommand forTarget(const Target &target, const QString &remoteCtl);
    // $PEPSI_REMOTE_CTL, else "pepsi-ctl".
    static QString remoteCtlFromEnvironment();
    // The last meaningful lines of what ssh wrote to stderr (its own errors
    // and the far side's, the bridge's included), joined by "; ": the notice
    // that a host key was added and blank lines are left out.
    static QString summary(const QByteArray &stderrText, int lines = 2);
    // `text` as one word for a POSIX shell.
    static QString shellQuoted(const QString &text);
};

} // namespace pepsi::transport
