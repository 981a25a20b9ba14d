// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QtGlobal>

// What a worker process is given of ours between fork and exec, and what can
// be told of its stdin from outside it.
namespace pepsi::workerchild {

// In the child, between fork and exec (async-signal-safe calls only): only
// stdin, stdout and stderr stay open, it dies with the dispatcher, SIGPIPE is
// back to its default, and it has a process group of its own.
void prepare();

// Bytes written to the worker's stdin that it has not read yet; -1 when that
// cannot be told.
int unreadInput(qint64 pid);

} // namespace pepsi::workerchild
