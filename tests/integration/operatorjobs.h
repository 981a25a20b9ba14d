// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// What the tests of the operator's queries share (tst_operatorqueries,
// tst_operatorthread): a job run to its answer, and the request of a page.
#include "model/operatorqueries.h"
#include "result.h"

#include <QObject>
#include <QString>
#include <QTest>
#include <optional>

// Runs one operator job and waits for its answer.
template<typename T, typename Submit>
pepsi::Result<T, QString> await(QObject *context, Submit submit)
{
    std::optional<pepsi::Result<T, QString>> answer;
    submit(context, [&answer](pepsi::Result<T, QString> result) { answer = std::move(result); });
    if (!QTest::qWaitFor([&answer] { return answer.has_value(); }, 20000))
        return QStringLiteral("no answer within 20 s");
    return *answer;
}

// The first page of a stage's rows in a status.
inline pepsi::MessagesRequest pageOf(const QString &stage, const QString &status, int limit = 100)
{
    pepsi::MessagesRequest request;
    request.stage = stage;
    request.status = status;
    request.limit = limit;
    return request;
}
