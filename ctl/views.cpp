// SPDX-License-Identifier: AGPL-3.0-or-later
#include "views.h"

#include "control/failurecodec.h"
#include "control/protocol.h"
#include "control/reloadcodec.h"
#include "control/snapshotcodec.h"
#include "table.h"

#include <QJsonDocument>
#include <QStringList>

namespace pepsi::ctl::views {

namespace field = protocol::field;

namespace {

// A value on one line for people: numbers as they are (rates to 6 digits),
// nested objects as {key=value ...} (a tick's "stages"), lists comma-separated.
QString compact(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return value.toDouble() == double(value.toInteger()) ? QString::number(value.toInteger())
                                                             : QString::number(value.toDouble());
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isArray()) {
        QStringList items;
        for (const QJsonValue item : value.toArray())
            items.append(compact(item));
        return QStringLiteral("[") + items.join(u',') + u']';
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        QStringList items;
        for (auto it = object.constBegin(); it != object.constEnd(); ++it)
            items.append(it.key() + u'=' + compact(it.value()));
        return QStringLiteral("{") + items.join(u' ') + u'}';
    }
    return QStringLiteral("-");
}

QString ratio(qint64 part, qint64 whole) { return QString::number(part) + u'/' + QString::number(whole); }

QString workerStateName(WorkerSnapshot::State state)
{
    switch (state) {
    case WorkerSnapshot::State::Starting:
        return QString(protocol::value::Starting);
    case WorkerSnapshot::State::Running:
        return QString(protocol::value::Running);
    case WorkerSnapshot::State::Stopping:
        return QString(protocol::value::Stopping);
    }
    return {};
}

// "failing (73 % of runs in 10 s)", "drained", "cooldown until 20:51:47: <reason>", "retired", or "-".
QString poolState(const PoolSnapshot &pool, const StageStatsSnapshot &stats)
{
    QStringList states;
    if (stats.failing)
        states.append(
            QStringLiteral("failing (%1 % of runs in 10 s)").arg(protocol::failurePercent(stats.failureShare)));
    if (pool.retired)
        states.append(QStringLiteral("retired"));
    if (pool.drained)
        states.append(QStringLiteral("drained"));
    if (pool.cooldownUntil) {
        QString cooldown = QStringLiteral("cooldown until ") + formatTime(*pool.cooldownUntil).section(u' ', 1);
        if (!pool.cooldownReason.isEmpty())
            cooldown += QStringLiteral(": ") + pool.cooldownReason;
        states.append(cooldown);
    }
    return states.isEmpty() ? QStringLiteral("-") : states.join(QStringLiteral(", "));
}

// A daemon older than pending_ages sends none: its columns are left out, not shown as zeros.
bool anyHasAges(const QJsonObject &stages)
{
    for (const QJsonValue stage : stages) {
        if (stage[field::PendingAges].isObject())
            return true;
    }
    return false;
}

QString optionalAge(const std::optional<qint64> &ms) { return ms ? formatAge(*ms) : QStringLiteral("-"); }

// The queue counts of a `status` may be older than the rest of it (the daemon
// counts at most once a second and answers a status from its last count,
// doc/control-protocol.rst): how much older, by the daemon's own clock.
QString countsAge(const QueueCounts &counts, const QDateTime &statusTime)
{
    if (!counts.takenAt.isValid() || !statusTime.isValid())
        return {};
    return QStringLiteral("queue counts %1 old (counted at %2)\n")
        .arg(formatAge(std::max<qint64>(0, counts.takenAt.msecsTo(statusTime))), formatTime(counts.takenAt));
}

// The failure events in words; empty for any other event.
QString failureText(const QString &name, const QJsonObject &event)
{
    if (name == protocol::event::MessageFailed) {
        const MessageFailedEvent failed = protocol::messageFailedFromJson(event);
        return QStringLiteral("%1: %2 %3 failed; the latest: %4")
            .arg(failed.stage, QString::number(failed.count),
                 failed.count == 1 ? QStringLiteral("message") : QStringLiteral("messages"), failed.reason);
    }
    if (name == protocol::event::StageFailing || name == protocol::event::StageRecovered) {
        const StageFailureEvent change = protocol::stageFailureFromJson(event);
        return QStringLiteral("%1: %2 % of its runs in the last 10 s failed%3")
            .arg(change.stage, QString::number(protocol::failurePercent(change.failureShare)),
                 name == protocol::event::StageFailing ? QStringLiteral(" (failing)") : QStringLiteral(" (recovered)"));
    }
    return {};
}

} // namespace

