// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>
#include <cstdio>
#include <sys/ioctl.h>
#include <unistd.h>

namespace pepsi::ctl {

// Text to stdout, flushed at once: `pepsi-ctl events | grep …` sees each
// event as it comes.
inline void printOut(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    (void)std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    (void)std::fflush(stdout);
}

// "pepsi-ctl: <message>" on stderr, one line.
inline void printError(const QString &message)
{
    const QByteArray bytes = (QStringLiteral("pepsi-ctl: ") + message + u'\n').toUtf8();
    (void)std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    (void)std::fflush(stderr);
}

// The columns of the terminal on stdout; 0 when stdout is not a terminal
// (a pipe, a file: whatever reads it gets every line whole).
inline int terminalWidth()
{
    winsize size{};
    if (::isatty(STDOUT_FILENO) == 0 || ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0)
        return 0;
    return size.ws_col;
}

} // namespace pepsi::ctl
