// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

// What the tests of the configuration file share: a text that must parse,
// and an option's value as written.
#include "config/configuration.h"

#include <QtGlobal>

inline const QString kFile = QStringLiteral("test.conf");

inline pepsi::Configuration parseOrFail(const QByteArray &text)
{
    auto result = pepsi::Configuration::parse(text, kFile);
    if (!result.ok())
        qFatal("unexpected parse error: %s", qPrintable(result.error().toString()));
    return result.value();
}

inline QString rawValue(const pepsi::Configuration &config, const QString &section, const QString &option)
{
    const pepsi::Configuration::Entry *e = config.entry(section, option);
    return e ? e->rawValue : QStringLiteral("<absent>");
}
