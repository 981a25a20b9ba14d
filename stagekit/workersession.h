// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "movebatch.h"
#include "pgconnection.h"
#include "stagecontext.h"

#include "config/configerror.h"
#include "config/configuration.h"

#include <QByteArray>
#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace pepsi::stagekit {

using Setup = std::function<std::optional<ConfigError>(StageContext &)>;

// The worker's link to the database and the contexts built on it: one for
// its own stage and one for every stage fused into it (directly or through
// another fused stage). The pipeline needs the config_overlay rows, so the
// contexts are built on the first successful connection, and the setup runs
// for each; until then (a database down at start) and while a lost
// connection cannot be reset, messages are answered 75.
class WorkerSession
{
public:
    enum class State { Ready, Unavailable, Fatal };

    WorkerSession(Configuration fileConfiguration, QByteArray database, QString stage, Setup setup);

    // Before each message: connect, or reset a lost connection, and build the
    // context the first time. Unavailable: reason is the 75 answer's text.
    // Fatal: a configuration error (reason names it); the worker exits 78.
    State prepare(QByteArray *reason);

    // After a message: notes a connection it lost (logged once per outage),
    // so the next prepare() resets it.
    void checkConnection();

    StageContext &context() { return *m_context; }
    // The context of a stage fused into this worker's; nullptr for any other.
    StageContext *fusedContext(const QString &stage);
    PgConnection &connection() { return m_connection; }
    // The batch the loop opens for commitBatches; every context writes through it.
    MoveBatch &batch() { return m_batch; }

private:
    State complete(QByteArray *reason);

    Configuration m_fileConfiguration;
    QByteArray m_database;
    QString m_stage;
    Setup m_setup;
    PgConnection m_connection;
    MoveBatch m_batch{m_connection};
    std::unique_ptr<StageContext> m_context;
    std::map<QString, std::unique_ptr<StageContext>> m_fused;
    bool m_everConnected = false;
    bool m_outageLogged = false;
};

// One line on stderr in a single write, so it is never interleaved.
void logLine(const QByteArray &line);

} // namespace pepsi::stagekit