QString status(const QJsonObject &result)
{
    const StatusSnapshot status = protocol::statusFromJson(result);
    const PoolTotals &totals = status.poolTotals;
    QString text = QStringLiteral("daemon %1, %2 workers (%3 busy), in flight %4, %5/s over 10 s, %6/s over 60 s\n")
                       .arg(lifecycleName(status.state), QString::number(totals.workers), QString::number(totals.busy),
                            ratio(totals.inFlight, totals.capacity), formatRate(status.stats.rate10s),
                            formatRate(status.stats.rate60s));
    if (!status.queues)
        text += QStringLiteral("queue counts unavailable: %1\n").arg(status.queuesError);
    // PENDING, FAILED and TIMEOUT are rows now (the queue counts); FAILURES
    // are runs that failed since the daemon started.
    Table table({QStringLiteral("STAGE"), QStringLiteral("WORKERS"), QStringLiteral("IN FLIGHT"),
                 QStringLiteral("PENDING"), QStringLiteral("OLDEST"), QStringLiteral("FAILED"),
                 QStringLiteral("TIMEOUT"), QStringLiteral("RATE 10S"), QStringLiteral("RATE 60S"),
                 QStringLiteral("FAILURES"), QStringLiteral("STATE")});
    table.setTextColumns({0, 10});
    for (const PoolSnapshot &pool : status.pools) {
        const bool counted = status.queues && status.queues->stages.contains(pool.stage);
        // Copied only when counted: a default StageQueue() passed through
        // QMap::value() makes GCC 12 warn (maybe-uninitialized) of its optional.
        StageQueue queue;
        if (counted)
            queue = *status.queues->stages.constFind(pool.stage);
        const auto count = [counted](qint64 n) { return counted ? QString::number(n) : QStringLiteral("-"); };
        const StageStatsSnapshot stats = status.stats.stages.value(pool.stage);
        table.addRow({pool.stage, ratio(pool.busy, pool.parallelism), ratio(pool.inFlight, pool.capacity),
                      count(queue.pending), optionalAge(queue.oldestPendingAgeMs), count(queue.failed),
                      count(queue.timeout), formatRate(stats.rate10s), formatRate(stats.rate60s),
                      QString::number(stats.failures), poolState(pool, stats)});
    }
    text += table.render();
    if (status.queues)
        text += countsAge(*status.queues, status.time);
    return text;
}

QString workers(const QJsonArray &result)
{
    Table table({QStringLiteral("PID"), QStringLiteral("STAGE"), QStringLiteral("STATE"), QStringLiteral("MESSAGES"),
                 QStringLiteral("UPTIME"), QStringLiteral("HELD"), QStringLiteral("HEAD"), QStringLiteral("HEAD AGE")});
    table.setTextColumns({1, 2});
    for (const QJsonValue each : result) {
        const WorkerSnapshot worker = protocol::workerFromJson(each.toObject());
        QString state = workerStateName(worker.state);
        if (worker.retiring)
            state += QStringLiteral(", retiring");
        const qint64 head = worker.headOfLine();
        table.addRow({QString::number(worker.pid), worker.stage, state, QString::number(worker.messages),
                      formatAge(worker.uptimeMs), QString::number(worker.heldCount()),
                      head >= 0 ? QString::number(head) : QStringLiteral("-"), formatAge(worker.headAgeMs)});
    }
    if (table.isEmpty())
        return QStringLiteral("no worker is running\n");
    return table.render();
}

QString queues(const QJsonObject &result)
{
    const QueueCounts counts = protocol::queueCountsFromJson(result);
    const bool ages = anyHasAges(result.value(field::Stages).toObject());
    const QStringList names{field::Pending, field::Running, field::Paused, field::Failed, field::Timeout};
    QStringList headers{QStringLiteral("STAGE")};
    for (const QString &name : names)
        headers.append(name.toUpper());
    headers.append(QStringLiteral("OLDEST"));
    if (ages)
        headers += protocol::pendingAgeBuckets();
    Table table(headers);
    table.setTextColumns({0});
    const qsizetype buckets = protocol::pendingAgeBuckets().size();
    QList<qint64> sums(names.size() + buckets, 0);
    for (auto it = counts.stages.cbegin(); it != counts.stages.cend(); ++it) {
        const StageQueue &queue = it.value();
        const QList<qint64> values{queue.pending, queue.running, queue.paused, queue.failed, queue.timeout};
        QStringList row{it.key()};
        for (qsizetype i = 0; i < values.size(); ++i) {
            row.append(QString::number(values[i]));
            sums[i] += values[i];
        }
        row.append(optionalAge(queue.oldestPendingAgeMs));
        if (ages) {
            for (qsizetype i = 0; i < buckets && size_t(i) < queue.pendingAges.size(); ++i) {
                const qint64 n = queue.pendingAges.at(size_t(i));
                row.append(QString::number(n));
                sums[names.size() + i] += n;
            }
        }
        table.addRow(row);
    }
    QStringList total{QStringLiteral("TOTAL")};
    for (qsizetype i = 0; i < names.size(); ++i)
        total.append(QString::number(sums[i]));
    total.append(QString());
    if (ages) {
        for (qsizetype i = 0; i < buckets; ++i)
            total.append(QString::number(sums[names.size() + i]));
    }
    table.addRow(total);
    return QStringLiteral("counted at %1 (%2 ago)\n").arg(formatTime(counts.takenAt), formatAge(counts.ageMs))
        + table.render();
}

