// SPDX-License-Identifier: AGPL-3.0-or-later
#include "scaletopology.h"

#include "benchsetup.h"

#include <QFileInfo>
#include <QTextStream>

namespace pepsi::bench {

int ScaleTopology::hopsFrom(const QString &stage) const
{
    // The graphs here are trees towards one end: follow the first successor.
    int hops = 1;
    for (QString at = stage; !next.value(at).isEmpty(); at = next.value(at).constFirst())
        ++hops;
    return hops;
}

ScaleTopology chainTopology(int stages, int parallelism, int queueLimit)
{
    ScaleTopology t;
    t.name = QStringLiteral("chain %1").arg(stages);
    t.parallelism = parallelism;
    t.queueLimit = queueLimit;
    for (int i = 1; i <= stages; ++i)
        t.stages << QStringLiteral("s%1").arg(i, 3, 10, QLatin1Char('0'));
    for (qsizetype i = 0; i + 1 < t.stages.size(); ++i)
        t.next.insert(t.stages[i], {t.stages[i + 1]});
    return t;
}

ScaleTopology fanOutTopology(int width, int parallelism, int queueLimit)
{
    ScaleTopology t;
    t.name = QStringLiteral("fan-out 1-%1-1").arg(width);
    t.parallelism = parallelism;
    t.queueLimit = queueLimit;
    t.spreadingStage = QStringLiteral("head");
    QStringList branches;
    for (int i = 1; i <= width; ++i)
        branches << QStringLiteral("f%1").arg(i, 2, 10, QLatin1Char('0'));
    t.stages << t.spreadingStage << branches << QStringLiteral("tail");
    t.next.insert(t.spreadingStage, branches);
    for (const QString &branch : branches)
        t.next.insert(branch, {QStringLiteral("tail")});
    return t;
}

Result<QString, QString> writeTopologyConfig(const BenchOptions &o, const ScaleTopology &t)
{
    const QString example = o.buildDir + QStringLiteral("/stagekit/pepsi-stage-example");
    const QString spreading = o.buildDir + QStringLiteral("/tests/bench/pepsi-bench-spread-stage");
    if (!t.spreadingStage.isEmpty() && !QFileInfo(spreading).isExecutable())
        return failure(QStringLiteral("%1 is missing: build pepsi-bench").arg(spreading));
    const QString path = o.workDir + QStringLiteral("/pepsi.conf");
    QString sections;
    QTextStream out(&sections);
    // The dispatcher's own three sessions are enough: the workers bring theirs.
    for (const QString &stage : t.stages) {
        out << "\n[stage-" << stage << "]\nPROGRAM = " << (stage == t.spreadingStage ? spreading : example)
            << "\nPARALLELISM = " << t.parallelism << "\nQUEUE_LIMIT = " << t.queueLimit << '\n';
        if (o.maxMessages > 0)
            out << "MAX_MESSAGES = " << o.maxMessages << '\n';
        if (const QStringList next = t.next.value(stage); !next.isEmpty())
            out << "NEXT = " << next.join(u' ') << '\n';
    }
    out.flush();
    if (auto error = writeConfigFile(o, path, sections))
        return failure(*error);
    return path;
}

Result<QString, QString> prepareEmptyTopology(const BenchOptions &o, BenchDatabase &db, const ScaleTopology &t)
{
    const auto config = writeTopologyConfig(o, t);
    if (!config)
        return config;
    if (!db.exec(QStringLiteral("TRUNCATE workqueue RESTART IDENTITY")))
        return failure(db.lastError());
    return config;
}

Result<qint64, QString> fillTopology(BenchDatabase &db, const ScaleTopology &t, qint64 messages, bool spread)
{
    if (!db.exec(QStringLiteral("TRUNCATE workqueue RESTART IDENTITY")))
        return db.lastError();
    return insertTopologyMessages(db, t, messages, spread);
}

std::optional<QString> fillTopologyHistory(BenchDatabase &db, const ScaleTopology &t, qint64 finished)
{
    if (auto error = fillHistory(db, finished, 0, t.stages))
        return error;
    // What autovacuum would have done to a table that size long ago, and the
    // fill's dirty pages written out: the run after it pays for neither.
    for (const QString &sql : {QStringLiteral("VACUUM ANALYZE workqueue"), QStringLiteral("CHECKPOINT")}) {
        if (!db.exec(sql))
            return db.lastError();
    }
    return std::nullopt;
}

Result<qint64, QString> insertTopologyMessages(BenchDatabase &db, const ScaleTopology &t, qint64 messages, bool spread)
{
    const QStringList entries = spread ? t.stages : QStringList{t.stages.constFirst()};
    // One statement: one NOTIFY, as a batch from pepsi-ingress.
    const QString sql = QStringLiteral("INSERT INTO workqueue (stage) SELECT (ARRAY['%1'])[1 + i % %2] "
                                       "FROM generate_series(0, %3) AS i")
                            .arg(entries.join(QStringLiteral("', '")))
                            .arg(entries.size())
                            .arg(messages - 1);
    if (!db.exec(sql))
        return db.lastError();
    qint64 hops = 0;
    for (qsizetype k = 0; k < entries.size(); ++k) {
        // Rows i = k, k + n, k + 2n, ... below `messages` start at entries[k].
        const qint64 rows = k < messages ? (messages - 1 - k) / entries.size() + 1 : 0;
        hops += rows * t.hopsFrom(entries[k]);
    }
    return hops;
}

} // namespace pepsi::bench
