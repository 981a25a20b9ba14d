// SPDX-License-Identifier: AGPL-3.0-or-later
#include "databasefixture.h"

void DatabaseFixture::openQueue() { m_queue = std::make_unique<QueueProbe>(m_db->db()); }

void DatabaseFixture::resetDatabase()
{
    m_queue.reset();
    m_db.reset();
}
