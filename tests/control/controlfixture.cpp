// SPDX-License-Identifier: AGPL-3.0-or-later
#include "controlfixture.h"

#include "control/protocol.h"

#include <unistd.h>

ControlFixture::ControlFixture(QObject *parent)
    : QObject(parent)
    , m_dispatch(std::make_unique<FakeDispatch>())
    , m_server(std::make_unique<pepsi::ControlServer>(m_dispatch->board(), *m_dispatch, *m_dispatch))
{
    // No tick unless a test asks for one: it would number events and wake
    // clients at times no test chose.
    setTickInterval(std::chrono::hours(1));
}

void ControlFixture::setTickInterval(std::chrono::milliseconds interval)
{
    pepsi::ControlLimits limits = m_server->limits();
    limits.tick = interval;
    m_server->setLimits(limits);
}

ControlFixture::~ControlFixture()
{
    // Clients first, then the server, then what it watches.
    m_proxy.close();
    m_server.reset();
}

bool ControlFixture::listen()
{
    if (const auto error = m_server->listen(serverPath())) {
        qWarning().noquote() << "ControlFixture:" << *error;
        return false;
    }
    return m_proxy.listen(path(), serverPath());
}

void ControlFixture::goAway()
{
    m_proxy.close();
    m_server->close();
}

void ControlFixture::setAdmin(bool admin)
{
    m_server->setAdminUids(admin ? QList<uint>{uint(::geteuid())} : QList<uint>{});
}

QStringList ControlFixture::commands() const
{
    QStringList out;
    for (const QJsonObject &request : m_proxy.requests)
        out.append(request.value(pepsi::protocol::field::Cmd).toString());
    return out;
}

int ControlFixture::count(const QString &cmd) const { return int(commands().count(cmd)); }

QList<QJsonObject> ControlFixture::requests(const QString &cmd) const
{
    QList<QJsonObject> out;
    for (const QJsonObject &request : m_proxy.requests) {
        if (request.value(pepsi::protocol::field::Cmd).toString() == cmd)
            out.append(request);
    }
    return out;
}

void ControlFixture::publish(const QString &event, const QJsonObject &fields) { m_dispatch->emitEvent(event, fields); }
