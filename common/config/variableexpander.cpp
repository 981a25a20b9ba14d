// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/variableexpander.h"

#include "config/configuration.h"

namespace pepsi {

namespace {

const QString kPaths = QStringLiteral("paths");

// A runaway [PATHS] (A = $B$B, B = $C$C, ...) doubles per level; stop it long
// before it eats the machine.
constexpr qsizetype kMaxExpandedSize = 1 << 20;

bool isNameChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_';
}

} // namespace

bool VariableExpander::expand(QStringView raw, QString &out)
{
    const qsizetype n = raw.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = raw[i];
        if (c != u'$' || i + 1 == n) {
            out += c;
            continue;
        }
        if (raw[i + 1] == u'{') {
            if (!expandBraced(raw, i, out))
                return false;
        } else if (isNameChar(raw[i + 1])) {
            qsizetype j = i + 1;
            while (j < n && isNameChar(raw[j]))
                ++j;
            if (!substitute(raw.mid(i + 1, j - i - 1).toString(), nullptr, out))
                return false;
            i = j - 1;
        } else {
            out += c;
        }
        if (out.size() > kMaxExpandedSize)
            return fail(QStringLiteral("value longer than %1 characters after expansion").arg(kMaxExpandedSize));
    }
    return true;
}

bool VariableExpander::expandBraced(QStringView raw, qsizetype &i, QString &out)
{
    const qsizetype n = raw.size();
    qsizetype j = i + 2;
    while (j < n && isNameChar(raw[j]))
        ++j;
    const QString name = raw.mid(i + 2, j - i - 2).toString();
    if (j == n)
        return fail(QStringLiteral("unterminated \"${") + name + u'"');
    if (name.isEmpty())
        return fail(QStringLiteral("missing variable name after \"${\""));
    if (raw[j] == u'}') {
        i = j;
        return substitute(name, nullptr, out);
    }
    if (raw[j] != u':' || j + 1 == n || raw[j + 1] != u'-')
        return fail(QStringLiteral("bad variable reference \"${") + name + raw[j]
                    + QStringLiteral("\" (expected \"}\" or \":-\")"));
    // The default may itself hold ${...}: find the brace that closes ours.
    const qsizetype defaultStart = j + 2;
    int depth = 1;
    for (j = defaultStart; j < n; ++j) {
        if (raw[j] == u'{' && j > 0 && raw[j - 1] == u'$')
            ++depth;
        else if (raw[j] == u'}' && --depth == 0)
            break;
    }
    if (j == n)
        return fail(QStringLiteral("unterminated \"${") + name + QStringLiteral(":-\""));
    i = j;
    const QStringView defaultText = raw.mid(defaultStart, j - defaultStart);
    return substitute(name, &defaultText, out);
}

bool VariableExpander::substitute(const QString &name, const QStringView *defaultText, QString &out)
{
    QString value;
    bool found = false;
    if (const Configuration::Entry *e = m_config.entry(kPaths, name)) {
        const QString key = name.toLower();
        const qsizetype loopStart = m_stack.indexOf(key);
        if (loopStart >= 0) {
            QStringList chain;
            for (qsizetype k = loopStart; k < m_stack.size(); ++k)
                chain << u'$' + m_stack[k].toUpper();
            chain << u'$' + key.toUpper();
            return fail(QStringLiteral("variable loop in [PATHS]: ") + chain.join(QStringLiteral(" -> ")), false);
        }
        m_stack.push_back(key);
        m_stackOrigins.push_back(e->origin);
        if (!expand(e->rawValue, value))
            return false;
        m_stack.pop_back();
        m_stackOrigins.pop_back();
        found = true;
    } else {
        const QByteArray envName = name.toLatin1();
        if (qEnvironmentVariableIsSet(envName.constData())) {
            value = qEnvironmentVariable(envName.constData());
            found = true;
        }
    }
    if (defaultText && value.isEmpty())
        return expand(*defaultText, out);
    if (!found)
        return fail(QStringLiteral("undefined variable $") + name);
    out += value;
    return true;
}

bool VariableExpander::fail(const QString &reason, bool withContext)
{
    m_error = reason;
    if (withContext && !m_stack.isEmpty()) {
        m_error += QStringLiteral(" in [PATHS] ") + m_stack.last().toUpper();
        const QString where = m_stackOrigins.last().describe();
        if (!where.isEmpty())
            m_error += QStringLiteral(" (") + where + u')';
    }
    return false;
}

} // namespace pepsi
