// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/dispatchmirror.h"

#include "model/dispatchboard.h"

#include <QPointer>

namespace pepsi {

DispatchMirror::DispatchMirror(DispatchView &view, DispatchControl &control, const DispatchBoard &board)
    : m_loopView(view)
    , m_loopControl(control)
    , m_board(board)
    , m_home(std::make_shared<DispatchMirror *>(this))
{
    // Queued: the loop's signals arrive here in the order it emitted them.
    connect(&m_loopView, &DispatchView::happened, this, &DispatchView::happened, Qt::QueuedConnection);
    connect(&m_loopView, &DispatchView::lifecycleChanged, this, &DispatchView::lifecycleChanged, Qt::QueuedConnection);
}

DispatchMirror::~DispatchMirror() = default;

void DispatchMirror::detach() { *m_home = nullptr; }

DaemonInfo DispatchMirror::info() const { return m_board.picture().info; }

StageGraph DispatchMirror::graph() const { return m_board.picture().graph; }

DispatchSettings DispatchMirror::settings() const { return m_board.picture().settings; }

bool DispatchMirror::isDrained(const QString &stage) const { return m_board.picture().isDrained(stage); }

QList<PoolSnapshot> DispatchMirror::pools() const { return m_board.picture().pools; }

QList<WorkerSnapshot> DispatchMirror::workers() const { return m_board.picture().workers; }

StatsSnapshot DispatchMirror::stats() const { return m_board.picture().stats; }

DispatchPicture DispatchMirror::picture() const { return m_board.picture(); }

template<typename T, typename Call>
void DispatchMirror::onLoop(QObject *context, Answer<T> answer, Call call)
{
    auto relay = [home = m_home, asker = QPointer<QObject>(context),
                  answer = std::move(answer)](Result<T, QString> result) {
        // On the loop's thread, where detach() writes `home`.
        if (DispatchMirror *mirror = *home) {
            QMetaObject::invokeMethod(
                mirror,
                [asker, answer, result = std::move(result)] {
                    if (asker) // checked on this thread, where the asker lives
                        answer(result);
                },
                Qt::QueuedConnection);
        }
    };
    DispatchView *view = &m_loopView;
    DispatchControl *control = &m_loopControl;
    QMetaObject::invokeMethod(
        view, [view, control, call = std::move(call), relay = std::move(relay)] { call(*view, *control, relay); },
        Qt::QueuedConnection);
}

void DispatchMirror::queueCounts(QObject *context, Freshness freshness, Answer<QueueCounts> answer)
{
    const auto counts = m_board.counts();
    const qint64 youngEnough = freshness == Freshness::Recent ? RecentCountsMs : FreshCountsMs;
    if (counts && counts->ageMs < youngEnough) {
        if (counts->ageMs >= FreshCountsMs) {
            // Stale while revalidating, as DispatchState does: the next asker gets a newer count.
            onLoop<QueueCounts>(
                this, [](const Result<QueueCounts, QString> &) {},
                [](DispatchView &view, DispatchControl &, const auto &relay) {
                    view.queueCounts(&view, Freshness::Recent, relay);
                });
        }
        return answer(counts->counts);
    }
    onLoop<QueueCounts>(context, std::move(answer),
                        [freshness](DispatchView &view, DispatchControl &, const auto &relay) {
                            view.queueCounts(&view, freshness, relay);
                        });
}

void DispatchMirror::messages(const MessagesRequest &request, QObject *context, Answer<MessagePage> answer)
{
    onLoop<MessagePage>(
        context, std::move(answer),
        [request](DispatchView &view, DispatchControl &, const auto &relay) { view.messages(request, &view, relay); });
}

void DispatchMirror::message(qint64 id, QObject *context, Answer<MessageDetail> answer)
{
    onLoop<MessageDetail>(context, std::move(answer), [id](DispatchView &view, DispatchControl &, const auto &relay) {
        view.message(id, &view, relay);
    });
}

void DispatchMirror::reload(uint uid, QObject *context, Answer<QStringList> answer)
{
    onLoop<QStringList>(
        context, std::move(answer),
        [uid](DispatchView &view, DispatchControl &control, const auto &relay) { control.reload(uid, &view, relay); });
}

void DispatchMirror::drain(const QString &stage, uint uid, QObject *context, Answer<bool> answer)
{
    onLoop<bool>(context, std::move(answer),
                 [stage, uid](DispatchView &view, DispatchControl &control, const auto &relay) {
                     control.drain(stage, uid, &view, relay);
                 });
}

void DispatchMirror::resume(const QString &stage, uint uid, QObject *context, Answer<bool> answer)
{
    onLoop<bool>(context, std::move(answer),
                 [stage, uid](DispatchView &view, DispatchControl &control, const auto &relay) {
                     control.resume(stage, uid, &view, relay);
                 });
}

void DispatchMirror::requeue(const RequeueRequest &request, uint uid, QObject *context, Answer<RequeueOutcome> answer)
{
    onLoop<RequeueOutcome>(context, std::move(answer),
                           [request, uid](DispatchView &view, DispatchControl &control, const auto &relay) {
                               control.requeue(request, uid, &view, relay);
                           });
}

void DispatchMirror::set(const OverlaySetting &setting, uint uid, QObject *context, Answer<bool> answer)
{
    onLoop<bool>(context, std::move(answer),
                 [setting, uid](DispatchView &view, DispatchControl &control, const auto &relay) {
                     control.set(setting, uid, &view, relay);
                 });
}

} // namespace pepsi
