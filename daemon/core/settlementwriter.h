// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/ticket.h"

#include <QList>
#include <QObject>
#include <QTimer>

namespace pepsi {

class DatabaseSession;

// What the rounds write back for the ids the pools handed in (answered with a
// failure, crashed, timed out, paused, or never placed): kept in memory and
// written in one statement before the next claim. A write that fails on a
// live connection (most likely a row another session holds locked) holds the
// next try off with a growing backoff while claims go on; the outcomes stay
// here meanwhile. The statement's guard (only rows still running as handed
// out) is the store's.
class SettlementWriter : public QObject
{
    Q_OBJECT

public:
    explicit SettlementWriter(QObject *parent = nullptr);

    // The session writes go through; null (not yet started): nothing is written.
    void setSession(DatabaseSession *session) { m_session = session; }
    void add(const Settlement &settlement) { m_pending.append(settlement); }
    bool isEmpty() const { return m_pending.isEmpty(); }
    qsizetype size() const { return m_pending.size(); }
    // The ids waiting to be written: still ours, running in the database.
    QList<qint64> ids() const;
    // Writes what waits, unless a failed write holds off (`force`: stopping,
    // or the database just came back). Returns the ids written; empty when
    // nothing was.
    QList<qint64> write(bool force = false);
    // Another dispatcher owns the rows now: forget what waits, write nothing more.
    void abandon();

Q_SIGNALS:
    // The hold after a failed write is over: a round may try again.
    void holdOver();

private:
    DatabaseSession *m_session = nullptr;
    Settlements m_pending;
    QTimer m_hold;
    int m_failures = 0; // writes failed in a row on a live connection
    bool m_mayWrite = true;
};

} // namespace pepsi
