// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "testdatabase.h"
#include "workerharness.h"

#include <QObject>
#include <memory>

// A test of the stage-program kit end to end (tst_stagekit,
// tst_stagekitbatch, and tst_fakeworker for the fake worker alone): one
// database for the whole program, the kit's binaries checked once, and a
// fresh WorkerHarness (the test playing the dispatcher) for every test
// function. A test class may run more around init() and cleanup() in its own
// slots of those names, calling these, or check fewer binaries in an
// initTestCase() of its own.
class StageKitTest : public QObject
{
    Q_OBJECT

protected Q_SLOTS:
    void initTestCase();
    void init();
    // The harness goes first: it kills what a failed test left running.
    void cleanup();

protected:
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<WorkerHarness> m_harness;
};
