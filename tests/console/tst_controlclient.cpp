// SPDX-License-Identifier: AGPL-3.0-or-later
// ControlClient against the daemon's real control socket (ControlServer over
// a scripted dispatcher, tests/control): the version handshake, reconnecting
// after the daemon goes away, a new `status` when the event sequence shows a
// gap. What no correct daemon does (another protocol, a line over the limit,
// garbage) is played by the fixture's proxy, between the server and the client.
#include "control/protocol.h"
#include "controlclient.h"
#include "controlfixture.h"

#include <QFile>
#include <QJsonDocument>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pepsi::console;
using namespace Qt::StringLiterals;
using State = ControlClient::State;
namespace cmd = pepsi::protocol::cmd;
namespace field = pepsi::protocol::field;

class TestControlClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handshake_data();
    void handshake();
    void reconnectsAfterTheDaemonGoesAway();
    void noDaemonSaysWhyAndKeepsTrying();
    void wrongSocketIsNamed_data();
    void wrongSocketIsNamed();
    void seqGapFetchesStatus();
    void daemonLines_data();
    void daemonLines();
    void failedRequestIsReported();
    void pendingRequestsFailWithTheConnection();
};

namespace {

// The server's `version` result with its "protocol" replaced (-1: taken out).
std::optional<QByteArray> withProtocol(const QByteArray &line, int protocol)
{
    QJsonObject reply = QJsonDocument::fromJson(line).object();
    QJsonObject result = reply.value(field::Result).toObject();
    if (!result.contains(field::Protocol))
        return line;
    if (protocol < 0)
        result.remove(field::Protocol);
    else
        result.insert(field::Protocol, protocol);
    reply.insert(field::Result, result);
    return QJsonDocument(reply).toJson(QJsonDocument::Compact);
}

} // namespace

void TestControlClient::handshake_data()
{
    QTest::addColumn<int>("protocol"); // what the daemon claims; -1: nothing
    QTest::addColumn<bool>("admin");
    QTest::addColumn<int>("state");
    QTest::addColumn<QStringList>("commands");
    QTest::addColumn<QString>("error"); // part of lastError(); empty: none

    const int ours = pepsi::protocol::Version;
    const QStringList all{cmd::Version, cmd::Subscribe, cmd::Status, cmd::Stages, cmd::Workers};
    const QStringList version{cmd::Version};
    QTest::newRow("same protocol, admin") << ours << true << int(State::Connected) << all << QString();
    QTest::newRow("same protocol, not admin") << ours << false << int(State::Connected) << all << QString();
    QTest::newRow("older daemon") << ours - 1 << true << int(State::Incompatible) << version
                                  << u"The daemon is older than this console"_s;
    QTest::newRow("newer daemon") << ours + 1 << true << int(State::Incompatible) << version
                                  << u"This console is older than the daemon"_s;
    QTest::newRow("not a control socket")
        << -1 << true << int(State::Incompatible) << version << u"is not a pepsi-dispatch control socket"_s;
}

void TestControlClient::handshake()
{
    QFETCH(int, protocol);
    QFETCH(bool, admin);
    QFETCH(int, state);
    QFETCH(QStringList, commands);
    QFETCH(QString, error);

    // GIVEN a daemon with that version
    ControlFixture daemon;
    daemon.setAdmin(admin);
    if (protocol != pepsi::protocol::Version)
        daemon.proxy().rewrite = [protocol](const QByteArray &line) { return withProtocol(line, protocol); };
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
    QCOMPARE(client.isAdmin(), state == int(State::Connected) && admin);
    if (error.isEmpty()) {
        QCOMPARE(errors.count(), 0);
    } else {
        QCOMPARE(errors.count(), 1);
        QVERIFY2(client.lastError().contains(error), qPrintable(client.lastError()));
        // and does not hammer the daemon that it cannot talk to: it hung up and stays away
        QTRY_COMPARE(daemon.server().clientCount(), 0);
        QTest::qWait(1500);
        QCOMPARE(daemon.count(cmd::Version), 1);
    }
    QCOMPARE(states.first().first().value<State>(), State::Connecting);
}

void TestControlClient::reconnectsAfterTheDaemonGoesAway()
{
    ControlFixture daemon;
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    client.setReconnectInterval(200);
    client.start();
    // The whole first handshake has reached the daemon: "Connected" comes
    // with the version reply, before the requests sent after it are read,
    // and a daemon that goes away at that moment never sees them.
    QTRY_COMPARE(daemon.commands().size(), 5);
    QCOMPARE(client.state(), State::Connected);

    // WHEN the daemon goes away
    daemon.goAway();
    // THEN the client says so and keeps trying
    QTRY_COMPARE(client.state(), State::Disconnected);
    QVERIFY2(client.lastError().contains(daemon.path()), qPrintable(client.lastError()));
    QSignalSpy states(&client, &ControlClient::stateChanged);
    QTRY_VERIFY(states.count() >= 4); // Connecting, Disconnected, Connecting, Disconnected...
    QVERIFY(client.state() != State::Connected);

    // WHEN it comes back, THEN the client handshakes and subscribes again by itself
    QSignalSpy versions(&client, &ControlClient::versionReceived);
    daemon.clearRecord();
    QVERIFY(daemon.listen());
    QTRY_COMPARE(client.state(), State::Connected);
    QCOMPARE(versions.count(), 1);
    QTRY_COMPARE(daemon.commands(),
                 (QStringList{cmd::Version, cmd::Subscribe, cmd::Status, cmd::Stages, cmd::Workers}));
    QVERIFY(client.lastError().isEmpty());
}

