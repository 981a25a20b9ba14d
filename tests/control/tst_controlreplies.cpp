// SPDX-License-Identifier: AGPL-3.0-or-later
// What one reply of the control socket is made of, against a fake dispatcher
// through a real QLocalSocket: the pieces of one moment, never two.
#include "control/controlserver.h"
#include "controltestclient.h"
#include "fakedispatch.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace pepsi;
using namespace Qt::StringLiterals;

class tst_ControlReplies : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void oneMomentPerReply_data();
    void oneMomentPerReply();

private:
    QString path() const { return m_dir->filePath(u"dispatch.sock"_s); }
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeDispatch> m_fake;
    std::unique_ptr<ControlServer> m_server;
};

void tst_ControlReplies::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_fake = std::make_unique<FakeDispatch>();
    m_server = std::make_unique<ControlServer>(*m_fake, *m_fake);
    const auto error = m_server->listen(path());
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
}

void tst_ControlReplies::cleanup()
{
    m_server.reset();
    m_fake.reset();
    m_dir.reset();
}

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
    int moment = 0;
    FakeDispatch &fake = *m_fake;
    fake.m_betweenReads = [&fake, &moment] {
        ++moment;
        for (PoolSnapshot &pool : fake.m_pools)
            pool.workers = moment;
        fake.m_stats.claimed = moment;
        fake.m_drained = {moment % 2 ? u"enrich"_s : u"score"_s};
    };
    ControlTestClient client;
    QVERIFY(client.connectTo(path()));
    const QJsonObject reply = client.request(request);
    QVERIFY2(reply.value(u"ok"_s).toBool(), qPrintable(reply.value(u"error"_s).toString()));
    QVERIFY(moment > 0);
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

QTEST_GUILESS_MAIN(tst_ControlReplies)
#include "tst_controlreplies.moc"
