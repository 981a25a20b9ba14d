// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/databasesession.h"

#include "model/logcategories.h"
#include "policy/backoff.h"
#include "storage/schemacheck.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <algorithm>

namespace pepsi {

using namespace std::chrono;

namespace {

const QString ListenConnection = QStringLiteral("pepsi-listen");
// The first retry comes quickly: a session the server ended (an operator's
// pg_terminate_backend) is back, lock and all, before a standby looks again.
constexpr milliseconds FirstRetry = 100ms;
constexpr milliseconds MaxRetry = 10s;
constexpr milliseconds StandbyRetry = 1s;
// At most one line per this for the attempts of one outage.
constexpr milliseconds AttemptLineSpacing = 2s;

} // namespace

DatabaseSession::DatabaseSession(const QString &database, const SessionLimits &limits, bool standby, QObject *parent)
    : QObject(parent)
    , m_database(database)
    , m_limits(limits)
    , m_standby(standby)
    , m_store(std::make_unique<QueueStore>(m_queue))
    , m_listener(std::make_unique<NotifyListener>(ListenConnection, nullptr))
    , m_lock(std::make_unique<DispatcherLock>(m_queue))
    , m_stats(m_queue)
    , m_overlay(m_queue)
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &DatabaseSession::attempt);
    connect(m_listener.get(), &NotifyListener::notified, this, &DatabaseSession::notified);
    connect(m_listener.get(), &NotifyListener::lost, this,
            [this](const QString &reason) { onConnectionLost(QStringLiteral("LISTEN"), reason); });
    connect(&m_queueWatch, &ConnectionWatch::lost, this,
            [this](const QString &reason) { onConnectionLost(QStringLiteral("queue"), reason); });
}

DatabaseSession::~DatabaseSession() { close(); }

void DatabaseSession::open() { attempt(); }

void DatabaseSession::close()
{
    m_retry.stop();
    m_queueWatch.stop();
    closeQueue();
    m_listener->close();
    m_state = State::Down;
}

void DatabaseSession::closeQueue()
{
    m_store->forgetStatements();
    m_queue.close();
}

void DatabaseSession::attempt()
{
    if (m_state == State::Up)
        return;
    const QString appName = DispatcherLock::applicationName();
    // A queue connection that survived the outage still holds the lock.
    if (!m_queue.isOpen() || !m_queueWatch.isWatching()) {
        m_queueWatch.stop();
        closeQueue();
        if (!m_queue.open(m_database, appName, m_limits))
            return goDown(m_queue.lastError());
        if (!m_schemaChecked) {
            const SchemaCheck check = SchemaCheck::run(m_queue.database());
            if (check.verdict == SchemaCheck::Verdict::Unknown)
                return goDown(check.message);
            if (check.verdict != SchemaCheck::Verdict::Current) {
                close();
                Q_EMIT schemaRefused(check.message);
                return;
            }
            m_schemaChecked = true;
        }
        if (!takeLock())
            return;
        m_queueWatch.watch(m_queue.name());
    }
    if (!m_listener->isOpen()) {
        if (!m_listener->open(m_database, appName, m_limits))
            return goDown(m_listener->lastError());
        if (!m_listener->subscribe())
            return goDown(m_listener->lastError());
    }

    const bool restored = m_outageLogged;
    const qint64 downMs = restored ? m_downSince.elapsed() : 0;
    if (restored)
        qCInfo(lcStore) << "database connection restored after" << downMs << "ms";
    if (m_waitLogged && m_standby && !m_everUp)
        qCInfo(lcStore) << "standby: took over the dispatcher lock";
    m_failures = 0;
    m_quietAttempts = 0;
    m_outageLogged = false;
    m_waitLogged = false;
    m_ownWaitLogged = false;
    m_sawLockFree = false;
    m_lockHolder.clear();
    m_lastError.clear();
    if (m_databaseName.isEmpty())
        m_databaseName = currentDatabase();
    m_state = State::Up;
    const bool first = !m_everUp;
    m_everUp = true;
    if (restored)
        Q_EMIT this->restored(downMs);
    Q_EMIT up(first);
}

