// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "daemonprocess.h"
#include "testdatabase.h"

#include <QObject>
#include <QStringList>
#include <memory>

// A test of pepsi-ctl against one real daemon for the whole program
// (tst_ctl, tst_ctlfailed, tst_ctlrefusals, tst_ctlsources): the test's own
// initTestCase() (or a first test function) starts m_daemon on m_db; the
// cleanupTestCase() here stops it, expecting a clean exit, before the
// database goes.
class CtlDaemonTest : public QObject
{
    Q_OBJECT

protected Q_SLOTS:
    void cleanupTestCase();

protected:
    // pepsi-ctl's arguments that name m_daemon's socket.
    QStringList at() const { return {QStringLiteral("--socket"), m_daemon->controlSocket()}; }

    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<DaemonProcess> m_daemon;
};
