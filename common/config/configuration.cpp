// SPDX-License-Identifier: AGPL-3.0-or-later
#include "config/configuration.h"

#include "config/relativetime.h"
#include "config/variableexpander.h"

#include <QFile>
#include <QStringDecoder>

#include <algorithm>
#include <tuple>

namespace pepsi {

namespace {

QString quoted(const QString &text) { return u'"' + text + u'"'; }

// The typed accessors' errors read "OPTION: reason".
ConfigError optionError(const Configuration::Entry &e, const QString &option, const QString &reason)
{
    return {e.origin, option.toUpper() + QStringLiteral(": ") + reason};
}

Result<QString, ConfigError> expandEntry(const Configuration &config, const Configuration::Entry &e,
                                         const QString &option)
{
    auto expanded = config.expand(e.rawValue, e.origin);
    if (!expanded)
        return optionError(e, option, expanded.error().reason);
    return expanded.value();
}

// A typed accessor's value: `defaultValue` when the option is absent, else
// its expanded text as `convert` (entry, text) reads it.
template<typename T, typename Convert>
Result<T, ConfigError> typedValue(const Configuration &config, const QString &section, const QString &option,
                                  T defaultValue, Convert convert)
{
    const Configuration::Entry *e = config.entry(section, option);
    if (!e)
        return defaultValue;
    const auto text = expandEntry(config, *e, option);
    if (!text)
        return text.error();
    return convert(*e, text.value());
}

} // namespace

Result<Configuration, ConfigError> Configuration::parse(const QByteArray &text, const QString &fileName)
{
    Configuration config;
    config.m_fileName = fileName;
    if (text.size() > MaxFileBytes)
        return ConfigError{ConfigOrigin::fromFile(fileName, 0),
                           QStringLiteral("larger than %1 bytes (%2)").arg(MaxFileBytes).arg(text.size())};
    QString section; // lower-case; empty until the first header
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const ConfigOrigin origin = ConfigOrigin::fromFile(fileName, int(i + 1));
        QByteArray bytes = lines[i];
        if (bytes.endsWith('\r'))
            bytes.chop(1);
        QStringDecoder decoder(QStringDecoder::Utf8);
        const QString line = QString(decoder(bytes)).trimmed();
        if (decoder.hasError())
            return ConfigError{origin, QStringLiteral("not valid UTF-8")};
        // GNUnet treats only whole lines as comments: a '#' inside a value
        // (a password, a URI fragment) is part of the value.
        if (line.isEmpty() || line.startsWith(u'#') || line.startsWith(u'%'))
            continue;

        if (line.startsWith(u'[')) {
            const QString name = line.endsWith(u']') ? line.mid(1, line.size() - 2).trimmed().toLower() : QString();
            if (name.isEmpty() || name.contains(u'[') || name.contains(u']'))
                return ConfigError{origin, QStringLiteral("bad section header ") + quoted(line)};
            section = name;
            config.m_sections[section]; // an empty section still exists
            if (!config.m_sectionOrigins.contains(section))
                config.m_sectionOrigins.insert(section, origin);
            continue;
        }

        const qsizetype eq = line.indexOf(u'=');
        if (eq < 0)
            return ConfigError{origin, QStringLiteral("missing \"=\" in ") + quoted(line)};
        const QString name = line.left(eq).trimmed();
        if (name.isEmpty())
            return ConfigError{origin, QStringLiteral("missing option name before \"=\"")};
        if (std::any_of(name.cbegin(), name.cend(), [](QChar c) { return c.isSpace(); }))
            return ConfigError{origin, QStringLiteral("bad option name ") + quoted(name)};
        if (section.isEmpty())
            return ConfigError{origin,
                               QStringLiteral("option ") + name.toUpper() + QStringLiteral(" is outside any section")};
        QString value = line.mid(eq + 1).trimmed();
        if (value.size() >= 2 && value.startsWith(u'"') && value.endsWith(u'"'))
            value = value.mid(1, value.size() - 2);
        if (value.size() > MaxValueChars)
            return ConfigError{origin,
                               QStringLiteral("value of %1 longer than %2 characters (%3)")
                                   .arg(name.toUpper())
                                   .arg(MaxValueChars)
                                   .arg(value.size())};

        QHash<QString, Entry> &options = config.m_sections[section];
        const QString key = name.toLower();
        if (const auto it = options.constFind(key); it != options.constEnd())
            return ConfigError{origin,
                               QStringLiteral("duplicate option ") + name.toUpper() + QStringLiteral(" in [") + section
                                   + QStringLiteral("] (first set on line ") + QString::number(it->origin.line) + u')'};
        options.insert(key, Entry{value, origin, std::nullopt});
    }
    return config;
}

