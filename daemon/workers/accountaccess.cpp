// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workers/accountaccess.h"

#include <QFileInfo>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

namespace pepsi {

Result<AccountAccess, QString> AccountAccess::forUser(const QString &user)
{
    AccountAccess access;
    if (::geteuid() != 0) {
        const passwd *self = ::getpwuid(::geteuid());
        access.m_name = self ? QString::fromLocal8Bit(self->pw_name) : QString::number(::geteuid());
        return access;
    }
    const QByteArray name = user.toLocal8Bit();
    const passwd *account = ::getpwnam(name.constData());
    if (!account)
        return QStringLiteral("USER: the service account \"%1\" does not exist").arg(user);
    access.m_name = user;
    access.m_switch = true;
    access.m_uid = account->pw_uid;
    access.m_gid = account->pw_gid;
    int count = 64;
    QList<gid_t> groups(count);
    if (::getgrouplist(name.constData(), account->pw_gid, groups.data(), &count) < 0) {
        groups.resize(count);
        (void)::getgrouplist(name.constData(), account->pw_gid, groups.data(), &count);
    }
    groups.resize(count);
    access.m_groups = groups;
    return access;
}

int AccountAccess::check(const QString &path, int mode) const
{
    const QByteArray native = QFile::encodeName(path);
    if (!m_switch)
        return ::faccessat(AT_FDCWD, native.constData(), mode, AT_EACCESS) == 0 ? 0 : errno;
    QList<gid_t> saved(::getgroups(0, nullptr));
    (void)::getgroups(int(saved.size()), saved.data());
    int result = EPERM;
    if (::setgroups(size_t(m_groups.size()), m_groups.data()) == 0 && ::setegid(m_gid) == 0 && ::seteuid(m_uid) == 0)
        result = ::faccessat(AT_FDCWD, native.constData(), mode, AT_EACCESS) == 0 ? 0 : errno;
    // Back to root for the next check; failing that, nothing more can be trusted.
    if (::seteuid(0) != 0 || ::setegid(0) != 0 || ::setgroups(size_t(saved.size()), saved.data()) != 0)
        ::abort();
    return result;
}

QString AccountAccess::findProgram(const QString &program, QString *why) const
{
    const auto verdict = [&](const QString &path) {
        const int error = check(path, X_OK);
        if (error == 0 && QFileInfo(path).isFile())
            return true;
        *why = QStringLiteral("PROGRAM \"%1\" is not executable by %2 (%3)")
                   .arg(path, m_name, QString::fromLocal8Bit(std::strerror(error ? error : EACCES)));
        return false;
    };
    if (program.contains(u'/')) {
        if (!QFileInfo::exists(program)) {
            *why = QStringLiteral("PROGRAM \"%1\" does not exist").arg(program);
            return {};
        }
        return verdict(program) ? program : QString();
    }
    // As execvp(): the first executable match wins; one that is there but not
    // executable is reported only when nothing later on PATH is.
    QString notExecutable;
    const QStringList path = qEnvironmentVariable("PATH").split(u':', Qt::SkipEmptyParts);
    for (const QString &directory : path) {
        QString candidate = directory + u'/' + program;
        if (!QFileInfo(candidate).isFile())
            continue;
        if (verdict(candidate))
            return candidate;
        if (notExecutable.isEmpty())
            notExecutable = *why;
    }
    *why = notExecutable.isEmpty() ? QStringLiteral("PROGRAM \"%1\" is not found on PATH").arg(program) : notExecutable;
    return {};
}

} // namespace pepsi
