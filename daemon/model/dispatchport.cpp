// SPDX-License-Identifier: AGPL-3.0-or-later
#include "model/dispatchport.h"

namespace pepsi {

template<typename T, typename Act>
void DispatchPort::post(QObject *asker, Answer<T> answer, Act act)
{
    // Queued from another thread; at once on the loop's own (a test's fake).
    QMetaObject::invokeMethod(this, [act = std::move(act), back = answerOn(asker, std::move(answer))] { act(back); });
}

void DispatchPort::reload(uint uid, QObject *asker, Answer<ReloadSnapshot> answer)
{
    post(asker, std::move(answer), [this, uid](const Answer<ReloadSnapshot> &back) { reloadNow(uid, back); });
}

void DispatchPort::drain(const QString &stage, uint uid, QObject *asker, Answer<bool> answer)
{
    post(asker, std::move(answer),
         [this, stage, uid](const Answer<bool> &back) { setDrained(stage, true, uid, back); });
}

void DispatchPort::resume(const QString &stage, uint uid, QObject *asker, Answer<bool> answer)
{
    post(asker, std::move(answer),
         [this, stage, uid](const Answer<bool> &back) { setDrained(stage, false, uid, back); });
}

void DispatchPort::requeued(const RequeueRequest &request, const RequeueOutcome &outcome, uint uid, QObject *asker,
                            Answer<bool> answer)
{
    post(asker, std::move(answer),
         [this, request, outcome, uid](const Answer<bool> &back) { rowsRequeued(request, outcome, uid, back); });
}

void DispatchPort::set(const OverlaySetting &setting, uint uid, QObject *asker, Answer<bool> answer)
{
    post(asker, std::move(answer),
         [this, setting, uid](const Answer<bool> &back) { writeSetting(setting, uid, back); });
}

} // namespace pepsi
