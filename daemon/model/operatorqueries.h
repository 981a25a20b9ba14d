// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/dispatchview.h"

class QObject;

namespace pepsi {

// The operator's read queries, which the control thread sends straight to
// the database off the dispatch loop (OperatorThread; tests give fakes),
// answered in the order they were asked. Each answer runs on `asker`'s
// thread, and not at all once `asker` is gone. The request is already
// checked, and the database known to be reachable (DispatchPicture).
class OperatorQueries
{
public:
    virtual ~OperatorQueries() = default;
    // A page of one stage's rows in one status, or their reasons.
    virtual void messages(const MessagesRequest &request, QObject *asker, Answer<MessagePage> answer) = 0;
    // One row; an error naming the id when there is none.
    virtual void message(qint64 id, QObject *asker, Answer<MessageDetail> answer) = 0;
};

} // namespace pepsi
