// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "queueprobe.h"
#include "testdatabase.h"

#include <memory>

// The per-test database of the daemon's integration tests: a fresh
// TestDatabase for every test function and a QueueProbe on it. A test class
// derives from it beside QObject, runs PEPSI_INIT_DATABASE_FIXTURE() in init()
// and resetDatabase() in cleanup(); its test functions use m_db and m_queue.
class DatabaseFixture
{
protected:
    // Opens m_queue on m_db (PEPSI_INIT_DATABASE_FIXTURE, once m_db is valid).
    void openQueue();
    // The probe's connection goes before the database it is connected to.
    void resetDatabase();
    // m_db alone, for a test function that needs a database where others of
    // its class need none: false, with the test skipped (no
    // PEPSI_TEST_DATABASE) or failed (one that does not work), otherwise.
    bool freshDatabase();

    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<QueueProbe> m_queue;
};

// A macro, not a function: its QSKIP (no PEPSI_TEST_DATABASE) and QFAIL (one
// that does not work) must end the test function that runs it.
#define PEPSI_INIT_DATABASE_FIXTURE()                                                                                  \
    PEPSI_REQUIRE_DATABASE_IN(m_db, "");                                                                               \
    openQueue()
