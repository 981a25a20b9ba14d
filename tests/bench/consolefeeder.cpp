// SPDX-License-Identifier: AGPL-3.0-or-later
#include "consolefeeder.h"

#include "benchdatabase.h"

#include <QEventLoop>
#include <QThread>
#include <QTimer>

#include <vector>

namespace pepsi::bench {

ConsoleFeeder::ConsoleFeeder(QStringList databases, QString stage, int perSecond)
    : m_databases(std::move(databases))
    , m_stage(std::move(stage))
    , m_perSecond(perSecond)
{ }

ConsoleFeeder::~ConsoleFeeder() { stop(); }

void ConsoleFeeder::start()
{
    m_thread.reset(QThread::create([this] { run(); }));
    m_thread->start();
}

void ConsoleFeeder::stop()
{
    if (!m_thread)
        return;
    m_thread->requestInterruption();
    m_thread->wait();
    m_thread.reset();
}

std::optional<QString> ConsoleFeeder::error() const
{
    QMutexLocker lock(&m_mutex);
    if (m_error.isEmpty())
        return std::nullopt;
    return m_error;
}

void ConsoleFeeder::fail(const QString &error)
{
    QMutexLocker lock(&m_mutex);
    if (m_error.isEmpty())
        m_error = error;
}

void ConsoleFeeder::run()
{
    // The connections belong to this thread: opened, used and closed here.
    std::vector<std::unique_ptr<BenchDatabase>> dbs;
    for (qsizetype i = 0; i < m_databases.size(); ++i) {
        auto db = std::make_unique<BenchDatabase>(QStringLiteral("pepsi-bench-console-feed-%1").arg(i));
        if (!db->open(m_databases[i]))
            return fail(db->lastError());
        dbs.push_back(std::move(db));
    }
    const QString insert = QStringLiteral("INSERT INTO workqueue (stage) VALUES ('%1')").arg(m_stage);
    QEventLoop loop;
    QTimer timer;
    QObject::connect(&timer, &QTimer::timeout, &loop, [&] {
        if (QThread::currentThread()->isInterruptionRequested())
            return loop.quit();
        for (const auto &db : dbs) {
            if (!db->exec(insert)) {
                fail(db->lastError());
                return loop.quit();
            }
            ++m_inserted;
        }
    });
    timer.start(1000 / m_perSecond);
    loop.exec();
}

} // namespace pepsi::bench
