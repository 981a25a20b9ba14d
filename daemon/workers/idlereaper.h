// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QTimer>
#include <chrono>

namespace pepsi {

// The idle workers of one pool: since when each holds nothing, and one timer
// armed for the earliest of their deadlines (WORKER_IDLE_TIMEOUT), so that a
// pool costs one timer however many workers it has. expired() names each
// worker that stayed idle for the whole timeout, once; it is forgotten then.
class IdleReaper : public QObject
{
    Q_OBJECT

public:
    IdleReaper(std::chrono::milliseconds timeout, QObject *parent);

    // `worker` holds nothing from now on; one idle already keeps its time.
    void markIdle(QObject *worker);
    // It took work again, or is gone.
    void forget(QObject *worker);
    // Every worker forgotten (the pool retires them all).
    void clear();
    bool isIdle(const QObject *worker) const { return m_since.contains(const_cast<QObject *>(worker)); }

Q_SIGNALS:
    void expired(QObject *worker);

private:
    void reap();
    void arm();

    std::chrono::milliseconds m_timeout;
    QHash<QObject *, QElapsedTimer> m_since;
    QTimer m_timer;
};

} // namespace pepsi
