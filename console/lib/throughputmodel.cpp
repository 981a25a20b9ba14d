// SPDX-License-Identifier: AGPL-3.0-or-later
#include "throughputmodel.h"

#include "control/protocol.h"

#include <QLocale>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace event = protocol::event;
namespace field = protocol::field;

void ThroughputModel::applyStatus(const QJsonObject &status)
{
    const QJsonObject stages = status.value(field::Stages).toObject();
    QMap<QString, QJsonObject> records;
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it)
        records.insert(it.key(), it.value().toObject().value(field::Stats).toObject());
    replaceAll(records);
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
    static const QLatin1StringView fields[] = {{},
                                               field::Rate10s,
                                               field::Rate60s,
                                               field::Runs,
                                               field::Failures,
                                               field::Timeouts,
                                               field::Crashes,
                                               field::BusyUsec};
    if (role == Qt::TextAlignmentRole)
        return column == Stage ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
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
    case BusyTime:
        return role == SortRole ? QVariant(value.toInteger()) : QVariant(formatDuration(value.toInteger() / 1000));
    default:
        return value.toInteger();
    }
}

} // namespace pepsi::console
