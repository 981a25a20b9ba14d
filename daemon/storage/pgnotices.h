// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

class QSqlDatabase;

namespace pepsi {

// What PostgreSQL says on a connection outside a statement's result (a
// WARNING or NOTICE a statement raised, the FATAL of a session the server
// ends) goes to the daemon's log, category pepsi.dispatch.store, one line
// each: a WARNING (or worse) as a warning, a NOTICE or INFO as info, LOG and
// DEBUG as debug. Without this libpq writes it to stderr as it came, outside
// the log's format (Qt's QPSQL driver installs nothing of its own).
// Call it on every connection the daemon opens, right after it is open.
void routeNoticesToLog(const QSqlDatabase &db);

} // namespace pepsi
