// SPDX-License-Identifier: AGPL-3.0-or-later
#include "eventlogmodel.h"

#include "control/protocol.h"

#include "eventtext.h"
#include "keyedtablemodel.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QFont>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace event = protocol::event;
namespace field = protocol::field;

namespace {
const auto ArrivalField = "_arrival"_L1; // ours, not the protocol's
}

EventLogModel::EventLogModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(150);
    connect(&m_timer, &QTimer::timeout, this, &EventLogModel::flush);
}

int EventLogModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int EventLogModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

bool EventLogModel::isProblem(const QString &name)
{
    return name == event::WorkerCrashed || name == event::WorkerKilled || name == event::StartFailed
        || name == event::CooldownEntered || name == event::DatabaseLost || name == event::MessageFailed
        || name == event::StageFailing;
}

QVariant EventLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QJsonObject &event = m_rows.at(index.row());
    const QString name = event.value(field::Event).toString();
    const bool problem = name == EventText::noteEvent() ? event.value("problem"_L1).toBool() : isProblem(name);
    static_assert(int(SortRole) == int(KeyedTableModel::SortRole));
    if (role == SortRole)
        return event.value(ArrivalField).toInteger();
    if (role == KindRole)
        return int(EventText::kindOf(name));
    if (role == ProblemRole)
        return problem;
    if (role == Qt::ForegroundRole)
        return problem ? QVariant(QBrush(QColor(176, 0, 32))) : QVariant();
    // A stage that fails most of its runs stands out from the single failures around it.
    if (name == event::StageFailing && (role == Qt::BackgroundRole || role == Qt::FontRole)) {
        if (role == Qt::BackgroundRole)
            return QBrush(QColor(255, 228, 228));
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Time: {
        const QDateTime time = QDateTime::fromString(event.value(field::Time).toString(), Qt::ISODateWithMs);
        return time.toLocalTime().toString(u"HH:mm:ss.zzz"_s);
    }
    case Event:
        return EventText::title(name);
    case Stage:
        return event.value(field::Stage).toString();
    case Pid: {
        const QJsonValue pid = event.value(field::Pid);
        return pid.isDouble() ? QVariant(pid.toInteger()) : QVariant();
    }
    case Details:
        return EventText::details(event);
    default:
        return {};
    }
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Time:
        return tr("Time");
    case Event:
        return tr("Event");
    case Stage:
        return tr("Stage");
    case Pid:
        return tr("PID");
    case Details:
        return tr("Details");
    default:
        return {};
    }
}

void EventLogModel::applyEvent(const QJsonObject &event)
{
    // A tick a second would drown everything else; the other tabs show it.
    if (event.value(field::Event).toString() == event::Tick)
        return;
    QJsonObject row = event;
    row.insert(ArrivalField, ++m_arrivals);
    m_buffer.append(row);
    if (!m_timer.isActive())
        m_timer.start();
}

void EventLogModel::addNote(const QString &text, bool problem)
{
    m_buffer.append(QJsonObject{{field::Event, EventText::noteEvent()},
                                {field::Time, QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
                                {"text"_L1, text},
                                {"problem"_L1, problem},
                                {ArrivalField, ++m_arrivals}});
    if (!m_timer.isActive())
        m_timer.start();
}

void EventLogModel::flush()
{
    m_timer.stop();
    if (m_buffer.isEmpty())
        return;
    if (m_buffer.size() > MaxRows)
        m_buffer.remove(0, m_buffer.size() - MaxRows);
    const qsizetype overflow = m_rows.size() + m_buffer.size() - MaxRows;
    if (overflow > 0) {
        beginRemoveRows({}, 0, int(overflow) - 1);
        m_rows.remove(0, overflow);
        endRemoveRows();
    }
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(m_buffer.size()) - 1);
    m_rows.append(m_buffer);
    m_buffer.clear();
    endInsertRows();
}

} // namespace pepsi::console
