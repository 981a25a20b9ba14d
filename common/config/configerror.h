// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>

namespace pepsi {

// Where a configuration value came from: a file and line, or a row of the
// database overlay. Every configuration error names it.
struct ConfigOrigin
{
    QString file;           // empty for an overlay row
    int line = 0;           // 1-based; 0 when unknown
    QString overlaySection; // set for an overlay row
    QString overlayOption;

    static ConfigOrigin fromFile(const QString &file, int line) { return {file, line, {}, {}}; }
    static ConfigOrigin fromOverlay(const QString &section, const QString &option) { return {{}, 0, section, option}; }
    bool isOverlay() const { return !overlaySection.isEmpty() || !overlayOption.isEmpty(); }
    // "pepsi.conf:12", "pepsi.conf", or "config_overlay (stage-enrich, PARALLELISM)"
    QString describe() const;
};

struct ConfigError
{
    ConfigOrigin origin;
    QString reason;
    // "<origin>: <reason>", or just the reason when there is no origin
    QString toString() const;
};

} // namespace pepsi
