// SPDX-License-Identifier: AGPL-3.0-or-later
#include "testconfig.h"

#include <QFile>
#include <QSaveFile>

QString writeTestConfig(const QTemporaryDir &dir, const QString &text, const QString &fileName)
{
    if (!dir.isValid()) {
        qWarning("cannot write %s: the temporary directory is not valid: %s", qPrintable(fileName),
                 qPrintable(dir.errorString()));
        return {};
    }
    constexpr auto readable = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;
    // QTemporaryDir is created 0700.
    QFile::setPermissions(dir.path(), readable | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther);
    const QString path = dir.filePath(fileName);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        qWarning("cannot write %s: %s", qPrintable(path), qPrintable(file.errorString()));
        return {};
    }
    QFile::setPermissions(path, readable);
    return path;
}
