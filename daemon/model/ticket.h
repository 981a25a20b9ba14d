// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

namespace pepsi {

// A claimed message: its id and the claim token the claim gave it. Every write
// the dispatcher makes to the row matches both (and status running), so a row the
// stage already moved on, or that a later claim took, is never clobbered.
struct Ticket
{
    qint64 id = 0;
    qint32 claim = 0;
    bool operator==(const Ticket &) const = default;
};
using Tickets = QList<Ticket>;

// What the dispatcher writes to a handed-out row that did not succeed.
struct Settlement
{
    enum class Outcome { Requeue, Fail, Timeout, Pause };

    Ticket ticket;
    Outcome outcome = Outcome::Requeue;
    QString reason;     // becomes state.dispatch_error; empty: left as it is
    qint64 pauseMs = 0; // Pause only
};
using Settlements = QList<Settlement>;

} // namespace pepsi

Q_DECLARE_METATYPE(pepsi::Ticket)
