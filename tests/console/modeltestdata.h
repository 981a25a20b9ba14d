// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once
// What the tests of the console's models feed them: snapshot values built
// here, encoded by the daemon's own encoder (control/snapshotcodec.h), sent
// through JSON text and decoded as the console decodes them. A field the
// encoder renames or drops reaches the models as a default, and the tests
// that read it fail.
#include "control/protocol.h"
#include "control/snapshotcodec.h"
#include "keyedtablemodel.h"

#include <QAbstractItemModel>
#include <QJsonArray>
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

// Through text, as on the wire.
inline QJsonObject wire(const QJsonObject &object)
{
    return QJsonDocument::fromJson(QJsonDocument(object).toJson(QJsonDocument::Compact)).object();
}

// A `status` as the daemon encodes it and the console decodes it.
inline pepsi::StatusSnapshot viaWire(const pepsi::StatusSnapshot &status)
{
    return pepsi::protocol::statusFromJson(wire(pepsi::protocol::toJson(status)));
}

inline QList<pepsi::WorkerSnapshot> viaWire(const QList<pepsi::WorkerSnapshot> &workers)
{
    QJsonArray list;
    for (const pepsi::WorkerSnapshot &worker : workers)
        list.append(pepsi::protocol::toJson(worker));
    const QJsonArray text = QJsonDocument::fromJson(QJsonDocument(list).toJson(QJsonDocument::Compact)).array();
    QList<pepsi::WorkerSnapshot> decoded;
    for (const QJsonValue each : text)
        decoded.append(pepsi::protocol::workerFromJson(each.toObject()));
    return decoded;
}

inline pepsi::StagesSnapshot viaWire(const pepsi::StagesSnapshot &stages)
{
    return pepsi::protocol::stagesFromJson(wire(pepsi::protocol::toJson(stages)));
}

// A `tick` event as the daemon sends it (without its time: the console takes its own).
inline QJsonObject tickEvent(const pepsi::TickSnapshot &tick, qint64 seq)
{
    QJsonObject event = pepsi::protocol::toJson(tick);
    event.insert(pepsi::protocol::field::Event, pepsi::protocol::event::Tick);
    event.insert(pepsi::protocol::field::Seq, double(seq));
    return wire(event);
}

// The tick as the console decodes it.
inline pepsi::TickSnapshot viaWire(const pepsi::TickSnapshot &tick)
{
    return pepsi::protocol::tickFromJson(tickEvent(tick, 1));
}

inline pepsi::PoolSnapshot pool(const QString &stage, int workers, int busy, int parallelism, int inFlight,
                                int capacity)
{
    pepsi::PoolSnapshot pool;
    pool.stage = stage;
    pool.workers = workers;
    pool.busy = busy;
    pool.idle = workers - busy;
    pool.parallelism = parallelism;
    pool.queueLimit = 4;
    pool.inFlight = inFlight;
    pool.capacity = capacity;
    return pool;
}

// Two stages as `status` reports them, through the wire.
inline pepsi::StatusSnapshot twoStages()
{
    using namespace Qt::StringLiterals;
    pepsi::StatusSnapshot status;
    status.state = pepsi::Lifecycle::Running;
    pepsi::PoolSnapshot enrich = pool(u"enrich"_s, 4, 3, 4, 9, 16);
    pepsi::PoolSnapshot ingest = pool(u"ingest"_s, 0, 0, 2, 0, 0);
    ingest.cooldownUntil = QDateTime(QDate(2026, 12, 2), QTime(19, 52), Qt::UTC);
    ingest.cooldownReason = u"exited with status 78"_s;
    status.pools = {enrich, ingest};
    status.poolTotals = pepsi::PoolTotals::of(status.pools);
    status.queues = pepsi::QueueCounts{QDateTime(QDate(2026, 12, 2), QTime(19, 51, 47), Qt::UTC), {}};
    status.queues->stages[u"enrich"_s] = pepsi::StageQueue{1200, 9, 3, 12, 0, 5400};
    status.queues->stages[u"ingest"_s] = pepsi::StageQueue{0, 0, 0, 0, 3, std::nullopt};
    status.stats.stages[u"enrich"_s] = pepsi::StageStatsSnapshot{52011, 12, 0, 1, 8123456, 2004.1, 1990.0, 0};
    status.stats.stages[u"ingest"_s] = pepsi::StageStatsSnapshot{};
    return viaWire(status);
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
