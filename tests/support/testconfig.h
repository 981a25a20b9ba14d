// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>
#include <QTemporaryDir>

// Writes `text` as `fileName` into `dir` and returns the file's path; empty,
// with a test warning, on failure. The directory and the file are made
// readable by everyone: tests run as root start the daemon, which drops to
// the service account and must still read its configuration.
QString writeTestConfig(const QTemporaryDir &dir, const QString &text,
                        const QString &fileName = QStringLiteral("pepsi.conf"));
