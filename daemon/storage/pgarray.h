// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace pepsi {

// PostgreSQL array literals for binding whole batches as one parameter
// (QPSQL cannot bind a QVariantList). Null strings become NULL elements.
QString pgTextArray(const QStringList &values);
QString pgIntArray(const QList<qint64> &values);

} // namespace pepsi
