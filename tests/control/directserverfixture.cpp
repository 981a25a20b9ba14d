// SPDX-License-Identifier: AGPL-3.0-or-later
#include "directserverfixture.h"

#include <QTest>

DirectServerFixture::DirectServerFixture()
    : m_server(m_dispatch.board(), m_dispatch, m_dispatch)
{ }

bool DirectServerFixture::listen()
{
    if (const auto error = m_server.listen(path())) {
        qWarning().noquote() << "DirectServerFixture:" << *error;
        return false;
    }
    return true;
}

void DirectServerTest::init()
{
    m_daemon = std::make_unique<DirectServerFixture>();
    QVERIFY(m_daemon->listen());
}

void DirectServerTest::cleanup() { m_daemon.reset(); }
