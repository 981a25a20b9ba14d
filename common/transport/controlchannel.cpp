// SPDX-License-Identifier: AGPL-3.0-or-later
#include "transport/controlchannel.h"

#include "control/protocol.h"
#include "transport/sshcommand.h"
#include "transport/sshreaper.h"

#include <QLocalSocket>
#include <QProcess>
#include <unistd.h>

namespace pepsi::transport {

namespace {

// Enough of ssh's stderr for its last lines, however much the far side wrote.
constexpr qsizetype MaxErrorTail = 8192;

} // namespace

ControlChannel::ControlChannel(Target target, QObject *parent)
    : QObject(parent)
    , m_target(std::move(target))
{ }

ControlChannel::~ControlChannel()
{
    // Nothing of a half-destroyed channel may be signalled.
    if (m_socket)
        m_socket->disconnect(this);
    if (m_ssh && m_ssh->state() != QProcess::NotRunning) {
        m_ssh->disconnect(this);
        // The end of its stdin ends the far bridge and so ssh, in a few
        // milliseconds; one that hangs is killed after a grace period.
        if (m_teardown == Teardown::Background)
            SshReaper::adopt(m_ssh);
        else
            SshReaper::waitFor(m_ssh, SshReaper::GraceMs);
    }
}

QIODevice *ControlChannel::device() const
{
    if (m_ssh)
        return m_ssh;
    return m_socket;
}

void ControlChannel::open()
{
    if (m_target.isSsh())
        openSsh();
    else
        openSocket();
}

void ControlChannel::openSocket()
{
    m_socket = new QLocalSocket(this);
    // Qt reads no further ahead than a line may be long.
    m_socket->setReadBufferSize(protocol::MaxLine);
    connect(m_socket, &QLocalSocket::connected, this, [this] {
        m_connected = true;
        Q_EMIT connected();
    });
    connect(m_socket, &QLocalSocket::readyRead, this, &ControlChannel::readyRead);
    connect(m_socket, &QLocalSocket::disconnected, this, [this] { end(false, {}); });
    connect(m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError error) {
        if (error == QLocalSocket::PeerClosedError && m_connected)
            return end(false, {});
        end(true, m_socket->errorString());
    });
    m_socket->connectToServer(m_target.socketPath);
}

void ControlChannel::openSsh()
{
    const SshCommand command = SshCommand::forTarget(m_target, SshCommand::remoteCtlFromEnvironment());
    m_ssh = new QProcess(this);
    m_ssh->setProcessChannelMode(QProcess::SeparateChannels);
    m_ssh->setReadChannel(QProcess::StandardOutput);
    // A process group of its own: Ctrl-C on the terminal ends `pepsi-ctl
    // events` cleanly (exit 0), not ssh under it first.
    m_ssh->setChildProcessModifier([] { ::setpgid(0, 0); });
    connect(m_ssh, &QProcess::started, this, [this] {
        m_connected = true;
        Q_EMIT connected();
    });
    connect(m_ssh, &QProcess::readyReadStandardOutput, this, &ControlChannel::readyRead);
    connect(m_ssh, &QProcess::readyReadStandardError, this, [this] {
        m_sshErrors += m_ssh->readAllStandardError();
        if (m_sshErrors.size() > MaxErrorTail)
            m_sshErrors = m_sshErrors.right(MaxErrorTail);
    });
    connect(m_ssh, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            end(true, QStringLiteral("cannot run %1: %2").arg(m_ssh->program(), m_ssh->errorString()));
    });
    connect(m_ssh, &QProcess::finished, this,
            [this](int exitCode, QProcess::ExitStatus status) { onSshFinished(exitCode, int(status)); });
    m_ssh->start(command.program, command.arguments);
}

void ControlChannel::onSshFinished(int exitCode, int exitStatus)
{
    // The replies ssh passed on before it ended are read first.
    if (m_ssh->bytesAvailable() > 0)
        Q_EMIT readyRead();
    m_sshErrors += m_ssh->readAllStandardError();
    QString why = SshCommand::summary(m_sshErrors);
    if (why.isEmpty() && exitStatus != QProcess::NormalExit)
        why = QStringLiteral("ssh was killed");
    else if (why.isEmpty() && exitCode != 0)
        why = QStringLiteral("ssh exited with status %1").arg(exitCode);
    end(false, why);
}

void ControlChannel::abort()
{
    m_ended = true;
    if (m_socket)
        m_socket->abort();
    if (m_ssh && m_ssh->state() != QProcess::NotRunning) {
        // Its stdin's end tells the far bridge to close; ssh itself is told to go.
        m_ssh->closeWriteChannel();
        m_ssh->terminate();
    }
}

void ControlChannel::end(bool isFailure, const QString &why)
{
    if (m_ended)
        return;
    m_ended = true;
    if (isFailure)
        Q_EMIT failed(why);
    else
        Q_EMIT closed(why);
}

} // namespace pepsi::transport
