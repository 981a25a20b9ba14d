// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>

class QSocketNotifier;

namespace pepsi::ctl {

// SIGINT and SIGTERM reach the event loop as interrupted() (through a
// socketpair that the handler writes one byte to), so that `pepsi-ctl events`
// ends cleanly with exit 0 on Ctrl-C instead of dying of the signal.
class Interrupt : public QObject
{
    Q_OBJECT

public:
    explicit Interrupt(QObject *parent = nullptr);
    ~Interrupt() override;
    // False when the handlers could not be installed.
    bool install();

Q_SIGNALS:
    void interrupted(int signal);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace pepsi::ctl
