// SPDX-License-Identifier: AGPL-3.0-or-later
#include "daemonstart.h"

#include <QtGlobal>

bool startReady(DaemonProcess &daemon, const QStringList &arguments)
{
    if (!daemon.start(arguments) || !daemon.waitForReady()) {
        qWarning("the daemon did not get ready: %s", qPrintable(daemon.log()));
        return false;
    }
    return true;
}

std::unique_ptr<DaemonProcess> startWorkerStage(const QString &database, const DaemonProcess::Options &stageOptions,
                                                const DaemonProcess::Options &dispatchOptions,
                                                const QStringList &moreStages)
{
    auto daemon = std::make_unique<DaemonProcess>(database);
    daemon->setOption(QStringLiteral("WORKER_IDLE_TIMEOUT"), QStringLiteral("60 s"));
    for (const auto &[option, value] : dispatchOptions)
        daemon->setOption(option, value);
    daemon->addStage(QStringLiteral("s"), DaemonProcess::fakeWorker(), stageOptions);
    for (const QString &stage : moreStages)
        daemon->addStage(stage, DaemonProcess::fakeWorker());
    if (!startReady(*daemon))
        return nullptr;
    return daemon;
}
