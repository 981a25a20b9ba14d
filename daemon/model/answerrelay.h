// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/dispatchview.h"

#include <QObject>
#include <memory>
#include <optional>

namespace pepsi {

// Carries one answer to its asker's thread (answerOn()). Nothing but a
// signal: it receives no events, so it may go on whichever thread answers.
class AnswerSignal : public QObject
{
    Q_OBJECT

Q_SIGNALS:
    void ready();
};

// `answer`, made callable once from any thread: it then runs on `asker`'s
// thread (at once when called there, else queued), and not at all if
// `asker` is gone by then. Made on `asker`'s thread. A connection to `asker`
// is cut under Qt's lock when `asker` is destroyed, which an event posted to
// it from another thread is not: the answering thread never touches an
// asker that may be gone.
template<typename T>
Answer<T> answerOn(QObject *asker, Answer<T> answer)
{
    auto signal = std::make_shared<AnswerSignal>();
    auto result = std::make_shared<std::optional<Result<T, QString>>>();
    QObject::connect(signal.get(), &AnswerSignal::ready, asker, [result, answer = std::move(answer)] {
        if (*result)
            answer(std::move(**result));
    });
    return [signal, result](Result<T, QString> value) {
        *result = std::move(value); // read on the asker's thread once the signal's event is there
        Q_EMIT signal->ready();
    };
}

} // namespace pepsi
