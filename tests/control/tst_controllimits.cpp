// SPDX-License-Identifier: AGPL-3.0-or-later
// The control socket's bounds against a fake dispatcher, through real local
// sockets: the line and client limits, a half line, a client that never
// reads while events flow (the socket file: tst_controlsocketfile).
#include "control/controlserver.h"
#include "controltestclient.h"
#include "daemonprocess.h"
#include "directserverfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <memory>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace pepsi;
using namespace Qt::StringLiterals;

namespace {

// This process's resident set, in KiB: the server runs in it.
qint64 rssKiB() { return DaemonProcess::procStatusKiB(QCoreApplication::applicationPid(), u"VmRSS"_s); }

// A client that connects and then never reads a byte: a raw descriptor, so
// that no Qt buffer drains the kernel's on its behalf.
int rawConnect(const QString &path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(path);
    memcpy(address.sun_path, name.constData(), size_t(name.size()));
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace

class tst_ControlLimits : public DirectServerTest
{
    Q_OBJECT

private Q_SLOTS:
    void lineLimit_data();
    void lineLimit();
    void halfLineWaits();
    void clientLimit();
    void laterAnswersKeepTheOrder();
    void halfClosedClientGetsItsReplies();
    void clientGoneBeforeTheAnswer();
    void bigPoolRepliesFit_data();
    void bigPoolRepliesFit();
    void nonReaderIsDropped();
};

// Requests answered off the dispatch loop (the queue counts) and at once
// (version), pipelined in one write: the replies keep the requests' order,
// and the line after a pending one is not even read until it is answered.
void tst_ControlLimits::laterAnswersKeepTheOrder()
{
    m_daemon->dispatch().m_deferAnswers = true;
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    client.sendRaw(R"({"id":1,"cmd":"queues"})"
                   "\n"
                   R"({"id":2,"cmd":"version"})"
                   "\n"
                   R"({"id":3,"cmd":"status"})"
                   "\n");
    QTRY_COMPARE(m_daemon->dispatch().m_deferred.size(), 1);
    // A round trip on another connection: the server has run since, and
    // still asked for no second count.
    ControlTestClient other;
    QVERIFY(other.connectTo(m_daemon->path()));
    QVERIFY(other.request(QJsonObject{{u"cmd"_s, u"version"_s}}).value(u"ok"_s).toBool());
    QCOMPARE(m_daemon->dispatch().m_queueQueries, 1);

    m_daemon->dispatch().releaseAnswers();
    const auto first = client.nextLine();
    QVERIFY(first);
    QCOMPARE(first->value(u"id"_s).toInt(), 1);
    QVERIFY(first->value(u"ok"_s).toBool());
    const auto second = client.nextLine();
    QVERIFY(second);
    QCOMPARE(second->value(u"id"_s).toInt(), 2);
    QTRY_COMPARE(m_daemon->dispatch().m_deferred.size(), 1);
    m_daemon->dispatch().releaseAnswers();
    const auto third = client.nextLine();
    QVERIFY(third);
    QCOMPARE(third->value(u"id"_s).toInt(), 3);
    QVERIFY(third->value(u"result"_s)[u"stages"_s].isObject());
}

// echo '...' | socat: the client half-closes right after its requests; Qt
// closes its side on that EOF, and the replies still come, in order.
void tst_ControlLimits::halfClosedClientGetsItsReplies()
{
    m_daemon->dispatch().m_deferAnswers = true;
    const int fd = rawConnect(m_daemon->path());
    QVERIFY(fd >= 0);
    const QByteArray requests = R"({"id":7,"cmd":"queues"})"
                                "\n"
                                R"({"id":8,"cmd":"version"})"
                                "\n";
    QCOMPARE(::write(fd, requests.constData(), size_t(requests.size())), ssize_t(requests.size()));
    QCOMPARE(::shutdown(fd, SHUT_WR), 0);
    QTRY_COMPARE(m_daemon->dispatch().m_deferred.size(), 1);
    QTRY_COMPARE(m_daemon->server().clientCount(), 1);
    m_daemon->dispatch().releaseAnswers();
    QByteArray received;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            char buffer[4096];
            const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
            if (n > 0)
                received.append(buffer, n);
            return received.count('\n') >= 2;
        }(),
        5000);
    ::close(fd);
    const QList<QByteArray> lines = received.split('\n');
    QCOMPARE(QJsonDocument::fromJson(lines.at(0)).object().value(u"id"_s).toInt(), 7);
    QCOMPARE(QJsonDocument::fromJson(lines.at(1)).object().value(u"id"_s).toInt(), 8);
    QTRY_COMPARE(m_daemon->server().clientCount(), 0);
}

