// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// The daemon's logging categories, pepsi.dispatch.<module>. They sit below
// every module so that storage/, workers/ and control/ log without
// depending on app/, which installs the handler (app/logging.h).

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcMain)
Q_DECLARE_LOGGING_CATEGORY(lcWorker)
Q_DECLARE_LOGGING_CATEGORY(lcPool)
Q_DECLARE_LOGGING_CATEGORY(lcClaim)
Q_DECLARE_LOGGING_CATEGORY(lcStore)
Q_DECLARE_LOGGING_CATEGORY(lcNotify)
