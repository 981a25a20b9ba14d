// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

// What pepsi-ctl prints for people (without --json): the daemon's result of
// each read command as a table, from the fields of doc/control-protocol.rst.
// Fields a daemon does not send yet (pending_ages, say) leave their columns
// out or show "-"; fields unknown here are ignored.
namespace pepsi::ctl::views {

// One row per stage: workers busy/parallelism, in flight/capacity, pending,
// oldest pending age, rates over 10 s and 60 s, failures, drained/cooldown.
QString status(const QJsonObject &result);
QString workers(const QJsonArray &result);
// Counts per status and, when the daemon gives them, pending rows by age in
// qshape's manner (1s 10s 1m 10m 1h older), with a TOTAL row.
QString queues(const QJsonObject &result);
QString stages(const QJsonObject &result);
QString stats(const QJsonObject &result);
// `messages STAGE`: one row per message with its reason; the next page's
// command when there is one.
QString messages(const QJsonValue &result, const QString &stage);
QString message(const QJsonObject &result);
// `reasons STAGE`: COUNT, OLDEST, NEWEST, REASON, the most frequent first;
// each line cut to `width` characters (a terminal's; 0: whole), and what
// was left off when there were more reasons than the daemon lists. `rows`
// names them when there are none ("failed rows at stage enrich").
QString reasons(const QJsonObject &result, const QString &rows, int width);
// One line per event: its local time, name and fields.
QString eventLine(const QJsonObject &event);

} // namespace pepsi::ctl::views
