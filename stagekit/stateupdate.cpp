// SPDX-License-Identifier: AGPL-3.0-or-later
#include "stateupdate.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace pepsi::stagekit {

namespace {

QByteArray jsonText(const QJsonValue &value)
{
    // QJsonDocument only writes arrays and objects: wrap, then unwrap "[...]"
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);
}

QByteArray param(QByteArrayView prefix, int n) { return prefix.toByteArray() + QByteArray::number(n); }

// s #> path[1:depth], or s itself for depth 0
QByteArray prefix(const QByteArray &s, const QByteArray &path, int depth)
{
    if (depth == 0)
        return s;
    return s + " #> (" + path + ")[1:" + QByteArray::number(depth) + ']';
}

// jsonb_set(obj(s #> p[1:k]), p[k+1:k+1], <inner>) from the innermost level
// out, so every level references `s` only a fixed number of times.
QByteArray setAt(const QByteArray &s, const QByteArray &path, int depth, const QByteArray &value)
{
    QByteArray inner = value;
    for (int k = depth - 1; k >= 0; --k) {
        QByteArray target = prefix(s, path, k);
        if (k > 0)
            target = "CASE WHEN jsonb_typeof(" + target + ") = 'object' THEN " + target + " ELSE '{}'::jsonb END";
        const QByteArray key = '(' + path + ")[" + QByteArray::number(k + 1) + ':' + QByteArray::number(k + 1) + ']';
        inner = "jsonb_set(" + target + ", " + key + ", " + inner + ", true)";
    }
    return inner;
}

} // namespace

StateUpdate &StateUpdate::set(const QStringList &path, const QJsonValue &value)
{
    Q_ASSERT_X(!path.isEmpty(), "StateUpdate::set", "an empty path would replace the whole state");
    if (!path.isEmpty())
        m_ops.append({Kind::Set, path, jsonText(value)});
    return *this;
}

StateUpdate &StateUpdate::increment(const QStringList &path, qint64 by)
{
    Q_ASSERT_X(!path.isEmpty(), "StateUpdate::increment", "an empty path names no counter");
    if (!path.isEmpty())
        m_ops.append({Kind::Increment, path, QByteArray::number(by)});
    return *this;
}

QByteArray StateUpdate::sqlExpression(int firstParameter, QByteArrayView prefix) const
{
    if (m_ops.isEmpty())
        return QByteArrayLiteral("state");

    // A chain of LATERAL steps, s0 = state, s<i> = op<i>(s<i-1>): nesting the
    // operations instead would repeat each inner one several times.
    QByteArray sql = "(SELECT s" + QByteArray::number(m_ops.size()) + " FROM (SELECT state AS s0) AS t0";
    int n = firstParameter;
    for (int i = 0; i < m_ops.size(); ++i) {
        const Op &op = m_ops.at(i);
        const QByteArray s = 's' + QByteArray::number(i);
        const QByteArray path = param(prefix, n) + "::text[]";
        QByteArray value;
        if (op.kind == Kind::Set) {
            value = param(prefix, n + 1) + "::jsonb";
        } else {
            value = "to_jsonb(coalesce(CASE WHEN jsonb_typeof(" + s + " #> " + path + ") = 'number' THEN (" + s
                + " #>> " + path + ")::numeric END, 0) + " + param(prefix, n + 1) + "::numeric)";
        }
        sql += " CROSS JOIN LATERAL (SELECT " + setAt(s, path, int(op.path.size()), value) + " AS s"
            + QByteArray::number(i + 1) + ") AS t" + QByteArray::number(i + 1);
        n += 2;
    }
    return sql + ')';
}

QList<QByteArray> StateUpdate::parameters() const
{
    QList<QByteArray> values;
    values.reserve(m_ops.size() * 2);
    for (const Op &op : m_ops) {
        values.append(textArrayLiteral(op.path));
        values.append(op.value);
    }
    return values;
}

QByteArray textArrayLiteral(const QStringList &items)
{
    QList<QByteArray> utf8;
    utf8.reserve(items.size());
    for (const QString &item : items)
        utf8.append(item.toUtf8());
    return textArrayLiteral(utf8);
}

QByteArray textArrayLiteral(const QList<QByteArray> &items)
{
    QByteArray out = "{";
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (i > 0)
            out += ',';
        out += '"';
        for (char c : items.at(i)) {
            if (c == '"' || c == '\\')
                out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + '}';
}

} // namespace pepsi::stagekit
