// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "protocol/statusline.h"

#include <QList>
#include <QString>

namespace pepsi {

// How one message's run at a stage ended, as the pool saw it; the statistics
// are built from these alone.
struct RunReport
{
    enum class Result { Succeeded, Failed, TriedLater, TimedOut, Crashed };

    QString stage;
    Result result = Result::Succeeded;
    bool heldMessage = true; // false: a worker crashed holding nothing
    qint64 busyUsec = 0;     // from when the message reached the head of the worker's line
    QList<FusedRun> fused;   // successor stages the worker ran in the same pass
    QString reason;          // Failed, TimedOut, Crashed holding one: its state.dispatch_error
};

} // namespace pepsi
