// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configuration.h"

#include <QByteArray>
#include <QList>
#include <QString>

// The error of the stage graph the daemon would build from the file `text`
// (named `fileName` in the error) with `overlay` applied, as the daemon
// prints it; "" when it loads.
QString graphError(const QByteArray &text, const QList<pepsi::OverlayRow> &overlay = {},
                   const QString &fileName = QStringLiteral("test.conf"));
