// SPDX-License-Identifier: AGPL-3.0-or-later
#include "app/configcheck.h"

#include "config/dispatchsettings.h"
#include "config/optionsource.h"
#include "config/stagegraph.h"
#include "control/protocol.h"
#include "control/stagescodec.h"
#include "core/pipelinecheck.h"
#include "core/pipelineconfig.h"
#include "storage/overlaystore.h"
#include "storage/queueconnection.h"
#include "storage/schemacheck.h"
#include "workers/accountaccess.h"

#include <QDir>
#include <QFileInfo>
#include <cstring>
#include <unistd.h>

namespace pepsi {

namespace {

// An unreachable database must not hold `systemctl reload` for long.
QString withShortTimeout(const QString &database)
{
    if (database.contains(QStringLiteral("connect_timeout")))
        return database;
    if (database.startsWith(QStringLiteral("postgres://")) || database.startsWith(QStringLiteral("postgresql://")))
        return database + (database.contains(u'?') ? u'&' : u'?') + QStringLiteral("connect_timeout=3");
    return database + QStringLiteral(" connect_timeout=3");
}

// The source as the `stages` reply names it, with the file's line, or what
// the file says under an overlay row: "file pepsi.conf:7", "overlay; the file
// says 4", "default".
QString source(const Configuration &merged, const QString &section, const QString &option)
{
    const OptionProvenance provenance = provenanceOf(merged, section, option);
    QString text = protocol::optionSourceName(provenance.source);
    if (provenance.source == OptionSource::File)
        text += u' ' + merged.entry(section, option)->origin.describe();
    else if (provenance.fileValue)
        text += QStringLiteral("; the file says ") + *provenance.fileValue;
    return text;
}

} // namespace

ConfigCheck::ConfigCheck(QString configPath)
    : m_path(std::move(configPath))
{ }

void ConfigCheck::run()
{
    m_found << QStringLiteral("configuration: ") + m_path;
    const auto file = Configuration::load(m_path);
    if (!file) {
        m_problems << file.error().toString();
        return;
    }
    const auto fileSettings = DispatchSettings::fromConfiguration(file.value());
    if (!fileSettings)
        m_problems << fileSettings.error().toString();
    QList<OverlayRow> overlay;
    if (fileSettings)
        (void)readOverlay(fileSettings->database, file.value(), &overlay);
    const Configuration merged = file->withOverlay(overlay);
    if (const auto settings = DispatchSettings::fromConfiguration(merged); !settings && fileSettings)
        m_problems << settings.error().toString();
    collectGraphProblems(merged);
    describe(merged);
    if (!fileSettings)
        return;
    if (m_problems.isEmpty()) {
        // The verdict serve itself would reach; it agrees with the above.
        const auto pipeline = PipelineConfig::atStart(file.value(), overlay, fileSettings.value());
        if (!pipeline)
            m_problems << pipeline.error().toString();
        else
            for (const QString &ignored : pipeline->ignored)
                m_found << QStringLiteral("needs a restart to take effect: ") + ignored;
    }
    checkPrograms(merged, fileSettings->user);
    const QString socket =
        fileSettings->controlSocket.isEmpty() ? protocol::defaultSocketPath() : fileSettings->controlSocket;
    checkSocketDirectory(merged, socket, fileSettings->user);
}

bool ConfigCheck::readOverlay(const QString &database, const Configuration &file, QList<OverlayRow> *rows)
{
    QueueConnection connection(QStringLiteral("pepsi-check"));
    if (!connection.open(withShortTimeout(database), QStringLiteral("pepsi-dispatch check"))) {
        m_found << QStringLiteral("database: not reachable (%1); config_overlay not read, schema version not "
                                  "checked: the file alone was checked")
                       .arg(connection.lastError().simplified());
        return false;
    }
    const SchemaCheck schema = SchemaCheck::run(connection.database());
    if (schema.verdict != SchemaCheck::Verdict::Current) {
        m_problems << where(file, QStringLiteral("pepsi"), QStringLiteral("database")) + QStringLiteral(": ")
                + schema.message;
        m_found << QStringLiteral("database: reachable; config_overlay not read (schema not current)");
        return false;
    }
    OverlayStore store(connection);
    const auto read = store.read();
    if (!read) {
        m_problems << where(file, QStringLiteral("pepsi"), QStringLiteral("database")) + QStringLiteral(": ")
                + store.lastError();
        return false;
    }
    *rows = read.value();
    m_found << QStringLiteral("database: reachable, schema version %1; config_overlay: %2 rows read")
                   .arg(schema.found)
                   .arg(rows->size());
    return true;
}

void ConfigCheck::collectGraphProblems(const Configuration &merged)
{
    m_problems << PipelineCheck::graphProblems(merged);
}

void ConfigCheck::describe(const Configuration &merged)
{
    const auto graph = StageGraph::fromConfiguration(merged);
    if (!graph)
        return;
    const QStringList &stageOptions = StageGraph::stageOptions();
    for (const StageConfig &stage : graph->stages()) {
        const QString section = QStringLiteral("stage-") + stage.name;
        m_found << QStringLiteral("stage %1").arg(stage.name);
        const QStringList values{stage.program,
                                 QString::number(stage.parallelism),
                                 QString::number(stage.queueLimit),
                                 QString::number(stage.maxMessages),
                                 stage.next.join(QStringLiteral(", ")),
                                 stage.fuse ? QStringLiteral("yes") : QStringLiteral("no")};
        for (qsizetype i = 0; i < stageOptions.size(); ++i)
            m_found << QStringLiteral("  %1 = %2 (%3)")
                           .arg(stageOptions[i], values[i], source(merged, section, stageOptions[i]));
        for (const QString &option : merged.options(section))
            if (!stageOptions.contains(option.toUpper()))
                m_found << QStringLiteral("  %1 = %2 (%3; for the stage program)")
                               .arg(option.toUpper(), merged.entry(section, option)->rawValue,
                                    source(merged, section, option));
    }
    for (const StageConfig &stage : graph->stages())
        for (const QString &successor : stage.next)
            m_found << QStringLiteral("edge %1 -> %2").arg(stage.name, successor);
    for (const QString &section : {QStringLiteral("pepsi"), QStringLiteral("pepsi-dispatch")})
        for (const QString &option : merged.options(section))
            m_found << QStringLiteral("[%1] %2 = %3 (%4)")
                           .arg(section, option.toUpper(), merged.entry(section, option)->rawValue,
                                source(merged, section, option));
}

void ConfigCheck::checkPrograms(const Configuration &merged, const QString &user)
{
    const auto account = AccountAccess::forUser(user);
    if (!account) {
        m_problems << where(merged, QStringLiteral("pepsi-dispatch"), QStringLiteral("user")) + QStringLiteral(": ")
                + account.error();
        return;
    }
    m_found << QStringLiteral("programs and the socket directory checked as %1").arg(account->accountName());
    m_problems << PipelineCheck::programProblems(merged, *account);
}

void ConfigCheck::checkSocketDirectory(const Configuration &merged, const QString &socket, const QString &user)
{
    const QString directory = QFileInfo(socket).absolutePath();
    const QString at = where(merged, QStringLiteral("pepsi-dispatch"), QStringLiteral("control_socket"));
    if (QFileInfo(directory).isDir()) {
        // The daemon listens there after dropping to USER.
        const auto account = AccountAccess::forUser(user);
        if (account && account->check(directory, W_OK | X_OK) != 0)
            m_problems << at
                    + QStringLiteral(": CONTROL_SOCKET: the directory %1 is not writable by %2")
                          .arg(directory, account->accountName());
        return;
    }
    // Missing: the daemon creates it before the drop, so the caller's own
    // account needs the nearest existing parent.
    QString parent = directory;
    while (!QFileInfo(parent).isDir() && parent != u'/')
        parent = QFileInfo(parent).absolutePath();
    if (::access(QFile::encodeName(parent).constData(), W_OK | X_OK) != 0)
        m_problems << at
                + QStringLiteral(": CONTROL_SOCKET: %1 does not exist and cannot be created (%2 is not writable)")
                      .arg(directory, parent);
}

QString ConfigCheck::where(const Configuration &merged, const QString &section, const QString &option) const
{
    const QString at = PipelineCheck::where(merged, section, option);
    return at.isEmpty() ? m_path : at;
}

} // namespace pepsi