void TestControlClient::noDaemonSaysWhyAndKeepsTrying()
{
    ControlFixture daemon; // not listening: its socket does not exist
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

void TestControlClient::wrongSocketIsNamed_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("said");
    QTest::newRow("a directory") << u"directory"_s << u"it is a directory, not a socket"_s;
    QTest::newRow("a regular file") << u"file"_s << u"it is a regular file, not a socket"_s;
    // PostgreSQL's socket: our first line is no startup packet; it may say so
    // (no newline) and hangs up.
    QTest::newRow("a peer that hangs up") << u"hangs up"_s
                                          << u"closed the connection before answering 'version': not a "
                                             "pepsi-dispatch control socket"_s;
    QTest::newRow("another protocol") << u"other protocol"_s
                                      << u"is not a pepsi-dispatch control socket: its first line is not ours"_s;
}

void TestControlClient::wrongSocketIsNamed()
{
    QFETCH(QString, kind);
    QFETCH(QString, said);
    QTemporaryDir dir;
    QString path = dir.filePath(u"dispatch.sock"_s);
    QLocalServer server;
    int connections = 0;
    if (kind == "directory"_L1) {
        path = dir.path();
    } else if (kind == "file"_L1) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
    } else {
        QVERIFY(server.listen(path));
        connect(&server, &QLocalServer::newConnection, &server, [&] {
            QLocalSocket *peer = server.nextPendingConnection();
            ++connections;
            connect(peer, &QLocalSocket::readyRead, peer, [peer, kind] {
                peer->readAll();
                if (kind == "hangs up"_L1)
                    peer->write(QByteArray("E\0\0\0\x55SFATAL", 11));
                if (kind == "other protocol"_L1)
                    peer->write("220 mail.example ESMTP ready\r\n"); // a line protocol, not ours
                peer->flush();
                peer->disconnectFromServer();
            });
        });
    }
    ControlClient client;
    client.setSocketPath(path);
    client.setReconnectInterval(50);
    QSignalSpy errors(&client, &ControlClient::errorOccurred);
    client.start();
    QTRY_VERIFY2(client.lastError().contains(said), qPrintable(client.lastError()));
    QVERIFY2(client.lastError().contains(path), qPrintable(client.lastError()));
    // Not every 50 ms: each attempt waits twice as long as the one before.
    QTRY_VERIFY(client.retryInterval() >= 400);
    QVERIFY(client.isBackingOff());
    if (kind != "directory"_L1 && kind != "file"_L1)
        QVERIFY2(connections <= 5, qPrintable(QString::number(connections)));
    QCOMPARE(errors.count(), 1); // said once
    QVERIFY(client.state() != State::Connected);
}

void TestControlClient::seqGapFetchesStatus()
{
    ControlFixture daemon;
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    QSignalSpy events(&client, &ControlClient::eventReceived);
    client.start();
    QTRY_COMPARE(daemon.count(cmd::Workers), 1);
    daemon.publish(u"stage_drained"_s, {{field::Stage, u"enrich"_s}});
    QTRY_COMPARE(events.count(), 1);
    QCOMPARE(client.lastSeq(), quint64(daemon.server().lastSeq()));

    // In sequence: nothing more is asked.
    daemon.publish(u"worker_started"_s, {{field::Pid, 7}, {field::Stage, u"enrich"_s}});
    daemon.publish(u"stage_resumed"_s, {{field::Stage, u"enrich"_s}});
    QTRY_COMPARE(events.count(), 3);
    daemon.publish(u"stage_drained"_s, {{field::Stage, u"score"_s}});
    QTRY_COMPARE(events.count(), 4);
    QCOMPARE(daemon.count(cmd::Status), 1);

    // A gap (four events lost on the way): a fresh snapshot.
    int lost = 0;
    daemon.proxy().rewrite = [&lost](const QByteArray &line) -> std::optional<QByteArray> {
        if (!QJsonDocument::fromJson(line).object().contains(field::Event))
            return line;
        ++lost;
        return std::nullopt;
    };
    for (int i = 0; i < 4; ++i)
        daemon.publish(u"worker_started"_s, {{field::Pid, 100 + i}, {field::Stage, u"enrich"_s}});
    QTRY_COMPARE(lost, 4);
    daemon.proxy().rewrite = nullptr;
    daemon.publish(u"stage_resumed"_s, {{field::Stage, u"score"_s}});
    QTRY_COMPARE(events.count(), 5);
    QTRY_COMPARE(daemon.count(cmd::Status), 2);
    QCOMPARE(daemon.count(cmd::Workers), 2);
    QCOMPARE(client.lastSeq(), quint64(daemon.server().lastSeq()));
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
    QTest::newRow("one byte more, newline in the same write") << paddedEvent(longest + 1) + '\n'
                                                              << u"longer than 65536 bytes"_s;
    QTest::newRow("one byte more, no newline yet") << paddedEvent(longest + 1) << u"longer than 65536 bytes"_s;
    QTest::newRow("not JSON") << "this is not json\n"_ba << u"not a protocol message"_s;
}