QString stages(const QJsonObject &result)
{
    Table table({QStringLiteral("STAGE"), QStringLiteral("PARALLELISM"), QStringLiteral("QUEUE LIMIT"),
                 QStringLiteral("MAX MESSAGES"), QStringLiteral("FUSE"), QStringLiteral("DRAINED"),
                 QStringLiteral("NEXT"), QStringLiteral("PROGRAM")});
    table.setTextColumns({0, 4, 5, 6, 7});
    const auto yesNo = [](bool flag) { return flag ? QStringLiteral("yes") : QStringLiteral("no"); };
    // "2 (overlay)": what an operator set live outlasts restarts, so it must not pass for the file's.
    QStringList live;
    for (const StageInfo &stage : protocol::stagesFromJson(result).stages) {
        const auto shown = [&stage, &live](const QString &option, const QString &value) -> QString {
            const OptionProvenance provenance = stage.sources.value(option);
            if (provenance.source != OptionSource::Overlay)
                return value;
            live.append(QStringLiteral("  %1 %2 = %3; %4\n")
                            .arg(stage.name, option, value,
                                 provenance.fileValue ? QStringLiteral("the file says ") + *provenance.fileValue
                                                      : QStringLiteral("the file has none (the default)")));
            return value + QStringLiteral(" (overlay)");
        };
        table.addRow({stage.name, shown(QStringLiteral("PARALLELISM"), QString::number(stage.parallelism)),
                      shown(QStringLiteral("QUEUE_LIMIT"), QString::number(stage.queueLimit)),
                      shown(QStringLiteral("MAX_MESSAGES"), QString::number(stage.maxMessages)),
                      shown(QStringLiteral("FUSE"), yesNo(stage.fuse)), yesNo(stage.drained),
                      shown(QStringLiteral("NEXT"), stage.next.isEmpty() ? QStringLiteral("-") : stage.next.join(u' ')),
                      shown(QStringLiteral("PROGRAM"), stage.program)});
    }
    QString text = table.render();
    if (!live.isEmpty())
        text += QStringLiteral("\nset live in config_overlay (pepsi-ctl unset STAGE OPTION removes one):\n")
            + live.join(QString());
    // Every setting the daemon sends, by its name on the wire (a newer daemon's too).
    const QJsonObject settings = result.value(field::Settings).toObject();
    if (!settings.isEmpty()) {
        text += QStringLiteral("\nsettings:\n");
        for (auto it = settings.constBegin(); it != settings.constEnd(); ++it) {
            const QString value =
                it.key().endsWith(QStringLiteral("_ms")) ? formatAge(it.value()) : compact(it.value());
            text += QStringLiteral("  %1: %2\n").arg(it.key(), value);
        }
    }
    return text;
}

QString stats(const QJsonObject &result)
{
    const StatsSnapshot stats = protocol::statsFromJson(result);
    QString text = QStringLiteral("since %1: claimed %2 in %3 rounds, %4 stage runs, %5 messages done; "
                                  "%6/s over 10 s, %7/s over 60 s\n")
                       .arg(formatTime(stats.since), QString::number(stats.claimed), QString::number(stats.rounds),
                            QString::number(stats.stageRuns), QString::number(stats.messages),
                            formatRate(stats.rate10s), formatRate(stats.rate60s));
    Table table({QStringLiteral("STAGE"), QStringLiteral("RUNS"), QStringLiteral("FAILURES"),
                 QStringLiteral("TIMEOUTS"), QStringLiteral("CRASHES"), QStringLiteral("BUSY"),
                 QStringLiteral("RATE 10S"), QStringLiteral("RATE 60S")});
    table.setTextColumns({0});
    for (auto it = stats.stages.cbegin(); it != stats.stages.cend(); ++it) {
        const StageStatsSnapshot &stage = it.value();
        table.addRow({it.key(), QString::number(stage.runs), QString::number(stage.failures),
                      QString::number(stage.timeouts), QString::number(stage.crashes), formatAge(stage.busyUsec / 1000),
                      formatRate(stage.rate10s), formatRate(stage.rate60s)});
    }
    return text + table.render();
}

