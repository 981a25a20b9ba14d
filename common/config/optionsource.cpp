// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/optionsource.h"

#include "config/configuration.h"

namespace pepsi {

OptionProvenance provenanceOf(const Configuration &config, const QString &section, const QString &option)
{
    const Configuration::Entry *entry = config.entry(section, option);
    if (!entry)
        return {};
    if (entry->origin.isOverlay())
        return {OptionSource::Overlay, entry->fileValue};
    return {OptionSource::File, std::nullopt};
}

} // namespace pepsi
