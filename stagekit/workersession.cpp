// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workersession.h"

#include <QList>
#include <unistd.h>

namespace pepsi::stagekit {

void logLine(const QByteArray &line)
{
    QByteArray text = line;
    text.replace('\n', ' ');
    text += '\n';
    const char *p = text.constData();
    qsizetype left = text.size();
    while (left > 0) {
        const ssize_t n = ::write(STDERR_FILENO, p, size_t(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // nowhere left to complain to
        p += n;
        left -= n;
    }
}

WorkerSession::WorkerSession(Configuration fileConfiguration, QByteArray database, QString stage, Setup setup)
    : m_fileConfiguration(std::move(fileConfiguration))
    , m_database(std::move(database))
    , m_stage(std::move(stage))
    , m_setup(std::move(setup))
{ }

WorkerSession::State WorkerSession::prepare(QByteArray *reason)
{
    if (!m_connection.isUsable()) {
        QByteArray error;
        const bool connected = m_everConnected
            ? m_connection.reset(&error)
            : m_connection.open(m_database, "pepsi-stage-" + m_stage.toUtf8(), &error);
        if (!connected) {
            // once per outage: every message of it is answered 75 anyway
            if (!m_outageLogged)
                logLine("database unavailable, answering 75 until it is back: " + error);
            m_outageLogged = true;
            *reason = "database unavailable: " + error.left(200);
            return State::Unavailable;
        }
        if (m_everConnected)
            logLine(QByteArrayLiteral("database connection re-established"));
        m_everConnected = true;
        m_outageLogged = false;
    }
    return m_context ? State::Ready : complete(reason);
}

void WorkerSession::checkConnection()
{
    if (m_connection.isUsable())
        return;
    m_connection.markLost();
    if (!m_outageLogged)
        logLine("database connection lost: " + m_connection.lastError());
    m_outageLogged = true;
}

WorkerSession::State WorkerSession::complete(QByteArray *reason)
{
    // The dispatcher routes by the file plus the overlay; so must the worker.
    // Bounded as the dispatcher reads it (OverlayStore): one row and one
    // character past Configuration's limits, which withOverlay() then refuses.
    QueryResult rows = m_connection.exec(
        "SELECT left(section, $1::int), left(option, $1::int), left(value, $1::int)"
        " FROM config_overlay ORDER BY section, option LIMIT $2::int",
        {QByteArray::number(Configuration::MaxValueChars + 1), QByteArray::number(Configuration::MaxOverlayRows + 1)});
    if (!rows.ok()) {
        if (rows.error.code == Outcome::TryLater) {
            *reason = rows.error.reason;
            return State::Unavailable;
        }
        *reason = "cannot read config_overlay: " + rows.error.reason;
        return State::Fatal;
    }
    QList<OverlayRow> overlay;
    for (int i = 0; i < rows.rows(); ++i) {
        overlay.append({QString::fromUtf8(rows.value(i, 0)), QString::fromUtf8(rows.value(i, 1)),
                        QString::fromUtf8(rows.value(i, 2))});
    }
    Configuration configuration = m_fileConfiguration.withOverlay(overlay);

    auto graph = StageGraph::fromConfiguration(configuration);
    if (!graph) {
        *reason = graph.error().toString().toUtf8();
        return State::Fatal;
    }
    if (!graph->stage(m_stage)) {
        *reason = "PEPSI_STAGE=" + m_stage.toUtf8() + " names no stage of " + configuration.fileName().toUtf8()
            + " or its config_overlay (stages: " + graph->names().join(QLatin1Char(' ')).toUtf8() + ')';
        return State::Fatal;
    }

    auto context = std::make_unique<StageContext>(m_connection, configuration, graph.value(), m_stage, &m_batch);
    // Every stage this worker may run in a fused pass gets its context (and
    // its setup) now, so a bad option of one shows at start, not mid-pass.
    std::map<QString, std::unique_ptr<StageContext>> fused;
    QList<StageContext *> toVisit{context.get()};
    while (!toVisit.isEmpty()) {
        const StageContext *from = toVisit.takeFirst();
        for (const QString &next : from->stageConfig().next) {
            if (from->fusesInto(next) && fused.find(next) == fused.end()) {
                auto successor =
                    std::make_unique<StageContext>(m_connection, configuration, graph.value(), next, &m_batch);
                toVisit.append(successor.get());
                fused.emplace(next, std::move(successor));
            }
        }
    }

    if (m_setup) {
        QList<StageContext *> all{context.get()};
        for (const auto &entry : fused)
            all.append(entry.second.get());
        for (StageContext *each : std::as_const(all)) {
            if (const std::optional<ConfigError> error = m_setup(*each)) {
                *reason = error->toString().toUtf8();
                return State::Fatal;
            }
        }
    }
    m_context = std::move(context);
    m_fused = std::move(fused);
    return State::Ready;
}

StageContext *WorkerSession::fusedContext(const QString &stage)
{
    const auto it = m_fused.find(stage);
    return it == m_fused.end() ? nullptr : it->second.get();
}

} // namespace pepsi::stagekit
