// SPDX-License-Identifier: AGPL-3.0-or-later
// What one reply of the control socket is made of, against a fake dispatcher
// through a real QLocalSocket: the pieces of one moment, never two.
#include "control/controlserver.h"
#include "controltestclient.h"
#include "directserverfixture.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>
#include <memory>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_ControlReplies : public DirectServerTest
{
    Q_OBJECT

private Q_SLOTS:
    void oneMomentPerReply_data();
    void oneMomentPerReply();
    void narrowingHints_data();
    void narrowingHints();
};

// The fake's dispatcher moves on between any two reads, as the loop may
// publish between two reads of the control thread: in moment N each of the
// two pools has N workers, N rows were claimed, and one stage is drained
// (enrich in odd moments, score in even ones). A reply that read two moments
// has sums that do not add up, or no stage or two drained.
void tst_ControlReplies::oneMomentPerReply_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::newRow("status") << R"({"cmd":"status"})"_ba;
    QTest::newRow("status of one stage") << R"({"cmd":"status","stage":"score"})"_ba;
    QTest::newRow("stages") << R"({"cmd":"stages"})"_ba;
    QTest::newRow("metrics") << R"({"cmd":"metrics"})"_ba;
}

void tst_ControlReplies::oneMomentPerReply()
{
    QFETCH(QByteArray, request);
    // Shared: the fake outlives this function's frame until cleanup().
    const auto moment = std::make_shared<int>(0);
    FakeDispatch *fake = &m_daemon->dispatch();
    fake->m_betweenReads = [fake, moment] {
        const int now = ++*moment;
        for (PoolSnapshot &pool : fake->m_pools)
            pool.workers = now;
        fake->m_stats.claimed = now;
        fake->m_drained = {now % 2 ? u"enrich"_s : u"score"_s};
    };
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QJsonObject reply = client.request(request);
    QVERIFY2(reply.value(u"ok"_s).toBool(), qPrintable(reply.value(u"error"_s).toString()));
    QVERIFY(*moment > 0);
    const QJsonObject result = reply.value(u"result"_s).toObject();

    if (request.contains("status")) {
        const int claimed = result[u"totals"_s][u"claimed"_s].toInt();
        QCOMPARE(result[u"totals"_s][u"workers"_s].toInt(), 2 * claimed);
        for (const QJsonValue stage : result[u"stages"_s].toObject())
            QCOMPARE(stage[u"workers"_s].toInt(), claimed);
    } else if (request.contains("stages")) {
        int drained = 0;
        for (const QJsonValue stage : result[u"stages"_s].toArray())
            drained += stage[u"drained"_s].toBool() ? 1 : 0;
        QCOMPARE(drained, 1);
    } else {
        const QString text = result[u"text"_s].toString();
        const auto sample = [&text](const QString &name) {
            const QRegularExpressionMatch match =
                QRegularExpression(u"^"_s + QRegularExpression::escape(name) + u" (\\d+)$"_s,
                                   QRegularExpression::MultilineOption)
                    .match(text);
            return match.hasMatch() ? match.captured(1).toInt() : -1;
        };
        const int claimed = sample(u"pepsi_dispatch_claimed_total"_s);
        QVERIFY2(claimed > 0, qPrintable(text));
        QCOMPARE(sample(u"pepsi_dispatch_workers{stage=\"enrich\"}"_s), claimed);
        QCOMPARE(sample(u"pepsi_dispatch_workers{stage=\"score\"}"_s), claimed);
    }
}

// Every reply below would pass the line limit: the error says what the
// request could still leave off, never what it already asks for, and says so
// when it asks for the narrowest reply there is.
void tst_ControlReplies::narrowingHints_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<QString>("hint");
    const QString nothing = u"; nothing narrows it further"_s;
    QTest::newRow("workers") << R"({"cmd":"workers"})"_ba
                             << u"; ask for one \"stage\" at a time, or without the ids (\"ids\": false)"_s;
    QTest::newRow("workers without ids") << R"({"cmd":"workers","ids":false})"_ba
                                         << u"; ask for one \"stage\" at a time"_s;
    QTest::newRow("workers of one stage")
        << R"({"cmd":"workers","stage":"enrich"})"_ba << u"; ask without the ids (\"ids\": false)"_s;
    QTest::newRow("workers of one stage without ids")
        << R"({"cmd":"workers","stage":"enrich","ids":false})"_ba << nothing;
    QTest::newRow("status") << R"({"cmd":"status"})"_ba << u"; ask for one \"stage\" at a time"_s;
    QTest::newRow("status of one stage") << R"({"cmd":"status","stage":"score"})"_ba << nothing;
    // A page holds the rows that fit: only one of which not a single row fits gets here.
    QTest::newRow("messages") << R"({"cmd":"messages","stage":"score","status":"failed"})"_ba << nothing;
    QTest::newRow("messages with a limit")
        << R"({"cmd":"messages","stage":"score","status":"failed","limit":20})"_ba << nothing;
    QTest::newRow("one message") << R"({"cmd":"messages","stage":"score","status":"failed","limit":1})"_ba << nothing;
    QTest::newRow("reasons") << R"({"cmd":"messages","stage":"score","status":"failed","reasons":true})"_ba << nothing;
}

void tst_ControlReplies::narrowingHints()
{
    QFETCH(QByteArray, request);
    QFETCH(QString, hint);
    // 600 workers a stage with 64 ids each; a cooldown reason, and 200
    // reasons of failed rows, each longer than a line.
    m_daemon->dispatch().setBusyWorkers(600, 64);
    const QString longer(70'000, u'x');
    m_daemon->dispatch().m_pools[1].cooldownReason = longer;
    for (int id = 1; id <= 200; ++id)
        m_daemon->dispatch().m_messages.append(
            MessageRow{id, u"score"_s, u"failed"_s, 1, QDateTime::currentDateTimeUtc(), QString::number(id) + longer});

    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    const QJsonObject reply = client.request(request);
    QCOMPARE(reply.value(u"ok"_s).toBool(), false);
    const QString error = reply.value(u"error"_s).toString();
    QVERIFY2(error.contains(u"more than the 65536-byte line limit"_s), qPrintable(error));
    QVERIFY2(error.endsWith(u"line limit"_s + hint), qPrintable(error));
}

QTEST_GUILESS_MAIN(tst_ControlReplies)
#include "tst_controlreplies.moc"
