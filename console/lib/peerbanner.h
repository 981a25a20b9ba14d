// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QLabel>

namespace pepsi::console {

class ControlClient;

// The banner over the views while the socket the console was given is not
// the daemon's (PostgreSQL's, say), or while ssh cannot bring the console to
// the far host's daemon (ssh's own words: an unknown host key, a refused key):
// that message says what to change, so it is shown whole and wrapped, not cut
// to the status bar's one line. Hidden once the client is connected.
class PeerBanner : public QLabel
{
    Q_OBJECT

public:
    explicit PeerBanner(ControlClient *client, QWidget *parent = nullptr);
};

} // namespace pepsi::console
