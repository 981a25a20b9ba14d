// SPDX-License-Identifier: AGPL-3.0-or-later
#include "storage/operatorthread.h"

#include "model/answerrelay.h"
#include "storage/controlstore.h"
#include "storage/messagestore.h"

#include <QSqlDatabase>
#include <optional>
#include <type_traits>

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

    // One statement of a job: `query` on the store `open` gave (or why there
    // is none), an empty answer meaning the statement failed. Every job goes
    // through here so that none forgets to drop a connection that went with a
    // failed statement; the next job opens a new one.
    template<typename Store, typename Query>
    auto ask(Result<Store *, QString> open, Query query)
        -> Result<typename std::invoke_result_t<Query, Store &>::value_type, QString>
    {
        if (!open)
            return open.error();
        Store &store = *open.value();
        auto answer = query(store);
        if (!answer) {
            QString error = store.lastError();
            if (!connectionAnswers(OperatorConnection))
                QSqlDatabase::database(OperatorConnection, false).close();
            return error;
        }
        return *std::move(answer);
    }

    void configure(QString database, SessionLimits limits)
    {
        m_database = std::move(database);
        m_limits = limits;
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

namespace {

Result<QueueCounts, QString> countRows(OperatorWorker &worker)
{
    return worker.ask(worker.store(), [](ControlStore &store) { return store.queueCounts(); });
}

// A job not begun once the dispatcher stops: refused, not run.
template<typename T>
Result<T, QString> stopping()
{
    return failure(QStringLiteral("the dispatcher is stopping"));
}

} // namespace

OperatorThread::OperatorThread(QString database, QString applicationName, SessionLimits limits, QObject *parent)
    : QObject(parent)
    , m_counts([this](quint64 generation) { count(generation); })
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
    // This object outlives the thread, so its flag may be read there.
    OperatorWorker *worker = m_worker;
    QMetaObject::invokeMethod(worker,
                              [this, worker, job = std::move(job), answer = answerOn(context, std::move(done))] {
                                  answer(m_stopping ? stopping<T>() : job(*worker));
                              });
}

void OperatorThread::configure(const QString &database, SessionLimits limits)
{
    OperatorWorker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker, database, limits] { worker->configure(database, limits); });
}

void OperatorThread::reconnect()
{
    OperatorWorker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker] { worker->close(); });
}

void OperatorThread::queueCounts(QObject *context, Done<QueueCounts> done)
{
    submit<QueueCounts>(countRows, context, std::move(done));
}

void OperatorThread::queueCounts(Freshness freshness, QObject *asker, Answer<QueueCounts> answer)
{
    m_counts.ask(freshness, answerOn(asker, std::move(answer)));
}

void OperatorThread::count(quint64 generation)
{
    OperatorWorker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [this, worker, generation] {
        m_counts.arrived(m_stopping ? stopping<QueueCounts>() : countRows(*worker), generation);
    });
}

void OperatorThread::requeue(const RequeueRequest &request, QObject *context, Done<RequeueOutcome> done)
{
    submit<RequeueOutcome>(
        [this, request](OperatorWorker &worker) {
            auto outcome =
                worker.ask(worker.store(), [&request](ControlStore &store) { return store.requeue(request); });
            // Before anyone hears of it: the next count sees the rows moved.
            if (outcome)
                m_counts.forget();
            return outcome;
        },
        context, std::move(done));
}

void OperatorThread::messages(const MessagesRequest &request, QObject *context, Done<MessagePage> done)
{
    submit<MessagePage>(
        [request](OperatorWorker &worker) {
            return worker.ask(worker.messageStore(),
                              [&request](MessageStore &store) { return store.messages(request); });
        },
        context, std::move(done));
}

void OperatorThread::message(qint64 id, QObject *context, Done<MessageDetail> done)
{
    submit<MessageDetail>(
        [id](OperatorWorker &worker) -> Result<MessageDetail, QString> {
            auto detail = worker.ask(worker.messageStore(), [id](MessageStore &store) { return store.message(id); });
            if (!detail)
                return detail.error();
            if (!detail->has_value())
                return QStringLiteral("no message with id %1").arg(id);
            return **detail;
        },
        context, std::move(done));
}

void OperatorThread::setOverlay(const OverlaySetting &setting, QObject *context, Done<bool> done)
{
    submit<bool>(
        [setting](OperatorWorker &worker) {
            return worker.ask(worker.store(), [&setting](ControlStore &store) {
                if (!setting.value)
                    return store.unsetOverlay(setting);
                return store.setOverlay(setting) ? std::optional(true) : std::nullopt;
            });
        },
        context, std::move(done));
}

} // namespace pepsi
