// SPDX-License-Identifier: AGPL-3.0-or-later
// DispatchPort's calls from the control thread's place (another thread) to a
// fake dispatcher whose loop is this test's main thread: the fake acts on its
// own thread, the answer comes back on the asker's, and not at all once the
// asker is gone; on the loop's own thread both run at once.
#include "fakedispatch.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_DispatchPort : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void answersOnTheAskersThread();
    void anAskerGoneHearsNothing();
    void onTheLoopsOwnThreadAtOnce();

private:
    // Runs `call` on the asker's thread and waits for it.
    void onAskerThread(const std::function<void()> &call)
    {
        QMetaObject::invokeMethod(m_asker, call, Qt::BlockingQueuedConnection);
    }

    FakeDispatch m_fake;
    QThread m_thread;
    QObject *m_asker = nullptr; // lives on m_thread
};

void tst_DispatchPort::init()
{
    m_fake.m_calls.clear();
    m_fake.m_queueQueries = 0;
    m_asker = new QObject;
    m_asker->moveToThread(&m_thread);
    m_thread.start();
}

void tst_DispatchPort::cleanup()
{
    if (m_asker)
        onAskerThread([this] { delete std::exchange(m_asker, nullptr); });
    m_thread.quit();
    m_thread.wait();
}

void tst_DispatchPort::answersOnTheAskersThread()
{
    std::atomic<QThread *> answeredOn{nullptr};
    std::atomic<bool> drained{false};
    onAskerThread([&] {
        m_fake.drain(u"enrich"_s, 7, m_asker, [&](const Result<bool, QString> &done) {
            drained = bool(done);
            answeredOn = QThread::currentThread();
        });
    });
    // The fake acts once this thread, its loop, runs.
    QTRY_VERIFY(answeredOn.load() != nullptr);
    QCOMPARE(answeredOn.load(), &m_thread);
    QVERIFY(drained);
    QCOMPARE(m_fake.m_calls, QStringList{u"drain enrich 7"_s});
}

void tst_DispatchPort::anAskerGoneHearsNothing()
{
    m_fake.m_deferAnswers = true;
    std::atomic<bool> answered{false};
    QObject *gone = nullptr;
    RequeueRequest request;
    request.stage = u"enrich"_s;
    request.status = u"failed"_s;
    onAskerThread([&] {
        gone = new QObject; // on the asker's thread
        m_fake.requeued(request, RequeueOutcome{2, false}, 7, gone,
                        [&](const Result<bool, QString> &) { answered = true; });
    });
    QTRY_COMPARE(m_fake.m_deferred.size(), 1);
    onAskerThread([gone] { delete gone; });
    m_fake.releaseAnswers();
    m_fake.m_deferAnswers = false;
    // Whatever was on its way to the asker's thread has arrived by now.
    onAskerThread([] {});
    QVERIFY(!answered);
    QCOMPARE(m_fake.m_calls.size(), 1);
}

void tst_DispatchPort::onTheLoopsOwnThreadAtOnce()
{
    bool answered = false;
    m_fake.reload(0, this, [&answered](const Result<ReloadSnapshot, QString> &reloaded) {
        answered = true;
        QCOMPARE(reloaded.value().stages, (QStringList{u"enrich"_s, u"score"_s}));
    });
    QVERIFY(answered);
    QCOMPARE(m_fake.m_calls, QStringList{u"reload 0"_s});
}

QTEST_GUILESS_MAIN(tst_DispatchPort)
#include "tst_dispatchport.moc"
