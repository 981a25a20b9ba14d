// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QMutex>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

class QThread;

namespace pepsi::bench {

// Keeps each system's pipeline live for pepsi-bench-console: a row into
// every database's first stage, `perSecond` times a second, from a thread of
// its own, so that the inserts' commits never hold up the probes' clocks on
// the driver's thread. Ticks then carry changes, as on a system at work.
class ConsoleFeeder
{
public:
    ConsoleFeeder(QStringList databases, QString stage, int perSecond);
    ~ConsoleFeeder();
    ConsoleFeeder(const ConsoleFeeder &) = delete;
    ConsoleFeeder &operator=(const ConsoleFeeder &) = delete;

    void start();
    void stop();
    qint64 inserted() const { return m_inserted.load(); }
    // The first error of an open or an insert, if one came.
    std::optional<QString> error() const;

private:
    void run();
    void fail(const QString &error);

    QStringList m_databases;
    QString m_stage;
    int m_perSecond;
    std::unique_ptr<QThread> m_thread;
    std::atomic<qint64> m_inserted{0};
    mutable QMutex m_mutex;
    QString m_error;
};

} // namespace pepsi::bench
