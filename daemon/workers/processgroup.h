// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QtGlobal>

// A worker's process group: the worker leads it (workerchild::prepare), and
// whatever it starts is in it unless it leaves. Signals for the worker go to
// the whole group, so a helper it started (a converter, a shell pipeline)
// goes with it.
namespace pepsi::processgroup {

// In the parent, right after the fork: the same setpgid the child makes, so
// that the group exists from the start, whichever of the two runs first.
void adopt(qint64 leader);

// Sends `signal` to the group `leader` leads. Only for a leader this daemon
// started, either not yet reaped or reaped in the same call chain (see the
// .cpp for why that is safe). False when nothing was signalled.
bool signal(qint64 leader, int signal);

} // namespace pepsi::processgroup
