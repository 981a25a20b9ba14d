// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>
#include <QSocketNotifier>
#include <memory>

namespace pepsi {

// SIGTERM, SIGINT and SIGHUP reach the event loop through a socketpair: the
// handler only writes the signal number; a QSocketNotifier turns it into a
// Qt signal. One instance per process.
class UnixSignals : public QObject
{
    Q_OBJECT

public:
    explicit UnixSignals(QObject *parent = nullptr);
    ~UnixSignals() override;

    bool install(); // false: socketpair/sigaction failed (errno says why)

Q_SIGNALS:
    void terminateRequested(int signalNumber);
    void hangup();

private:
    void onReadable();

    int m_fds[2] = {-1, -1};
    std::unique_ptr<QSocketNotifier> m_notifier;
};

} // namespace pepsi
