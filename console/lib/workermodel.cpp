// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workermodel.h"

#include "control/protocol.h"

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace event = protocol::event;
namespace field = protocol::field;
namespace value = protocol::value;

void WorkerModel::applyWorkers(const QList<WorkerSnapshot> &workers)
{
    QMap<QString, WorkerSnapshot> records;
    for (const WorkerSnapshot &worker : workers)
        records.insert(QString::number(worker.pid), worker);
    replaceAll(records);
}

void WorkerModel::applyEvent(const QJsonObject &event)
{
    const QString name = event.value(field::Event).toString();
    const qint64 pid = event.value(field::Pid).toInteger();
    if (name == event::WorkerStarted) {
        // What the event tells; the next `workers` reply brings the rest.
        WorkerSnapshot worker;
        worker.pid = pid;
        worker.stage = event.value(field::Stage).toString();
        worker.state = WorkerSnapshot::State::Starting;
        put(QString::number(pid), worker);
    } else if (name == event::WorkerExited || name == event::WorkerCrashed || name == event::WorkerKilled) {
        remove(QString::number(pid));
    }
}

QList<qint64> WorkerModel::pids(const QString &stage) const
{
    QList<qint64> out;
    for (const QString &key : keys()) {
        if (stage.isEmpty() || record(key).stage == stage)
            out.append(key.toLongLong());
    }
    return out;
}

QStringList WorkerModel::headers() const
{
    return {tr("PID"),    tr("Stage"),   tr("State"),    tr("Messages"),   tr("Held"),
            tr("Uptime"), tr("Head id"), tr("Head age"), tr("Max runtime")};
}

namespace {

// A duration, or nothing while it is not known (-1; a max runtime of 0).
QVariant duration(qint64 ms, bool known, int role)
{
    if (!known)
        return role == KeyedTableModel::SortRole ? QVariant(qint64(-1)) : QVariant();
    return role == KeyedTableModel::SortRole ? QVariant(ms) : QVariant(formatDuration(ms));
}

} // namespace

QVariant WorkerModel::cell(const QString &, const WorkerSnapshot &worker, int column, int role) const
{
    if (role == Qt::TextAlignmentRole)
        return column == Stage || column == State ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == Held)
        return tr("Messages this worker holds now (its queue, head of line included).");
    if (role == Qt::ToolTipRole && column == HeadAge && highlighted(worker))
        return tr("The watchdog kills this worker when its head-of-line message reaches %1.")
            .arg(formatDuration(worker.maxRuntimeMs));
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (column) {
    case Pid:
        return role == SortRole ? QVariant(worker.pid) : QVariant(QString::number(worker.pid));
    case Stage:
        return worker.stage;
    case State: {
        const QString state = worker.state == WorkerSnapshot::State::Starting ? QString(value::Starting)
            : worker.state == WorkerSnapshot::State::Running                  ? QString(value::Running)
                                                                              : QString(value::Stopping);
        if (role == SortRole)
            return state;
        QString text = worker.state == WorkerSnapshot::State::Starting ? tr("starting")
            : worker.state == WorkerSnapshot::State::Running           ? tr("running")
                                                                       : tr("stopping");
        if (worker.retiring)
            text = tr("%1, retiring").arg(text);
        return text;
    }
    case Messages:
        return worker.messages;
    case Held:
        return worker.heldCount();
    case Uptime:
        return duration(worker.uptimeMs, true, role);
    case HeadId: {
        const qint64 head = worker.headOfLine();
        if (head < 0)
            return {};
        return role == SortRole ? QVariant(head) : QVariant(QString::number(head));
    }
    case HeadAge:
        return duration(worker.headAgeMs, worker.headAgeMs >= 0, role);
    case MaxRuntime:
        return duration(worker.maxRuntimeMs, worker.maxRuntimeMs > 0, role);
    default:
        return {};
    }
}

bool WorkerModel::highlighted(const WorkerSnapshot &worker) const
{
    return worker.headAgeMs >= 0 && worker.maxRuntimeMs > 0
        && double(worker.headAgeMs) >= WarnFraction * double(worker.maxRuntimeMs);
}

} // namespace pepsi::console
