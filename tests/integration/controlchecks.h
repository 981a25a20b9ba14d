// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// Checks shared by the control socket's integration tests.
#include "controltestclient.h"
#include "daemonstart.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

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
