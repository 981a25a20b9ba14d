// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonValue>
#include <QList>
#include <QStringList>

namespace pepsi::stagekit {

// Changes to a row's `state` (jsonb) made in the same UPDATE as a status move,
// so they commit together with it. Paths name nested keys ({"runs", "enrich"}
// is state.runs.enrich); a missing or non-object parent on the way becomes an
// object. Operations apply in the order they were added.
//
// Values travel as bound parameters; only the shape (kinds and path depths)
// shapes the SQL text, so one prepared statement serves every update of a shape.
class StateUpdate
{
public:
    // state.<path> = value
    StateUpdate &set(const QStringList &path, const QJsonValue &value);
    // state.<path> = (state.<path> when it is a number, else 0) + by
    StateUpdate &increment(const QStringList &path, qint64 by = 1);

    bool isEmpty() const { return m_ops.isEmpty(); }

    // For the kit: the SQL expression computing the new state from the row's
    // `state` column, numbering its parameters from firstParameter, and the
    // parameter values in that order (text form, as libpq sends them).
    // Parameter n is written prefix + n: "$5", or "m.p5" for a column that
    // carries it (MoveBatch: one row per message).
    QByteArray sqlExpression(int firstParameter, QByteArrayView prefix = "$") const;
    QList<QByteArray> parameters() const;

private:
    enum class Kind { Set, Increment };
    struct Op
    {
        Kind kind;
        QStringList path;
        QByteArray value; // jsonb text for Set, a decimal for Increment
    };
    QList<Op> m_ops;
};

// A text[] literal for libpq: {"a","b\"c"}
QByteArray textArrayLiteral(const QStringList &items);
QByteArray textArrayLiteral(const QList<QByteArray> &items);

} // namespace pepsi::stagekit
