// SPDX-License-Identifier: AGPL-3.0-or-later
#include "sshserver.h"

#include <QDir>
#include <QFile>
#include <QTcpServer>
#include <QTest>

namespace {

const QString Sshd = QStringLiteral("/usr/sbin/sshd");
const QString Ssh = QStringLiteral("/usr/bin/ssh");
const QString Keygen = QStringLiteral("/usr/bin/ssh-keygen");

bool writeFile(const QString &path, const QByteArray &text, QFile::Permissions permissions = {})
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size()) {
        qWarning("cannot write %s", qPrintable(path));
        return false;
    }
    return permissions == QFile::Permissions() || file.setPermissions(permissions);
}

bool keygen(const QString &file)
{
    QProcess process;
    process.start(Keygen,
                  {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                   QString(), QStringLiteral("-f"), file});
    if (!process.waitForFinished(20000) || process.exitCode() != 0) {
        qWarning("ssh-keygen failed: %s", process.readAllStandardError().constData());
        return false;
    }
    return true;
}

// A port nobody listens on now; sshd binds it a moment later.
int freePort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

} // namespace

SshServer::SshServer() = default;

SshServer::~SshServer()
{
    if (m_sshd.state() != QProcess::NotRunning) {
        m_sshd.terminate();
        if (!m_sshd.waitForFinished(5000))
            m_sshd.kill();
        m_sshd.waitForFinished(5000);
    }
}

QString SshServer::missingBinary()
{
    for (const QString &binary : {Sshd, Ssh, Keygen}) {
        if (!QFile::exists(binary))
            return binary;
    }
    return {};
}

QString SshServer::acceptingBin() const { return m_dir.filePath(QStringLiteral("accepting")); }
QString SshServer::strictBin() const { return m_dir.filePath(QStringLiteral("strict")); }

bool SshServer::writeWrapper(const QString &dir, const QString &extraOptions)
{
    QDir().mkpath(dir);
    const QString script = QStringLiteral("#!/bin/sh\nexec %1 -F %2 %3 \"$@\"\n")
                               .arg(Ssh, m_dir.filePath(QStringLiteral("ssh_config")), extraOptions);
    return writeFile(dir + QStringLiteral("/ssh"), script.toUtf8(),
                     QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

bool SshServer::start()
{
    // sshd refuses to start without its privilege separation directory.
    QDir().mkpath(QStringLiteral("/run/sshd"));
    const QString hostKey = m_dir.filePath(QStringLiteral("host_key"));
    const QString clientKey = m_dir.filePath(QStringLiteral("client_key"));
    if (!keygen(hostKey) || !keygen(clientKey))
        return false;
    QFile::copy(clientKey + QStringLiteral(".pub"), m_dir.filePath(QStringLiteral("authorized_keys")));
    m_port = freePort();
    const QString sshdConfig = QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2\nPidFile none\n"
                                              "AuthorizedKeysFile %3\nStrictModes no\nUsePAM no\n"
                                              "PermitRootLogin prohibit-password\nPasswordAuthentication no\n"
                                              "KbdInteractiveAuthentication no\nLogLevel INFO\n")
                                   .arg(m_port)
                                   .arg(hostKey, m_dir.filePath(QStringLiteral("authorized_keys")));
    const QString sshConfig = QStringLiteral("Host *\n  IdentityFile %1\n  IdentitiesOnly yes\n"
                                             "  UserKnownHostsFile %2\n  GlobalKnownHostsFile /dev/null\n"
                                             "  StrictHostKeyChecking accept-new\n")
                                  .arg(clientKey, m_dir.filePath(QStringLiteral("known_hosts")));
    const QString emptyKnownHosts = m_dir.filePath(QStringLiteral("no_known_hosts"));
    if (!writeFile(m_dir.filePath(QStringLiteral("sshd_config")), sshdConfig.toUtf8())
        || !writeFile(m_dir.filePath(QStringLiteral("ssh_config")), sshConfig.toUtf8())
        || !writeFile(emptyKnownHosts, {}) || !writeWrapper(acceptingBin(), {})
        || !writeWrapper(strictBin(),
                         QStringLiteral("-o StrictHostKeyChecking=yes -o UserKnownHostsFile=%1").arg(emptyKnownHosts)))
        return false;
    m_sshd.start(Sshd,
                 {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                  m_dir.filePath(QStringLiteral("sshd_config"))});
    QByteArray seen;
    const bool listening = QTest::qWaitFor(
        [&] {
            seen += m_sshd.readAllStandardError();
            return seen.contains("Server listening") || m_sshd.state() == QProcess::NotRunning;
        },
        15000);
    if (!listening || !seen.contains("Server listening")) {
        qWarning("sshd did not start: %s", seen.constData());
        return false;
    }
    return true;
}
