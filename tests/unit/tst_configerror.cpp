// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/configerror.h"

#include <QTest>

using pepsi::ConfigError;
using pepsi::ConfigOrigin;

Q_DECLARE_METATYPE(ConfigOrigin)

class TestConfigError : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void describe_data();
    void describe();
};

void TestConfigError::describe_data()
{
    QTest::addColumn<ConfigOrigin>("origin");
    QTest::addColumn<QString>("description");
    QTest::addColumn<QString>("error"); // toString() with the reason "bad"

    QTest::newRow("file and line") << ConfigOrigin::fromFile(QStringLiteral("pepsi.conf"), 12) << "pepsi.conf:12"
                                   << "pepsi.conf:12: bad";
    QTest::newRow("file only") << ConfigOrigin::fromFile(QStringLiteral("/etc/pepsi/pepsi.conf"), 0)
                               << "/etc/pepsi/pepsi.conf"
                               << "/etc/pepsi/pepsi.conf: bad";
    QTest::newRow("line of unnamed text") << ConfigOrigin::fromFile({}, 3) << "line 3"
                                          << "line 3: bad";
    QTest::newRow("overlay row") << ConfigOrigin::fromOverlay(QStringLiteral("stage-enrich"),
                                                              QStringLiteral("PARALLELISM"))
                                 << "config_overlay (stage-enrich, PARALLELISM)"
                                 << "config_overlay (stage-enrich, PARALLELISM): bad";
    QTest::newRow("overlay section") << ConfigOrigin::fromOverlay(QStringLiteral("stage-new"), {})
                                     << "config_overlay (stage-new)"
                                     << "config_overlay (stage-new): bad";
    QTest::newRow("nowhere") << ConfigOrigin() << ""
                             << "bad";
}

void TestConfigError::describe()
{
    QFETCH(ConfigOrigin, origin);
    QFETCH(QString, description);
    QFETCH(QString, error);
    QCOMPARE(origin.describe(), description);
    QCOMPARE((ConfigError{origin, QStringLiteral("bad")}).toString(), error);
}

QTEST_APPLESS_MAIN(TestConfigError)
#include "tst_configerror.moc"
