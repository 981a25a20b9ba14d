// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workerpooltest.h"

#include <QFile>
#include <QTest>

using namespace pepsi;
using namespace Qt::StringLiterals;

namespace {

QString outcomeName(Settlement::Outcome outcome)
{
    switch (outcome) {
    case Settlement::Outcome::Requeue:
        return u"requeue"_s;
    case Settlement::Outcome::Fail:
        return u"fail"_s;
    case Settlement::Outcome::Timeout:
        return u"timeout"_s;
    case Settlement::Outcome::Pause:
        return u"pause"_s;
    }
    return {};
}

} // namespace

void WorkerPoolTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_owner = std::make_unique<QObject>();
    m_settlements.clear();
}

void WorkerPoolTest::cleanup()
{
    // Ask the workers to go, then let QProcess kill what is still there.
    for (WorkerPool *pool : m_owner->findChildren<WorkerPool *>(Qt::FindDirectChildrenOnly))
        pool->shutdown();
    m_owner.reset(); // the pools and their processes (QProcess kills what still runs)
    m_dir.reset();
}

QString WorkerPoolTest::script(const QString &name, const QByteArray &body)
{
    const QString path = m_dir->filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write("#!/bin/sh\n" + body + '\n') < 0)
        return {};
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

WorkerPool *WorkerPoolTest::makePool(const QString &program, PoolOptions options, int queueLimit, int maxMessages)
{
    StageConfig stage;
    stage.name = u"s"_s;
    stage.program = program;
    stage.parallelism = 1;
    stage.queueLimit = queueLimit;
    stage.maxMessages = maxMessages;
    if (options.idleTimeout.count() == 0)
        options.idleTimeout = std::chrono::seconds(60);
    auto *pool = new WorkerPool(stage, options, m_owner.get());
    connect(pool, &WorkerPool::settle, this, [this](const Settlement &s) { m_settlements.append(s); });
    return pool;
}

Tickets WorkerPoolTest::tickets(int count, qint64 firstId)
{
    Tickets result;
    for (int i = 0; i < count; ++i)
        result.append(Ticket{firstId + i, 1});
    return result;
}

QStringList WorkerPoolTest::settled() const
{
    QStringList lines;
    for (const Settlement &s : m_settlements)
        lines << (outcomeName(s.outcome) + u' ' + QString::number(s.ticket.id)
                  + (s.reason.isEmpty() ? QString() : u' ' + s.reason));
    return lines;
}