bool DatabaseSession::takeLock()
{
    const bool waitingStandby = m_standby && !m_everUp;
    if (waitingStandby) {
        // The holder's session may have been ended while its process lives on
        // and is reconnecting this very moment: a lock seen free only once is
        // left to it. Looking takes nothing (pg_locks).
        const auto held = m_lock->isHeld();
        if (!held) {
            goDown(m_lock->lastError());
            return false;
        }
        if (*held || !m_sawLockFree) {
            m_sawLockFree = !*held;
            const auto holder = *held ? m_lock->holder() : std::nullopt;
            const QString who = holder
                ? holder->description
                : (m_lockHolder.isEmpty() ? QStringLiteral("(nobody; looking again)") : m_lockHolder);
            if (holder && !m_waitLogged) {
                qCInfo(lcStore).noquote() << "standby: waiting for the active dispatcher" << who;
                m_waitLogged = true;
            }
            waitForLock(who, StandbyRetry, true);
            return false;
        }
    }
    const auto locked = m_lock->tryAcquire();
    if (!locked) {
        goDown(m_lock->lastError());
        return false;
    }
    if (*locked)
        return true;
    const auto holder = m_lock->holder();
    if (!holder) { // freed meanwhile
        waitForLock(QStringLiteral("(nobody; looking again)"), FirstRetry, false);
        return false;
    }
    if (DispatcherLock::isOwnEarlierBackend(*holder)) {
        // A session of ours that we lost but the server keeps: it may be
        // ending already, or (a network cut, no server keepalives) kept for
        // hours, with the lock, while nobody dispatches. It holds nothing we
        // need: what it claimed is reset as orphans once we hold the lock.
        if (!m_ownWaitLogged) {
            const bool ended = m_lock->endEarlierSession(*holder);
            qCInfo(lcStore).noquote() << (ended ? "ending this dispatcher's previous session, which the server still "
                                                  "keeps with the lock:"
                                                : "waiting for this dispatcher's previous session to end, which "
                                                  "still holds the lock (the server would not end it):")
                                      << holder->description;
        }
        m_ownWaitLogged = true;
        waitForLock(holder->description, FirstRetry, false);
        return false;
    }
    if (waitingStandby) { // taken between the look and the try
        waitForLock(holder->description, StandbyRetry, true);
        return false;
    }
    close();
    Q_EMIT lockedOut(holder->description);
    return false;
}

void DatabaseSession::waitForLock(const QString &holder, milliseconds retry, bool closeAll)
{
    // A standby writes nothing and holds no worker; it asks again later. The
    // queue connection goes either way: it holds no lock.
    closeQueue();
    if (closeAll)
        m_listener->close();
    const bool changed = m_state != State::WaitingForLock || m_lockHolder != holder;
    m_state = State::WaitingForLock;
    m_lockHolder = holder;
    if (changed) {
        Q_EMIT waitingForLock(holder);
        Q_EMIT waiting((m_standby && !m_everUp ? QStringLiteral("standby: waiting for the lock held by ")
                                               : QStringLiteral("waiting for the lock held by "))
                       + holder);
    }
    m_retry.start(retry);
}

void DatabaseSession::onConnectionLost(const QString &which, const QString &reason)
{
    const QString what = QStringLiteral("the server closed the %1 connection: %2").arg(which, reason);
    if (m_state == State::Up)
        return goDown(what);
    // Not up: the next attempt opens it again.
    if (which == u"queue")
        closeQueue();
    else
        m_listener->close();
}

bool DatabaseSession::statementFailed(const QString &what)
{
    if (m_state != State::Up)
        return false;
    // A connection the server ended during the statement (57P01) still looks
    // open until libpq reads past the error: only a round trip tells.
    if (m_queue.isOpen() && m_listener->isOpen() && m_queue.answers()) {
        // A live connection: a timeout, a row lock held elsewhere, a bad
        // value. The caller keeps what it could not write and tries again.
        qCWarning(lcStore).noquote() << what;
        return true;
    }
    goDown(what);
    return false;
}

void DatabaseSession::checkAlive()
{
    if (m_state != State::Up)
        return;
    if (!m_queue.answers() || !m_listener->isOpen() || !m_queue.isOpen())
        goDown(QStringLiteral("the database connection does not answer"));
}

QString DatabaseSession::currentDatabase() const
{
    QSqlQuery query(m_queue.database());
    if (query.exec(QStringLiteral("SELECT current_database()")) && query.next())
        return query.value(0).toString();
    return {};
}

void DatabaseSession::goDown(const QString &reason)
{
    const bool wasUp = m_state == State::Up;
    m_state = State::Down;
    m_lastError = reason;
    // Keep what still works: the queue connection holds the lock.
    if (!m_queueWatch.isWatching() || !m_queue.isOpen() || !m_queue.answers()) {
        m_queueWatch.stop();
        closeQueue();
    }
    if (!m_listener->isOpen())
        m_listener->close();
    ++m_failures;
    const milliseconds delay = Backoff{FirstRetry, MaxRetry}.delay(m_failures);
    if (!m_outageLogged) {
        qCWarning(lcStore).noquote() << (m_everUp ? "database connection lost:" : "cannot reach the database:")
                                     << reason << "; retrying with backoff";
        m_outageLogged = true;
        m_downSince.start();
        m_lastAttemptLine.start();
        m_quietAttempts = 0;
    } else {
        logAttempt(reason, delay);
    }
    if (wasUp)
        Q_EMIT down(reason);
    Q_EMIT waiting(QStringLiteral("database unreachable, retrying"));
    m_retry.start(delay);
}

void DatabaseSession::logAttempt(const QString &reason, milliseconds next)
{
    ++m_quietAttempts;
    if (m_lastAttemptLine.isValid() && milliseconds(m_lastAttemptLine.elapsed()) < AttemptLineSpacing) {
        qCDebug(lcStore).noquote() << "reconnect failed:" << reason;
        return;
    }
    qCInfo(lcStore).noquote() << QStringLiteral("database still unreachable after %1 ms (%2 attempts since the "
                                                "last line, next in %3 ms): %4")
                                     .arg(m_downSince.elapsed())
                                     .arg(m_quietAttempts)
                                     .arg(next.count())
                                     .arg(reason);
    m_quietAttempts = 0;
    m_lastAttemptLine.start();
}

} // namespace pepsi
