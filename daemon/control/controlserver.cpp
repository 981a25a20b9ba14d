// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/controlserver.h"

#include "control/controlconnection.h"
#include "control/controllog.h"
#include "control/snapshotcodec.h"
#include "model/dispatchboard.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocalSocket>

#include <cerrno>
#include <cstring>
#include <grp.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcControl, "pepsi.dispatch.control", QtInfoMsg)

namespace pepsi {
namespace event = protocol::event;
namespace field = protocol::field;

namespace {

// Someone accepts connections on `path` right now. A plain non-blocking
// connect: on a local socket it succeeds or fails at once.
bool somebodyListens(const QString &path)
{
    const QByteArray name = QFile::encodeName(path);
    sockaddr_un address{};
    if (size_t(name.size()) >= sizeof address.sun_path)
        return false;
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, name.constData(), size_t(name.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    const int rc = ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address);
    const int error = errno;
    ::close(fd);
    // EAGAIN: a listener whose backlog is full is still a listener.
    return rc == 0 || error == EAGAIN;
}

QString holderOf(QLockFile &lock)
{
    qint64 pid = 0;
    QString host, application;
    if (!lock.getLockInfo(&pid, &host, &application))
        return QStringLiteral("another process");
    return QStringLiteral("%1 (pid %2 on %3)")
        .arg(application.isEmpty() ? QStringLiteral("a process") : application)
        .arg(pid)
        .arg(host.isEmpty() ? QStringLiteral("this host") : host);
}

} // namespace

ControlServer::ControlServer(const DispatchBoard &board, DispatchPort &port, OperatorQueries &operatorQueries,
                             QObject *parent)
    : QObject(parent)
    , m_board(board)
    , m_port(port)
    , m_operatorQueries(operatorQueries)
    , m_adminUids{0, uint(::geteuid())}
{
    m_server.setMaxPendingConnections(16);
    connect(&m_server, &QLocalServer::newConnection, this, &ControlServer::onNewConnection);
    // Queued when the port is on another thread (the dispatch loop): in the
    // order the loop emitted them, the events and lifecycle changes alike.
    connect(&m_port, &DispatchPort::happened, this, &ControlServer::publish);
    connect(&m_port, &DispatchPort::lifecycleChanged, this, [this](Lifecycle state) {
        publish(DispatchEvent{QString(event::State), {{field::State, lifecycleName(state)}}});
    });
    connect(&m_tick, &QTimer::timeout, this, &ControlServer::onTick);
}

ControlServer::~ControlServer() { close(); }

std::optional<QString> ControlServer::listen(const QString &path)
{
    const QFileInfo info(path);
    const QString directory = info.absolutePath();
    if (!QFileInfo(directory).isDir()) {
        if (!QDir().mkpath(directory))
            return QStringLiteral("cannot create the control socket's directory %1").arg(directory);
        ::chmod(QFile::encodeName(directory).constData(), 0750);
    }
    auto lock = std::make_unique<QLockFile>(path + QStringLiteral(".lock"));
    // Only a dead holder makes the lock stale, never its age.
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0)) {
        if (lock->error() == QLockFile::LockFailedError)
            return QStringLiteral("the control socket %1 belongs to %2, which is still running; "
                                  "is another pepsi-dispatch using this CONTROL_SOCKET?")
                .arg(path, holderOf(*lock));
        return QStringLiteral("cannot create the lock file %1.lock (%2)")
            .arg(path,
                 lock->error() == QLockFile::PermissionError ? QStringLiteral("permission denied")
                                                             : QStringLiteral("unknown error"));
    }
    // Holding the lock, a socket file left here is a dead daemon's, unless
    // something that does not use the lock listens on it.
    if (QFileInfo::exists(path)) {
        if (somebodyListens(path))
            return QStringLiteral("something is listening on the control socket %1 already; not taking it over")
                .arg(path);
        qCInfo(lcControl).noquote() << "replacing the stale control socket" << path;
        QLocalServer::removeServer(path);
    }
    m_server.setSocketOptions(QLocalServer::NoOptions);
    if (!m_server.listen(path))
        return QStringLiteral("cannot listen on the control socket %1: %2").arg(path, m_server.errorString());
    // Qt's access options give 0770; the socket is 0660 (doc/control-protocol.rst, "The socket file").
    if (::chmod(QFile::encodeName(path).constData(), 0660) != 0)
        qCWarning(lcControl).noquote() << "cannot set the mode of" << path << ":"
                                       << QString::fromLocal8Bit(std::strerror(errno));
    m_lock = std::move(lock);
    m_path = path;
    qCInfo(lcControl).noquote() << "control socket" << path;
    return std::nullopt;
}

