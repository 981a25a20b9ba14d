// SPDX-License-Identifier: AGPL-3.0-or-later
#include "daemontest.h"

#include "daemonprocess.h"

void DaemonTest::initTestCase() { PEPSI_REQUIRE_BINARIES(); }

void DaemonTest::init() { PEPSI_INIT_DATABASE_FIXTURE(); }

void DaemonTest::cleanup() { resetDatabase(); }
