// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QStringView>

namespace pepsi {

// -h/--help and -v/--version, which pepsi-dispatch and pepsi-ctl take alike
// (doc/man/): either one ends the parsing, whatever follows it. True, with
// line.action set to Help or Version, when `arg` is one of them.
template<typename CommandLine>
bool takeStandardOption(QStringView arg, CommandLine &line)
{
    if (arg == u"-h" || arg == u"--help")
        line.action = CommandLine::Action::Help;
    else if (arg == u"-v" || arg == u"--version")
        line.action = CommandLine::Action::Version;
    else
        return false;
    return true;
}

} // namespace pepsi
