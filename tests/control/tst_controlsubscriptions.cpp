// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket's events against a fake dispatcher, through a real
// QLocalSocket: what a subscriber gets (filtered, numbered, the daemon's
// state among them), nothing after it unsubscribes, and ticks that sum what
// happened between them and are not made while nobody wants them.
#include "control/controlserver.h"
#include "controltestclient.h"
#include "directserverfixture.h"

#include <QTest>
#include <memory>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_ControlSubscriptions : public DirectServerTest
{
    Q_OBJECT

private Q_SLOTS:
    void eventsAndFilters();
    void ticksCoalesce();
};

void tst_ControlSubscriptions::eventsAndFilters()
{
    ControlTestClient all;
    QVERIFY(all.connectTo(m_daemon->path()));
    ControlTestClient crashes;
    QVERIFY(crashes.connectTo(m_daemon->path()));
    ControlTestClient none;
    QVERIFY(none.connectTo(m_daemon->path()));
    m_daemon->dispatch().emitEvent(u"worker_started"_s,
                                   {{u"pid"_s, 1}, {u"stage"_s, u"enrich"_s}}); // before anyone subscribed
    const QJsonObject subscribed = all.request(R"({"cmd":"subscribe"})"_ba);
    QCOMPARE(subscribed.value(u"result"_s)[u"seq"_s].toInt(), 1);
    QVERIFY(crashes.request(R"({"cmd":"subscribe","events":["worker_crashed"]})"_ba).value(u"ok"_s).toBool());

    m_daemon->dispatch().emitEvent(u"worker_started"_s, {{u"pid"_s, 2}, {u"stage"_s, u"enrich"_s}});
    m_daemon->dispatch().emitEvent(u"worker_crashed"_s,
                                   {{u"pid"_s, 2}, {u"stage"_s, u"enrich"_s}, {u"cause"_s, u"crashed: signal 9"_s}});
    Q_EMIT m_daemon->dispatch().lifecycleChanged(Lifecycle::Reconnecting);

    const auto started = all.takeEvent(u"worker_started"_s);
    QVERIFY(started);
    QCOMPARE(started->value(u"seq"_s).toInt(), 2);
    QCOMPARE(started->value(u"pid"_s).toInt(), 2);
    QVERIFY(started->value(u"time"_s).toString().endsWith(u'Z'));
    QVERIFY(!started->contains(u"id"_s) && !started->contains(u"ok"_s));
    const auto crashed = all.takeEvent(u"worker_crashed"_s);
    QVERIFY(crashed);
    QCOMPARE(crashed->value(u"seq"_s).toInt(), 3);
    QCOMPARE(crashed->value(u"cause"_s).toString(), u"crashed: signal 9"_s);
    const auto state = all.takeEvent(u"state"_s);
    QVERIFY(state);
    QCOMPARE(state->value(u"state"_s).toString(), u"reconnecting"_s);

    const auto onlyCrash = crashes.takeEvent(u"worker_crashed"_s);
    QVERIFY(onlyCrash);
    QCOMPARE(onlyCrash->value(u"seq"_s).toInt(), 3);
    QCOMPARE(crashes.request(R"({"cmd":"version"})"_ba).value(u"ok"_s).toBool(), true);
    QVERIFY(crashes.events.isEmpty());
    QCOMPARE(none.request(R"({"cmd":"version"})"_ba).value(u"ok"_s).toBool(), true);
    QVERIFY(none.events.isEmpty());

    // After unsubscribe, nothing more.
    QVERIFY(all.request(R"({"cmd":"unsubscribe"})"_ba).value(u"ok"_s).toBool());
    all.events.clear();
    m_daemon->dispatch().emitEvent(u"worker_started"_s, {{u"pid"_s, 3}, {u"stage"_s, u"enrich"_s}});
    QCOMPARE(all.request(R"({"cmd":"version"})"_ba).value(u"ok"_s).toBool(), true);
    QVERIFY(all.events.isEmpty());
}

void tst_ControlSubscriptions::ticksCoalesce()
{
    m_daemon->server().setLimits(ControlLimits{64 * 1024, 64, 1024 * 1024, std::chrono::milliseconds(200)});
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    QVERIFY(client.request(R"({"cmd":"subscribe","events":["tick"]})"_ba).value(u"ok"_s).toBool());
    const auto first = client.takeEvent(u"tick"_s, 3000);
    QVERIFY(first);
    QCOMPARE(first->value(u"claimed"_s).toInt(), 0);
    // Many claims between two ticks come as one sum.
    for (int i = 0; i < 50; ++i) {
        m_daemon->dispatch().m_stats.claimed += 2;
        m_daemon->dispatch().m_stats.stageRuns += 1;
    }
    const auto second = client.takeEvent(u"tick"_s, 3000);
    QVERIFY(second);
    QCOMPARE(second->value(u"claimed"_s).toInt(), 100);
    QCOMPARE(second->value(u"completed"_s).toInt(), 50);
    QCOMPARE(second->value(u"workers"_s).toInt(), 3);
    QCOMPARE(second->value(u"in_flight"_s).toInt(), 5);
    QCOMPARE(second->value(u"stages"_s)[u"enrich"_s][u"rate_10s"_s].toDouble(), 2.5);
    QCOMPARE(second->value(u"seq"_s).toInt(), first->value(u"seq"_s).toInt() + 1);
    // Nobody wants ticks: none are made. A tick that is not made leaves no
    // trace to wait for, so this watches for a window: two and a half tick
    // intervals, in which two ticks would have raised the sequence number.
    QVERIFY(client.request(R"({"cmd":"unsubscribe"})"_ba).value(u"ok"_s).toBool());
    const quint64 seq = m_daemon->server().lastSeq();
    constexpr int NoTickWindowMs = 500; // the 200 ms tick interval set above, 2.5 times
    QTest::qWait(NoTickWindowMs);
    QCOMPARE(m_daemon->server().lastSeq(), seq);
}

QTEST_GUILESS_MAIN(tst_ControlSubscriptions)
#include "tst_controlsubscriptions.moc"
