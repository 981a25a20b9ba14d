// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"

#include <QString>
#include <QStringList>

namespace pepsi {

// pepsi-dispatch check: the file and, when the database answers, its overlay,
// read as serve and a reload read them; then the graph, every PROGRAM as the
// USER account, the control socket's directory and the schema version. It
// only reads: no write, no advisory lock. See doc/operations.rst.
class ConfigCheck
{
public:
    explicit ConfigCheck(QString configPath);
    void run();
    const QStringList &found() const { return m_found; }       // for stdout
    const QStringList &problems() const { return m_problems; } // "FILE:LINE: ..." for stderr

private:
    bool readOverlay(const QString &database, const Configuration &file, QList<OverlayRow> *rows);
    void collectGraphProblems(const Configuration &merged);
    void describe(const Configuration &merged);
    void checkPrograms(const Configuration &merged, const QString &user);
    void checkSocketDirectory(const Configuration &merged, const QString &socket, const QString &user);
    QString where(const Configuration &merged, const QString &section, const QString &option) const;

    QString m_path;
    QStringList m_found;
    QStringList m_problems;
};

} // namespace pepsi
