// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/databasesession.h"

#include "app/logging.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <algorithm>

namespace pepsi {

using namespace std::chrono;

namespace {

const QString QueueConnection = QStringLiteral("pepsi-queue");
const QString ListenConnection = QStringLiteral("pepsi-listen");
constexpr milliseconds FirstRetry = 200ms;
constexpr milliseconds MaxRetry = 10s;
constexpr milliseconds StandbyRetry = 1s;

} // namespace

DatabaseSession::DatabaseSession(const QString &database, bool standby, QObject *parent)
    : QObject(parent)
    , m_database(database)
    , m_standby(standby)
    , m_store(std::make_unique<QueueStore>(QueueConnection))
    , m_listener(std::make_unique<NotifyListener>(ListenConnection, nullptr))
    , m_lock(std::make_unique<DispatcherLock>(ListenConnection))
    , m_stats(QueueConnection)
    , m_overlay(QueueConnection)
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &DatabaseSession::attempt);
    connect(m_listener.get(), &NotifyListener::notified, this,
            [this](const QString &channel) { Q_EMIT notified(channel); });
}

DatabaseSession::~DatabaseSession() = default;

void DatabaseSession::open()
{
    attempt();
}

void DatabaseSession::close()
{
    m_retry.stop();
    m_store->close();
    m_listener->close();
    m_state = State::Down;
}

void DatabaseSession::attempt()
{
    const QString appName = DispatcherLock::applicationName();
    if (!m_store->open(m_database, appName))
        return goDown(m_store->lastError());
    if (!m_listener->open(m_database, appName))
        return goDown(m_listener->lastError());

    const auto locked = m_lock->tryAcquire();
    if (!locked)
        return goDown(m_lock->lastError());
    if (!*locked) {
        QString holder = m_lock->describeHolder();
        if (holder.isEmpty())
            holder = QStringLiteral("(holder not visible to this database user)");
        if (m_standby && !m_everUp) {
            if (!m_waitLogged)
                qCInfo(lcStore).noquote() << "standby: waiting for the active dispatcher" << holder;
            m_waitLogged = true;
            m_state = State::WaitingForLock;
            Q_EMIT waiting(QStringLiteral("standby: waiting for the lock held by ") + holder);
            // A standby writes nothing and holds no worker; it asks again each second.
            m_store->close();
            m_listener->close();
            return scheduleRetry(StandbyRetry);
        }
        m_state = State::Down;
        Q_EMIT lockedOut(holder);
        return;
    }
    if (!m_listener->subscribe())
        return goDown(m_listener->lastError());

    if (m_outageLogged)
        qCInfo(lcStore) << "database connection restored after" << m_downSince.elapsed() << "ms";
    else if (m_waitLogged)
        qCInfo(lcStore) << "standby: took over the dispatcher lock";
    m_failures = 0;
    m_outageLogged = false;
    m_waitLogged = false;
    m_state = State::Up;
    const bool first = !m_everUp;
    m_everUp = true;
    Q_EMIT up(first);
}

void DatabaseSession::statementFailed(const QString &what)
{
    if (m_state != State::Up)
        return;
    // A connection the server ended during the statement (57P01) still looks
    // open until libpq reads past the error: only a round trip tells.
    if (m_store->isOpen() && m_listener->isOpen() && answers(QueueConnection) && answers(ListenConnection)) {
        // A statement error on a live connection is a bug or a schema problem,
        // not an outage; the caller keeps what it could not write.
        qCWarning(lcStore).noquote() << what;
        return;
    }
    goDown(what);
}

void DatabaseSession::checkAlive()
{
    if (m_state != State::Up)
        return;
    QSqlQuery ping(QSqlDatabase::database(ListenConnection, false));
    if (!ping.exec(QStringLiteral("SELECT 1")) || !m_listener->isOpen() || !m_store->isOpen())
        goDown(QStringLiteral("the database connection does not answer"));
}

bool DatabaseSession::answers(const QString &connectionName)
{
    QSqlQuery ping(QSqlDatabase::database(connectionName, false));
    return ping.exec(QStringLiteral("SELECT 1"));
}

void DatabaseSession::goDown(const QString &reason)
{
    const bool wasUp = m_state == State::Up;
    m_state = State::Down;
    m_store->close();
    m_listener->close();
    ++m_failures;
    if (!m_outageLogged) {
        qCWarning(lcStore).noquote() << (m_everUp ? "database connection lost:" : "cannot reach the database:")
                                     << reason << "; retrying with backoff";
        m_outageLogged = true;
        m_downSince.start();
    } else {
        qCDebug(lcStore).noquote() << "reconnect failed:" << reason;
    }
    if (wasUp)
        Q_EMIT down(reason);
    Q_EMIT waiting(QStringLiteral("database unreachable, retrying"));
    const milliseconds delay = std::min(MaxRetry, FirstRetry * (1 << std::min(m_failures - 1, 10)));
    scheduleRetry(delay);
}

void DatabaseSession::scheduleRetry(milliseconds delay)
{
    m_retry.start(delay);
}

} // namespace pepsi
