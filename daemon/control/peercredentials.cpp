// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/peercredentials.h"

#include <sys/socket.h>

namespace pepsi {

std::optional<PeerCredentials> PeerCredentials::ofSocket(qintptr descriptor)
{
    if (descriptor < 0)
        return std::nullopt;
    ucred credentials{};
    socklen_t length = sizeof credentials;
    if (::getsockopt(int(descriptor), SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0
        || length != sizeof credentials)
        return std::nullopt;
    return PeerCredentials{uint(credentials.uid), qint64(credentials.pid)};
}

} // namespace pepsi
