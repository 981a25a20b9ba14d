// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/pipelinereloader.h"

#include "core/pipelinecheck.h"
#include "storage/overlaystore.h"
#include "workers/accountaccess.h"

#include <algorithm>

namespace pepsi {

namespace {

// A stage's options as pepsi.conf names them, with their values as text.
QList<std::pair<QString, QString>> optionsOf(const StageConfig &stage)
{
    return {{QStringLiteral("PROGRAM"), stage.program},
            {QStringLiteral("PARALLELISM"), QString::number(stage.parallelism)},
            {QStringLiteral("QUEUE_LIMIT"), QString::number(stage.queueLimit)},
            {QStringLiteral("MAX_MESSAGES"), QString::number(stage.maxMessages)},
            {QStringLiteral("NEXT"), stage.next.join(u' ')},
            {QStringLiteral("FUSE"), stage.fuse ? QStringLiteral("YES") : QStringLiteral("NO")}};
}

} // namespace

PipelineReloader::PipelineReloader(const Configuration &file, const DispatchSettings &fileSettings, QObject *parent)
    : QObject(parent)
    , m_file(file)
    , m_fileSettings(fileSettings)
{
    m_current.settings = fileSettings;
    m_coalesce.setSingleShot(true);
    connect(&m_coalesce, &QTimer::timeout, this, [this] { Q_EMIT due(m_coalescedSource); });
}

std::optional<QList<OverlayRow>> PipelineReloader::readOverlay()
{
    if (!m_store) {
        m_overlayError = QStringLiteral("no database session");
        return std::nullopt;
    }
    auto rows = m_store->read();
    if (!rows)
        m_overlayError = m_store->lastError();
    return rows;
}

bool PipelineReloader::overlayDiffers(const QList<OverlayRow> &overlay) const
{
    return !std::equal(overlay.begin(), overlay.end(), m_overlay.begin(), m_overlay.end(),
                       [](const OverlayRow &x, const OverlayRow &y) {
                           return x.section == y.section && x.option == y.option && x.value == y.value;
                       });
}

PipelineReloader::Candidate PipelineReloader::prepare(const QList<OverlayRow> &overlay, Check check) const
{
    Candidate candidate;
    candidate.overlay = overlay;
    const auto file = Configuration::load(m_file.fileName());
    if (!file) {
        candidate.problems << file.error().toString();
        candidate.parses = false;
        return candidate;
    }
    candidate.file = file.value();
    const auto pipeline = m_started ? PipelineConfig::onReload(candidate.file, overlay, m_current.settings)
                                    : PipelineConfig::atStart(candidate.file, overlay, m_fileSettings);
    if (!pipeline) {
        candidate.parses = false;
        // Every problem, as `pepsi-dispatch check` lists them; the first
        // one is the verdict whatever the walk finds.
        candidate.problems = PipelineCheck::graphProblems(candidate.file.withOverlay(overlay));
        if (!candidate.problems.contains(pipeline.error().toString()))
            candidate.problems.prepend(pipeline.error().toString());
        return candidate;
    }
    candidate.pipeline = pipeline.value();
    candidate.changes = changesBetween(m_current.graph, candidate.pipeline.graph);
    if (check == Check::Programs) {
        // The daemon runs as USER by now: the check is its own account's.
        const auto account = AccountAccess::forUser(m_current.settings.user);
        if (account)
            candidate.problems << PipelineCheck::programProblems(candidate.file.withOverlay(overlay), *account);
        else
            candidate.problems << account.error();
    }
    return candidate;
}

void PipelineReloader::accept(const Candidate &candidate)
{
    m_file = candidate.file;
    if (!m_started)
        return;
    m_overlay = candidate.overlay;
    m_current = candidate.pipeline;
}

Result<PipelineConfig, ConfigError> PipelineReloader::start(const QList<OverlayRow> &overlay)
{
    auto pipeline = PipelineConfig::atStart(m_file, overlay, m_fileSettings);
    if (!pipeline)
        return pipeline;
    m_current = pipeline.value();
    m_overlay = overlay;
    m_started = true;
    return pipeline;
}

void PipelineReloader::configChanged(const QString &source)
{
    m_coalescedSource = source;
    if (!m_coalesce.isActive())
        m_firstPending.start();
    const qint64 untilMax = CoalesceMaxMs - m_firstPending.elapsed();
    m_coalesce.start(int(std::clamp<qint64>(untilMax, 0, CoalesceMs)));
}

ReloadChanges PipelineReloader::changesBetween(const StageGraph &before, const StageGraph &after)
{
    ReloadChanges changes;
    for (const StageConfig &stage : after.stages()) {
        const StageConfig *old = before.stage(stage.name);
        if (!old) {
            changes.added << stage.name;
            continue;
        }
        const auto was = optionsOf(*old);
        const auto now = optionsOf(stage);
        QList<OptionChange> options;
        for (qsizetype i = 0; i < now.size(); ++i)
            if (was[i].second != now[i].second)
                options.append({now[i].first, was[i].second, now[i].second});
        if (!options.isEmpty())
            changes.changed.insert(stage.name, options);
    }
    for (const StageConfig &stage : before.stages())
        if (!after.stage(stage.name))
            changes.removed << stage.name;
    return changes;
}

} // namespace pepsi