void TestControlClient::daemonLines()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, error);

    ControlFixture daemon;
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    client.setReconnectInterval(100);
    QSignalSpy errors(&client, &ControlClient::errorOccurred);
    QSignalSpy events(&client, &ControlClient::eventReceived);
    client.start();
    QTRY_COMPARE(daemon.count(cmd::Workers), 1);
    daemon.proxy().inject(bytes);
    if (error.isEmpty()) {
        QTRY_COMPARE(events.count(), 1);
        QCOMPARE(errors.count(), 0);
        QCOMPARE(daemon.count(cmd::Version), 1);
        return;
    }
    QTRY_COMPARE(errors.count(), 1);
    QVERIFY2(errors.first().first().toString().contains(error), qPrintable(errors.first().first().toString()));
    QCOMPARE(events.count(), 0);
    QTRY_COMPARE(daemon.count(cmd::Version), 2); // it reconnected
    QTRY_COMPARE(client.state(), State::Connected);
}

void TestControlClient::failedRequestIsReported()
{
    ControlFixture daemon;
    // A daemon that refuses `status` (none does today; a future one may).
    daemon.proxy().rewrite = [](const QByteArray &line) -> std::optional<QByteArray> {
        QJsonObject reply = QJsonDocument::fromJson(line).object();
        if (!reply.value(field::Result).toObject().contains(field::Totals))
            return line;
        reply.remove(field::Result);
        reply.insert(field::Ok, false);
        reply.insert(field::Error, u"queue counts: database unreachable"_s);
        return QJsonDocument(reply).toJson(QJsonDocument::Compact);
    };
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    QSignalSpy errors(&client, &ControlClient::errorOccurred);
    client.start();
    QTRY_COMPARE(errors.count(), 1);
    QVERIFY(errors.first().first().toString().contains(u"database unreachable"_s));
    QCOMPARE(client.state(), State::Connected);
}

// Each reply reaches its asker only, once; one whose connection goes finishes with an error.
void TestControlClient::pendingRequestsFailWithTheConnection()
{
    ControlFixture daemon;
    QVERIFY(daemon.listen());
    ControlClient client;
    client.setSocketPath(daemon.path());
    client.start();
    QTRY_COMPARE(client.state(), State::Connected);
    QTRY_COMPARE(daemon.count(cmd::Workers), 1);
    // GIVEN an answer no longer wanted, and two requests after it
    QPointer<ControlReply> dropped = client.send(cmd::Stats);
    QSignalSpy droppedFinished(dropped.data(), &ControlReply::finished);
    dropped->abandon();
    ControlReply *stats = client.send(cmd::Stats);
    ControlReply *queues = client.send(cmd::Queues);
    QSignalSpy statsFinished(stats, &ControlReply::finished);
    // WHEN the daemon answers them, in order
    QTRY_VERIFY(queues->isFinished());
    // THEN each asker has its own answer, once; the dropped one reached no one
    QCOMPARE(statsFinished.count(), 1);
    QVERIFY(stats->isOk() && stats->result().toObject().contains(field::Totals));
    QVERIFY(queues->isOk() && queues->result().toObject().contains(field::At));
    QCOMPARE(queues->command(), QString(cmd::Queues));
    QCOMPARE(droppedFinished.count(), 0);
    QTRY_VERIFY(dropped.isNull());

    // A request the daemon never answers: it goes away first.
    daemon.goAway();
    ControlReply *reply = client.send(cmd::Drain, {{field::Stage, u"enrich"_s}});
    QVERIFY(reply);
    QSignalSpy finished(reply, &ControlReply::finished);
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(reply->isFinished());
    QCOMPARE(reply->isOk(), false);
    QVERIFY(!reply->errorString().isEmpty());
    QCOMPARE(reply->command(), QString(cmd::Drain));
    reply->deleteLater();
    QCOMPARE(client.send(cmd::Drain), nullptr); // and nothing goes out while disconnected
}

QTEST_GUILESS_MAIN(TestControlClient)
#include "tst_controlclient.moc"
