// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QtGlobal>

// What a worker process is given of ours between fork and exec, and what can
// be told of its stdin from outside it.
namespace pepsi::workerchild {

// In the child, between fork and exec (async-signal-safe calls only): only
// stdin, stdout and stderr stay open, it dies with the dispatcher, SIGPIPE is
// back to its default, it has a process group of its own, and the limit of
// open files the dispatcher was started with.
void prepare();

// Raises this process's soft limit of open files to its hard one: each worker
// costs the dispatcher about four descriptors, so a few hundred workers pass
// systemd's default soft limit of 1024. Workers get the old soft limit back in
// prepare(), as systemd advises: a program may still use select(), which
// fails beyond descriptor 1023. Returns the old soft limit, or -1 when it
// was already the hard one or cannot be raised.
qint64 raiseOpenFileLimit();

// Bytes written to the worker's stdin that it has not read yet; -1 when that
// cannot be told.
int unreadInput(qint64 pid);

} // namespace pepsi::workerchild
