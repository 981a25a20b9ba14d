// SPDX-License-Identifier: AGPL-3.0-or-later
// ControlClient against a scripted fake daemon: the version handshake, a
// protocol mismatch, reconnecting after the daemon goes away, and a new
// `status` when the event sequence shows a gap.
#include "control/protocol.h"
#include "controlclient.h"
#include "fakedaemon.h"

#include <QSignalSpy>
#include <QTest>

using namespace pepsi::console;
using namespace Qt::StringLiterals;
using State = ControlClient::State;

class TestControlClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handshake_data();
    void handshake();
    void reconnectsAfterTheDaemonGoesAway();
    void noDaemonSaysWhyAndKeepsTrying();
    void seqGapFetchesStatus();
    void daemonLines_data();
    void daemonLines();
    void failedRequestIsReported();
    void pendingRequestsFailWithTheConnection();
};

void TestControlClient::handshake_data()
{
    QTest::addColumn<int>("protocol");
    QTest::addColumn<bool>("omitProtocol");
    QTest::addColumn<bool>("admin");
    QTest::addColumn<int>("state");
    QTest::addColumn<QStringList>("commands");
    QTest::addColumn<QString>("error"); // part of lastError(); empty: none

    const QStringList all{u"version"_s, u"subscribe"_s, u"status"_s, u"stages"_s, u"workers"_s};
    QTest::newRow("same protocol, admin") << 1 << false << true << int(State::Connected) << all << QString();
    QTest::newRow("same protocol, not admin") << 1 << false << false << int(State::Connected) << all << QString();
    QTest::newRow("older daemon") << 0 << false << true << int(State::Incompatible) << QStringList{u"version"_s}
                                  << u"The daemon is older than this console"_s;
    QTest::newRow("newer daemon") << 2 << false << true << int(State::Incompatible) << QStringList{u"version"_s}
                                  << u"This console is older than the daemon"_s;
    QTest::newRow("not a control socket") << 1 << true << true << int(State::Incompatible) << QStringList{u"version"_s}
                                          << u"is not a pepsi-dispatch control socket"_s;
}

void TestControlClient::handshake()
{
    QFETCH(int, protocol);
    QFETCH(bool, omitProtocol);
    QFETCH(bool, admin);
    QFETCH(int, state);
    QFETCH(QStringList, commands);
    QFETCH(QString, error);

    // GIVEN a daemon with that version
    FakeDaemon daemon;
    daemon.protocol = protocol;
    daemon.omitProtocol = omitProtocol;
    daemon.admin = admin;
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    QSignalSpy states(&client, &ControlClient::stateChanged);
    QSignalSpy errors(&client, &ControlClient::errorOccurred);

    // WHEN the client connects
    client.start();

    // THEN it asks the version first and goes on only with the same protocol
    QTRY_COMPARE(int(client.state()), state);
    QTRY_COMPARE(daemon.commands(), commands);
    QCOMPARE(daemon.commands().first(), u"version"_s);
    QCOMPARE(client.isAdmin(), state == int(State::Connected) && admin);
    if (error.isEmpty()) {
        QCOMPARE(errors.count(), 0);
    } else {
        QCOMPARE(errors.count(), 1);
        QVERIFY2(client.lastError().contains(error), qPrintable(client.lastError()));
        // and does not hammer the daemon that it cannot talk to
        QTest::qWait(1500);
        QCOMPARE(daemon.count(u"version"_s), 1);
    }
    QCOMPARE(states.first().first().value<State>(), State::Connecting);
}

void TestControlClient::reconnectsAfterTheDaemonGoesAway()
{
    FakeDaemon daemon;
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    client.setReconnectInterval(200);
    client.start();
    QTRY_COMPARE(client.state(), State::Connected);

    // WHEN the daemon goes away
    daemon.goAway();
    // THEN the client says so and keeps trying
    QTRY_COMPARE(client.state(), State::Disconnected);
    QVERIFY2(client.lastError().contains(daemon.path()), qPrintable(client.lastError()));
    QTest::qWait(700);
    QVERIFY(client.state() != State::Connected);

    // WHEN it comes back, THEN the client handshakes and subscribes again by itself
    QSignalSpy versions(&client, &ControlClient::versionReceived);
    QVERIFY(daemon.listen());
    QTRY_COMPARE(client.state(), State::Connected);
    QCOMPARE(versions.count(), 1);
    QTRY_COMPARE(daemon.count(u"version"_s), 2);
    QTRY_COMPARE(daemon.count(u"subscribe"_s), 2);
    QTRY_COMPARE(daemon.count(u"status"_s), 2);
    QVERIFY(client.lastError().isEmpty());
}

void TestControlClient::noDaemonSaysWhyAndKeepsTrying()
{
    FakeDaemon daemon; // not listening: its socket does not exist
    ControlClient client;
    client.setSocketPath(daemon.path());
    client.setReconnectInterval(100);
    QSignalSpy errors(&client, &ControlClient::errorOccurred);
    QSignalSpy states(&client, &ControlClient::stateChanged);
    client.start();
    QTRY_VERIFY(states.count() >= 4); // Connecting, Disconnected, Connecting, Disconnected...
    QVERIFY2(client.lastError().contains(u"no such socket"_s), qPrintable(client.lastError()));
    QCOMPARE(errors.count(), 1); // said once, not once a retry
    QVERIFY(daemon.listen());
    QTRY_COMPARE(client.state(), State::Connected);
}

