// SPDX-License-Identifier: AGPL-3.0-or-later
// A burst of config_overlay writes (a script's `pepsi-ctl set` loop) while
// messages flow, with a real daemon: the config_changed notifications are
// coalesced into a handful of reloads, not one each (each reload retires
// every worker), and every message of the batch is delivered. The test
// prints the flow with and without the burst.
#include "controlchecks.h"
#include "controltestclient.h"
#include "databasefixture.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTimer>

using namespace Qt::StringLiterals;

class tst_ReloadBurst : public QObject, private DatabaseFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init() { PEPSI_INIT_DATABASE_FIXTURE(); }
    void cleanup() { resetDatabase(); }

    void burstOfOverlayWritesIsAHandfulOfReloads();

private:
    // Milliseconds until `count` more messages of stage a are done; -1 when they are not within the bound.
    qint64 deliver(QueueProbe &queue, int count, const std::function<void()> &meanwhile);
};

namespace {

constexpr int Messages = 3000;
constexpr int Writes = 100;
constexpr int WriteGapMs = 10;

} // namespace

void tst_ReloadBurst::initTestCase()
{
    QVERIFY2(DaemonProcess::missingBinaries().isEmpty(), qPrintable(DaemonProcess::missingBinaries()));
}

qint64 tst_ReloadBurst::deliver(QueueProbe &queue, int count, const std::function<void()> &meanwhile)
{
    const int before = queue.count(u"status = 'done'"_s);
    QElapsedTimer clock;
    clock.start();
    if (queue.insert(u"a"_s, count, {{u"a"_s, u"slow:2"_s}}).size() != count)
        return -1;
    // The burst starts once the batch flows.
    if (!QTest::qWaitFor([&] { return queue.count(u"status = 'done'"_s) >= before + count / 10; }, 30000))
        return -1;
    meanwhile();
    if (!QTest::qWaitFor([&] { return queue.count(u"status = 'done'"_s) == before + count; }, 60000))
        return -1;
    return clock.elapsed();
}

void tst_ReloadBurst::burstOfOverlayWritesIsAHandfulOfReloads()
{
    DaemonProcess daemon(m_db->uri());
    daemon.addStage(u"a"_s, DaemonProcess::fakeWorker(), {{u"PARALLELISM"_s, u"4"_s}});
    const auto client = startSubscribed(daemon, {u"reload"_s});
    QVERIFY(client);
    QueueProbe queue(m_db->db());

    const qint64 alone = deliver(queue, Messages, [] {});
    QVERIFY(alone > 0);

    // Every write changes the stage (3, 4, 3, ...): each reload that runs retires its workers.
    QElapsedTimer burst;
    const qint64 withBurst = deliver(queue, Messages, [&] {
        // One write every WriteGapMs from the event loop, as a script's loop of
        // `pepsi-ctl set` would come.
        int written = 0;
        QTimer writer;
        writer.setInterval(WriteGapMs);
        connect(&writer, &QTimer::timeout, this, [&] {
            if (!m_db->exec(
                    u"INSERT INTO config_overlay (section, option, value) VALUES ('stage-a', 'PARALLELISM', "
                    "'%1') ON CONFLICT (section, option) DO UPDATE SET value = excluded.value"_s.arg(3 + written % 2))
                || ++written == Writes)
                writer.stop();
        });
        burst.start();
        writer.start();
        QTRY_VERIFY_WITH_TIMEOUT(!writer.isActive(), 60000);
        QCOMPARE(written, Writes);
    });
    const qint64 burstMs = burst.elapsed();
    QVERIFY(withBurst > 0);
    QCOMPARE(queue.count(u"status <> 'done'"_s), 0);

    int reloads = 0;
    while (client->takeEvent(u"reload"_s, 1500))
        ++reloads;
    qInfo("%d overlay writes in %lld ms: %d reloads; %d messages in %lld ms alone (%.0f/s), in %lld ms with the "
          "burst (%.0f/s): %.2f x the flow",
          Writes, burstMs, reloads, Messages, alone, Messages * 1000.0 / double(alone), withBurst,
          Messages * 1000.0 / double(withBurst), double(alone) / double(withBurst));
    QTRY_COMPARE(daemon.countLog(QRegularExpression(u"pipeline reloaded \\((notify|set)\\)"_s)), reloads);
    QVERIFY2(reloads >= 1 && reloads <= 10, qPrintable(u"%1 reloads"_s.arg(reloads)));
    // The last write is what runs.
    QTRY_COMPARE(client->request(R"({"cmd":"stages"})"_ba)[u"result"_s][u"stages"_s][0][u"parallelism"_s].toInt(),
                 3 + (Writes - 1) % 2);
    QCOMPARE(daemon.terminate(), 0);
}

QTEST_GUILESS_MAIN(tst_ReloadBurst)
#include "tst_reloadburst.moc"
