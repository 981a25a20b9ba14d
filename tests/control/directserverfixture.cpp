// SPDX-License-Identifier: AGPL-3.0-or-later
#include "directserverfixture.h"

DirectServerFixture::DirectServerFixture()
    : m_server(m_dispatch, m_dispatch)
{ }

bool DirectServerFixture::listen()
{
    if (const auto error = m_server.listen(path())) {
        qWarning().noquote() << "DirectServerFixture:" << *error;
        return false;
    }
    return true;
}
