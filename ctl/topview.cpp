// SPDX-License-Identifier: AGPL-3.0-or-later
#include "topview.h"

#include "control/failurecodec.h"
#include "control/snapshotcodec.h"
#include "table.h"
#include "views.h"

namespace pepsi::ctl::views {

QString topFrame(const QJsonObject &status, std::chrono::milliseconds interval, bool keys)
{
    const StatusSnapshot snapshot = protocol::statusFromJson(status);
    QString text = QStringLiteral("pepsi-ctl top: %1, every %2 (%3)\n")
                       .arg(formatTime(snapshot.time), formatAge(interval.count()),
                            keys ? QStringLiteral("q quits") : QStringLiteral("Ctrl-C quits"));
    text += views::status(status);
    Table table({QStringLiteral("STAGE"), QStringLiteral("RUNS"), QStringLiteral("FAILURES"),
                 QStringLiteral("TIMEOUTS"), QStringLiteral("CRASHES"), QStringLiteral("IN A ROW"),
                 QStringLiteral("FAILED 10S")});
    table.setTextColumns({0});
    for (const PoolSnapshot &pool : snapshot.pools) {
        const StageStatsSnapshot stats = snapshot.stats.stages.value(pool.stage);
        table.addRow({pool.stage, QString::number(stats.runs), QString::number(stats.failures),
                      QString::number(stats.timeouts), QString::number(stats.crashes),
                      QString::number(stats.failedInARow),
                      QString::number(protocol::failurePercent(stats.failureShare)) + QStringLiteral(" %")});
    }
    return text + u'\n' + table.render();
}

} // namespace pepsi::ctl::views