// A client that goes for good while its request is answered: the answer
// finds nobody, and the connection is forgotten.
void tst_ControlLimits::clientGoneBeforeTheAnswer()
{
    m_daemon->dispatch().m_deferAnswers = true;
    {
        ControlTestClient client;
        QVERIFY(client.connectTo(m_daemon->path()));
        client.sendRaw(R"({"id":1,"cmd":"status"})"
                       "\n");
        QTRY_COMPARE(m_daemon->dispatch().m_deferred.size(), 1);
    }
    m_daemon->dispatch().releaseAnswers();
    QTRY_COMPARE(m_daemon->server().clientCount(), 0);
    m_daemon->dispatch().m_deferAnswers = false;
    ControlTestClient next;
    QVERIFY(next.connectTo(m_daemon->path()));
    QVERIFY(next.request(QJsonObject{{u"cmd"_s, u"queues"_s}}).value(u"ok"_s).toBool());
}

// A pool of 64 workers holding 256 ids each, in both stages: the whole
// `workers` reply would pass the line limit, so it is refused with what
// narrows it, and each narrower form fits.
void tst_ControlLimits::bigPoolRepliesFit_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<int>("workers");   // in the reply, when ok
    QTest::addColumn<QString>("error"); // a part of it, when not
    QTest::newRow("every worker with its ids") << QByteArray(R"({"id":1,"cmd":"workers"})") << false << 0
                                               << u"ask for one \"stage\" at a time, or without the ids"_s;
    QTest::newRow("one stage with its ids")
        << QByteArray(R"({"id":1,"cmd":"workers","stage":"score"})") << false << 0
        << u"more than the 65536-byte line limit; ask without the ids (\"ids\": false)"_s;
    QTest::newRow("one stage, no ids") << QByteArray(R"({"id":1,"cmd":"workers","stage":"score","ids":false})") << true
                                       << 64 << QString();
    QTest::newRow("every worker, no ids")
        << QByteArray(R"({"id":1,"cmd":"workers","ids":false})") << true << 128 << QString();
    QTest::newRow("an unknown stage") << QByteArray(R"({"id":1,"cmd":"workers","stage":"nope"})") << false << 0
                                      << u"unknown stage \"nope\" (stages: enrich, score)"_s;
    QTest::newRow("ids not a boolean") << QByteArray(R"({"id":1,"cmd":"workers","ids":0})") << false << 0
                                       << u"\"ids\" must be a boolean"_s;
    QTest::newRow("status of one stage") << QByteArray(R"({"id":1,"cmd":"status","stage":"enrich"})") << true << 1
                                         << QString();
}

void tst_ControlLimits::bigPoolRepliesFit()
{
    QFETCH(QByteArray, request);
    QFETCH(bool, ok);
    QFETCH(int, workers);
    QFETCH(QString, error);
    m_daemon->dispatch().setBusyWorkers(64, 256);
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    client.sendRaw(request + '\n');
    const auto line = client.nextLine();
    QVERIFY(line);
    const QByteArray wire = QJsonDocument(*line).toJson(QJsonDocument::Compact);
    QVERIFY2(wire.size() + 1 <= 64 * 1024, QByteArray::number(wire.size()).constData());
    QCOMPARE(line->value(u"ok"_s).toBool(), ok);
    QCOMPARE(line->value(u"id"_s).toInt(), 1);
    if (!ok) {
        QVERIFY2(line->value(u"error"_s).toString().contains(error), qPrintable(line->value(u"error"_s).toString()));
        return;
    }
    const QJsonValue result = line->value(u"result"_s);
    if (result.isArray()) {
        QCOMPARE(result.toArray().size(), workers);
        for (const QJsonValue worker : result.toArray()) {
            QCOMPARE(worker[u"held"_s].toInt(), 256);
            QCOMPARE(worker.toObject().contains(u"ids"_s), !request.contains("\"ids\":false"));
        }
    } else {
        QCOMPARE(result[u"stages"_s].toObject().size(), workers);
    }
    // The connection stays usable after a refused reply.
    QCOMPARE(client.request(QJsonObject{{u"cmd"_s, u"version"_s}}).value(u"ok"_s).toBool(), true);
}

