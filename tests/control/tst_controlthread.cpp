// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket on its own thread (ControlThread) over a fake
// dispatcher whose loop is this test's main thread: reads are answered while
// that loop is blocked, as the daemon's is inside a claim or a commit (the
// queue counts too); admin calls wait for it and run on it; events keep
// their order across the threads.
#include "control/controlserver.h"
#include "control/controlthread.h"
#include "controltestclient.h"
#include "fakedispatch.h"
#include "model/dispatchboard.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <future>
#include <thread>
#include <unistd.h>

using namespace pepsi;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// One blocking client on a thread of its own: it needs no event loop, so it
// works while the test's main thread (the dispatch loop) is blocked.
class ClientThread
{
public:
    explicit ClientThread(QString path)
        : m_path(std::move(path))
    { }
    ~ClientThread()
    {
        if (m_thread.joinable())
            m_thread.join();
    }

    // Connects and sends every line, collecting each reply.
    std::future<QList<QJsonObject>> run(QList<QByteArray> lines)
    {
        std::promise<QList<QJsonObject>> promise;
        auto future = promise.get_future();
        m_thread = std::thread([path = m_path, lines, promise = std::move(promise)]() mutable {
            ControlTestClient client;
            QList<QJsonObject> got;
            if (client.connectTo(path)) {
                for (const QByteArray &line : lines)
                    got.append(client.requestBlocking(line));
            }
            promise.set_value(got);
        });
        return future;
    }

private:
    QString m_path;
    std::thread m_thread;
};

} // namespace

class tst_ControlThread : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void readsAnswerWhileTheLoopIsBlocked();
    void adminCallsWaitForTheLoopAndRunOnIt();
    void eventsKeepTheirOrder();
    void countsComeFromTheBoardWhileYoung();
    void anAgedPictureIsRefreshedByAnIdleLoop();
    void aStalePictureIsRefreshedHoweverYoung_data();
    void aStalePictureIsRefreshedHoweverYoung();
    void aStuckLoopLeavesTheAgedPicture();

private:
    void publish() const;
    QString path() const { return m_dir->filePath(u"dispatch.sock"_s); }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeDispatch> m_fake;
    std::unique_ptr<DispatchBoard> m_board;
    std::unique_ptr<ControlThread> m_control;
};

void tst_ControlThread::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_fake = std::make_unique<FakeDispatch>();
    m_board = std::make_unique<DispatchBoard>();
    publish();
    m_control = std::make_unique<ControlThread>(*m_board, *m_fake, *m_fake);
    const auto error = m_control->listen(path());
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
    QVERIFY(m_control->isListening());
}

void tst_ControlThread::cleanup()
{
    m_control.reset();
    m_board.reset();
    m_fake.reset();
    m_dir.reset();
}

void tst_ControlThread::publish() const
{
    m_board->publish(m_fake->picture());
    m_board->setCounts(m_fake->m_queues);
}

void tst_ControlThread::readsAnswerWhileTheLoopIsBlocked()
{
    ClientThread client(path());
    auto replies = client.run({R"({"id":1,"cmd":"status"})"_ba, R"({"id":2,"cmd":"workers","ids":false})"_ba,
                               R"({"id":3,"cmd":"stats"})"_ba, R"({"id":4,"cmd":"queues"})"_ba});
    // This thread is the dispatch loop: blocked until every reply is in. A
    // reply that needed the loop would never come.
    QCOMPARE(replies.wait_for(20s), std::future_status::ready);
    const QList<QJsonObject> got = replies.get();
    QCOMPARE(got.size(), 4);
    for (const QJsonObject &reply : got)
        QVERIFY2(reply.value(u"ok"_s).toBool(), QJsonDocument(reply).toJson().constData());
    const QJsonObject stages = got[0][u"result"_s][u"stages"_s].toObject();
    QCOMPARE(stages.keys(), m_fake->graph().names());
    QVERIFY(stages[u"enrich"_s][u"queue"_s].isObject());
    QCOMPARE(got[1][u"result"_s].toArray().size(), m_fake->m_workers.size());
    QCOMPARE(m_fake->m_queueQueries, 0); // the board's counts, not a query on the loop
}

void tst_ControlThread::adminCallsWaitForTheLoopAndRunOnIt()
{
    ClientThread client(path());
    auto replies = client.run({R"({"id":1,"cmd":"drain","stage":"enrich"})"_ba});
    // The fake is not thread-safe: the drain must reach it here, once this
    // loop runs, and not before.
    QCOMPARE(replies.wait_for(300ms), std::future_status::timeout);
    QVERIFY(m_fake->m_calls.isEmpty());
    QTRY_VERIFY(replies.wait_for(0s) == std::future_status::ready);
    const QList<QJsonObject> got = replies.get();
    QCOMPARE(got.size(), 1);
    QVERIFY2(got[0][u"ok"_s].toBool(), QJsonDocument(got[0]).toJson().constData());
    QCOMPARE(got[0][u"result"_s][u"drained"_s].toBool(), true);
    QCOMPARE(m_fake->m_calls, QStringList{u"drain enrich %1"_s.arg(::geteuid())});
}

