// SPDX-License-Identifier: AGPL-3.0-or-later
#include "heldrun.h"

#include "benchdatabase.h"
#include "benchsetup.h"
#include "reporttable.h"
#include "storage/queuestore.h"

#include <QFile>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QTextStream>
#include <QVariant>

#include <algorithm>
#include <limits>

namespace pepsi::bench {

namespace {

constexpr double TargetLastTenSeconds = 0.8;

// Rates from the rows themselves: a done row made its third hop at
// `updated`, so 3 x done rows in a window is the hop rate the pipeline kept
// (the first window also holds the ramp up through the stages).
void rates(BenchDatabase &db, HeldPhase *phase)
{
    const PipelineResult &p = phase->pipeline;
    const double wall = std::max(p.wallSeconds, 0.001);
    QSqlQuery q = db.query(QStringLiteral("SELECT extract(epoch FROM updated) * 1000 - %1 FROM workqueue "
                                          "WHERE status = 'done' ORDER BY updated")
                               .arg(p.startEpochMs));
    QList<qint64> windows(int(wall / WindowSeconds) + 1, 0);
    QList<qint64> quarters(4, 0);
    qint64 lastTen = 0;
    while (q.next()) {
        const double ms = std::clamp(q.value(0).toDouble(), 0.0, wall * 1000);
        ++windows[std::min<qsizetype>(qsizetype(ms / 1000 / WindowSeconds), windows.size() - 1)];
        ++quarters[std::min(3, int(ms / (wall * 1000) * 4))];
        if (ms >= (wall - 10) * 1000)
            ++lastTen;
    }
    for (qsizetype i = 0; i < windows.size(); ++i) {
        const double span = std::min<double>(WindowSeconds, wall - double(i * WindowSeconds));
        if (span > 0.5)
            phase->windowHopsPerSecond << 3.0 * double(windows[i]) / span;
    }
    for (const qint64 n : quarters)
        phase->quarterHopsPerSecond << 3.0 * double(n) / (wall / 4);
    phase->lastTenSecondsHopsPerSecond = 3.0 * double(lastTen) / std::min(10.0, wall);
}

// The claim round as the daemon runs it, for every stage with its whole
// capacity, inside a transaction rolled back: which of its parts read buffers.
std::optional<QString> explainClaim(const BenchOptions &o, BenchDatabase &db, HeldPhase *phase)
{
    QStringList caps, floors;
    for (qsizetype i = 0; i < stageNames().size(); ++i) {
        caps << QString::number(o.parallelism * o.queueLimit);
        floors << QString::number(std::numeric_limits<qint64>::min());
    }
    QString sql = ClaimRoundSql;
    sql.replace(QStringLiteral(":stages"), QStringLiteral("'{%1}'").arg(stageNames().join(u',')));
    sql.replace(QStringLiteral(":caps"), QStringLiteral("'{%1}'").arg(caps.join(u',')));
    sql.replace(QStringLiteral(":floors"), QStringLiteral("'{%1}'").arg(floors.join(u',')));
    if (!db.exec(QStringLiteral("BEGIN")))
        return db.lastError();
    QSqlQuery plan = db.query(QStringLiteral("EXPLAIN (ANALYZE, BUFFERS) ") + sql);
    QStringList lines;
    while (plan.next())
        lines << plan.value(0).toString();
    const bool ran = plan.isActive();
    db.exec(QStringLiteral("ROLLBACK"));
    if (!ran)
        return db.lastError();
    phase->planFile =
        o.workDir + (phase->held ? QStringLiteral("/claim-plan-held.txt") : QStringLiteral("/claim-plan-clean.txt"));
    QFile file(phase->planFile);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        QTextStream(&file) << lines.join(u'\n') << '\n';
    // A node's buffers include its children's: keep the node line with its
    // count, and show the largest few.
    static const QRegularExpression buffers(QStringLiteral("Buffers: shared hit=(\\d+)(?: read=(\\d+))?"));
    QList<std::pair<qint64, QString>> nodes;
    QString node;
    for (const QString &line : std::as_const(lines)) {
        if (line.contains(QLatin1String("->")) || line.trimmed().startsWith(QLatin1String("CTE"))
            || line.trimmed().startsWith(QLatin1String("InitPlan"))
            || line.trimmed().startsWith(QLatin1String("SubPlan")) || !line.startsWith(u' ')) {
            node = line.trimmed().left(110);
            continue;
        }
        if (const auto m = buffers.match(line); m.hasMatch() && !node.isEmpty())
            nodes.append({m.captured(1).toLongLong() + m.captured(2).toLongLong(), node});
    }
    std::stable_sort(nodes.begin(), nodes.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (qsizetype i = 0; i < std::min<qsizetype>(nodes.size(), 8); ++i)
        phase->planHotNodes << QStringLiteral("%1  %2").arg(nodes[i].first, 8).arg(nodes[i].second);
    return std::nullopt;
}

Result<HeldPhase, QString> runPhase(const BenchOptions &o, bool held, bool statStatements)
{
    HeldPhase phase;
    phase.held = held;
    BenchDatabase db(QStringLiteral("pepsi-bench-held"));
    BenchDatabase holder(QStringLiteral("pepsi-bench-holder"));
    if (!db.open(o.database))
        return db.lastError();
    PipelineHooks hooks;
    hooks.beforeStart = [&]() -> std::optional<QString> {
        if (statStatements && !db.exec(QStringLiteral("SELECT pg_stat_statements_reset()")))
            return db.lastError();
        if (!held)
            return std::nullopt;
        // An XID of its own: every row version written from now on stays
        // until it ends (what pg_dump or an idle-in-transaction session does).
        if (!holder.open(o.database) || !holder.exec(QStringLiteral("BEGIN"))
            || !holder.scalar(QStringLiteral("SELECT txid_current()")).isValid())
            return holder.lastError();
        progress(QStringLiteral("hold-snapshot: a session holds an XID for the run"));
        return std::nullopt;
    };
    hooks.whenDone = [&]() -> std::optional<QString> {
        if (statStatements)
            phase.claim = readClaimStatement(db);
        return explainClaim(o, db, &phase);
    };
    auto pipeline = runPipeline(o, hooks);
    if (held)
        holder.exec(QStringLiteral("ROLLBACK"));
    if (!pipeline)
        return pipeline.error();
    phase.pipeline = pipeline.value();
    rates(db, &phase);
    return phase;
}

QString series(const QList<double> &values, double base)
{
    QStringList parts;
    for (const double v : values)
        parts << (base > 0 ? num(v / base, 2) : num(v));
    return parts.join(u' ');
}

} // namespace

Result<HeldResult, QString> runHeldSnapshot(const BenchOptions &o)
{
    bool statStatements = false;
    {
        BenchDatabase db(QStringLiteral("pepsi-bench-held"));
        if (!db.open(o.database))
            return db.lastError();
        statStatements = statStatementsLoaded(db);
    }
    if (!statStatements)
        progress(QStringLiteral("hold-snapshot: pg_stat_statements is not loaded (run-bench --hold-snapshot preloads "
                                "it); no claim-round times"));
    HeldResult result;
    for (const bool held : {false, true}) {
        progress(held ? QStringLiteral("hold-snapshot: the held run") : QStringLiteral("hold-snapshot: the clean run"));
        auto phase = runPhase(o, held, statStatements);
        if (!phase)
            return phase.error();
        result.phases << phase.value();
    }
    return result;
}

bool printHeldReport(const BenchOptions &o, const HeldResult &r)
{
    if (r.phases.size() != 2)
        return false;
    const HeldPhase &clean = r.phases.constFirst();
    const HeldPhase &held = r.phases.constLast();
    const auto hops = [&](const HeldPhase &p) { return double(o.hops()) / std::max(p.pipeline.wallSeconds, 0.001); };
    const double base = hops(clean);
    out(QStringLiteral("held snapshot (server: fsync %1, synchronous_commit %2): %3 messages through 3 stages, "
                       "clean then with a session holding an XID from the start to the last message")
            .arg(held.pipeline.server.fsync, held.pipeline.server.synchronousCommit)
            .arg(o.messages));
    const ReportTable table({{QStringLiteral("run"), 6},
                             {QStringLiteral("seconds"), 8},
                             {QStringLiteral("hops/s"), 8},
                             {QStringLiteral("x clean"), 8},
                             {QStringLiteral("rounds"), 8},
                             {QStringLiteral("claim mean ms"), 14},
                             {QStringLiteral("buffers/round"), 14}});
    out(table.heading());
    for (const HeldPhase &p : r.phases) {
        const bool known = p.claim.calls >= 0;
        const QString dash = QStringLiteral("-");
        out(table.row({p.held ? QStringLiteral("held") : QStringLiteral("clean"), num(p.pipeline.wallSeconds, 1),
                       num(hops(p)), num(hops(p) / base, 2), known ? QString::number(p.claim.calls) : dash,
                       known ? num(p.claim.meanMs, 3) : dash, known ? num(p.claim.buffers, 1) : dash}));
    }
    for (const HeldPhase &p : r.phases) {
        const QString name = p.held ? QStringLiteral("held ") : QStringLiteral("clean");
        out(QStringLiteral("  %1 per quarter, x clean mean: %2").arg(name, series(p.quarterHopsPerSecond, base)));
        out(QStringLiteral("  %1 per %2 s, hops/s: %3")
                .arg(name)
                .arg(WindowSeconds)
                .arg(series(p.windowHopsPerSecond, 0)));
    }
    for (const HeldPhase &p : r.phases) {
        out(QStringLiteral("  a walk from the start once drained, %1 (the heartbeat's round; EXPLAIN ANALYZE BUFFERS, "
                           "%2): shared buffers by node")
                .arg(p.held ? QStringLiteral("held") : QStringLiteral("clean"), p.planFile));
        for (const QString &line : p.planHotNodes)
            out(QStringLiteral("    ") + line);
    }
    const double lastTen = held.lastTenSecondsHopsPerSecond / base;
    out(QStringLiteral("targets (doc/performance.rst)"));
    out(QStringLiteral("  held run's last 10 s >= %1 x the clean rate   %2 %3")
            .arg(num(TargetLastTenSeconds, 1), num(lastTen, 2),
                 lastTen >= TargetLastTenSeconds ? QStringLiteral("met") : QStringLiteral("MISSED")));
    for (const HeldPhase &p : r.phases) {
        out(QStringLiteral("RESULT mode=hold-snapshot held=%1 messages=%2 seconds=%3 hops_per_s=%4 ratio=%5 "
                           "quarters=%6 last10s_ratio=%7 claim_calls=%8 claim_mean_ms=%9 claim_buffers_per_round=%10 "
                           "fsync=%11")
                .arg(p.held ? QStringLiteral("yes") : QStringLiteral("no"))
                .arg(o.messages)
                .arg(num(p.pipeline.wallSeconds, 2), num(hops(p)), num(hops(p) / base, 3),
                     series(p.quarterHopsPerSecond, base).replace(u' ', u','),
                     num(p.lastTenSecondsHopsPerSecond / base, 3), QString::number(p.claim.calls),
                     num(p.claim.meanMs, 3), num(p.claim.buffers, 1), p.pipeline.server.fsync));
    }
    return held.pipeline.done == o.messages && clean.pipeline.done == o.messages;
}

} // namespace pepsi::bench
