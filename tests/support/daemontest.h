// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "databasefixture.h"

#include <QObject>

// A test of the real daemon against a real PostgreSQL: the binaries under
// test are checked once (initTestCase(), PEPSI_REQUIRE_BINARIES) and every
// test function gets a fresh database and a QueueProbe on it (m_db, m_queue:
// DatabaseFixture), made in init() and dropped in cleanup(). Qt Test runs a
// base class's initTestCase(), init() and cleanup() as its own.
class DaemonTest : public QObject, protected DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
};
