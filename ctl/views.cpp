// SPDX-License-Identifier: AGPL-3.0-or-later
#include "views.h"

#include "control/protocol.h"
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

QString ratio(const QJsonValue &part, const QJsonValue &whole) { return formatCount(part) + u'/' + formatCount(whole); }

// "drained", "cooldown until 20:51:47: <reason>", "retired", or "-".
QString poolState(const QJsonObject &pool)
{
    QStringList states;
    if (pool.value(field::Retired).toBool())
        states.append(QStringLiteral("retired"));
    if (pool.value(field::Drained).toBool())
        states.append(QStringLiteral("drained"));
    if (pool.value(field::Cooldown).toBool()) {
        QString cooldown =
            QStringLiteral("cooldown until ") + formatTime(pool.value(field::CooldownUntil)).section(u' ', 1);
        const QString reason = pool.value(field::CooldownReason).toString();
        if (!reason.isEmpty())
            cooldown += QStringLiteral(": ") + reason;
        states.append(cooldown);
    }
    return states.isEmpty() ? QStringLiteral("-") : states.join(QStringLiteral(", "));
}

bool anyHasAges(const QJsonObject &stages)
{
    for (const QJsonValue stage : stages) {
        if (stage[field::PendingAges].isObject())
            return true;
    }
    return false;
}

} // namespace

QString status(const QJsonObject &result)
{
    const QJsonObject totals = result.value(field::Totals).toObject();
    QString text = QStringLiteral("daemon %1, %2 workers (%3 busy), in flight %4, %5/s over 10 s, %6/s over 60 s\n")
                       .arg(result.value(field::State).toString(), formatCount(totals.value(field::Workers)),
                            formatCount(totals.value(field::Busy)),
                            ratio(totals.value(field::InFlight), totals.value(field::Capacity)),
                            formatRate(totals.value(field::Rate10s).toDouble()),
                            formatRate(totals.value(field::Rate60s).toDouble()));
    if (result.contains(field::QueuesError))
        text += QStringLiteral("queue counts unavailable: %1\n").arg(result.value(field::QueuesError).toString());
    Table table({QStringLiteral("STAGE"), QStringLiteral("WORKERS"), QStringLiteral("IN FLIGHT"),
                 QStringLiteral("PENDING"), QStringLiteral("OLDEST"), QStringLiteral("RATE 10S"),
                 QStringLiteral("RATE 60S"), QStringLiteral("FAILURES"), QStringLiteral("STATE")});
    table.setTextColumns({0, 8});
    const QJsonObject stages = result.value(field::Stages).toObject();
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        const QJsonObject pool = it.value().toObject();
        const QJsonObject queue = pool.value(field::Queue).toObject();
        const QJsonObject stats = pool.value(field::Stats).toObject();
        table.addRow({it.key(), ratio(pool.value(field::Busy), pool.value(field::Parallelism)),
                      ratio(pool.value(field::InFlight), pool.value(field::Capacity)),
                      formatCount(queue.value(field::Pending)), formatAge(queue.value(field::OldestPendingAgeMs)),
                      formatRate(stats.value(field::Rate10s).toDouble()),
                      formatRate(stats.value(field::Rate60s).toDouble()), formatCount(stats.value(field::Failures)),
                      poolState(pool)});
    }
    return text + table.render();
}

QString workers(const QJsonArray &result)
{
    Table table({QStringLiteral("PID"), QStringLiteral("STAGE"), QStringLiteral("STATE"), QStringLiteral("MESSAGES"),
                 QStringLiteral("UPTIME"), QStringLiteral("HELD"), QStringLiteral("HEAD"), QStringLiteral("HEAD AGE")});
    table.setTextColumns({1, 2});
    for (const QJsonValue each : result) {
        const QJsonObject worker = each.toObject();
        QString state = worker.value(field::State).toString();
        if (worker.value(field::Retiring).toBool())
            state += QStringLiteral(", retiring");
        const QJsonValue held = worker.contains(field::Held)
            ? worker.value(field::Held)
            : QJsonValue(double(worker.value(field::Ids).toArray().size()));
        table.addRow({formatCount(worker.value(field::Pid)), worker.value(field::Stage).toString(), state,
                      formatCount(worker.value(field::Messages)), formatAge(worker.value(field::UptimeMs)),
                      formatCount(held), formatCount(worker.value(field::HeadId)),
                      formatAge(worker.value(field::HeadAgeMs))});
    }
    if (table.isEmpty())
        return QStringLiteral("no worker is running\n");
    return table.render();
}

QString queues(const QJsonObject &result)
{
    const QJsonObject stages = result.value(field::Stages).toObject();
    const bool ages = anyHasAges(stages);
    const QStringList counts{field::Pending, field::Running, field::Paused, field::Failed, field::Timeout};
    QStringList headers{QStringLiteral("STAGE")};
    for (const QString &name : counts)
        headers.append(name.toUpper());
    headers.append(QStringLiteral("OLDEST"));
    if (ages)
        headers += protocol::pendingAgeBuckets();
    Table table(headers);
    table.setTextColumns({0});
    QList<qint64> sums(counts.size() + protocol::pendingAgeBuckets().size(), 0);
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        const QJsonObject queue = it.value().toObject();
        QStringList row{it.key()};
        for (qsizetype i = 0; i < counts.size(); ++i) {
            row.append(formatCount(queue.value(counts[i])));
            sums[i] += queue.value(counts[i]).toInteger();
        }
        row.append(formatAge(queue.value(field::OldestPendingAgeMs)));
        if (ages) {
            const QJsonObject byAge = queue.value(field::PendingAges).toObject();
            for (qsizetype i = 0; i < protocol::pendingAgeBuckets().size(); ++i) {
                const QJsonValue bucket = byAge.value(protocol::pendingAgeBuckets()[i]);
                row.append(formatCount(bucket));
                sums[counts.size() + i] += bucket.toInteger();
            }
        }
        table.addRow(row);
    }
    QStringList total{QStringLiteral("TOTAL")};
    for (qsizetype i = 0; i < counts.size(); ++i)
        total.append(QString::number(sums[i]));
    total.append(QString());
    if (ages) {
        for (qsizetype i = 0; i < protocol::pendingAgeBuckets().size(); ++i)
            total.append(QString::number(sums[counts.size() + i]));
    }
    table.addRow(total);
    return QStringLiteral("counted at %1 (%2 ago)\n")
               .arg(formatTime(result.value(field::At)), formatAge(result.value(field::AgeMs)))
        + table.render();
}

