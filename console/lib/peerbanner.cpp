// SPDX-License-Identifier: AGPL-3.0-or-later
#include "peerbanner.h"

#include "controlclient.h"

namespace pepsi::console {

using namespace Qt::StringLiterals;

PeerBanner::PeerBanner(ControlClient *client, QWidget *parent)
    : QLabel(parent)
{
    setObjectName(u"peerBanner"_s);
    setStyleSheet(u"QLabel { background: #f8d7da; color: #721c24; padding: 4px; font-weight: bold; }"_s);
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse); // the path, to copy
    hide();
    const auto showMessage = [this](const QString &message) {
        setText(message);
        show();
    };
    connect(client, &ControlClient::wrongPeer, this, showMessage);
    connect(client, &ControlClient::sshFailed, this, showMessage);
    connect(client, &ControlClient::stateChanged, this, [this](ControlClient::State state) {
        if (state == ControlClient::State::Connected)
            hide();
    });
}

} // namespace pepsi::console
