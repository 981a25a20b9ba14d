// SPDX-License-Identifier: AGPL-3.0-or-later
#include "model/logcategories.h"

Q_LOGGING_CATEGORY(lcMain, "pepsi.dispatch.main", QtInfoMsg)
Q_LOGGING_CATEGORY(lcWorker, "pepsi.dispatch.worker", QtInfoMsg)
Q_LOGGING_CATEGORY(lcPool, "pepsi.dispatch.pool", QtInfoMsg)
Q_LOGGING_CATEGORY(lcClaim, "pepsi.dispatch.claim", QtInfoMsg)
Q_LOGGING_CATEGORY(lcStore, "pepsi.dispatch.store", QtInfoMsg)
Q_LOGGING_CATEGORY(lcNotify, "pepsi.dispatch.notify", QtInfoMsg)
