// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/pipelineconfig.h"

namespace pepsi {

namespace {

// What differs between two settings, by option name.
QStringList differences(const DispatchSettings &a, const DispatchSettings &b, bool onlyFixedAtStart)
{
    QStringList names;
    const auto check = [&names](bool differs, const char *name) {
        if (differs)
            names << QString::fromLatin1(name);
    };
    check(a.database != b.database, "DATABASE");
    check(a.user != b.user, "USER");
    check(a.controlSocket != b.controlSocket, "CONTROL_SOCKET");
    check(a.dbPoolSize != b.dbPoolSize, "DB_POOL_SIZE");
    check(a.dbLockTimeout != b.dbLockTimeout, "DB_LOCK_TIMEOUT");
    check(a.dbStatementTimeout != b.dbStatementTimeout, "DB_STATEMENT_TIMEOUT");
    if (onlyFixedAtStart)
        return names;
    check(a.maxRuntime != b.maxRuntime, "MAX_RUNTIME");
    check(a.workerIdleTimeout != b.workerIdleTimeout, "WORKER_IDLE_TIMEOUT");
    check(a.pollInterval != b.pollInterval, "POLL_INTERVAL");
    check(a.statsInterval != b.statsInterval, "STATS_INTERVAL");
    check(a.tempfailDelay != b.tempfailDelay, "TEMPFAIL_DELAY");
    check(a.configFile != b.configFile, "CONFIG_FILE");
    return names;
}

// Each name with where its value that cannot take effect comes from:
// "pepsi.conf:7: [pepsi-dispatch] MAX_RUNTIME", "config_overlay (pepsi-dispatch,
// MAX_RUNTIME): [pepsi-dispatch] MAX_RUNTIME". An option removed since the
// start has no origin left: "[pepsi-dispatch] MAX_RUNTIME (now unset)".
QStringList located(const Configuration &merged, const QStringList &names)
{
    QStringList found;
    for (const QString &name : names) {
        const QString section = name == u"DATABASE" ? QStringLiteral("pepsi") : QStringLiteral("pepsi-dispatch");
        const QString option = u'[' + section + QStringLiteral("] ") + name;
        const Configuration::Entry *entry = merged.entry(section, name);
        if (entry)
            found << entry->origin.describe() + QStringLiteral(": ") + option;
        else
            found << option + QStringLiteral(" (now unset)");
    }
    return found;
}

} // namespace

Result<PipelineConfig, ConfigError> PipelineConfig::atStart(const Configuration &file, const QList<OverlayRow> &overlay,
                                                            const DispatchSettings &fileSettings)
{
    const Configuration merged = file.withOverlay(overlay);
    auto graph = StageGraph::fromConfiguration(merged);
    if (!graph)
        return graph.error();
    auto settings = DispatchSettings::fromConfiguration(merged);
    if (!settings)
        return settings.error();
    PipelineConfig result{graph.value(), settings.value(),
                          located(merged, differences(settings.value(), fileSettings, true))};
    // Already acted on before the database was reachable.
    result.settings.database = fileSettings.database;
    result.settings.user = fileSettings.user;
    result.settings.controlSocket = fileSettings.controlSocket;
    result.settings.dbPoolSize = fileSettings.dbPoolSize;
    // The sessions that read the overlay already run with these.
    result.settings.dbLockTimeout = fileSettings.dbLockTimeout;
    result.settings.dbStatementTimeout = fileSettings.dbStatementTimeout;
    return result;
}

Result<PipelineConfig, ConfigError>
PipelineConfig::onReload(const Configuration &file, const QList<OverlayRow> &overlay, const DispatchSettings &running)
{
    const Configuration merged = file.withOverlay(overlay);
    auto graph = StageGraph::fromConfiguration(merged);
    if (!graph)
        return graph.error();
    auto settings = DispatchSettings::fromConfiguration(merged);
    // A broken [pepsi-dispatch] overlay row cannot take effect anyway.
    QStringList ignored = settings ? located(merged, differences(settings.value(), running, false))
                                   : QStringList{settings.error().toString()};
    return PipelineConfig{graph.value(), running, ignored};
}

} // namespace pepsi
