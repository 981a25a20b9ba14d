// SPDX-License-Identifier: AGPL-3.0-or-later
#include "model/unknownstage.h"

namespace pepsi {

QString unknownStage(QAnyStringView command, const QString &stage, const QStringList &stages)
{
    return QStringLiteral("'%1': unknown stage \"%2\" (stages: %3)")
        .arg(command.toString(), stage.left(64), stages.isEmpty() ? QStringLiteral("none") : stages.join(u", "));
}

} // namespace pepsi
