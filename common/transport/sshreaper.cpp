// SPDX-License-Identifier: AGPL-3.0-or-later
#include "transport/sshreaper.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QProcess>
#include <QThread>
#include <QTimer>

#include <algorithm>

namespace pepsi::transport {

namespace {

// How long, all together, a quitting application gives the ssh still running
// to end by themselves before it kills them.
constexpr int QuitGraceMs = 500;

} // namespace

SshReaper::SshReaper(QObject *parent)
    : QObject(parent)
{ }

SshReaper::~SshReaper()
{
    QElapsedTimer clock;
    clock.start();
    for (QProcess *ssh : findChildren<QProcess *>(Qt::FindDirectChildrenOnly))
        waitFor(ssh, int(std::max<qint64>(0, QuitGraceMs - clock.elapsed())));
}

SshReaper *SshReaper::instance()
{
    static QPointer<SshReaper> reaper;
    QCoreApplication *app = QCoreApplication::instance();
    if (!app || QThread::currentThread() != app->thread())
        return nullptr;
    if (!reaper)
        reaper = new SshReaper(app);
    return reaper;
}

void SshReaper::waitFor(QProcess *ssh, int ms)
{
    if (ssh->state() == QProcess::NotRunning)
        return;
    ssh->closeWriteChannel();
    if (!ssh->waitForFinished(ms)) {
        ssh->kill();
        ssh->waitForFinished(GraceMs);
    }
}

void SshReaper::adopt(QProcess *ssh)
{
    SshReaper *reaper = instance();
    if (!reaper) {
        waitFor(ssh, GraceMs);
        return;
    }
    ssh->setParent(reaper);
    if (ssh->state() == QProcess::NotRunning) {
        ssh->deleteLater();
        return;
    }
    connect(ssh, &QProcess::finished, ssh, &QObject::deleteLater);
    // One still starting may never run (ssh missing): no finished() then.
    connect(ssh, &QProcess::errorOccurred, ssh, [ssh](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            ssh->deleteLater();
    });
    // The end of its stdin tells the far bridge to close, and ssh follows.
    ssh->closeWriteChannel();
    QTimer::singleShot(GraceMs, ssh, [ssh] {
        if (ssh->state() != QProcess::NotRunning)
            ssh->kill();
    });
}

} // namespace pepsi::transport
