// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QMap>
#include <QString>
#include <optional>

namespace pepsi {

class Configuration;

// Where an option's value comes from: a config_overlay row wins over the
// file, the file over the built-in default (doc/operations.rst, "Live
// settings"). `pepsi-dispatch check`, the `stages` reply and the clients
// that show it all speak of it in these terms.
enum class OptionSource { Default, File, Overlay };

// One option's source; under an overlay row, also what the file says there
// (nothing: the file has no such option, and removing the row gives the default).
struct OptionProvenance
{
    OptionSource source = OptionSource::Default;
    std::optional<QString> fileValue; // raw, as the file has it

    bool operator==(const OptionProvenance &) const = default;
};

// A section's options by name as pepsi.conf spells them ("PARALLELISM").
using OptionSources = QMap<QString, OptionProvenance>;

// Where `config` (a file with its overlay applied) takes one option from.
OptionProvenance provenanceOf(const Configuration &config, const QString &section, const QString &option);

} // namespace pepsi
