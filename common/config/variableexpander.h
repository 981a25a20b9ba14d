// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configerror.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace pepsi {

class Configuration;

// $VAR, ${VAR} and ${VAR:-default}: [PATHS] first (its values expanded in
// turn), then the environment. As in the shell, the default also replaces a
// variable that is set but empty. A '$' not followed by a name stays literal.
// Configuration::expand() runs one per value.
class VariableExpander
{
public:
    explicit VariableExpander(const Configuration &config)
        : m_config(config)
    { }

    // On failure returns false and sets m_error to the reason.
    bool expand(QStringView raw, QString &out);

    QString error() const { return m_error; }

private:
    // raw[i] is the '$' of "${"; leaves i on the closing '}'.
    bool expandBraced(QStringView raw, qsizetype &i, QString &out);

    bool substitute(const QString &name, const QStringView *defaultText, QString &out);

    // A failure inside a [PATHS] value is reported against the option being
    // read, so say which [PATHS] line really holds the bad text.
    bool fail(const QString &reason, bool withContext = true);

    const Configuration &m_config;
    QStringList m_stack; // lower-case [PATHS] names being expanded, outermost first
    QList<ConfigOrigin> m_stackOrigins;
    QString m_error;
};

} // namespace pepsi
