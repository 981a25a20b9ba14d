// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/metricstext.h"

#include "control/protocol.h"

#include <QSet>
#include <cmath>

namespace pepsi {

namespace {

QString formatValue(double value)
{
    if (std::isfinite(value) && std::trunc(value) == value && std::fabs(value) < 9007199254740992.0)
        return QString::number(qint64(value));
    return QString::number(value, 'f', 3);
}

// HELP text escapes backslash and newline (not the double quote).
QString escapeHelp(const QString &text)
{
    QString escaped = text;
    escaped.replace(u'\\', QStringLiteral("\\\\")).replace(u'\n', QStringLiteral("\\n"));
    return escaped;
}

using Labels = QList<std::pair<QString, QString>>;

// One family: HELP and TYPE once, then its samples; nothing at all without samples.
class Family
{
public:
    Family(const QString &name, QString type, QString help)
        : m_name(QStringLiteral("pepsi_dispatch_") + name)
        , m_type(std::move(type))
        , m_help(std::move(help))
    { }

    void add(const Labels &labels, double value)
    {
        QString line = m_name;
        if (!labels.isEmpty()) {
            QStringList parts;
            for (const auto &[label, text] : labels)
                parts << label + QStringLiteral("=\"") + escapeLabelValue(text) + u'"';
            line += u'{' + parts.join(u',') + u'}';
        }
        m_samples << line + u' ' + formatValue(value);
    }

