// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/controlthread.h"

#include "control/controlserver.h"

namespace pepsi {

ControlThread::ControlThread(const DispatchBoard &board, DispatchPort &port, OperatorQueries &operatorQueries,
                             QObject *parent)
    : QObject(parent)
    , m_home(new QObject)
{
    m_thread.setObjectName(QStringLiteral("control"));
    m_home->moveToThread(&m_thread);
    m_thread.start();
    runThere([&] {
        m_server = new ControlServer(board, port, operatorQueries);
        connect(m_server, &ControlServer::clientCountChanged, this, &ControlThread::clientCountChanged);
    });
}

ControlThread::~ControlThread()
{
    // Answers still on their way find their connections gone, and are dropped.
    runThere([this] { delete m_server; });
    m_thread.quit();
    m_thread.wait();
    delete m_home;
}

void ControlThread::runThere(const std::function<void()> &call)
{
    QMetaObject::invokeMethod(m_home, call, Qt::BlockingQueuedConnection);
}

std::optional<QString> ControlThread::listen(const QString &path)
{
    std::optional<QString> error;
    runThere([&] { error = m_server->listen(path); });
    return error;
}

bool ControlThread::isListening()
{
    bool listening = false;
    runThere([&] { listening = m_server->isListening(); });
    return listening;
}

void ControlThread::withServer(const std::function<void(ControlServer &)> &call)
{
    runThere([&] { call(*m_server); });
}

} // namespace pepsi