void tst_ControlLimits::lineLimit_data()
{
    QTest::addColumn<int>("size"); // bytes before the newline
    QTest::addColumn<bool>("newline");
    QTest::addColumn<bool>("closed");
    QTest::newRow("64 KiB with its newline") << 65535 << true << false;
    QTest::newRow("one byte over") << 65536 << true << true;
    QTest::newRow("1 MiB in one line") << 1024 * 1024 << true << true;
    QTest::newRow("64 KiB and no newline yet") << 65536 << false << true;
    QTest::newRow("just under, no newline yet") << 65535 << false << false;
}

void tst_ControlLimits::lineLimit()
{
    QFETCH(int, size);
    QFETCH(bool, newline);
    QFETCH(bool, closed);

    ControlTestClient other;
    QVERIFY(other.connectTo(m_daemon->path()));
    ControlTestClient client;
    QVERIFY(client.connectTo(m_daemon->path()));
    // A valid request padded with spaces up to `size` bytes.
    QByteArray line = R"({"id":"big","cmd":"version"})"_ba;
    line += QByteArray(size - line.size(), ' ');
    client.sendRaw(newline ? line + '\n' : line);
    if (closed && size > 2 * 65536) {
        // Closed while the client still writes: its own failed write may
        // discard the error line before it reads it.
        QVERIFY(client.waitForClosed());
    } else if (closed) {
        const auto last = client.nextLine();
        QVERIFY(last);
        QCOMPARE(last->value(u"ok"_s).toBool(), false);
        QVERIFY2(last->value(u"error"_s).toString().contains(u"longer than 65536 bytes"_s),
                 qPrintable(last->value(u"error"_s).toString()));
        QVERIFY(client.waitForClosed());
    } else if (newline) {
        const auto reply = client.nextLine();
        QVERIFY(reply);
        QCOMPARE(reply->value(u"id"_s).toString(), u"big"_s);
    } else {
        // Everything written, and the server (in this process) has had a
        // request of another client to answer since: it holds the part line.
        QTRY_COMPARE(client.socket().bytesToWrite(), qint64(0));
        QCOMPARE(other.request(R"({"cmd":"version"})"_ba).value(u"ok"_s).toBool(), true);
        QCOMPARE(client.socket().state(), QLocalSocket::ConnectedState);
        QVERIFY(!client.socket().canReadLine());
        // It kept the line whole: the newline completes it.
        client.sendRaw("\n");
        const auto reply = client.nextLine();
        QVERIFY(reply);
        QCOMPARE(reply->value(u"id"_s).toString(), u"big"_s);
    }
    // That one connection only.
    QCOMPARE(other.request(R"({"cmd":"version"})"_ba).value(u"ok"_s).toBool(), true);
    QTRY_COMPARE(m_daemon->server().clientCount(), closed ? 1 : 2);
}

void tst_ControlLimits::halfLineWaits()
{
    ControlTestClient half;
    QVERIFY(half.connectTo(m_daemon->path()));
    half.sendRaw(R"({"id":"h","cmd":"sta)"_ba);
    QTRY_COMPARE(half.socket().bytesToWrite(), qint64(0));
    // Requests of another client answered meanwhile: the server has read the half line.
    ControlTestClient other;
    QVERIFY(other.connectTo(m_daemon->path()));
    for (int i = 0; i < 3; ++i)
        QCOMPARE(other.request(R"({"cmd":"status"})"_ba).value(u"ok"_s).toBool(), true);
    QVERIFY(!half.socket().canReadLine());
    QCOMPARE(half.socket().state(), QLocalSocket::ConnectedState);
    half.sendRaw(R"(ts"})"_ba
                 "\n");
    const auto reply = half.nextLine();
    QVERIFY(reply);
    QCOMPARE(reply->value(u"id"_s).toString(), u"h"_s);
    QCOMPARE(reply->value(u"result"_s)[u"totals"_s][u"stage_runs"_s].toInt(), 360);
}

