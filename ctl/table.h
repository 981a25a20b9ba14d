// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace pepsi::ctl {

// A plain-text table for people, as `supervisorctl status` or PgBouncer's
// SHOW POOLS print one: a header row, columns two spaces apart, numbers
// right-aligned, no trailing blanks.
class Table
{
public:
    explicit Table(QStringList headers);
    // Text columns are left-aligned; all others right-aligned.
    void setTextColumns(const QList<int> &columns) { m_text = columns; }
    void addRow(QStringList cells);
    bool isEmpty() const { return m_rows.isEmpty(); }
    QString render() const;

private:
    QStringList m_headers;
    QList<QStringList> m_rows;
    QList<int> m_text;
};

// 850 -> "850ms", 5400 -> "5.4s", 192000 -> "3m12s", 7500000 -> "2h05m",
// 277200000 -> "3d05h"; "-" for a missing (null or negative) age.
QString formatAge(const QJsonValue &milliseconds);
QString formatAge(qint64 milliseconds);
// Messages per second: "2004.1", "0.3", "0".
QString formatRate(double perSecond);
// An integer field; "-" when absent or null.
QString formatCount(const QJsonValue &value);
// A time of the protocol ("2026-12-02T19:51:47.123Z") in local time, "2026-12-02 20:51:47".
QString formatTime(const QJsonValue &value);
QString formatTime(const QDateTime &when);

} // namespace pepsi::ctl
