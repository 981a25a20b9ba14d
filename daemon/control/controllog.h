// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QLoggingCategory>

// The control socket's log: connections, refusals, every admin command.
Q_DECLARE_LOGGING_CATEGORY(lcControl)
