// SPDX-License-Identifier: AGPL-3.0-or-later
#include "databasefixture.h"

void DatabaseFixture::openQueue() { m_queue = std::make_unique<QueueProbe>(m_db->db()); }

void DatabaseFixture::resetDatabase()
{
    m_queue.reset();
    m_db.reset();
}

bool DatabaseFixture::freshDatabase()
{
    if (!TestDatabase::isConfigured()) {
        QTest::qSkip("PEPSI_TEST_DATABASE is not set (export PEPSI_TEST_DATABASE=$(scripts/pg-sandbox start))",
                     __FILE__, __LINE__);
        return false;
    }
    m_db = std::make_unique<TestDatabase>();
    if (!m_db->isValid()) {
        QTest::qFail(qPrintable(m_db->errorString()), __FILE__, __LINE__);
        return false;
    }
    return true;
}
