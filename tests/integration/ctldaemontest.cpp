// SPDX-License-Identifier: AGPL-3.0-or-later
#include "ctldaemontest.h"

#include <QTest>

void CtlDaemonTest::cleanupTestCase()
{
    if (m_daemon)
        QCOMPARE(m_daemon->terminate(), 0);
    m_daemon.reset();
    m_db.reset();
}
