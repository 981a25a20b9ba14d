// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QAnyStringView>
#include <QString>
#include <QStringList>

namespace pepsi {

// The one refusal of a control request that names a stage the daemon does not
// run: '<command>': unknown stage "<stage>" (stages: <stages>), the name cut
// at 64 characters, "none" when there are no stages. Operators' scripts match
// it (doc/control-protocol.rst), so every command words it alike.
QString unknownStage(QAnyStringView command, const QString &stage, const QStringList &stages);

} // namespace pepsi
