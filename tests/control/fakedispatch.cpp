// SPDX-License-Identifier: AGPL-3.0-or-later
#include "fakedispatch.h"

#include "config/configuration.h"
#include "model/answerrelay.h"
#include "samplesnapshots.h"

#include <algorithm>

using namespace pepsi;
using namespace Qt::StringLiterals;

FakeDispatch::FakeDispatch()
{
    m_board.setPublishRequest([this] { m_board.publish(read()); });
    m_info.version = u"0.1.0"_s;
    m_info.pid = 4242;
    m_info.startedAt = QDateTime::currentDateTimeUtc().addSecs(-61);
    m_info.host = u"db1"_s;
    m_info.database = u"pepsi"_s;
    m_info.user = u"pepsi"_s;
    m_info.lifecycle = Lifecycle::Running;

    // Two stages, enrich -> score, through the real parser.
    const auto config = Configuration::parse("[stage-enrich]\nPROGRAM = /usr/lib/pepsi/enrich\nNEXT = score\n"
                                             "[stage-score]\nPROGRAM = /usr/lib/pepsi/score\nPARALLELISM = 2\n",
                                             u"fake.conf"_s);
    m_graph = StageGraph::fromConfiguration(config.value()).value();

    PoolSnapshot score;
    score.stage = u"score"_s;
    score.parallelism = 2;
    score.queueLimit = 4;
    score.capacity = 0;
    score.cooldownUntil = QDateTime::currentDateTimeUtc().addSecs(4);
    score.cooldownReason = u"PROGRAM \"/usr/lib/pepsi/score\" does not exist"_s;
    m_pools = {sampleEnrichPool(), score};
    m_workers = {sampleEnrichWorker()};

    m_stats.since = m_info.startedAt;
    m_stats.claimed = 120;
    m_stats.rounds = 30;
    m_stats.stageRuns = 360;
    m_stats.messages = 119;
    m_stats.rate10s = 6.5;
    m_stats.stages[u"enrich"_s] = StageStatsSnapshot{52, 12, 0, 1, 8123456, 2.5, 2.0, 0};

    m_queues.takenAt = QDateTime::currentDateTimeUtc();
    m_queues.stages[u"enrich"_s] = StageQueue{1200, 9, 3, 12, 0, 5400};
    m_queues.stages[u"score"_s] = StageQueue{0, 0, 0, 0, 2, std::nullopt};
    m_queues.stages[u"enrich"_s].pendingAges = {1000, 150, 40, 10, 0, 0};

    const QDateTime updated = QDateTime::fromString(u"2026-12-02T19:51:47.123Z"_s, Qt::ISODateWithMs);
    for (qint64 id = 101; id <= 105; ++id)
        m_messages.append(MessageRow{id, u"enrich"_s, u"failed"_s, 2, updated, u"status 3: bad input %1"_s.arg(id)});
    m_messages.append(MessageRow{106, u"enrich"_s, u"timeout"_s, 1, updated, {}});
    MessageDetail detail;
    detail.row = m_messages.first();
    detail.created = updated.addSecs(-60);
    detail.state = R"({"dispatch_error": "status 3: bad input 101", "url": "https://example.org/"})"_ba;
    m_messageDetails.insert(101, detail);
}

DispatchPicture FakeDispatch::read() const
{
    if (m_betweenReads)
        m_betweenReads();
    QList<PoolSnapshot> pools = m_pools;
    for (PoolSnapshot &pool : pools)
        pool.drained = m_drained.contains(pool.stage);
    return DispatchPicture{m_info, m_graph, m_settings, pools, m_workers, m_stats, true, true};
}

void FakeDispatch::setBusyWorkers(int perStage, int idsEach)
{
    m_workers.clear();
    for (const QString &stage : {u"enrich"_s, u"score"_s}) {
        for (int w = 0; w < perStage; ++w) {
            WorkerSnapshot worker;
            worker.pid = 100000 + w;
            worker.stage = stage;
            worker.state = WorkerSnapshot::State::Running;
            for (int i = 0; i < idsEach; ++i)
                worker.ids.append(1000000000 + w * idsEach + i);
            m_workers.append(worker);
        }
    }
}

void FakeDispatch::releaseAnswers()
{
    for (const auto &answer : std::exchange(m_deferred, {}))
        answer();
}

void FakeDispatch::queueCounts(Freshness freshness, QObject *asker, Answer<QueueCounts> pending)
{
    ++m_queueQueries;
    Q_UNUSED(freshness); // a fake's counts are always fresh
    const Answer<QueueCounts> answer = answerOn(asker, std::move(pending));
    if (m_deferAnswers) {
        m_deferred.append([answer, counts = m_queues] { answer(counts); });
        return;
    }
    if (!m_queuesError.isEmpty())
        return answer(failure(m_queuesError));
    answer(m_queues);
}

