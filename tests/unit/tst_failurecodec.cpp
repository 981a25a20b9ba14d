// SPDX-License-Identifier: AGPL-3.0-or-later
// The failure events' JSON (control/failurecodec.h): both ways, by the names
// scripts read (spelled out: a renamed field fails here), and their share in
// whole percent for people, rounded down.
#include "control/failurecodec.h"

#include <QJsonDocument>
#include <QTest>

using namespace pepsi;
using namespace Qt::StringLiterals;

class TestFailureCodec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void messageFailed();
    void stageFailure();
    void percent_data();
    void percent();
};

namespace {

// Through the text of a line, as a client gets it.
QJsonObject wire(const QJsonObject &object)
{
    return QJsonDocument::fromJson(QJsonDocument(object).toJson(QJsonDocument::Compact)).object();
}

} // namespace

void TestFailureCodec::messageFailed()
{
    const MessageFailedEvent event{u"deliver"_s, 412, u"status 3: field 'to' is missing"_s};
    const QJsonObject json = wire(protocol::toJson(event));
    QCOMPARE(json.keys(), (QStringList{u"count"_s, u"reason"_s, u"stage"_s}));
    QCOMPARE(json.value(u"count"_s).toInteger(), 412);
    QCOMPARE(protocol::messageFailedFromJson(json), event);
}

void TestFailureCodec::stageFailure()
{
    const StageFailureEvent event{u"deliver"_s, 0.73};
    const QJsonObject json = wire(protocol::toJson(event));
    QCOMPARE(json.keys(), (QStringList{u"failure_share"_s, u"stage"_s}));
    QCOMPARE(protocol::stageFailureFromJson(json), event);
}

void TestFailureCodec::percent_data()
{
    QTest::addColumn<double>("share");
    QTest::addColumn<int>("percent");
    QTest::newRow("none") << 0.0 << 0;
    QTest::newRow("all") << 1.0 << 100;
    QTest::newRow("half") << 0.5 << 50;
    QTest::newRow("just under a tenth is not 10") << 30.0 / 301 << 9;
    QTest::newRow("just under half is not 50") << 0.4999 << 49;
    QTest::newRow("0.29 is 29, not 28") << 0.29 << 29;
    QTest::newRow("0.57 is 57, not 56") << 0.57 << 57;
}

void TestFailureCodec::percent()
{
    QFETCH(double, share);
    QFETCH(int, percent);
    QCOMPARE(protocol::failurePercent(share), percent);
}

QTEST_APPLESS_MAIN(TestFailureCodec)
#include "tst_failurecodec.moc"
