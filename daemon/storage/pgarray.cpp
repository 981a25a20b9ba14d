// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/pgarray.h"

namespace pepsi {

QString pgTextArray(const QStringList &values)
{
    QString literal = QStringLiteral("{");
    for (qsizetype i = 0; i < values.size(); ++i) {
        if (i)
            literal += u',';
        const QString &value = values[i];
        if (value.isNull()) {
            literal += QStringLiteral("NULL");
            continue;
        }
        literal += u'"';
        for (QChar c : value) {
            if (c == u'"' || c == u'\\')
                literal += u'\\';
            literal += c;
        }
        literal += u'"';
    }
    literal += u'}';
    return literal;
}

QString pgIntArray(const QList<qint64> &values)
{
    QString literal = QStringLiteral("{");
    for (qsizetype i = 0; i < values.size(); ++i) {
        if (i)
            literal += u',';
        literal += QString::number(values[i]);
    }
    literal += u'}';
    return literal;
}

} // namespace pepsi
