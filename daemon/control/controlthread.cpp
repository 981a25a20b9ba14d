// SPDX-License-Identifier: AGPL-3.0-or-later
#include "control/controlthread.h"

#include "control/controlserver.h"
#include "control/dispatchmirror.h"

namespace pepsi {

ControlThread::ControlThread(DispatchView &loopView, DispatchControl &loopControl, const DispatchBoard &board,
                             QObject *parent)
    : QObject(parent)
    , m_home(new QObject)
{
    m_thread.setObjectName(QStringLiteral("control"));
    m_home->moveToThread(&m_thread);
    m_thread.start();
    runThere([&] {
        m_mirror = new DispatchMirror(loopView, loopControl, board);
        m_server = new ControlServer(*m_mirror, *m_mirror);
        connect(m_server, &ControlServer::clientCountChanged, this, &ControlThread::clientCountChanged);
    });
}

ControlThread::~ControlThread()
{
    // Answers the loop produces from here on have nowhere to go.
    m_mirror->detach();
    runThere([this] {
        delete m_server;
        delete m_mirror;
    });
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
