// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/failurecodec.h"

#include "control/protocol.h"

namespace pepsi::protocol {

QJsonObject toJson(const MessageFailedEvent &event)
{
    return {{field::Stage, event.stage}, {field::Count, double(event.count)}, {field::Reason, event.reason}};
}

MessageFailedEvent messageFailedFromJson(const QJsonObject &object)
{
    return {object.value(field::Stage).toString(), object.value(field::Count).toInteger(),
            object.value(field::Reason).toString()};
}

QJsonObject toJson(const StageFailureEvent &event)
{
    return {{field::Stage, event.stage}, {field::FailureShare, event.failureShare}};
}

StageFailureEvent stageFailureFromJson(const QJsonObject &object)
{
    return {object.value(field::Stage).toString(), object.value(field::FailureShare).toDouble()};
}

} // namespace pepsi::protocol