    void appendTo(QString &text) const
    {
        if (m_samples.isEmpty())
            return;
        text += QStringLiteral("# HELP %1 %2\n# TYPE %1 %3\n").arg(m_name, escapeHelp(m_help), m_type);
        for (const QString &sample : m_samples)
            text += sample + u'\n';
    }

private:
    QString m_name;
    QString m_type;
    QString m_help;
    QStringList m_samples;
};

Labels stageLabel(const QString &stage) { return {{QStringLiteral("stage"), stage}}; }

const QString Gauge = QStringLiteral("gauge");
const QString Counter = QStringLiteral("counter");

} // namespace

QString escapeLabelValue(const QString &value)
{
    QString escaped;
    escaped.reserve(value.size());
    for (const QChar c : value) {
        if (c == u'\\')
            escaped += QStringLiteral("\\\\");
        else if (c == u'"')
            escaped += QStringLiteral("\\\"");
        else if (c == u'\n')
            escaped += QStringLiteral("\\n");
        else
            escaped += c;
    }
    return escaped;
}

QString metricsText(const MetricsInput &input, const QDateTime &now)
{
    QString text;
    Family up(QStringLiteral("up"), Gauge, QStringLiteral("1: the dispatcher answered this scrape"));
    up.add({}, 1);
    Family running(QStringLiteral("running"), Gauge,
                   QStringLiteral("1 while the dispatcher holds the lock, reaches its database and claims"));
    running.add({}, input.info.lifecycle == Lifecycle::Running ? 1 : 0);
    Family started(QStringLiteral("start_time_seconds"), Gauge,
                   QStringLiteral("when the daemon started, in seconds since the Unix epoch"));
    started.add({}, double(input.info.startedAt.toMSecsSinceEpoch()) / 1000.0);
    for (const Family *family : {&up, &running, &started})
        family->appendTo(text);

    // Pools: live state.
    Family workers(QStringLiteral("workers"), Gauge, QStringLiteral("live worker processes of the stage"));
    Family busy(QStringLiteral("busy_workers"), Gauge, QStringLiteral("worker processes holding messages"));
    Family inFlight(QStringLiteral("in_flight"), Gauge, QStringLiteral("messages handed to the stage's workers"));
    Family capacity(QStringLiteral("capacity"), Gauge,
                    QStringLiteral("messages the stage may hold (QUEUE_LIMIT x PARALLELISM; 0 while drained or "
                                   "in cooldown)"));
    Family cooldown(QStringLiteral("cooldown"), Gauge,
                    QStringLiteral("1 while the stage is in cooldown (its program failed to start or crashed)"));
    Family drained(QStringLiteral("drained"), Gauge, QStringLiteral("1 while the stage is drained by an operator"));
    for (const PoolSnapshot &pool : input.pools) {
        const Labels labels = stageLabel(pool.stage);
        workers.add(labels, pool.workers);
        busy.add(labels, pool.busy);
        inFlight.add(labels, pool.inFlight);
        capacity.add(labels, pool.capacity);
        cooldown.add(labels, pool.cooldownUntil ? 1 : 0);
        drained.add(labels, pool.drained ? 1 : 0);
    }
    for (const Family *family : {&workers, &busy, &inFlight, &capacity, &cooldown, &drained})
        family->appendTo(text);

    // Queue counts: from the database, up to a few seconds old.
    if (input.queues) {
        Family countsAge(QStringLiteral("queue_counts_age_seconds"), Gauge,
                         QStringLiteral("how old the queue counts of this scrape are"));
        countsAge.add({}, double(std::max<qint64>(0, input.queues->takenAt.msecsTo(now))) / 1000.0);
        Family queue(QStringLiteral("queue_messages"), Gauge, QStringLiteral("rows of the stage in each status"));
        Family oldest(QStringLiteral("oldest_pending_age_seconds"), Gauge,
                      QStringLiteral("how long the oldest pending row has waited at the stage (0: none pending)"));
        Family ages(QStringLiteral("pending_messages_by_age"), Gauge,
                    QStringLiteral("pending rows by how long they have waited at the stage, as qshape"));
        const QStringList &buckets = protocol::pendingAgeBuckets();
        for (auto it = input.queues->stages.cbegin(); it != input.queues->stages.cend(); ++it) {
            const StageQueue &q = it.value();
            const std::pair<QLatin1StringView, qint64> statuses[] = {
                {protocol::value::Pending, q.pending}, {protocol::value::Running, q.running},
                {protocol::value::Paused, q.paused},   {protocol::value::Failed, q.failed},
                {protocol::value::Timeout, q.timeout},
            };
            for (const auto &[status, count] : statuses)
                queue.add({{QStringLiteral("stage"), it.key()}, {QStringLiteral("status"), status}}, double(count));
            oldest.add(stageLabel(it.key()), double(q.oldestPendingAgeMs.value_or(0)) / 1000.0);
            for (qsizetype i = 0; i < buckets.size(); ++i)
                ages.add({{QStringLiteral("stage"), it.key()}, {QStringLiteral("age"), buckets.at(i)}},
                         double(q.pendingAges.at(size_t(i))));
        }
        for (const Family *family : {&countsAge, &queue, &oldest, &ages})
            family->appendTo(text);
    }

    // Counters since the daemon started (a restart resets them, as Prometheus expects of counters).
    Family claimed(QStringLiteral("claimed_total"), Counter, QStringLiteral("messages claimed"));
    claimed.add({}, double(input.stats.claimed));
    Family rounds(QStringLiteral("claim_rounds_total"), Counter, QStringLiteral("claim rounds run"));
    rounds.add({}, double(input.stats.rounds));
    Family runs(QStringLiteral("runs_total"), Counter, QStringLiteral("messages the stage's workers answered"));
    Family failures(QStringLiteral("failures_total"), Counter, QStringLiteral("messages the stage failed"));
    Family timeouts(QStringLiteral("timeouts_total"), Counter,
                    QStringLiteral("messages the stage did not answer within MAX_RUNTIME"));
    Family crashes(QStringLiteral("crashes_total"), Counter,
                   QStringLiteral("worker processes of the stage that crashed"));
    Family busySeconds(QStringLiteral("busy_seconds_total"), Counter,
                       QStringLiteral("time the stage's workers spent on messages"));
    // What fails now (gauges, beside the counters for the same stages).
    Family failing(QStringLiteral("stage_failing"), Gauge,
                   QStringLiteral("1 while the stage is failing: at least half of at least 10 runs in 10 s failed, "
                                  "until under a tenth do"));
    Family failureShare(QStringLiteral("stage_failure_share"), Gauge,
                        QStringLiteral("the share of the stage's runs in the last 10 s that failed, timed out or "
                                       "crashed (0 without runs)"));
    QStringList stages;
    for (const PoolSnapshot &pool : input.pools)
        stages << pool.stage;
    for (auto it = input.stats.stages.cbegin(); it != input.stats.stages.cend(); ++it) {
        if (!stages.contains(it.key()))
            stages << it.key();
    }
    for (const QString &stage : std::as_const(stages)) {
        const StageStatsSnapshot s = input.stats.stages.value(stage);
        const Labels labels = stageLabel(stage);
        runs.add(labels, double(s.runs));
        failures.add(labels, double(s.failures));
        timeouts.add(labels, double(s.timeouts));
        crashes.add(labels, double(s.crashes));
        busySeconds.add(labels, double(s.busyUsec) / 1e6);
        failing.add(labels, s.failing ? 1 : 0);
        failureShare.add(labels, s.failureShare);
    }
    for (const Family *family :
         {&claimed, &rounds, &runs, &failures, &timeouts, &crashes, &busySeconds, &failing, &failureShare})
        family->appendTo(text);
    return text;
}

} // namespace pepsi
