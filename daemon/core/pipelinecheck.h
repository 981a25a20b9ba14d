// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"

#include <QStringList>

namespace pepsi {

class AccountAccess;

// What `pepsi-dispatch check` and the control socket's `reload` both check in
// a configuration (file and overlay merged), each problem as "FILE:LINE: …"
// (or "config_overlay (SECTION, OPTION): …"): every problem of the stage
// graph, not only the first, and every PROGRAM that the workers' account
// cannot find or execute.
class PipelineCheck
{
public:
    static QStringList graphProblems(Configuration merged);
    static QStringList programProblems(const Configuration &merged, const AccountAccess &account);
    // Where an option is, else its section, else the file.
    static QString where(const Configuration &merged, const QString &section, const QString &option);
};

} // namespace pepsi
