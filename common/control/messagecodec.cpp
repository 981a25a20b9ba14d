// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/messagecodec.h"

#include "control/codecvalues.h"
#include "control/fieldtable.h"
#include "control/protocol.h"
#include "control/snapshotcodec.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace pepsi::protocol {

using namespace codec;

namespace {

constexpr auto messageRowFields = std::tuple{
    Field{field::Id, &MessageRow::id},           Field{field::Stage, &MessageRow::stage},
    Field{field::Status, &MessageRow::status},   Field{field::Claims, &MessageRow::claims},
    Field{field::Updated, &MessageRow::updated}, Field{field::Reason, &MessageRow::reason, EmptyText::Null},
};

constexpr auto reasonCountFields = std::tuple{
    Field{field::Reason, &ReasonCount::reason, EmptyText::Null},
    Field{field::Count, &ReasonCount::count},
    Field{field::Oldest, &ReasonCount::oldest},
    Field{field::Newest, &ReasonCount::newest},
};

QJsonObject reasonToJson(const ReasonCount &each) { return fieldsToJson(each, reasonCountFields); }

qsizetype compactSize(const QJsonObject &object) { return QJsonDocument(object).toJson(QJsonDocument::Compact).size(); }

// How many of `items` (each `itemBytes` long once encoded) fit in `maxBytes`
// as elements of one array, `frameBytes(kept)` being the size of the rest of
// the object around them (the array's brackets included).
template<typename Frame>
qsizetype itemsThatFit(const QList<qsizetype> &itemBytes, qsizetype maxBytes, Frame frameBytes)
{
    qsizetype kept = 0;
    qsizetype bytes = 0; // the items so far, with the commas between them
    for (qsizetype i = 0; i < itemBytes.size(); ++i) {
        bytes += itemBytes.at(i) + (i > 0 ? 1 : 0);
        if (bytes + frameBytes(i + 1) > maxBytes)
            break;
        kept = i + 1;
    }
    return kept;
}

} // namespace

QJsonObject toJson(const MessageRow &row) { return fieldsToJson(row, messageRowFields); }

MessageRow messageRowFromJson(const QJsonObject &object)
{
    return fieldsFromJson<MessageRow>(object, messageRowFields);
}

QJsonArray toJson(const QList<ReasonCount> &reasons) { return listToJson(reasons, reasonToJson); }

MessagePage fittedPage(const MessagePage &page, qsizetype maxBytes)
{
    if (compactSize(toJson(page)) <= maxBytes)
        return page;
    MessagePage fitted = page;
    QList<qsizetype> sizes;
    if (page.byReason) {
        for (const ReasonCount &each : page.reasons)
            sizes.append(compactSize(reasonToJson(each)));
        MessagePage frame = page;
        frame.reasons.clear();
        frame.moreReasons = true;
        const qsizetype frameBytes = compactSize(toJson(frame));
        const qsizetype kept = itemsThatFit(sizes, maxBytes, [frameBytes](qsizetype) { return frameBytes; });
        if (kept == 0)
            return page;
        fitted.reasons.resize(kept);
        fitted.moreReasons = true;
    } else {
        for (const MessageRow &row : page.rows)
            sizes.append(compactSize(toJson(row)));
        // The cursor's digits depend on which row is the last one kept.
        const auto frameBytes = [&page](qsizetype kept) {
            MessagePage frame;
            frame.nextAfterId = page.rows.at(kept - 1).id;
            return compactSize(toJson(frame));
        };
        const qsizetype kept = itemsThatFit(sizes, maxBytes, frameBytes);
        if (kept == 0)
            return page;
        fitted.rows.resize(kept);
        fitted.nextAfterId = fitted.rows.last().id;
    }
    Q_ASSERT(compactSize(toJson(fitted)) <= maxBytes);
    return fitted;
}

QJsonObject toJson(const MessagePage &page)
{
    if (page.byReason)
        return {{field::Reasons, toJson(page.reasons)},
                {field::More, page.moreReasons},
                {field::Total, double(page.reasonsTotal)}};
    return {{field::Messages, listToJson(page.rows, [](const MessageRow &row) { return toJson(row); })},
            {field::NextAfterId, optionalNumber(page.nextAfterId)}};
}

MessagePage messagePageFromJson(const QJsonObject &object)
{
    MessagePage page;
    if (object.contains(field::Reasons)) {
        page.byReason = true;
        page.reasons = listFromJson<ReasonCount>(object.value(field::Reasons), [](const QJsonObject &reason) {
            return fieldsFromJson<ReasonCount>(reason, reasonCountFields);
        });
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
    page.rows = listFromJson<MessageRow>(object.value(field::Messages), messageRowFromJson);
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
