// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "transport/target.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace pepsi::console {

// The short names under which the console shows its systems, in the
// overview's rows and the System selector (doc/man/pepsi-console.rst,
// "Targets and several systems"); the full target stays in their tooltips
// and in the Connect dialog's history.
class SystemNames
{
public:
    struct System
    {
        transport::Target target;
        QString database; // what its daemon's `version` names; empty until it answered
    };

    // One system's name on its own: the host of an ssh target; for a socket,
    // the database its daemon works on, or the socket's file name until the
    // daemon said.
    static QString shortName(const System &system);

    // A name each, in the same order, no two alike: names that collide take
    // the ssh port when the target gives one, and then, after the first of
    // them, " (2)", " (3)" and so on.
    static QStringList unique(const QList<System> &systems);
};

} // namespace pepsi::console
