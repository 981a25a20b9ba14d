// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// The stage-program kit: everything a stage program needs. See
// doc/stage-programs.rst.
#include "outcome.h"
#include "pgconnection.h"
#include "runworker.h"
#include "stagecontext.h"
#include "stateupdate.h"
