// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workermodel.h"

#include "control/protocol.h"

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace event = protocol::event;
namespace field = protocol::field;
namespace value = protocol::value;

void WorkerModel::applyWorkers(const QJsonArray &workers)
{
    QMap<QString, QJsonObject> records;
    for (const QJsonValue value : workers) {
        const QJsonObject worker = value.toObject();
        records.insert(QString::number(worker.value(field::Pid).toInteger()), worker);
    }
    replaceAll(records);
}

void WorkerModel::applyEvent(const QJsonObject &event)
{
    const QString name = event.value(field::Event).toString();
    const QString pid = QString::number(event.value(field::Pid).toInteger());
    if (name == event::WorkerStarted) {
        merge(pid,
              QJsonObject{{field::Pid, event.value(field::Pid)},
                          {field::Stage, event.value(field::Stage)},
                          {field::State, value::Starting},
                          {field::Messages, 0},
                          {field::Held, 0},
                          {field::UptimeMs, 0},
                          {field::HeadId, QJsonValue::Null},
                          {field::HeadAgeMs, QJsonValue::Null}});
    } else if (name == event::WorkerExited || name == event::WorkerCrashed || name == event::WorkerKilled) {
        remove(pid);
    }
}

QList<qint64> WorkerModel::pids(const QString &stage) const
{
    QList<qint64> out;
    for (const QString &key : keys()) {
        if (stage.isEmpty() || record(key).value(field::Stage).toString() == stage)
            out.append(key.toLongLong());
    }
    return out;
}

QStringList WorkerModel::headers() const
{
    return {tr("PID"),    tr("Stage"),   tr("State"),    tr("Messages"),   tr("Held"),
            tr("Uptime"), tr("Head id"), tr("Head age"), tr("Max runtime")};
}

QVariant WorkerModel::cell(const QString &, const QJsonObject &record, int column, int role) const
{
    if (role == Qt::TextAlignmentRole)
        return column == Stage || column == State ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == Held)
        return tr("Messages this worker holds now (its queue, head of line included).");
    if (role == Qt::ToolTipRole && column == HeadAge && highlighted(record))
        return tr("The watchdog kills this worker when its head-of-line message reaches %1.")
            .arg(formatDuration(record.value(field::MaxRuntimeMs).toInteger()));
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const auto duration = [&](QLatin1StringView name) -> QVariant {
        const QJsonValue v = record.value(name);
        if (v.isNull() || v.isUndefined())
            return role == SortRole ? QVariant(qint64(-1)) : QVariant();
        return role == SortRole ? QVariant(v.toInteger()) : QVariant(formatDuration(v.toInteger()));
    };
    switch (column) {
    case Pid:
        return role == SortRole ? QVariant(record.value(field::Pid).toInteger())
                                : QVariant(QString::number(record.value(field::Pid).toInteger()));
    case Stage:
        return record.value(field::Stage).toString();
    case State: {
        const QString state = record.value(field::State).toString();
        if (role == SortRole)
            return state;
        QString text = state == "starting"_L1 ? tr("starting")
            : state == "running"_L1           ? tr("running")
            : state == "stopping"_L1          ? tr("stopping")
                                              : state;
        if (record.value(field::Retiring).toBool())
            text = tr("%1, retiring").arg(text);
        return text;
    }
    case Messages:
        return record.value(field::Messages).toInteger();
    case Held:
        return record.value(field::Held).toInteger();
    case Uptime:
        return duration(field::UptimeMs);
    case HeadId: {
        const QJsonValue v = record.value(field::HeadId);
        if (!v.isDouble())
            return {};
        return role == SortRole ? QVariant(v.toInteger()) : QVariant(QString::number(v.toInteger()));
    }
    case HeadAge:
        return duration(field::HeadAgeMs);
    case MaxRuntime:
        return duration(field::MaxRuntimeMs);
    default:
        return {};
    }
}

bool WorkerModel::highlighted(const QJsonObject &record) const
{
    const QJsonValue age = record.value(field::HeadAgeMs);
    const qint64 max = record.value(field::MaxRuntimeMs).toInteger();
    return age.isDouble() && max > 0 && double(age.toInteger()) >= WarnFraction * double(max);
}

} // namespace pepsi::console
