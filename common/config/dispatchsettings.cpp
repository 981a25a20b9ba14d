// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/dispatchsettings.h"

#include "config/relativetime.h"

#include <QStringList>

#include <limits>
#include <optional>

namespace pepsi {

namespace {

const QString kPepsi = QStringLiteral("pepsi");
const QString kDispatch = QStringLiteral("pepsi-dispatch");

// [pepsi-dispatch] belongs to this program alone, so an option it does not
// know is a typo. [pepsi] is shared with the other PEPSI programs and is not
// checked.
const QStringList kDispatchOptions = {
    QStringLiteral("max_runtime"),     QStringLiteral("worker_idle_timeout"),  QStringLiteral("poll_interval"),
    QStringLiteral("stats_interval"),  QStringLiteral("tempfail_delay"),       QStringLiteral("db_pool_size"),
    QStringLiteral("config_file"),     QStringLiteral("control_socket"),       QStringLiteral("user"),
    QStringLiteral("db_lock_timeout"), QStringLiteral("db_statement_timeout"),
};

// Every duration here ends up in a QTimer, which counts in int milliseconds
// (Qt 6.4 truncates larger values): 24 d is the largest whole number of days
// that fits.
constexpr std::chrono::milliseconds kMaxDuration = std::chrono::days(24);
static_assert(kMaxDuration.count() <= std::numeric_limits<int>::max());

ConfigError inSection(const QString &section, ConfigError error)
{
    error.reason = section + QStringLiteral(": ") + error.reason;
    return error;
}

// Reads a positive duration that fits a timer into *out.
std::optional<ConfigError> readDuration(const Configuration &config, const QString &option,
                                        std::chrono::milliseconds *out)
{
    const auto value = config.duration(kDispatch, option, *out);
    if (!value)
        return inSection(kDispatch, value.error());
    if (value.value() <= std::chrono::milliseconds::zero() || value.value() > kMaxDuration) {
        const Configuration::Entry *e = config.entry(kDispatch, option);
        const QString text = config.string(kDispatch, option).value().trimmed(); // expanded once already
        return ConfigError{e->origin,
                           kDispatch + QStringLiteral(": ") + option.toUpper() + QStringLiteral(": \"") + text
                               + QStringLiteral("\" is out of range (1 ms..") + formatRelativeTime(kMaxDuration)
                               + u')'};
    }
    *out = value.value();
    return std::nullopt;
}

std::optional<ConfigError> readString(const Configuration &config, const QString &section, const QString &option,
                                      bool mayBeEmpty, QString *out)
{
    const auto value = config.string(section, option, *out);
    if (!value)
        return inSection(section, value.error());
    const QString text = value.value().trimmed();
    if (text.isEmpty() && !mayBeEmpty)
        return ConfigError{config.entry(section, option)->origin,
                           section + QStringLiteral(": ") + option.toUpper() + QStringLiteral(" is empty")};
    *out = text;
    return std::nullopt;
}

} // namespace

Result<DispatchSettings, ConfigError> DispatchSettings::fromConfiguration(const Configuration &config)
{
    DispatchSettings s;
    for (const QString &option : config.options(kDispatch)) {
        if (!kDispatchOptions.contains(option))
            return ConfigError{config.entry(kDispatch, option)->origin,
                               QStringLiteral("unknown option ") + option.toUpper() + QStringLiteral(" in [")
                                   + kDispatch + u']'};
    }

    if (auto e = readString(config, kPepsi, QStringLiteral("database"), false, &s.database))
        return *e;
    const std::pair<QString, std::chrono::milliseconds *> durations[] = {
        {QStringLiteral("max_runtime"), &s.maxRuntime},
        {QStringLiteral("worker_idle_timeout"), &s.workerIdleTimeout},
        {QStringLiteral("poll_interval"), &s.pollInterval},
        {QStringLiteral("stats_interval"), &s.statsInterval},
        {QStringLiteral("tempfail_delay"), &s.tempfailDelay},
        {QStringLiteral("db_lock_timeout"), &s.dbLockTimeout},
        {QStringLiteral("db_statement_timeout"), &s.dbStatementTimeout},
    };
    for (const auto &[option, target] : durations) {
        if (auto e = readDuration(config, option, target))
            return *e;
    }

    const QString poolOption = QStringLiteral("db_pool_size");
    const auto poolSize = config.integer(kDispatch, poolOption, s.dbPoolSize, MinPoolSize, MaxPoolSize);
    if (!poolSize) {
        ConfigError error = inSection(kDispatch, poolSize.error());
        // Too small is not a typo: say what needs the connections.
        const auto any = config.integer(kDispatch, poolOption, 0, std::numeric_limits<qint64>::min(),
                                        std::numeric_limits<qint64>::max());
        if (any && any.value() < MinPoolSize)
            error.reason += QStringLiteral(": the dispatcher opens %1 connections of its own (claims and "
                                           "settlements, LISTEN, operator queries)")
                                .arg(MinPoolSize);
        return error;
    }
    s.dbPoolSize = int(poolSize.value());

    if (auto e = readString(config, kDispatch, QStringLiteral("config_file"), true, &s.configFile))
        return *e;
    if (auto e = readString(config, kDispatch, QStringLiteral("control_socket"), true, &s.controlSocket))
        return *e;
    if (auto e = readString(config, kDispatch, QStringLiteral("user"), false, &s.user))
        return *e;
    return s;
}

} // namespace pepsi