void FakeDispatch::messages(const MessagesRequest &request, QObject *, Answer<MessagePage> answer)
{
    MessagePage page;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const auto matches = [&](const MessageRow &row) {
        return row.stage == request.stage && row.status == request.status
            && (!request.reason || row.reason == *request.reason)
            && (!request.maxAgeMs || row.updated.msecsTo(now) <= *request.maxAgeMs);
    };
    if (request.reasons) {
        // By count, most frequent first, as the daemon's query groups them.
        page.byReason = true;
        QMap<QString, ReasonCount> byReason;
        for (const MessageRow &row : std::as_const(m_messages)) {
            if (!matches(row))
                continue;
            ReasonCount &count = byReason[row.reason];
            count.reason = row.reason;
            count.oldest = count.count == 0 ? row.updated : std::min(count.oldest, row.updated);
            count.newest = count.count == 0 ? row.updated : std::max(count.newest, row.updated);
            ++count.count;
            ++page.reasonsTotal;
        }
        page.reasons = byReason.values();
        std::stable_sort(page.reasons.begin(), page.reasons.end(),
                         [](const ReasonCount &a, const ReasonCount &b) { return a.count > b.count; });
        if (page.reasons.size() > protocol::MaxMessageReasons) {
            page.reasons.resize(protocol::MaxMessageReasons);
            page.moreReasons = true;
        }
        return answer(page);
    }
    for (const MessageRow &row : std::as_const(m_messages)) {
        if (!matches(row) || row.id <= request.afterId)
            continue;
        if (page.rows.size() == request.limit) {
            page.nextAfterId = page.rows.last().id;
            break;
        }
        page.rows.append(row);
    }
    answer(page);
}

void FakeDispatch::message(qint64 id, QObject *, Answer<MessageDetail> answer)
{
    if (!m_messageDetails.contains(id))
        return answer(failure(u"no message with id %1"_s.arg(id)));
    answer(m_messageDetails.value(id));
}

void FakeDispatch::writeSetting(const OverlaySetting &setting, uint uid, Answer<bool> answer)
{
    m_calls << u"set %1 %2 %3 %4"_s.arg(setting.section, setting.option, setting.value.value_or(u"(unset)"_s)).arg(uid);
    answer(true);
}

void FakeDispatch::reloadNow(uint uid, Answer<ReloadSnapshot> answer)
{
    m_calls << u"reload %1"_s.arg(uid);
    answer(ReloadSnapshot{m_graph.names(), {}, {}});
}

void FakeDispatch::setDrained(const QString &stage, bool drained, uint uid, Answer<bool> answer)
{
    if (drained && !m_drainError.isEmpty())
        return answer(m_drainError);
    if (!m_graph.stage(stage))
        return answer(u"unknown stage \"%1\""_s.arg(stage));
    m_calls << u"%1 %2 %3"_s.arg(drained ? u"drain"_s : u"resume"_s, stage).arg(uid);
    if (drained)
        m_drained.insert(stage);
    else
        m_drained.remove(stage);
    answer(true);
}

void FakeDispatch::requeue(const RequeueRequest &request, QObject *asker, Answer<RequeueOutcome> pending)
{
    const Answer<RequeueOutcome> answer = answerOn(asker, std::move(pending));
    if (!m_requeueMovesRows)
        return answer(RequeueOutcome{3, false});
    // As the daemon's statement: the matching rows, oldest id first, up to the limit.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    RequeueOutcome outcome{0, false};
    const QSet<qint64> wanted(request.ids.cbegin(), request.ids.cend());
    for (MessageRow &row : m_messages) {
        if (row.stage != request.stage || row.status != request.status
            || (!wanted.isEmpty() && !wanted.contains(row.id))
            || (request.maxAgeMs && row.updated.msecsTo(now) > *request.maxAgeMs)
            || (request.reason && row.reason != *request.reason))
            continue;
        if (outcome.requeued == request.limit) {
            outcome.more = true;
            break;
        }
        row.status = u"pending"_s;
        row.reason.clear();
        ++outcome.requeued;
    }
    answer(outcome);
}

void FakeDispatch::rowsRequeued(const RequeueRequest &request, const RequeueOutcome &, uint uid, Answer<bool> answer)
{
    QStringList ids;
    for (qint64 id : request.ids)
        ids << QString::number(id);
    m_calls << u"requeue %1 %2 %3 ids=%4 age=%5 limit=%6"_s.arg(request.stage, request.status)
                   .arg(uid)
                   .arg(ids.join(u','))
                   .arg(request.maxAgeMs ? QString::number(*request.maxAgeMs) : u"-"_s)
                   .arg(request.limit);
    if (request.reason)
        m_calls.last() += u" reason="_s + *request.reason;
    if (m_deferAnswers)
        return m_deferred.append([answer] { answer(true); });
    answer(true);
}
