// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/messagecodec.h"

#include "control/codecvalues.h"
#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace pepsi::protocol {

using namespace codec;

QJsonObject toJson(const MessageRow &row)
{
    return {
        {field::Id, double(row.id)},
        {field::Stage, row.stage},
        {field::Status, row.status},
        {field::Claims, double(row.claims)},
        {field::Updated, timeToJson(row.updated)},
        {field::Reason, textOrNull(row.reason)},
    };
}

MessageRow messageRowFromJson(const QJsonObject &object)
{
    MessageRow row;
    row.id = object.value(field::Id).toInteger();
    row.stage = object.value(field::Stage).toString();
    row.status = object.value(field::Status).toString();
    row.claims = object.value(field::Claims).toInteger();
    row.updated = timeFromJson(object.value(field::Updated));
    row.reason = object.value(field::Reason).toString();
    return row;
}

QJsonObject toJson(const MessagePage &page)
{
    if (page.byReason) {
        QJsonArray reasons;
        for (const ReasonCount &each : page.reasons)
            reasons.append(QJsonObject{{field::Reason, textOrNull(each.reason)},
                                       {field::Count, double(each.count)},
                                       {field::Oldest, timeToJson(each.oldest)},
                                       {field::Newest, timeToJson(each.newest)}});
        return {{field::Reasons, reasons}, {field::More, page.moreReasons}, {field::Total, double(page.reasonsTotal)}};
    }
    QJsonArray rows;
    for (const MessageRow &row : page.rows)
        rows.append(toJson(row));
    return {{field::Messages, rows}, {field::NextAfterId, optionalNumber(page.nextAfterId)}};
}

MessagePage messagePageFromJson(const QJsonObject &object)
{
    MessagePage page;
    if (object.contains(field::Reasons)) {
        page.byReason = true;
        for (const QJsonValue each : object.value(field::Reasons).toArray()) {
            const QJsonObject reason = each.toObject();
            page.reasons.append(
                ReasonCount{reason.value(field::Reason).toString(), reason.value(field::Count).toInteger(),
                            timeFromJson(reason.value(field::Oldest)), timeFromJson(reason.value(field::Newest))});
        }
        page.moreReasons = object.value(field::More).toBool();
        // A daemon older than "total" counted only the listed reasons.
        if (object.contains(field::Total)) {
            page.reasonsTotal = object.value(field::Total).toInteger();
        } else {
            for (const ReasonCount &each : page.reasons)
                page.reasonsTotal += each.count;
        }
        return page;
    }
    const QJsonArray rows = object.value(field::Messages).toArray();
    for (const QJsonValue each : rows)
        page.rows.append(messageRowFromJson(each.toObject()));
    page.nextAfterId = numberOrNothing(object.value(field::NextAfterId));
    return page;
}

QJsonObject toJson(const MessageDetail &detail)
{
    QJsonObject object = toJson(detail.row);
    object.insert(field::Created, timeToJson(detail.created));
    object.insert(field::Timeout, detail.timeout ? timeToJson(*detail.timeout) : QJsonValue(QJsonValue::Null));
    const QJsonDocument whole = detail.truncated ? QJsonDocument() : QJsonDocument::fromJson(detail.state);
    if (whole.isObject())
        object.insert(field::State, whole.object());
    else
        object.insert(field::State, QString::fromUtf8(detail.state));
    object.insert(field::Truncated, detail.truncated);
    return object;
}

MessageDetail messageDetailFromJson(const QJsonObject &object)
{
    MessageDetail detail;
    detail.row = messageRowFromJson(object);
    detail.created = timeFromJson(object.value(field::Created));
    if (const QDateTime timeout = timeFromJson(object.value(field::Timeout)); timeout.isValid())
        detail.timeout = timeout;
    const QJsonValue state = object.value(field::State);
    detail.state =
        state.isObject() ? QJsonDocument(state.toObject()).toJson(QJsonDocument::Compact) : state.toString().toUtf8();
    detail.truncated = object.value(field::Truncated).toBool();
    return detail;
}

} // namespace pepsi::protocol
