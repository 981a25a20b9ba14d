// SPDX-License-Identifier: AGPL-3.0-or-later
#include "throughputmodel.h"

#include <QLocale>

namespace pepsi::console {

using namespace Qt::StringLiterals;

void ThroughputModel::applyStatus(const QJsonObject &status)
{
    const QJsonObject stages = status.value("stages"_L1).toObject();
    QMap<QString, QJsonObject> records;
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it)
        records.insert(it.key(), it.value().toObject().value("stats"_L1).toObject());
    replaceAll(records);
}

void ThroughputModel::applyEvent(const QJsonObject &event)
{
    if (event.value("event"_L1).toString() != "tick"_L1)
        return;
    QDateTime time = QDateTime::fromString(event.value("time"_L1).toString(), Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::currentDateTimeUtc();
    const QDateTime horizon = time.addSecs(-HistorySeconds);
    const QJsonObject stages = event.value("stages"_L1).toObject();
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        const double rate = it.value().toObject().value("rate_10s"_L1).toDouble();
        mergeExisting(it.key(), QJsonObject{{"rate_10s"_L1, rate}});
        QList<Sample> &samples = m_history[it.key()];
        samples.append({time, rate});
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
    return {tr("Stage"),    tr("Rate (10 s)"), tr("Rate (60 s)"), tr("Runs"),
            tr("Failures"), tr("Timeouts"),    tr("Crashes"),     tr("Busy time")};
}

QVariant ThroughputModel::cell(const QString &key, const QJsonObject &record, int column, int role) const
{
    static const char *const fields[] = {nullptr,    "rate_10s", "rate_60s", "runs",
                                         "failures", "timeouts", "crashes",  "busy_usec"};
    if (role == Qt::TextAlignmentRole)
        return column == Stage ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    if (column == Stage)
        return key;
    if (column < 0 || column >= ColumnCount)
        return {};
    const QJsonValue value = record.value(QLatin1String(fields[column]));
    switch (column) {
    case Rate10s:
    case Rate60s:
        return role == SortRole ? QVariant(value.toDouble()) : QVariant(formatRate(value.toDouble()));
    case BusyTime:
        return role == SortRole ? QVariant(value.toInteger()) : QVariant(formatDuration(value.toInteger() / 1000));
    default:
        return value.toInteger();
    }
}

} // namespace pepsi::console
