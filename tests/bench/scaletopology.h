// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "benchdatabase.h"
#include "benchoptions.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

namespace pepsi::bench {

// A pipeline graph of pepsi-bench --scale: a chain of N stages, or a fan-out
// (a head that spreads its messages over W parallel stages, which all lead
// to one tail). Every stage runs the reference stage, the fan-out's head the
// spreading one (pepsi-bench-spread-stage).
struct ScaleTopology
{
    QString name;       // "chain 10", "fan-out 1-20-1": how the reports name it
    QStringList stages; // every stage, the entry first
    QHash<QString, QStringList> next;
    QString spreadingStage; // runs pepsi-bench-spread-stage; empty: none
    int parallelism = 1;    // of every stage
    int queueLimit = 4;

    int workers() const { return int(stages.size()) * parallelism; }
    // Stage hops a message makes from `stage` to the end (itself included).
    int hopsFrom(const QString &stage) const;
};

// s001 -> s002 -> ... -> sNNN.
ScaleTopology chainTopology(int stages, int parallelism, int queueLimit);
// head -> f01 .. fWW -> tail: three hops a message.
ScaleTopology fanOutTopology(int width, int parallelism, int queueLimit);

// Writes WORK_DIR/pepsi.conf for the topology (after prepareWorkDir).
// Returns its path.
Result<QString, QString> writeTopologyConfig(const BenchOptions &options, const ScaleTopology &topology);

// writeTopologyConfig, then TRUNCATE workqueue: for a run whose daemon
// starts without messages (idle, soak). Returns the configuration's path.
Result<QString, QString> prepareEmptyTopology(const BenchOptions &options, BenchDatabase &db,
                                              const ScaleTopology &topology);

// TRUNCATE workqueue, then `messages` rows in one statement: all at the
// entry stage, or with `spread` row i at stage i modulo the stage count, so
// that every stage has work from the start. Returns the stage hops the rows
// will make.
Result<qint64, QString> fillTopology(BenchDatabase &db, const ScaleTopology &topology, qint64 messages, bool spread);

// TRUNCATE workqueue, then `finished` rows done at the topology's last stage
// (fillHistory), VACUUM ANALYZE and CHECKPOINT: a table with a history.
std::optional<QString> fillTopologyHistory(BenchDatabase &db, const ScaleTopology &topology, qint64 finished);

// fillTopology without the TRUNCATE: the messages beside what the table holds.
Result<qint64, QString> insertTopologyMessages(BenchDatabase &db, const ScaleTopology &topology, qint64 messages,
                                               bool spread);

} // namespace pepsi::bench
