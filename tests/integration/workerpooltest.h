// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "workers/workerpool.h"

#include <QObject>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>

// A test of WorkerPool with real processes and no database: shell scripts as
// stage programs in a temporary directory of each test function's own, pools
// owned by an object dropped (workers asked to go first) in cleanup(), and
// every settlement the pools emit. Qt Test runs a base class's init() and
// cleanup() as its own.
class WorkerPoolTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

protected:
    // A stage program: `body` after "#!/bin/sh".
    QString script(const QString &name, const QByteArray &body);
    pepsi::WorkerPool *makePool(const QString &program, pepsi::PoolOptions options = {}, int queueLimit = 4,
                                int maxMessages = 1000);
    static pepsi::Tickets tickets(int count, qint64 firstId = 1);
    // "fail 2 status 3: x" per settlement, in order.
    QStringList settled() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QObject> m_owner;
    pepsi::Settlements m_settlements;
};
