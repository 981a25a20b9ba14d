// SPDX-License-Identifier: AGPL-3.0-or-later
#include "transport/sshcommand.h"

#include <QRegularExpression>

namespace pepsi::transport {

SshCommand SshCommand::forTarget(const Target &target, const QString &remoteCtl)
{
    SshCommand command;
    command.arguments = QStringList{QStringLiteral("-o"), QStringLiteral("BatchMode=yes"), QStringLiteral("-T")};
    if (target.port > 0)
        command.arguments << QStringLiteral("-p") << QString::number(target.port);
    if (!target.user.isEmpty())
        command.arguments << QStringLiteral("-l") << target.user;
    QString remote = remoteCtl + QStringLiteral(" bridge");
    if (!target.socketPath.isEmpty())
        remote += QStringLiteral(" --socket ") + shellQuoted(target.socketPath);
    // ssh joins the words after the host with blanks for the far shell: one word it is.
    command.arguments << QStringLiteral("--") << target.host << remote;
    return command;
}

QString SshCommand::remoteCtlFromEnvironment()
{
    const QString given = qEnvironmentVariable("PEPSI_REMOTE_CTL").trimmed();
    return given.isEmpty() ? QStringLiteral("pepsi-ctl") : given;
}

QString SshCommand::summary(const QByteArray &stderrText, int lines)
{
    QStringList kept;
    const QList<QByteArray> all = stderrText.split('\n');
    for (auto it = all.crbegin(); it != all.crend() && kept.size() < lines; ++it) {
        const QString line = QString::fromUtf8(*it).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1String("Warning: Permanently added")))
            continue;
        kept.prepend(line);
    }
    return kept.join(QStringLiteral("; "));
}

QString SshCommand::shellQuoted(const QString &text)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9/._+=:,@%-]+$"));
    if (plain.match(text).hasMatch())
        return text;
    QString quoted = text;
    quoted.replace(u'\'', QStringLiteral("'\\''"));
    return u'\'' + quoted + u'\'';
}

} // namespace pepsi::transport
