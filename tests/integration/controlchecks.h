// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// Checks shared by the control socket's integration tests.
#include "controltestclient.h"
#include "daemonstart.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

#include <memory>

// The keys of a JSON object, sorted.
inline QStringList keysOf(const QJsonValue &value)
{
    QStringList keys = value.toObject().keys();
    keys.sort();
    return keys;
}

// Every documented field is there (more may come: the protocol allows it).
inline bool hasAll(const QJsonValue &value, const QStringList &fields, QString *missing)
{
    const QJsonObject object = value.toObject();
    for (const QString &field : fields) {
        if (!object.contains(field)) {
            *missing = field + QStringLiteral(" in ")
                + QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)).left(400);
            return false;
        }
    }
    return true;
}

#define VERIFY_FIELDS(value, ...)                                                                                      \
    do {                                                                                                               \
        QString missing_;                                                                                              \
        QVERIFY2(hasAll(value, QStringList{__VA_ARGS__}, &missing_),                                                   \
                 qPrintable(QStringLiteral("missing ") + missing_));                                                   \
    } while (false)

// The control tests' pipeline: stages a -> b of the fake worker, serving,
// and `client` connected to its socket. False (the daemon's log shown) when
// it did not get ready or the client could not connect.
inline bool startTwoStages(DaemonProcess &daemon, ControlTestClient &client)
{
    daemon.addStage(QStringLiteral("a"), DaemonProcess::fakeWorker(), {{QStringLiteral("NEXT"), QStringLiteral("b")}});
    daemon.addStage(QStringLiteral("b"), DaemonProcess::fakeWorker());
    return startReady(daemon) && client.connectTo(daemon.controlSocket());
}

// A client connected to the daemon's control socket and subscribed to
// `events`: the tests of events see every one from here on. Null, with a
// warning saying which step failed, when it could not connect or the daemon
// refused the subscription.
inline std::unique_ptr<ControlTestClient> subscribedClient(const DaemonProcess &daemon, const QStringList &events)
{
    auto client = std::make_unique<ControlTestClient>();
    if (!client->connectTo(daemon.controlSocket())) {
        qWarning("cannot connect to %s", qPrintable(daemon.controlSocket()));
        return nullptr;
    }
    const QJsonObject reply =
        client->request(QJsonObject{{QStringLiteral("cmd"), QStringLiteral("subscribe")},
                                    {QStringLiteral("events"), QJsonArray::fromStringList(events)}});
    if (!reply.value(QStringLiteral("ok")).toBool()) {
        qWarning("subscribing to %s was refused: %s", qPrintable(events.join(u',')),
                 QJsonDocument(reply).toJson(QJsonDocument::Compact).constData());
        return nullptr;
    }
    return client;
}

// The daemon started until it serves, then a client subscribed to `events`:
// the opening of every test of events. Null, with the daemon's log or a
// warning saying which step failed, when either did not work.
inline std::unique_ptr<ControlTestClient> startSubscribed(DaemonProcess &daemon, const QStringList &events)
{
    if (!startReady(daemon))
        return nullptr;
    return subscribedClient(daemon, events);
}
