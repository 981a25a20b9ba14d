// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>

class QProcess;

namespace pepsi::transport {

// Ends the ssh of a ControlChannel that is gone, without making anyone wait:
// its stdin closed (the far bridge ends, and with it ssh, in milliseconds),
// killed from a timer if it has not ended after GraceMs, deleted once it
// ended, so that neither a zombie nor a stray ssh is left. One per
// application, a child of the application object; when the application goes,
// the ssh still running are killed and waited for (the event loop is over).
class SshReaper : public QObject
{
    Q_OBJECT

public:
    static constexpr int GraceMs = 3000;

    // Takes `ssh`, a running process whose owner no longer listens to it.
    // Without an application object, or from another thread than its own, it
    // waits for the end itself (up to GraceMs, then kills), as pepsi-ctl may.
    static void adopt(QProcess *ssh);
    // Blocking: closes the stdin of `ssh`, waits up to `ms` for it to end,
    // then kills and reaps it.
    static void waitFor(QProcess *ssh, int ms);

    ~SshReaper() override;

private:
    explicit SshReaper(QObject *parent);
    static SshReaper *instance();
};

} // namespace pepsi::transport