void tst_ControlLimits::clientLimit()
{
    m_daemon->server().setLimits(ControlLimits{64 * 1024, 3, 1024 * 1024, std::chrono::milliseconds(1000)});
    std::vector<std::unique_ptr<ControlTestClient>> clients;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(std::make_unique<ControlTestClient>());
        QVERIFY(clients.back()->connectTo(m_daemon->path()));
    }
    QTRY_COMPARE(m_daemon->server().clientCount(), 3);
    ControlTestClient fourth;
    QVERIFY(fourth.connectTo(m_daemon->path()));
    const auto refusal = fourth.nextLine();
    QVERIFY(refusal);
    QCOMPARE(refusal->value(u"ok"_s).toBool(), false);
    QVERIFY(refusal->value(u"error"_s).toString().contains(u"too many clients (3)"_s));
    QVERIFY(fourth.waitForClosed());
    QCOMPARE(m_daemon->server().clientCount(), 3);
    for (const auto &client : clients)
        QCOMPARE(client->request(R"({"cmd":"version"})"_ba).value(u"ok"_s).toBool(), true);

    // One leaves: room for another.
    clients.front()->socket().disconnectFromServer();
    QTRY_COMPARE(m_daemon->server().clientCount(), 2);
    ControlTestClient fifth;
    QVERIFY(fifth.connectTo(m_daemon->path()));
    QCOMPARE(fifth.request(R"({"cmd":"version"})"_ba).value(u"ok"_s).toBool(), true);
}

void tst_ControlLimits::nonReaderIsDropped()
{
    const int fd = rawConnect(m_daemon->path());
    QVERIFY(fd >= 0);
    const QByteArray subscribe = R"({"cmd":"subscribe"})"
                                 "\n";
    QCOMPARE(::write(fd, subscribe.constData(), size_t(subscribe.size())), subscribe.size());
    ControlTestClient reader;
    QVERIFY(reader.connectTo(m_daemon->path()));
    QCOMPARE(reader.request(R"({"cmd":"subscribe","events":["worker_crashed"]})"_ba).value(u"ok"_s).toBool(), true);
    QTRY_COMPARE(m_daemon->server().clientCount(), 2);

    // 200,000 events of ~1 KiB (about 200 MiB) while one client never reads.
    const qint64 rssBefore = rssKiB();
    qint64 rssMax = rssBefore;
    const QJsonObject fields{{u"pid"_s, 1}, {u"stage"_s, u"enrich"_s}, {u"reason"_s, QString(1000, u'x')}};
    bool dropped = false;
    int afterDrop = 0;
    for (int i = 0; i < 200000 && afterDrop < 2000; ++i) {
        m_daemon->dispatch().emitEvent(u"worker_exited"_s, fields);
        if (i % 500 == 0) {
            QCoreApplication::processEvents();
            rssMax = std::max(rssMax, rssKiB());
        }
        dropped = dropped || m_daemon->server().clientCount() == 1;
        afterDrop += dropped ? 1 : 0;
    }
    QVERIFY2(dropped, "the client that never reads is still connected");
    qInfo("RSS %lld KiB before, at most %lld KiB while ~%lld MiB of events went out", rssBefore, rssMax,
          qint64(m_daemon->server().lastSeq()) / 1024);
    // The cap is 1 MiB per client; allow the allocator some slack.
    QVERIFY2(rssMax - rssBefore < 16 * 1024, qPrintable(u"RSS grew by %1 KiB"_s.arg(rssMax - rssBefore)));
    // The other client was served throughout and still is; it got no
    // worker_exited (its filter), and a crash it asked for arrives.
    QCOMPARE(reader.request(R"({"cmd":"version"})"_ba).value(u"ok"_s).toBool(), true);
    m_daemon->dispatch().emitEvent(u"worker_crashed"_s, {{u"pid"_s, 77}, {u"stage"_s, u"enrich"_s}});
    const auto crashed = reader.takeEvent(u"worker_crashed"_s);
    QVERIFY(crashed);
    QCOMPARE(crashed->value(u"pid"_s).toInt(), 77);
    for (const QJsonObject &event : std::as_const(reader.events))
        QVERIFY(event.value(u"event"_s).toString() != u"worker_exited"_s);
    ::close(fd);
}

QTEST_GUILESS_MAIN(tst_ControlLimits)
#include "tst_controllimits.moc"
