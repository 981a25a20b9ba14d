// SPDX-License-Identifier: AGPL-3.0-or-later
// The messages and message replies of the control protocol
// (common/control/snapshots.h) through their JSON and back, and the shape
// doc/control-protocol.rst fixes (the other snapshots: tst_protocolsnapshots).
#include "control/protocol.h"
#include "control/snapshotcodec.h"
#include "snapshotwire.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace pepsi;
using namespace pepsi::protocol;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(pepsi::MessageDetail)

class TestProtocolMessages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void messages();
    void messageOnTheWire_data();
    void messageOnTheWire();
    void messageReasons();
};

// messages and message: both ways; a state that was cut travels as text.
void TestProtocolMessages::messages()
{
    MessagePage page;
    page.rows = {MessageRow{4711, u"enrich"_s, u"failed"_s, 2, when, u"status 3: bad input"_s},
                 MessageRow{4712, u"enrich"_s, u"failed"_s, 1, when, {}}};
    page.nextAfterId = 4712;
    const QJsonObject json = wire(toJson(page));
    QCOMPARE(messagePageFromJson(json), page);
    QVERIFY(json.value(field::Messages)[1][field::Reason].isNull());
    page.nextAfterId.reset();
    QVERIFY(wire(toJson(page)).value(field::NextAfterId).isNull());
    QCOMPARE(messagePageFromJson(wire(toJson(page))), page);

    MessageDetail whole;
    whole.row = page.rows.first();
    whole.created = when.addSecs(-60);
    whole.state = R"({"dispatch_error":"status 3: bad input","n":1})";
    const QJsonObject wholeJson = wire(toJson(whole));
    QVERIFY(wholeJson.value(field::State).isObject());
    QCOMPARE(wholeJson.value(field::Truncated).toBool(), false);
    QVERIFY(wholeJson.value(field::Timeout).isNull());
    QCOMPARE(messageDetailFromJson(wholeJson), whole);

    MessageDetail cut = whole;
    cut.state = R"({"blob": "xxxx)";
    cut.truncated = true;
    cut.timeout = when.addSecs(30);
    const QJsonObject cutJson = wire(toJson(cut));
    QCOMPARE(cutJson.value(field::State).toString(), QString::fromUtf8(cut.state));
    QCOMPARE(messageDetailFromJson(cutJson), cut);
}

// The `message` reply as doc/control-protocol.rst shows it, its names spelled
// out here and not taken from protocol::field: the daemon's encoder writes
// exactly these keys and the clients' decoder reads each of them back, so a
// renamed constant, or a field written or read under another's name, fails.
void TestProtocolMessages::messageOnTheWire_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<MessageDetail>("detail");

    MessageDetail whole;
    whole.row = MessageRow{4711, u"enrich"_s, u"failed"_s, 2, when, u"status 3: bad input"_s};
    whole.created = when.addSecs(-60);
    whole.state = R"({"dispatch_error":"status 3: bad input","url":"https://example.org/"})";
    QTest::newRow("whole state") << QByteArray(R"({"id": 4711, "stage": "enrich", "status": "failed", "claims": 2,
        "updated": "2026-12-02T19:51:47.123Z", "reason": "status 3: bad input",
        "created": "2026-12-02T19:50:47.123Z", "timeout": null,
        "state": {"dispatch_error": "status 3: bad input", "url": "https://example.org/"},
        "truncated": false})") << whole;

    MessageDetail cut;
    cut.row = MessageRow{4712, u"enrich"_s, u"paused"_s, 1, when, {}};
    cut.created = when.addSecs(-3600);
    cut.timeout = when.addSecs(30);
    cut.state = R"({"blob": "xxxx)";
    cut.truncated = true;
    QTest::newRow("cut state, paused") << QByteArray(R"({"id": 4712, "stage": "enrich", "status": "paused",
        "claims": 1, "updated": "2026-12-02T19:51:47.123Z", "reason": null,
        "created": "2026-12-02T18:51:47.123Z", "timeout": "2026-12-02T19:52:17.123Z",
        "state": "{\"blob\": \"xxxx", "truncated": true})")
                                       << cut;
}

void TestProtocolMessages::messageOnTheWire()
{
    QFETCH(QByteArray, text);
    QFETCH(MessageDetail, detail);
    QJsonParseError error{};
    const QJsonObject documented = QJsonDocument::fromJson(text, &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);

    QCOMPARE(messageDetailFromJson(documented), detail);
    QCOMPARE(wire(toJson(detail)), documented);
}

// messages with "reasons": true, both ways; a reply without "total" (a
// daemon older than it) counts the listed reasons.
void TestProtocolMessages::messageReasons()
{
    MessagePage page;
    page.byReason = true;
    page.reasons = {ReasonCount{u"status 3: bad input"_s, 40, when.addSecs(-600), when},
                    ReasonCount{{}, 2, when.addSecs(-5), when.addSecs(-1)}};
    page.moreReasons = true;
    page.reasonsTotal = 10340;
    const QJsonObject json = wire(toJson(page));
    QCOMPARE(messagePageFromJson(json), page);
    QVERIFY(json.value(field::Reasons)[1][field::Reason].isNull());
    QCOMPARE(json.value(field::Total).toInteger(), qint64(10340));
    QVERIFY(!json.contains(field::Messages));

    QJsonObject older = json;
    older.remove(field::Total);
    QCOMPARE(messagePageFromJson(older).reasonsTotal, qint64(42));
}

QTEST_GUILESS_MAIN(TestProtocolMessages)
#include "tst_protocolmessages.moc"
