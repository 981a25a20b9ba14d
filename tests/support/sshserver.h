// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

// A private OpenSSH server for the ssh:// target's tests: /usr/sbin/sshd on
// 127.0.0.1 and a free port, with a throwaway host key and a throwaway client
// key authorized for the current user (root in CI: its private config allows
// key logins for root). The system's configuration is not read on either side:
// the `ssh` that pepsi-ctl finds first on PATH is a wrapper in the temporary
// directory that runs /usr/bin/ssh -F with a config of its own (known hosts
// in the directory, the client key).
class SshServer
{
public:
    SshServer();
    ~SshServer();
    SshServer(const SshServer &) = delete;
    SshServer &operator=(const SshServer &) = delete;

    // "" when sshd, ssh and ssh-keygen are installed, else the missing one.
    static QString missingBinary();
    // Keys, configs, sshd started and listening; false with a warning.
    bool start();
    int port() const { return m_port; }
    // Put first on PATH: its `ssh` accepts the host key the first time
    // (StrictHostKeyChecking accept-new) and keeps it in the directory.
    QString acceptingBin() const;
    // Its `ssh` knows no host key and accepts none (StrictHostKeyChecking yes).
    QString strictBin() const;

private:
    bool writeWrapper(const QString &dir, const QString &extraOptions);

    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;
};