void TestControlClient::seqGapFetchesStatus()
{
    FakeDaemon daemon;
    daemon.subscribeSeq = 40;
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    QSignalSpy events(&client, &ControlClient::eventReceived);
    client.start();
    QTRY_COMPARE(daemon.count(u"workers"_s), 1);
    QTRY_COMPARE(client.lastSeq(), quint64(40));

    // In sequence: nothing more is asked.
    daemon.pushEvent({{"event"_L1, u"tick"_s}, {"seq"_L1, 41}});
    daemon.pushEvent({{"event"_L1, u"worker_started"_s}, {"seq"_L1, 42}, {"pid"_L1, 7}, {"stage"_L1, u"a"_s}});
    QTRY_COMPARE(events.count(), 2);
    QTest::qWait(100);
    QCOMPARE(daemon.count(u"status"_s), 1);

    // A gap (43..46 lost): a fresh snapshot.
    daemon.pushEvent({{"event"_L1, u"tick"_s}, {"seq"_L1, 47}});
    QTRY_COMPARE(events.count(), 3);
    QTRY_COMPARE(daemon.count(u"status"_s), 2);
    QCOMPARE(client.lastSeq(), quint64(47));
}

// A tick event padded with a field to exactly `length` bytes before its newline.
static QByteArray paddedEvent(qsizetype length)
{
    const QByteArray head = R"({"event":"tick","seq":1,"pad":")"_ba;
    const QByteArray tail = R"("})"_ba;
    return head + QByteArray(length - head.size() - tail.size(), 'x') + tail;
}

// What the daemon writes: a line within the bound is taken; an over-long one
// or one that is not a protocol message is an error, and the client reconnects.
void TestControlClient::daemonLines_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("error"); // empty: accepted

    const qsizetype longest = pepsi::protocol::MaxLine - 1; // and its newline: 64 KiB
    QTest::newRow("a line of exactly 64 KiB with its newline") << paddedEvent(longest) + '\n' << QString();
    QTest::newRow("one byte more, newline in the same write")
        << paddedEvent(longest + 1) + '\n' << u"longer than 65536 bytes"_s;
    QTest::newRow("one byte more, no newline yet") << paddedEvent(longest + 1) << u"longer than 65536 bytes"_s;
    QTest::newRow("not JSON") << "this is not json\n"_ba << u"not a protocol message"_s;
}

void TestControlClient::daemonLines()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, error);

    FakeDaemon daemon;
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    client.setReconnectInterval(100);
    QSignalSpy errors(&client, &ControlClient::errorOccurred);
    QSignalSpy events(&client, &ControlClient::eventReceived);
    client.start();
    QTRY_COMPARE(client.state(), State::Connected);
    daemon.pushRaw(bytes);
    if (error.isEmpty()) {
        QTRY_COMPARE(events.count(), 1);
        QCOMPARE(errors.count(), 0);
        QCOMPARE(daemon.count(u"version"_s), 1);
        return;
    }
    QTRY_COMPARE(errors.count(), 1);
    QVERIFY2(errors.first().first().toString().contains(error), qPrintable(errors.first().first().toString()));
    QCOMPARE(events.count(), 0);
    QTRY_COMPARE(daemon.count(u"version"_s), 2); // it reconnected
    QTRY_COMPARE(client.state(), State::Connected);
}

void TestControlClient::failedRequestIsReported()
{
    FakeDaemon daemon;
    daemon.failing.insert(u"status"_s, u"queue counts: database unreachable"_s);
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    QSignalSpy errors(&client, &ControlClient::errorOccurred);
    client.start();
    QTRY_COMPARE(errors.count(), 1);
    QVERIFY(errors.first().first().toString().contains(u"database unreachable"_s));
    QCOMPARE(client.state(), State::Connected);
}

void TestControlClient::pendingRequestsFailWithTheConnection()
{
    FakeDaemon daemon;
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    client.start();
    QTRY_COMPARE(client.state(), State::Connected);
    QTRY_COMPARE(daemon.count(u"workers"_s), 1);
    QSignalSpy replies(&client, &ControlClient::replied);

    // A request the daemon never answers: it goes away first.
    daemon.goAway();
    const qint64 id = client.send(u"drain"_s, {{"stage"_L1, u"a"_s}});
    QVERIFY(id > 0);
    QTRY_COMPARE(replies.count(), 1);
    QCOMPARE(replies.first().at(0).toLongLong(), id);
    QCOMPARE(replies.first().at(2).toBool(), false);
    QVERIFY(!replies.first().at(4).toString().isEmpty());
    QCOMPARE(client.send(u"drain"_s), qint64(0)); // and nothing goes out while disconnected
}

QTEST_GUILESS_MAIN(TestControlClient)
#include "tst_controlclient.moc"
