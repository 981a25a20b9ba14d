// SPDX-License-Identifier: AGPL-3.0-or-later
#include "socketlocation.h"

#include "config/configuration.h"
#include "control/protocol.h"

#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <cstring>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pepsi::ctl {

namespace {

QString userName(uid_t uid)
{
    const passwd *entry = ::getpwuid(uid);
    return entry ? QString::fromLocal8Bit(entry->pw_name) : QStringLiteral("uid %1").arg(uid);
}

QString groupName(gid_t gid)
{
    const group *entry = ::getgrgid(gid);
    return entry ? QString::fromLocal8Bit(entry->gr_name) : QStringLiteral("gid %1").arg(gid);
}

QString kindOf(mode_t mode)
{
    if (S_ISREG(mode))
        return QStringLiteral("a regular file");
    if (S_ISDIR(mode))
        return QStringLiteral("a directory");
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    return QStringLiteral("not a socket");
}

// "permission denied on PATH: DIR is pepsi:pepsi 0750; ..." for the file or
// directory `closed` that this user may not pass.
QString permissionDenied(const SocketLocation &where, const QString &closed, const struct stat &st)
{
    const QString owner = userName(st.st_uid);
    const QString group = groupName(st.st_gid);
    return QStringLiteral("permission denied on %1: %2 is %3:%4 mode %5; run pepsi-ctl as root or %3, or as a "
                          "member of group %4 (you are %6)")
        .arg(where.path, closed, owner, group, QString::number(st.st_mode & 07777, 8).rightJustified(4, u'0'),
             userName(::getuid()));
}

SocketLocation local(const QString &path, const QString &origin) { return {path, origin, std::nullopt}; }

Result<SocketLocation, QString> fromTarget(const QString &text, const QString &origin)
{
    auto target = transport::Target::parse(text);
    if (!target)
        return QStringLiteral("%1: %2").arg(origin, target.error());
    if (!target->isSsh())
        return local(target->socketPath, origin);
    return SocketLocation{target->text, origin, target.value()};
}

} // namespace

Result<SocketLocation, QString> locateSocket(const CommandLine &line)
{
    if (!line.target.isEmpty()) {
        if (!line.socketPath.isEmpty())
            return QStringLiteral("give --target or --socket, not both");
        return fromTarget(line.target, QStringLiteral("--target"));
    }
    if (!line.socketPath.isEmpty())
        return local(line.socketPath, QStringLiteral("--socket"));
    const QString fromEnvironment = qEnvironmentVariable("PEPSI_TARGET");
    // A file named with -c is as explicit as --socket: it wins over the environment.
    if (line.command != u"bridge" && line.configFile.isEmpty() && !fromEnvironment.isEmpty())
        return fromTarget(fromEnvironment, QStringLiteral("PEPSI_TARGET"));
    const QString file = Configuration::fileToRead(line.configFile);
    if (line.configFile.isEmpty()) {
        if (!QFileInfo(file).isFile() || ::access(QFile::encodeName(file).constData(), R_OK) != 0)
            return local(protocol::defaultSocketPath(),
                         QStringLiteral("the default for uid %1; %2 is not readable").arg(::geteuid()).arg(file));
    }
    const auto config = Configuration::load(file);
    if (!config)
        return QStringLiteral("cannot read the socket's path: %1 (or give --socket)").arg(config.error().toString());
    const auto socket = config->string(QStringLiteral("pepsi-dispatch"), QStringLiteral("control_socket"));
    if (!socket)
        return QStringLiteral("cannot read the socket's path: %1 (or give --socket)").arg(socket.error().toString());
    if (socket->trimmed().isEmpty())
        return local(protocol::defaultSocketPath(),
                     QStringLiteral("the default for uid %1; %2 sets no CONTROL_SOCKET").arg(::geteuid()).arg(file));
    return local(socket->trimmed(), QStringLiteral("CONTROL_SOCKET in %1").arg(file));
}

QString describeConnectFailure(const SocketLocation &where)
{
    const QByteArray path = QFile::encodeName(where.path);
    struct stat st
    {
    };
    if (::stat(path.constData(), &st) != 0) {
        const int error = errno;
        if (error == EACCES) {
            // The first directory on the way that this user may not enter.
            QString dir = QFileInfo(where.path).absolutePath();
            QString closed;
            struct stat closedStat
            {
            };
            for (QString up = dir; !up.isEmpty() && up != u"/"; up = QFileInfo(up).absolutePath()) {
                struct stat each
                {
                };
                const QByteArray name = QFile::encodeName(up);
                if (::stat(name.constData(), &each) == 0 && ::access(name.constData(), X_OK) != 0) {
                    closed = up;
                    closedStat = each;
                }
            }
            if (!closed.isEmpty())
                return permissionDenied(where, QStringLiteral("its directory ") + closed, closedStat);
            return QStringLiteral("permission denied on %1 (%2)").arg(where.path, where.origin);
        }
        if (error == ENOENT || error == ENOTDIR)
            return QStringLiteral("no daemon at %1: no such socket (%2; is pepsi-dispatch running, with this "
                                  "CONTROL_SOCKET?)")
                .arg(where.path, where.origin);
        return QStringLiteral("cannot reach %1: %2").arg(where.path, QString::fromLocal8Bit(std::strerror(error)));
    }
    if (!S_ISSOCK(st.st_mode))
        return QStringLiteral("%1 is %2, not the control socket (%3)")
            .arg(where.path, kindOf(st.st_mode), where.origin);
    if (::access(path.constData(), R_OK | W_OK) != 0 && errno == EACCES)
        return permissionDenied(where, QStringLiteral("the socket"), st);
    return QStringLiteral("no daemon at %1: nothing listens on it (a daemon that died left it behind?)")
        .arg(where.path);
}

} // namespace pepsi::ctl
