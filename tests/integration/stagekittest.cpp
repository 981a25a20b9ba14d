// SPDX-License-Identifier: AGPL-3.0-or-later
#include "stagekittest.h"

#include <QFile>
#include <QTest>

using namespace Qt::StringLiterals;

void StageKitTest::initTestCase()
{
    PEPSI_REQUIRE_DATABASE_IN(m_db, ""); // named after the program
    for (const QString &relative : {WorkerHarness::Example, WorkerHarness::Fake}) {
        const QString path = WorkerHarness::binary(relative);
        QVERIFY2(QFile::exists(path), qPrintable(path + u" is missing: is PEPSI_BUILD_DIR set?"_s));
    }
}

void StageKitTest::init()
{
    m_harness = std::make_unique<WorkerHarness>(*m_db);
    const QString error = m_harness->reset();
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void StageKitTest::cleanup() { m_harness.reset(); }