void ControlServer::close()
{
    m_tick.stop();
    const QList<ControlConnection *> connections = m_connections;
    m_connections.clear();
    qDeleteAll(connections);
    if (m_server.isListening())
        m_server.close(); // removes the socket file
    m_lock.reset();       // and then the lock
}

void ControlServer::onNewConnection()
{
    while (QLocalSocket *socket = m_server.nextPendingConnection()) {
        if (m_connections.size() >= m_limits.maxClients) {
            qCWarning(lcControl) << "refusing a client: already" << m_connections.size() << "connected";
            const QJsonObject reply{
                {field::Id, QJsonValue::Null},
                {field::Ok, false},
                {field::Error, QStringLiteral("too many clients (%1); try again later").arg(m_limits.maxClients)}};
            socket->write(QJsonDocument(reply).toJson(QJsonDocument::Compact) + '\n');
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            socket->disconnectFromServer();
            // A client that does not read even this one line is cut off.
            QTimer::singleShot(std::chrono::seconds(1), socket, [socket] {
                socket->abort();
                socket->deleteLater();
            });
            continue;
        }
        auto *connection = new ControlConnection(socket, *this);
        connect(connection, &ControlConnection::closed, this, &ControlServer::onClosed);
        m_connections.append(connection);
        Q_EMIT clientCountChanged(clientCount());
    }
}

void ControlServer::onClosed(ControlConnection *connection)
{
    if (!m_connections.removeOne(connection))
        return;
    connection->deleteLater();
    subscriptionsChanged();
    Q_EMIT clientCountChanged(clientCount());
}

void ControlServer::publish(const DispatchEvent &event)
{
    ++m_seq;
    QJsonObject object = event.fields;
    object.insert(field::Event, event.name);
    object.insert(field::Seq, double(m_seq));
    object.insert(field::Time, QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    // Serialized once for every subscriber.
    const QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
    // A connection dropped while delivering leaves the list through onClosed.
    const QList<ControlConnection *> connections = m_connections;
    for (ControlConnection *connection : connections) {
        if (m_connections.contains(connection))
            connection->deliver(event.name, line);
    }
}

void ControlServer::subscriptionsChanged()
{
    bool wantsTick = false;
    for (const ControlConnection *connection : std::as_const(m_connections))
        wantsTick = wantsTick || connection->subscription().wants(QString(event::Tick));
    if (wantsTick && !m_tick.isActive()) {
        m_lastTick = m_board.picture().stats;
        m_tick.start(m_limits.tick);
    } else if (!wantsTick) {
        m_tick.stop();
    }
}

void ControlServer::onTick()
{
    // One tick a second for everyone, however many events came meanwhile.
    publish(DispatchEvent{QString(event::Tick), composeTick()});
}

QJsonObject ControlServer::composeTick()
{
    // One picture: the stages' figures and the totals of the same moment.
    const DispatchPicture now = m_board.picture();
    const StatsSnapshot &stats = now.stats;
    const QList<PoolSnapshot> &pools = now.pools;
    const StatsSnapshot previous = m_lastTick.value_or(stats);
    m_lastTick = stats;
    TickSnapshot tick;
    tick.claimed = std::max<qint64>(0, stats.claimed - previous.claimed);
    tick.completed = std::max<qint64>(0, stats.stageRuns - previous.stageRuns);
    tick.rate10s = stats.rate10s;
    tick.pools = PoolTotals::of(pools);
    for (const PoolSnapshot &pool : pools) {
        tick.stages.insert(pool.stage,
                           TickStage{stats.stages.value(pool.stage).rate10s, pool.inFlight, pool.busy, pool.idle,
                                     pool.workers, pool.capacity});
    }
    return protocol::toJson(tick);
}

std::optional<QString> prepareControlDirectory(const QString &socketPath, const QString &account)
{
    const QString directory = QFileInfo(socketPath).absolutePath();
    if (::geteuid() != 0 || QFileInfo(directory).isDir())
        return std::nullopt;
    const passwd *user = ::getpwnam(account.toLocal8Bit().constData());
    if (!user)
        return QStringLiteral("the service account \"%1\" does not exist").arg(account);
    if (!QDir().mkpath(directory))
        return QStringLiteral("cannot create the control socket's directory %1").arg(directory);
    const QByteArray native = QFile::encodeName(directory);
    if (::chmod(native.constData(), 0750) != 0 || ::chown(native.constData(), user->pw_uid, user->pw_gid) != 0)
        return QStringLiteral("cannot give the control socket's directory %1 to %2: %3")
            .arg(directory, account, QString::fromLocal8Bit(std::strerror(errno)));
    return std::nullopt;
}

} // namespace pepsi
