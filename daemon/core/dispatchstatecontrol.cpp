// SPDX-License-Identifier: AGPL-3.0-or-later
// DispatchState's admin side (DispatchPort): reload, drain, resume and what
// a requeue changed on the dispatch loop, set on the operator thread.
#include "core/dispatchstate.h"

#include "core/dispatcher.h"
#include "model/logcategories.h"
#include "model/unknownstage.h"
#include "storage/operatorthread.h"
#include "workers/workerpool.h"

#include <algorithm>

namespace pepsi {
namespace event = protocol::event;
namespace field = protocol::field;

QString DispatchState::notRunning() const
{
    return QStringLiteral("the dispatcher is not running (%1)").arg(lifecycleName(lifecycle()));
}

void DispatchState::reloadNow(uint uid, Answer<ReloadSnapshot> answer)
{
    Result<ReloadSnapshot, QString> reloaded = reload(uid);
    publishPicture();
    answer(std::move(reloaded));
}

Result<ReloadSnapshot, QString> DispatchState::reload(uint uid)
{
    if (!m_d.isServing())
        return notRunning();
    if (!m_d.isDatabaseUp())
        return QStringLiteral("the database is unreachable; the configuration is read again once it is back");
    qCInfo(lcMain).noquote() << "reload requested on the control socket by uid" << uid;
    return m_d.reloadNow();
}

std::optional<QString> DispatchState::drainOrResume(const QString &stage, bool drained, uint uid)
{
    if (!m_d.isServing())
        return notRunning();
    const WorkerPool *pool = m_d.pool(stage);
    if (!pool)
        return unknownStage(drained ? protocol::cmd::Drain : protocol::cmd::Resume, stage, m_d.graph().names());
    if (pool->isDrained() == drained)
        return std::nullopt;
    m_d.setDrained(stage, drained); // a resumed stage claims at once
    qCInfo(lcMain).noquote() << "stage" << stage << (drained ? "drained" : "resumed") << "on the control socket by uid"
                             << uid;
    emitEvent(drained ? QString(event::StageDrained) : QString(event::StageResumed),
              {{field::Stage, stage}, {field::Uid, double(uid)}});
    return std::nullopt;
}

void DispatchState::setDrained(const QString &stage, bool drained, uint uid, Answer<bool> answer)
{
    const auto error = drainOrResume(stage, drained, uid);
    answer(error ? Result<bool, QString>(*error) : Result<bool, QString>(true));
}

void DispatchState::rowsRequeued(const RequeueRequest &request, const RequeueOutcome &outcome, uint uid,
                                 Answer<bool> answer)
{
    qCInfo(lcMain).noquote() << "stage" << request.stage << "requeued" << outcome.requeued << request.status
                             << "rows on the control socket by uid" << uid << (outcome.more ? "(more match)" : "");
    emitEvent(QString(event::Requeued),
              {{field::Stage, request.stage},
               {field::Status, request.status},
               {field::Count, double(outcome.requeued)},
               {field::Uid, double(uid)}});
    // The dispatcher may have stopped while the statement ran.
    if (outcome.requeued > 0 && m_d.isServing())
        m_d.rowsPending(request.stage);
    answer(true);
}

void DispatchState::writeSetting(const OverlaySetting &setting, uint uid, Answer<bool> answer)
{
    if (!m_d.isServing())
        return answer(notRunning());
    if (!m_d.isDatabaseUp())
        return answer(QStringLiteral("the database is unreachable; config_overlay was not written"));
    ++m_setsUnheard;
    // Logged whatever the asker does meanwhile: the row is written either way.
    m_operator->setOverlay(setting, this, [this, setting, uid, answer](Result<bool, QString> written) {
        if (written && !*written) {
            // No row to remove: nothing was deleted, so no notification comes.
            m_setsUnheard = std::max(0, m_setsUnheard - 1);
            qCInfo(lcMain).noquote() << QStringLiteral("config_overlay (%1, %2) not removed on the control socket by "
                                                       "uid %3: no such row")
                                            .arg(setting.section, setting.option)
                                            .arg(uid);
        } else if (written) {
            const QString change =
                !setting.value ? QStringLiteral("removed") : QStringLiteral("set to ") + *setting.value;
            qCInfo(lcMain).noquote() << QStringLiteral("config_overlay (%1, %2) %3 on the control socket by uid %4")
                                            .arg(setting.section, setting.option, change)
                                            .arg(uid);
        } else {
            // Nothing was written, so no notification comes of it.
            m_setsUnheard = std::max(0, m_setsUnheard - 1);
            qCWarning(lcMain).noquote() << written.error();
        }
        answer(std::move(written));
    });
}

} // namespace pepsi
