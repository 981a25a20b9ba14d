// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "config/configerror.h"
#include "result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <chrono>
#include <optional>

namespace pepsi {

struct OverlayRow
{
    QString section; // without brackets, any case: "stage-enrich"
    QString option;  // any case
    QString value;
};

// A GNUnet-style INI file plus the database overlay (config_overlay rows
// override file values). Section and option names are case-insensitive and are
// kept lower-case. Values are stored raw and expanded ($VAR, ${VAR},
// ${VAR:-default}, from [PATHS] first, then the environment) by the accessors.
class Configuration
{
public:
    struct Entry
    {
        QString rawValue;
        ConfigOrigin origin;
        // Under an overlay row: the file's raw value it replaced, if the file has one.
        std::optional<QString> fileValue;
    };

    // The bounds of doc/quality.rst, "Limits": what a file or the overlay may
    // make this hold. Past them the configuration is refused, never cut.
    static constexpr qsizetype MaxFileBytes = qsizetype(1) << 20;
    static constexpr qsizetype MaxValueChars = 8192;
    static constexpr qsizetype MaxOverlayRows = 4096;

    Configuration() = default;

    static Result<Configuration, ConfigError> parse(const QByteArray &text, const QString &fileName);
    static Result<Configuration, ConfigError> load(const QString &path);
    // The file every program reads unless told otherwise (-c): $PEPSI_CONFIG,
    // then /etc/pepsi/pepsi.conf; `given` (a -c argument) wins when not empty.
    static QString fileToRead(const QString &given = {});

    // Overlay rows win over the file. Returns the previous overlay-free copy unchanged.
    // Rows past the limits above are not merged; overlayError() says why.
    // Rows that name one option (names compare without case and surrounding
    // blanks) apply in (section, option) order, the last winning, whatever
    // order they were read in: the dispatcher and its workers must agree.
    Configuration withOverlay(const QList<OverlayRow> &rows) const;
    // A copy without one option, or without the whole section when `option`
    // is empty: `pepsi-dispatch check` sets aside what it has reported so
    // that StageGraph can find the next problem.
    Configuration without(const QString &section, const QString &option = {}) const;
    // Why the overlay was refused (too many rows, a value too long), if it was.
    // StageGraph::fromConfiguration reports it, so a reload refuses it too.
    const std::optional<ConfigError> &overlayError() const { return m_overlayError; }

    QString fileName() const { return m_fileName; }
    QStringList sections() const;                      // lower-case, sorted
    QStringList options(const QString &section) const; // lower-case, sorted
    bool contains(const QString &section, const QString &option) const;
    const Entry *entry(const QString &section, const QString &option) const;
    // Where a section was opened: its first header line in the file, or (for a
    // section that only the overlay has) "config_overlay (section)". Errors about
    // something missing from a section point here.
    ConfigOrigin sectionOrigin(const QString &section) const;

    // Typed accessors: the default when the option is absent, an error naming
    // the origin when it is present but bad.
    Result<QString, ConfigError> string(const QString &section, const QString &option,
                                        const QString &defaultValue = {}) const;
    Result<std::chrono::milliseconds, ConfigError> duration(const QString &section, const QString &option,
                                                            std::chrono::milliseconds defaultValue) const;
    Result<qint64, ConfigError> integer(const QString &section, const QString &option, qint64 defaultValue, qint64 min,
                                        qint64 max) const;
    Result<bool, ConfigError> boolean(const QString &section, const QString &option, bool defaultValue) const;

    // $-expansion of an arbitrary value against this configuration's [PATHS] and the environment.
    Result<QString, ConfigError> expand(const QString &raw, const ConfigOrigin &origin) const;

private:
    QString m_fileName;
    QHash<QString, QHash<QString, Entry>> m_sections; // lower-case keys
    QHash<QString, ConfigOrigin> m_sectionOrigins;    // lower-case keys
    std::optional<ConfigError> m_overlayError;
};

} // namespace pepsi
