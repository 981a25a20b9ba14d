// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace pepsi {

// $VAR, ${VAR} and ${VAR:-default} in a configuration's values: [PATHS] first
// (its values expanded in turn), then the environment. As in the shell, the
// default also replaces a variable that is set but empty. A '$' not followed
// by a name stays literal. Loops in [PATHS] and values that grow past 1 MiB
// are errors.
class VariableExpander
{
public:
    explicit VariableExpander(const Configuration &config);

    // Appends raw, expanded, to out. On failure returns false; error() says why.
    bool expand(QStringView raw, QString &out);
    QString error() const { return m_error; }

private:
    bool expandBraced(QStringView raw, qsizetype &i, QString &out);
    bool substitute(const QString &name, const QStringView *defaultText, QString &out);
    bool fail(const QString &reason, bool withContext = true);

    const Configuration &m_config;
    QStringList m_stack; // lower-case [PATHS] names being expanded, outermost first
    QList<ConfigOrigin> m_stackOrigins;
    QString m_error;
};

} // namespace pepsi
