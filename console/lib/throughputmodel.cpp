// SPDX-License-Identifier: AGPL-3.0-or-later
#include "throughputmodel.h"

#include "control/protocol.h"

#include <QLocale>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace event = protocol::event;
namespace field = protocol::field;

namespace {
// Ours, not the protocol's: the failed share of the runs in the snapshots of the failure window.
const auto FailShareField = "_fail_share"_L1;

// The 10-second rate's failed part. The share, not a rate of its own: both
// parts then move with the rate the ticks bring every second, and a burst (a
// requeue into a stage that fails them all) is not drawn as runs that went
// well while the snapshots catch up.
double failedPart(const QJsonObject &stats)
{
    return stats.value(field::Rate10s).toDouble() * stats.value(FailShareField).toDouble();
}

qint64 failedOf(const QJsonObject &stats)
{
    return stats.value(field::Failures).toInteger() + stats.value(field::Timeouts).toInteger()
        + stats.value(field::Crashes).toInteger();
}
} // namespace

void ThroughputModel::applyStatus(const QJsonObject &status)
{
    QDateTime time = QDateTime::fromString(status.value(field::Time).toString(), Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::currentDateTimeUtc();
    const QDateTime horizon = time.addSecs(-FailureWindowSeconds);
    const QJsonObject stages = status.value(field::Stages).toObject();
    QMap<QString, QJsonObject> records;
    QMap<QString, QList<Counts>> counts;
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        QJsonObject stats = it.value().toObject().value(field::Stats).toObject();
        const Counts now{time, stats.value(field::Runs).toInteger(), failedOf(stats)};
        QList<Counts> window = m_counts.value(it.key());
        // Counters that went down: the daemon restarted; its history is not ours.
        if (!window.isEmpty() && (window.last().runs > now.runs || window.last().failed > now.failed))
            window.clear();
        window.append(now);
        // Keep the newest snapshot at or before the horizon: the window spans it.
        while (window.size() > 2 && window.at(1).time <= horizon)
            window.removeFirst();
        const Counts &first = window.first();
        const qint64 failed = now.failed - first.failed;
        const qint64 runs = now.runs - first.runs;
        stats.insert(FailShareField, runs > 0 ? qBound(0.0, double(failed) / double(runs), 1.0) : 0.0);
        counts.insert(it.key(), window);
        records.insert(it.key(), stats);
    }
    m_counts = counts;
    replaceAll(records);
}

double ThroughputModel::failureRate(const QString &stage) const { return failedPart(pending().value(stage)); }

bool ThroughputModel::isFailureShareKnown(const QString &stage) const { return m_counts.value(stage).size() >= 2; }

double ThroughputModel::failureShare(const QString &stage) const
{
    return pending().value(stage).value(FailShareField).toDouble();
}

bool ThroughputModel::isFailing(const QString &stage) const { return highlighted(pending().value(stage)); }

qint64 ThroughputModel::failedInARow(const QString &stage) const
{
    return pending().value(stage).value(field::FailedInARow).toInteger();
}

bool ThroughputModel::highlighted(const QJsonObject &record) const
{
    return record.value(FailShareField).toDouble() >= FailingShare;
}

qint64 ThroughputModel::failedTotal() const
{
    qint64 total = 0;
    for (const QJsonObject &stats : pending())
        total += failedOf(stats);
    return total;
}

void ThroughputModel::applyEvent(const QJsonObject &event)
{
    if (event.value(field::Event).toString() != event::Tick)
        return;
    QDateTime time = QDateTime::fromString(event.value(field::Time).toString(), Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::currentDateTimeUtc();
    const QDateTime horizon = time.addSecs(-HistorySeconds);
    const QJsonObject stages = event.value(field::Stages).toObject();
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        const double rate = it.value().toObject().value(field::Rate10s).toDouble();
        mergeExisting(it.key(), QJsonObject{{field::Rate10s, rate}});
        // The tick's rate counts failed runs too; the last snapshots say how
        // many of them failed. Until two snapshots came that is not known:
        // no sample rather than failures drawn as runs that went well.
        if (!isFailureShareKnown(it.key()))
            continue;
        const double failed = rate * failureShare(it.key());
        QList<Sample> &samples = m_history[it.key()];
        samples.append({time, rate - failed, failed});
        while (!samples.isEmpty() && samples.first().time < horizon)
            samples.removeFirst();
    }
    // A stage gone from the ticks keeps its line until it ages out.
    for (auto it = m_history.begin(); it != m_history.end();) {
        while (!it->isEmpty() && it->first().time < horizon)
            it->removeFirst();
        it = it->isEmpty() ? m_history.erase(it) : std::next(it);
    }
    m_last = time;
    Q_EMIT historyChanged();
}

void ThroughputModel::clearHistory()
{
    m_history.clear();
    m_last = {};
    Q_EMIT historyChanged();
}

QStringList ThroughputModel::headers() const
{
    return {tr("Stage"),    tr("Rate (10 s)"), tr("Failing (10 s)"), tr("Rate (60 s)"), tr("Runs"),
            tr("Failures"), tr("Timeouts"),    tr("Crashes"),        tr("Busy time")};
}

QVariant ThroughputModel::cell(const QString &key, const QJsonObject &record, int column, int role) const
{
    static const QLatin1StringView fields[] = {{},
                                               field::Rate10s,
                                               {},
                                               field::Rate60s,
                                               field::Runs,
                                               field::Failures,
                                               field::Timeouts,
                                               field::Crashes,
                                               field::BusyUsec};
    if (role == Qt::TextAlignmentRole)
        return column == Stage ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == FailRate)
        return tr("The failed part of the 10-second rate: failures, timeouts and crashes made up this share of the "
                  "runs that ended in the last %1 s. Highlighted from %2 %.")
            .arg(FailureWindowSeconds)
            .arg(int(FailingShare * 100));
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    if (column == Stage)
        return key;
    if (column < 0 || column >= ColumnCount)
        return {};
    const QJsonValue value = record.value(fields[column]);
    switch (column) {
    case Rate10s:
    case Rate60s:
        return role == SortRole ? QVariant(value.toDouble()) : QVariant(formatRate(value.toDouble()));
    case FailRate:
        if (role == SortRole)
            return failedPart(record);
        return tr("%1 (%2 %)")
            .arg(formatRate(failedPart(record)))
            .arg(QLocale().toString(100.0 * record.value(FailShareField).toDouble(), 'f', 0));
    case BusyTime:
        return role == SortRole ? QVariant(value.toInteger()) : QVariant(formatDuration(value.toInteger() / 1000));
    default:
        return value.toInteger();
    }
}

} // namespace pepsi::console
