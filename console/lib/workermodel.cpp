// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workermodel.h"

namespace pepsi::console {

using namespace Qt::StringLiterals;

void WorkerModel::applyWorkers(const QJsonArray &workers)
{
    QMap<QString, QJsonObject> records;
    for (const QJsonValue value : workers) {
        const QJsonObject worker = value.toObject();
        records.insert(QString::number(worker.value("pid"_L1).toInteger()), worker);
    }
    replaceAll(records);
}

void WorkerModel::applyEvent(const QJsonObject &event)
{
    const QString name = event.value("event"_L1).toString();
    const QString pid = QString::number(event.value("pid"_L1).toInteger());
    if (name == "worker_started"_L1) {
        merge(pid,
              QJsonObject{{"pid"_L1, event.value("pid"_L1)},
                          {"stage"_L1, event.value("stage"_L1)},
                          {"state"_L1, u"starting"_s},
                          {"messages"_L1, 0},
                          {"uptime_ms"_L1, 0},
                          {"head_id"_L1, QJsonValue::Null},
                          {"head_age_ms"_L1, QJsonValue::Null}});
    } else if (name == "worker_exited"_L1 || name == "worker_crashed"_L1 || name == "worker_killed"_L1) {
        remove(pid);
    }
}

QList<qint64> WorkerModel::pids(const QString &stage) const
{
    QList<qint64> out;
    for (const QString &key : keys()) {
        if (stage.isEmpty() || record(key).value("stage"_L1).toString() == stage)
            out.append(key.toLongLong());
    }
    return out;
}

QStringList WorkerModel::headers() const
{
    return {tr("PID"),    tr("Stage"),   tr("State"),    tr("Messages"),
            tr("Uptime"), tr("Head id"), tr("Head age"), tr("Max runtime")};
}

QVariant WorkerModel::cell(const QString &, const QJsonObject &record, int column, int role) const
{
    if (role == Qt::TextAlignmentRole)
        return column == Stage || column == State ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == HeadAge && highlighted(record))
        return tr("The watchdog kills this worker when its head-of-line message reaches %1.")
            .arg(formatDuration(record.value("max_runtime_ms"_L1).toInteger()));
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const auto duration = [&](const char *field) -> QVariant {
        const QJsonValue v = record.value(QLatin1String(field));
        if (v.isNull() || v.isUndefined())
            return role == SortRole ? QVariant(qint64(-1)) : QVariant();
        return role == SortRole ? QVariant(v.toInteger()) : QVariant(formatDuration(v.toInteger()));
    };
    switch (column) {
    case Pid:
        return role == SortRole ? QVariant(record.value("pid"_L1).toInteger())
                                : QVariant(QString::number(record.value("pid"_L1).toInteger()));
    case Stage:
        return record.value("stage"_L1).toString();
    case State: {
        const QString state = record.value("state"_L1).toString();
        if (role == SortRole)
            return state;
        QString text = state == "starting"_L1 ? tr("starting")
            : state == "running"_L1           ? tr("running")
            : state == "stopping"_L1          ? tr("stopping")
                                              : state;
        if (record.value("retiring"_L1).toBool())
            text = tr("%1, retiring").arg(text);
        return text;
    }
    case Messages:
        return record.value("messages"_L1).toInteger();
    case Uptime:
        return duration("uptime_ms");
    case HeadId: {
        const QJsonValue v = record.value("head_id"_L1);
        if (!v.isDouble())
            return {};
        return role == SortRole ? QVariant(v.toInteger()) : QVariant(QString::number(v.toInteger()));
    }
    case HeadAge:
        return duration("head_age_ms");
    case MaxRuntime:
        return duration("max_runtime_ms");
    default:
        return {};
    }
}

bool WorkerModel::highlighted(const QJsonObject &record) const
{
    const QJsonValue age = record.value("head_age_ms"_L1);
    const qint64 max = record.value("max_runtime_ms"_L1).toInteger();
    return age.isDouble() && max > 0 && double(age.toInteger()) >= WarnFraction * double(max);
}

} // namespace pepsi::console
