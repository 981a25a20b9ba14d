// SPDX-License-Identifier: AGPL-3.0-or-later
#include "benchcommon.h"

#include "benchsetup.h"
#include "procstats.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QIODevice>
#include <QSysInfo>
#include <QThread>

#include <cstdio>

namespace pepsi::bench {

void printHeadline()
{
    out(QStringLiteral("%1 %2 (%3 build), %4, nproc %5, load %6")
            .arg(QCoreApplication::applicationName(), QDateTime::currentDateTimeUtc().toString(Qt::ISODate),
                 QStringLiteral(PEPSI_BENCH_BUILD_TYPE), QSysInfo::prettyProductName(),
                 QString::number(QThread::idealThreadCount()), loadAverage()));
}

int failed(const QString &error, int exitCode)
{
    std::fprintf(stderr, "%s: %s\n", QCoreApplication::applicationName().toUtf8().constData(),
                 error.toUtf8().constData());
    return exitCode;
}

bool readLines(transport::ControlChannel &channel, protocol::LineFramer &framer,
               const protocol::LineFramer::LineHandler &onLine)
{
    while (channel.device() && channel.device()->bytesAvailable() > 0) {
        const QByteArray bytes = channel.device()->read(protocol::MaxLine);
        if (framer.feed(bytes, onLine) == protocol::LineFramer::Outcome::TooLong)
            return false;
    }
    return true;
}

} // namespace pepsi::bench
