// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "storage/queueconnection.h"
#include "storage/queuestore.h"
#include "testdatabase.h"

#include <QObject>
#include <QString>
#include <memory>

// A test of QueueStore against a real PostgreSQL (tst_queuestore,
// tst_queuesettle): a fresh database for every test function (m_db), and the
// dispatcher's queue connection with a QueueStore on it (m_store), opened by
// openStore() once the test has written the rows it starts from. Qt Test
// runs a base class's init() and cleanup() as its own.
class QueueStoreTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    // The store's statements go before their connection, the connection
    // before its database.
    void cleanup();

protected:
    // The queue connection's name, for a test that looks at it directly.
    static inline const QString ConnectionName = QStringLiteral("tst-queue");
    // False, with the connection's error as a warning, when it did not open.
    bool openStore();

    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<pepsi::QueueConnection> m_queue;
    std::unique_ptr<pepsi::QueueStore> m_store;
};
