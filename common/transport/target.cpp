// SPDX-License-Identifier: AGPL-3.0-or-later
#include "transport/target.h"

#include <QRegularExpression>

namespace pepsi::transport {

namespace {

constexpr QLatin1StringView SshScheme("ssh://");

// A name or address for ssh's command line: nothing it could read as an
// option, no blank or shell character that would change what it connects to.
bool isHostName(const QString &host)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9._-]*$"));
    return pattern.match(host).hasMatch();
}

bool isIpv6Address(const QString &address)
{
    static const QRegularExpression pattern(QStringLiteral("^[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?$"));
    return address.contains(u':') && pattern.match(address).hasMatch();
}

bool isUserName(const QString &user)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9._-]*\\$?$"));
    return pattern.match(user).hasMatch();
}

Result<Target, QString> parseSsh(const QString &text)
{
    const auto bad = [&text](const QString &why) {
        return QStringLiteral("target \"%1\": %2 (ssh://[USER@]HOST[:PORT][/SOCKET/PATH])").arg(text.left(200), why);
    };
    Target target;
    target.kind = Target::Kind::Ssh;
    target.text = text;
    QString authority = text.mid(SshScheme.size());
    const qsizetype slash = authority.indexOf(u'/');
    if (slash >= 0) {
        target.socketPath = authority.mid(slash);
        authority.truncate(slash);
        if (target.socketPath == u"/")
            target.socketPath.clear();
        else if (target.socketPath.contains(u'\n') || target.socketPath.contains(QChar(0)))
            return bad(QStringLiteral("the socket path holds a control character"));
    }
    const qsizetype at = authority.lastIndexOf(u'@');
    if (at >= 0) {
        target.user = authority.left(at);
        authority = authority.mid(at + 1);
        if (!isUserName(target.user))
            return bad(QStringLiteral("\"%1\" is not a user name").arg(target.user.left(64)));
    }
    QString port;
    if (authority.startsWith(u'[')) {
        const qsizetype close = authority.indexOf(u']');
        if (close < 0)
            return bad(QStringLiteral("the IPv6 address has no closing ]"));
        target.host = authority.mid(1, close - 1);
        const QString rest = authority.mid(close + 1);
        if (!rest.isEmpty() && !rest.startsWith(u':'))
            return bad(QStringLiteral("\"%1\" after the address").arg(rest.left(64)));
        port = rest.mid(1);
        if (rest.startsWith(u':') && port.isEmpty())
            return bad(QStringLiteral("the port is empty"));
        if (!isIpv6Address(target.host))
            return bad(QStringLiteral("\"%1\" is not an IPv6 address").arg(target.host.left(64)));
    } else {
        const qsizetype colon = authority.indexOf(u':');
        if (colon >= 0 && authority.indexOf(u':', colon + 1) >= 0)
            return bad(QStringLiteral("an IPv6 address goes in brackets: ssh://[%1]").arg(authority.left(64)));
        target.host = colon >= 0 ? authority.left(colon) : authority;
        if (colon >= 0) {
            port = authority.mid(colon + 1);
            if (port.isEmpty())
                return bad(QStringLiteral("the port is empty"));
        }
        if (target.host.isEmpty())
            return bad(QStringLiteral("no host"));
        if (!isHostName(target.host))
            return bad(QStringLiteral("\"%1\" is not a host name").arg(target.host.left(64)));
    }
    if (!port.isEmpty()) {
        bool ok = false;
        const int number = port.toInt(&ok);
        if (!ok || number < 1 || number > 65535 || !port.front().isDigit())
            return bad(QStringLiteral("the port \"%1\" is not 1 to 65535").arg(port.left(16)));
        target.port = number;
    }
    return target;
}

} // namespace

Target Target::localSocket(const QString &path)
{
    Target target;
    target.socketPath = path;
    target.text = path;
    return target;
}

Result<Target, QString> Target::parse(const QString &text)
{
    if (text.isEmpty())
        return QStringLiteral("the target is empty (a socket path or ssh://[USER@]HOST[:PORT][/SOCKET/PATH])");
    if (text.startsWith(SshScheme, Qt::CaseInsensitive))
        return parseSsh(text);
    static const QRegularExpression scheme(QStringLiteral("^[A-Za-z][A-Za-z0-9+.-]*://"));
    if (const auto match = scheme.match(text); match.hasMatch())
        return QStringLiteral("target \"%1\": %2 is not a known scheme (a socket path or ssh://)")
            .arg(text.left(200), match.captured(0));
    return localSocket(text);
}

} // namespace pepsi::transport
