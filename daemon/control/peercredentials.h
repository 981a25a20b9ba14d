// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <optional>

namespace pepsi {

// Who is at the other end of a connected local socket, as the kernel saw it
// when the peer connected (SO_PEERCRED): not something the peer can claim.
struct PeerCredentials
{
    uint uid = 0;
    qint64 pid = 0;

    // Nothing when the descriptor is not a connected AF_UNIX socket.
    static std::optional<PeerCredentials> ofSocket(qintptr descriptor);
};

} // namespace pepsi
