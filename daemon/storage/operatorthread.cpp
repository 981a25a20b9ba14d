// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/operatorthread.h"

#include "storage/controlstore.h"
#include "storage/messagestore.h"

#include <QPointer>
#include <QSqlDatabase>

namespace pepsi {

namespace {
const QString OperatorConnection = QStringLiteral("pepsi-operator");
} // namespace

// Everything in here runs in the operator thread.
class OperatorWorker : public QObject
{
public:
    OperatorWorker(QString database, QString applicationName, SessionLimits limits)
        : m_database(std::move(database))
        , m_applicationName(std::move(applicationName))
        , m_limits(limits)
        , m_store(OperatorConnection)
        , m_messages(OperatorConnection)
    { }

    // The store on an open connection, or why there is none.
    Result<ControlStore *, QString> store()
    {
        if (QSqlDatabase::contains(OperatorConnection) && QSqlDatabase::database(OperatorConnection, false).isOpen())
            return &m_store;
        auto db = openDispatcherConnection(OperatorConnection, m_database, m_applicationName, m_limits);
        if (!db)
            return db.error();
        return &m_store;
    }

    // The message store on an open connection, or why there is none.
    Result<MessageStore *, QString> messageStore()
    {
        if (auto open = store(); !open)
            return open.error();
        return &m_messages;
    }

    // A statement failed: if the connection went with it, the next job opens a new one.
    QString failed(const QString &error)
    {
        if (!connectionAnswers(OperatorConnection))
            QSqlDatabase::database(OperatorConnection, false).close();
        return error;
    }

    void close()
    {
        if (QSqlDatabase::contains(OperatorConnection)) {
            QSqlDatabase::database(OperatorConnection, false).close();
            QSqlDatabase::removeDatabase(OperatorConnection);
        }
    }

private:
    QString m_database;
    QString m_applicationName;
    SessionLimits m_limits;
    ControlStore m_store;
    MessageStore m_messages;
};

OperatorThread::OperatorThread(QString database, QString applicationName, SessionLimits limits, QObject *parent)
    : QObject(parent)
    , m_worker(new OperatorWorker(std::move(database), std::move(applicationName), limits))
{
    m_thread.setObjectName(QStringLiteral("pepsi-operator"));
    m_worker->moveToThread(&m_thread);
    m_thread.start();
}

OperatorThread::~OperatorThread()
{
    // Queued behind the jobs still waiting (refused once stop() was called,
    // run otherwise, their answers going nowhere once their contexts are
    // gone), then the connection closes in the thread that opened it.
    OperatorWorker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker] {
        worker->close();
        delete worker;
        QThread::currentThread()->quit();
    });
    m_thread.wait();
}

template<typename T>
void OperatorThread::submit(std::function<Result<T, QString>(OperatorWorker &)> job, QObject *context, Done<T> done)
{
    // The answer comes back through this object, which outlives the thread;
    // `context` is only looked at here, on its own thread.
    QPointer<QObject> guard(context);
    OperatorWorker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [this, worker, job = std::move(job), guard, done = std::move(done)] {
        Result<T, QString> result =
            m_stopping ? Result<T, QString>(failure(QStringLiteral("the dispatcher is stopping"))) : job(*worker);
        QMetaObject::invokeMethod(this, [guard, done, result = std::move(result)] {
            if (guard)
                done(result);
        });
    });
}

void OperatorThread::reconnect()
{
    OperatorWorker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker] { worker->close(); });
}

void OperatorThread::queueCounts(QObject *context, Done<QueueCounts> done)
{
    submit<QueueCounts>(
        [](OperatorWorker &worker) -> Result<QueueCounts, QString> {
            auto store = worker.store();
            if (!store)
                return store.error();
            auto counts = store.value()->queueCounts();
            if (!counts)
                return worker.failed(store.value()->lastError());
            return *counts;
        },
        context, std::move(done));
}

void OperatorThread::requeue(const RequeueRequest &request, QObject *context, Done<RequeueOutcome> done)
{
    submit<RequeueOutcome>(
        [request](OperatorWorker &worker) -> Result<RequeueOutcome, QString> {
            auto store = worker.store();
            if (!store)
                return store.error();
            auto outcome = store.value()->requeue(request);
            if (!outcome)
                return worker.failed(store.value()->lastError());
            return *outcome;
        },
        context, std::move(done));
}

void OperatorThread::messages(const MessagesRequest &request, QObject *context, Done<MessagePage> done)
{
    submit<MessagePage>(
        [request](OperatorWorker &worker) -> Result<MessagePage, QString> {
            auto store = worker.messageStore();
            if (!store)
                return store.error();
            auto page = store.value()->messages(request);
            if (!page)
                return worker.failed(store.value()->lastError());
            return *page;
        },
        context, std::move(done));
}

void OperatorThread::message(qint64 id, QObject *context, Done<MessageDetail> done)
{
    submit<MessageDetail>(
        [id](OperatorWorker &worker) -> Result<MessageDetail, QString> {
            auto store = worker.messageStore();
            if (!store)
                return store.error();
            auto detail = store.value()->message(id);
            if (!detail)
                return worker.failed(store.value()->lastError());
            if (!detail->has_value())
                return QStringLiteral("no message with id %1").arg(id);
            return **detail;
        },
        context, std::move(done));
}

void OperatorThread::setOverlay(const OverlaySetting &setting, QObject *context, Done<bool> done)
{
    submit<bool>(
        [setting](OperatorWorker &worker) -> Result<bool, QString> {
            auto store = worker.store();
            if (!store)
                return store.error();
            if (!store.value()->setOverlay(setting))
                return worker.failed(store.value()->lastError());
            return true;
        },
        context, std::move(done));
}

} // namespace pepsi
