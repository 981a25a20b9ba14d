// SPDX-License-Identifier: AGPL-3.0-or-later
#include "serverdurability.h"

#include "benchdatabase.h"

#include <QVariant>

namespace pepsi::bench {

ServerDurability readDurability(BenchDatabase &db)
{
    return {db.scalar(QStringLiteral("SHOW fsync")).toString(),
            db.scalar(QStringLiteral("SHOW synchronous_commit")).toString()};
}

} // namespace pepsi::bench
