// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once
// What the tests of the console's models feed them: JSON as the daemon sends
// it, and a way to read one cell by the row's key.
#include "keyedtablemodel.h"

#include <QAbstractItemModel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QVariant>

inline QJsonObject json(const char *text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray(text), &error);
    if (!document.isObject())
        qFatal("bad test JSON: %s: %s", qPrintable(error.errorString()), text);
    return document.object();
}

// Two stages as `status` reports them.
inline QJsonObject twoStages()
{
    return json(R"({"state": "running", "stages": {
        "enrich": {"workers": 4, "busy": 3, "idle": 1, "starting": 0, "retiring": 0, "parallelism": 4,
                   "queue_limit": 4, "in_flight": 9, "capacity": 16, "cooldown": false, "drained": false,
                   "queue": {"pending": 1200, "running": 9, "paused": 3, "failed": 12, "timeout": 0,
                             "oldest_pending_age_ms": 5400},
                   "stats": {"runs": 52011, "failures": 12, "timeouts": 0, "crashes": 1, "busy_usec": 8123456,
                             "rate_10s": 2004.1, "rate_60s": 1990.0}},
        "ingest": {"workers": 0, "busy": 0, "idle": 0, "starting": 0, "retiring": 0, "parallelism": 2,
                   "queue_limit": 4, "in_flight": 0, "capacity": 0, "cooldown": true,
                   "cooldown_until": "2026-12-02T19:52:00.000Z", "cooldown_reason": "exited with status 78",
                   "drained": false,
                   "queue": {"pending": 0, "running": 0, "paused": 0, "failed": 0, "timeout": 3,
                             "oldest_pending_age_ms": null},
                   "stats": {"runs": 0, "failures": 0, "timeouts": 0, "crashes": 0, "busy_usec": 0,
                             "rate_10s": 0, "rate_60s": 0}}}})");
}

inline QVariant cellOf(const QAbstractItemModel &model, const QString &key, int column, int role = Qt::DisplayRole)
{
    using namespace Qt::StringLiterals;
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, 0).data(pepsi::console::KeyedTableModel::KeyRole).toString() == key)
            return model.index(row, column).data(role);
    }
    return u"<no row %1>"_s.arg(key);
}