void tst_ControlThread::eventsKeepTheirOrder()
{
    constexpr int Events = 200;
    std::promise<bool> subscribed;
    std::promise<QList<QJsonObject>> received;
    std::thread client([path = path(), &subscribed, &received] {
        ControlTestClient control;
        const bool ok = control.connectTo(path)
            && control.requestBlocking(R"({"id":1,"cmd":"subscribe","events":["worker_started"]})"_ba)
                   .value(u"ok"_s)
                   .toBool();
        subscribed.set_value(ok);
        while (ok && control.events.size() < Events && control.socket().waitForReadyRead(10'000)) {
            while (control.socket().canReadLine())
                control.events.append(QJsonDocument::fromJson(control.socket().readLine()).object());
        }
        received.set_value(control.events);
    });
    auto joined = qScopeGuard([&client] { client.join(); });
    auto isSubscribed = subscribed.get_future();
    QCOMPARE(isSubscribed.wait_for(20s), std::future_status::ready);
    QVERIFY(isSubscribed.get());

    for (int pid = 1; pid <= Events; ++pid)
        m_fake->emitEvent(u"worker_started"_s, {{u"pid"_s, pid}, {u"stage"_s, u"enrich"_s}});
    auto events = received.get_future();
    QTRY_VERIFY_WITH_TIMEOUT(events.wait_for(0s) == std::future_status::ready, 20000);
    const QList<QJsonObject> got = events.get();
    QCOMPARE(got.size(), Events);
    qint64 lastSeq = 0;
    for (int i = 0; i < Events; ++i) {
        QCOMPARE(got[i][u"pid"_s].toInteger(), i + 1);
        QVERIFY(got[i][u"seq"_s].toInteger() > lastSeq);
        lastSeq = got[i][u"seq"_s].toInteger();
    }
}

void tst_ControlThread::countsComeFromTheBoardWhileYoung()
{
    // Without counts on the board, `queues` asks the operator's queries for
    // a count, never the loop: this thread, the loop, is blocked until the
    // reply is in.
    m_board->setCounts(std::nullopt);
    ClientThread client(path());
    auto replies = client.run({R"({"id":1,"cmd":"queues"})"_ba});
    QCOMPARE(replies.wait_for(20s), std::future_status::ready);
    const QList<QJsonObject> got = replies.get();
    QVERIFY2(got.value(0)[u"ok"_s].toBool(), QJsonDocument(got.value(0)).toJson().constData());
    QCOMPARE(m_fake->m_queueQueries, 1);
}

void tst_ControlThread::anAgedPictureIsRefreshedByAnIdleLoop()
{
    // As DispatchState does: the request is a queued call to the loop.
    m_board->setPublishRequest([this] { QMetaObject::invokeMethod(this, [this] { publish(); }); });
    m_fake->m_stats.messages = 777;                  // changed since the last picture, without an event
    QTest::qWait(int(DispatchBoard::MaxAgeMs) + 50); // the picture ages, the loop idles
    ClientThread client(path());
    auto replies = client.run({R"({"id":1,"cmd":"stats"})"_ba});
    QTRY_VERIFY(replies.wait_for(0s) == std::future_status::ready);
    const QList<QJsonObject> got = replies.get();
    QCOMPARE(got.value(0)[u"result"_s][u"totals"_s][u"messages"_s].toInteger(), 777);
    m_board->setPublishRequest({});
}

void tst_ControlThread::aStalePictureIsRefreshedHoweverYoung_data()
{
    QTest::addColumn<bool>("stale");
    QTest::newRow("marked stale: the change") << true;
    QTest::newRow("young, not marked: the picture as published") << false;
}

void tst_ControlThread::aStalePictureIsRefreshedHoweverYoung()
{
    // As DispatchState does for a worker's event: the board marked stale,
    // no picture drawn; the reader asks the loop for one. A board of its own
    // whose pictures stay young for a minute, however slow the machine.
    QFETCH(bool, stale);
    DispatchBoard board(60'000);
    board.publish(m_fake->picture());
    board.setPublishRequest(
        [this, &board] { QMetaObject::invokeMethod(this, [this, &board] { board.publish(m_fake->picture()); }); });
    ControlThread control(board, *m_fake, *m_fake);
    const QString socket = m_dir->filePath(u"young.sock"_s);
    QVERIFY(!control.listen(socket));
    QVERIFY(!board.isWatched()); // nobody has read a picture yet
    const qint64 before = m_fake->m_stats.messages;
    m_fake->m_stats.messages = before + 1;
    if (stale)
        board.invalidate();
    ClientThread client(socket);
    auto replies = client.run({R"({"id":1,"cmd":"stats"})"_ba});
    QTRY_VERIFY(replies.wait_for(0s) == std::future_status::ready);
    QCOMPARE(replies.get().value(0)[u"result"_s][u"totals"_s][u"messages"_s].toInteger(), stale ? before + 1 : before);
    QVERIFY(board.isWatched()); // a picture was read just now
    board.setPublishRequest({});
}

void tst_ControlThread::aStuckLoopLeavesTheAgedPicture()
{
    const qint64 before = m_fake->m_stats.messages;
    m_board->setPublishRequest([this] { QMetaObject::invokeMethod(this, [this] { publish(); }); });
    m_fake->m_stats.messages = before + 1;
    QTest::qWait(int(DispatchBoard::MaxAgeMs) + 50);
    ClientThread client(path());
    auto replies = client.run({R"({"id":1,"cmd":"stats"})"_ba});
    // This loop is stuck until the reply is in: the reader waited its
    // MaxWaitMs for a picture that did not come, and took the older one.
    QCOMPARE(replies.wait_for(20s), std::future_status::ready);
    QCOMPARE(replies.get().value(0)[u"result"_s][u"totals"_s][u"messages"_s].toInteger(), before);
    m_board->setPublishRequest({});
}

QTEST_GUILESS_MAIN(tst_ControlThread)
#include "tst_controlthread.moc"
