// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QByteArrayList>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QVariantMap>

#include <memory>
#include <vector>

class TestDatabase;

// Plays the dispatcher for stage programs under test: writes a pipeline
// configuration, "claims" rows by inserting them running, starts workers as
// real processes (binaries under $PEPSI_BUILD_DIR), writes ids, reads answers.
class WorkerHarness
{
public:
    static inline const QString Example = QStringLiteral("stagekit/pepsi-stage-example");
    static inline const QString Fake = QStringLiteral("tests/fakeworker/pepsi-fakeworker");

    explicit WorkerHarness(TestDatabase &db);
    ~WorkerHarness(); // kills the workers still running

    static QString binary(const QString &relative);

    // A fresh temporary directory and configuration, empty tables. Empty on
    // success, else what went wrong.
    QString reset();

    // The pipeline: first -> middle -> (last | other); fake -> last. `extra`
    // is appended; `database` replaces the test database's URI.
    QString writeConfig(const QString &extra = {}, const QString &database = {});
    QString config() const { return m_config; }

    // Started with `-c <config> worker` unless args are given; a null stage
    // leaves PEPSI_STAGE unset. The harness owns the process.
    QProcess &start(const QString &program, const QString &stage, const QStringList &args = {});

    // Writes `input` in one write and reads `lines` answers (without "\n"),
    // waiting up to 10 s for each.
    static QByteArrayList exchange(QProcess &process, const QByteArray &input, int lines);
    // Closes stdin and waits for the exit: "exit 0", "exit 78", "signal 6", "running".
    static QString finish(QProcess &process, int timeoutMs = 5000);

    qint64 insertRow(const QString &stage, const QString &status = QStringLiteral("running"),
                     const QJsonObject &state = {});
    // stage, status, state (QJsonObject), pausedForAMinute (timeout > now() + 50 s),
    // xmin (the transaction that wrote it last: rows of one statement share it)
    QVariantMap row(qint64 id);
    QJsonObject state(qint64 id) { return row(id).value(QStringLiteral("state")).toJsonObject(); }
    // Where the row stands: "<stage> <status>", as "middle pending".
    QString place(qint64 id);
    // Runs a statement on the test's own connection; empty or the error.
    QString exec(const QString &sql);

private:
    TestDatabase &m_db;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_config;
    int m_configs = 0;
    std::vector<std::unique_ptr<QProcess>> m_processes;
};