QString messages(const QJsonValue &result, const QString &stage)
{
    // A daemon before "next_after_id" sent the rows as the result itself.
    const MessagePage page = protocol::messagePageFromJson(
        result.isArray() ? QJsonObject{{field::Messages, result.toArray()}} : result.toObject());
    Table table({QStringLiteral("ID"), QStringLiteral("STATUS"), QStringLiteral("CLAIMS"), QStringLiteral("UPDATED"),
                 QStringLiteral("REASON")});
    table.setTextColumns({1, 3, 4});
    for (const MessageRow &row : page.rows)
        table.addRow(
            {QString::number(row.id), row.status, QString::number(row.claims), formatTime(row.updated), row.reason});
    QString text = table.isEmpty() ? QStringLiteral("no such message at stage %1\n").arg(stage) : table.render();
    if (page.nextAfterId)
        text += QStringLiteral("more: pepsi-ctl messages %1 --after %2\n").arg(stage).arg(*page.nextAfterId);
    return text;
}

QString message(const QJsonObject &result)
{
    QString text;
    const QStringList first{field::Id, field::Stage, field::Status, field::Claims, field::Updated, field::Reason};
    for (const QString &key : first) {
        if (result.contains(key))
            text += QStringLiteral("%1: %2\n")
                        .arg(key, key == field::Updated ? formatTime(result.value(key)) : compact(result.value(key)));
    }
    for (auto it = result.constBegin(); it != result.constEnd(); ++it) {
        if (!first.contains(it.key()) && it.key() != field::State)
            text += QStringLiteral("%1: %2\n").arg(it.key(), compact(it.value()));
    }
    if (result.contains(field::State)) {
        const QJsonValue state = result.value(field::State);
        const QByteArray json = state.isObject() ? QJsonDocument(state.toObject()).toJson(QJsonDocument::Indented)
                                                 : compact(state).toUtf8() + '\n';
        text += QStringLiteral("state:\n");
        for (const QByteArray &line : json.trimmed().split('\n'))
            text += QStringLiteral("  ") + QString::fromUtf8(line) + u'\n';
    }
    return text;
}

QString reasons(const QJsonObject &result, const QString &rows, int width)
{
    const MessagePage page = protocol::messagePageFromJson(result);
    if (page.reasons.isEmpty())
        return QStringLiteral("no %1\n").arg(rows);
    Table table(
        {QStringLiteral("COUNT"), QStringLiteral("OLDEST"), QStringLiteral("NEWEST"), QStringLiteral("REASON")});
    table.setTextColumns({1, 2, 3});
    qint64 listed = 0;
    for (const ReasonCount &each : page.reasons) {
        table.addRow({QString::number(each.count), formatTime(each.oldest), formatTime(each.newest),
                      each.reason.isEmpty() ? QStringLiteral("-") : each.reason});
        listed += each.count;
    }
    QString text;
    // The reason is the last column: a line cut to the width cuts only it.
    for (QString line : table.render().split(u'\n', Qt::SkipEmptyParts)) {
        if (width > 1 && line.size() > width)
            line = line.left(width - 1) + u'…';
        text += line + u'\n';
    }
    if (page.moreReasons)
        text += QStringLiteral("%1 more rows have reasons less frequent than these\n").arg(page.reasonsTotal - listed);
    return text;
}

QString eventLine(const QJsonObject &event)
{
    const QDateTime when = protocol::timeFromJson(event.value(field::Time));
    const QString name = event.value(field::Event).toString();
    QString line = (when.isValid() ? when.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz")) : QStringLiteral("-"))
        + QStringLiteral("  ") + name;
    if (const QString said = failureText(name, event); !said.isEmpty())
        return line + u' ' + said + u'\n';
    if (name == protocol::event::Reload) {
        // What changed, as the daemon's log line says it.
        const ReloadSnapshot reload = protocol::reloadFromJson(event);
        return line
            + QStringLiteral(" source=%1 stages=%2: %3\n")
                  .arg(reload.source, reload.stages.join(u','), protocol::describe(reload.changed));
    }
    for (auto it = event.constBegin(); it != event.constEnd(); ++it) {
        if (it.key() != field::Event && it.key() != field::Time && it.key() != field::Seq)
            line += u' ' + it.key() + u'=' + compact(it.value());
    }
    return line + u'\n';
}

} // namespace pepsi::ctl::views