QString Configuration::fileToRead(const QString &given)
{
    if (!given.isEmpty())
        return given;
    const QString fromEnvironment = qEnvironmentVariable("PEPSI_CONFIG");
    return fromEnvironment.isEmpty() ? QStringLiteral("/etc/pepsi/pepsi.conf") : fromEnvironment;
}

Result<Configuration, ConfigError> Configuration::load(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ConfigError{ConfigOrigin::fromFile(path, 0), QStringLiteral("cannot read: ") + file.errorString()};
    // One byte more than parse() accepts, so that it reports the file as too
    // large; a huge file (or /dev/zero) is never read whole.
    const QByteArray text = file.read(MaxFileBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return ConfigError{ConfigOrigin::fromFile(path, 0), QStringLiteral("cannot read: ") + file.errorString()};
    return parse(text, path);
}

Configuration Configuration::withOverlay(const QList<OverlayRow> &rows) const
{
    Configuration result = *this;
    if (rows.size() > MaxOverlayRows) {
        result.m_overlayError =
            ConfigError{{},
                        QStringLiteral("config_overlay has more than %1 rows (%2 read); none applied")
                            .arg(MaxOverlayRows)
                            .arg(rows.size())};
        return result;
    }
    for (const OverlayRow &row : rows) {
        // The store may have cut what it read at one character past the bound.
        if (row.section.size() > MaxValueChars || row.option.size() > MaxValueChars
            || row.value.size() > MaxValueChars) {
            result.m_overlayError =
                ConfigError{ConfigOrigin::fromOverlay(row.section.trimmed().toLower().left(64),
                                                      row.option.trimmed().toUpper().left(64)),
                            QStringLiteral("longer than %1 characters; overlay not applied").arg(MaxValueChars)};
            return result;
        }
    }
    QList<OverlayRow> ordered = rows;
    std::stable_sort(ordered.begin(), ordered.end(), [](const OverlayRow &a, const OverlayRow &b) {
        return std::tie(a.section, a.option) < std::tie(b.section, b.option);
    });
    for (const OverlayRow &row : std::as_const(ordered)) {
        const QString section = row.section.trimmed().toLower();
        const QString option = row.option.trimmed().toLower();
        // Nowhere to report a nameless row from here; it could not name a
        // real option anyway.
        if (section.isEmpty() || option.isEmpty())
            continue;
        QHash<QString, Entry> &options = result.m_sections[section];
        const Entry *under = options.contains(option) ? &options[option] : nullptr;
        std::optional<QString> fileValue =
            under ? (under->origin.isOverlay() ? under->fileValue : under->rawValue) : std::optional<QString>();
        options.insert(
            option,
            Entry{row.value.trimmed(), ConfigOrigin::fromOverlay(section, option.toUpper()), std::move(fileValue)});
        if (!result.m_sectionOrigins.contains(section))
            result.m_sectionOrigins.insert(section, ConfigOrigin::fromOverlay(section, {}));
    }
    return result;
}

Configuration Configuration::without(const QString &section, const QString &option) const
{
    Configuration result = *this;
    const QString key = section.toLower();
    if (option.isEmpty()) {
        result.m_sections.remove(key);
        result.m_sectionOrigins.remove(key);
    } else if (auto it = result.m_sections.find(key); it != result.m_sections.end()) {
        it->remove(option.toLower());
    }
    return result;
}

QStringList Configuration::sections() const
{
    QStringList names = m_sections.keys();
    names.sort();
    return names;
}

QStringList Configuration::options(const QString &section) const
{
    QStringList names = m_sections.value(section.toLower()).keys();
    names.sort();
    return names;
}

bool Configuration::contains(const QString &section, const QString &option) const
{
    return entry(section, option) != nullptr;
}

const Configuration::Entry *Configuration::entry(const QString &section, const QString &option) const
{
    const auto s = m_sections.constFind(section.toLower());
    if (s == m_sections.constEnd())
        return nullptr;
    const auto o = s->constFind(option.toLower());
    return o == s->constEnd() ? nullptr : &*o;
}

ConfigOrigin Configuration::sectionOrigin(const QString &section) const
{
    return m_sectionOrigins.value(section.toLower(), ConfigOrigin::fromFile(m_fileName, 0));
}

Result<QString, ConfigError> Configuration::string(const QString &section, const QString &option,
                                                   const QString &defaultValue) const
{
    const Entry *e = entry(section, option);
    if (!e)
        return defaultValue;
    return expandEntry(*this, *e, option);
}

Result<std::chrono::milliseconds, ConfigError> Configuration::duration(const QString &section, const QString &option,
                                                                       std::chrono::milliseconds defaultValue) const
{
    using Value = Result<std::chrono::milliseconds, ConfigError>;
    return typedValue(*this, section, option, defaultValue, [&option](const Entry &e, const QString &text) -> Value {
        const auto parsed = parseRelativeTime(text);
        if (!parsed)
            return optionError(e, option, quoted(text) + QStringLiteral(": ") + parsed.error());
        return parsed.value();
    });
}

Result<qint64, ConfigError> Configuration::integer(const QString &section, const QString &option, qint64 defaultValue,
                                                   qint64 min, qint64 max) const
{
    using Value = Result<qint64, ConfigError>;
    return typedValue(*this, section, option, defaultValue, [&](const Entry &e, const QString &text) -> Value {
        const QString value = text.trimmed();
        const QStringView digits = QStringView(value).mid(value.startsWith(u'-') || value.startsWith(u'+') ? 1 : 0);
        if (digits.isEmpty()
            || !std::all_of(digits.begin(), digits.end(), [](QChar c) { return c >= u'0' && c <= u'9'; }))
            return optionError(e, option, quoted(value) + QStringLiteral(" is not a whole number"));
        bool ok = false;
        const qint64 number = value.toLongLong(&ok); // fails only on overflow now
        if (!ok || number < min || number > max)
            return optionError(e, option,
                               value + QStringLiteral(" is out of range (") + QString::number(min)
                                   + QStringLiteral("..") + QString::number(max) + u')');
        return number;
    });
}

Result<bool, ConfigError> Configuration::boolean(const QString &section, const QString &option, bool defaultValue) const
{
    using Value = Result<bool, ConfigError>;
    return typedValue(*this, section, option, defaultValue, [&option](const Entry &e, const QString &text) -> Value {
        const QString value = text.trimmed().toUpper();
        for (const char *yes : {"YES", "TRUE", "ON", "1"})
            if (value == QLatin1StringView(yes))
                return true;
        for (const char *no : {"NO", "FALSE", "OFF", "0"})
            if (value == QLatin1StringView(no))
                return false;
        return optionError(e, option, quoted(text) + QStringLiteral(" is not YES or NO"));
    });
}

Result<QString, ConfigError> Configuration::expand(const QString &raw, const ConfigOrigin &origin) const
{
    VariableExpander expander(*this);
    QString out;
    if (!expander.expand(raw, out))
        return ConfigError{origin, expander.error()};
    return out;
}

} // namespace pepsi
