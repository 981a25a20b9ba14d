// SPDX-License-Identifier: AGPL-3.0-or-later
#include "requesttable.h"

#include "controltestclient.h"
#include "directserverfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// "result.stages.enrich.workers", "result.commands.0.cmd"
QJsonValue at(QJsonValue value, const QString &path)
{
    for (const QString &key : path.split(u'.', Qt::SkipEmptyParts)) {
        bool index = false;
        const int i = key.toInt(&index);
        value = index && value.isArray() ? value.toArray().at(i) : value.toObject().value(key);
    }
    return value;
}

QJsonValue parseValue(const QByteArray &text) { return QJsonDocument::fromJson("[" + text + "]").array().at(0); }

} // namespace

void addRequestColumns()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("expected");
}

void verifyRequest(DirectServerFixture &daemon, const QByteArray &line, bool ok, const QString &path,
                   const QByteArray &expected)
{
    ControlTestClient client;
    QVERIFY(client.connectTo(daemon.path()));
    const QJsonObject reply = client.request(line);
    QVERIFY2(!reply.isEmpty(), "no reply");
    QCOMPARE(reply.value(u"ok"_s).toBool(), ok);
    if (ok) {
        QVERIFY(!reply.contains(u"error"_s));
        QCOMPARE(at(reply, path), parseValue(expected));
    } else {
        QVERIFY(!reply.contains(u"result"_s));
        const QString error = reply.value(u"error"_s).toString();
        QVERIFY2(error.contains(QString::fromUtf8(expected)), qPrintable(error));
    }
    // The id comes back even with an error, and the connection stays usable.
    if (const QJsonDocument sent = QJsonDocument::fromJson(line); sent.isObject() && sent.object().contains(u"id"_s))
        QCOMPARE(reply.value(u"id"_s), sent.object().value(u"id"_s));
    const QJsonObject again = client.request(R"({"id":"next","cmd":"version"})"_ba);
    QCOMPARE(again.value(u"id"_s).toString(), u"next"_s);
    QCOMPARE(again.value(u"ok"_s).toBool(), true);
    QCOMPARE(daemon.server().clientCount(), 1);
}
