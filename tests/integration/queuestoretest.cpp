// SPDX-License-Identifier: AGPL-3.0-or-later
#include "queuestoretest.h"

#include <QTest>

using namespace pepsi;

void QueueStoreTest::init() { PEPSI_REQUIRE_DATABASE_IN(m_db, ""); }

void QueueStoreTest::cleanup()
{
    m_store.reset();
    m_queue.reset();
    m_db.reset();
}

bool QueueStoreTest::openStore()
{
    m_queue = std::make_unique<QueueConnection>(ConnectionName);
    if (!m_queue->open(m_db->uri(), QStringLiteral("tst"))) {
        qWarning("the queue connection did not open: %s", qPrintable(m_queue->lastError()));
        return false;
    }
    m_store = std::make_unique<QueueStore>(*m_queue);
    return true;
}