QString stages(const QJsonObject &result)
{
    Table table({QStringLiteral("STAGE"), QStringLiteral("PARALLELISM"), QStringLiteral("QUEUE LIMIT"),
                 QStringLiteral("MAX MESSAGES"), QStringLiteral("FUSE"), QStringLiteral("DRAINED"),
                 QStringLiteral("NEXT"), QStringLiteral("PROGRAM")});
    table.setTextColumns({0, 4, 5, 6, 7});
    const auto yesNo = [](const QJsonValue &flag) {
        return flag.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    };
    for (const QJsonValue each : result.value(field::Stages).toArray()) {
        const QJsonObject stage = each.toObject();
        QStringList next;
        for (const QJsonValue name : stage.value(field::Next).toArray())
            next.append(name.toString());
        table.addRow({stage.value(field::Name).toString(), formatCount(stage.value(field::Parallelism)),
                      formatCount(stage.value(field::QueueLimit)), formatCount(stage.value(field::MaxMessages)),
                      yesNo(stage.value(field::Fuse)), yesNo(stage.value(field::Drained)),
                      next.isEmpty() ? QStringLiteral("-") : next.join(u' '), stage.value(field::Program).toString()});
    }
    QString text = table.render();
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
    const QJsonObject totals = result.value(field::Totals).toObject();
    QString text =
        QStringLiteral("since %1: claimed %2 in %3 rounds, %4 stage runs, %5 messages done; "
                       "%6/s over 10 s, %7/s over 60 s\n")
            .arg(formatTime(result.value(field::Since)), formatCount(totals.value(field::Claimed)),
                 formatCount(totals.value(field::Rounds)), formatCount(totals.value(field::StageRuns)),
                 formatCount(totals.value(field::Messages)), formatRate(totals.value(field::Rate10s).toDouble()),
                 formatRate(totals.value(field::Rate60s).toDouble()));
    Table table({QStringLiteral("STAGE"), QStringLiteral("RUNS"), QStringLiteral("FAILURES"),
                 QStringLiteral("TIMEOUTS"), QStringLiteral("CRASHES"), QStringLiteral("BUSY"),
                 QStringLiteral("RATE 10S"), QStringLiteral("RATE 60S")});
    table.setTextColumns({0});
    const QJsonObject stages = result.value(field::Stages).toObject();
    for (auto it = stages.constBegin(); it != stages.constEnd(); ++it) {
        const QJsonObject stage = it.value().toObject();
        table.addRow({it.key(), formatCount(stage.value(field::Runs)), formatCount(stage.value(field::Failures)),
                      formatCount(stage.value(field::Timeouts)), formatCount(stage.value(field::Crashes)),
                      formatAge(stage.value(field::BusyUsec).toInteger() / 1000),
                      formatRate(stage.value(field::Rate10s).toDouble()),
                      formatRate(stage.value(field::Rate60s).toDouble())});
    }
    return text + table.render();
}

QString messages(const QJsonValue &result, const QString &stage)
{
    // The rows are the result itself or its one list ("messages").
    QJsonArray rows = result.toArray();
    const QJsonObject object = result.toObject();
    if (object.value(field::Messages).isArray())
        rows = object.value(field::Messages).toArray();
    Table table({QStringLiteral("ID"), QStringLiteral("STATUS"), QStringLiteral("CLAIMS"), QStringLiteral("UPDATED"),
                 QStringLiteral("REASON")});
    table.setTextColumns({1, 3, 4});
    for (const QJsonValue each : std::as_const(rows)) {
        const QJsonObject row = each.toObject();
        table.addRow({formatCount(row.value(field::Id)), row.value(field::Status).toString(),
                      formatCount(row.value(field::Claims)), formatTime(row.value(field::Updated)),
                      row.value(field::Reason).toString()});
    }
    QString text = table.isEmpty() ? QStringLiteral("no such message at stage %1\n").arg(stage) : table.render();
    const QJsonValue next = object.value(field::NextAfterId);
    if (next.isDouble())
        text += QStringLiteral("more: pepsi-ctl messages %1 --after %2\n").arg(stage).arg(next.toInteger());
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

QString eventLine(const QJsonObject &event)
{
    const QDateTime when = protocol::timeFromJson(event.value(field::Time));
    QString line = (when.isValid() ? when.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz")) : QStringLiteral("-"))
        + QStringLiteral("  ") + event.value(field::Event).toString();
    for (auto it = event.constBegin(); it != event.constEnd(); ++it) {
        if (it.key() != field::Event && it.key() != field::Time && it.key() != field::Seq)
            line += u' ' + it.key() + u'=' + compact(it.value());
    }
    return line + u'\n';
}

} // namespace pepsi::ctl::views
