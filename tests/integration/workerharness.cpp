// SPDX-License-Identifier: AGPL-3.0-or-later
#include "workerharness.h"

#include "testdatabase.h"

#include <QFile>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

WorkerHarness::WorkerHarness(TestDatabase &db)
    : m_db(db)
{ }

WorkerHarness::~WorkerHarness()
{
    for (auto &process : m_processes) {
        if (process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished(5000);
        }
    }
}

QString WorkerHarness::binary(const QString &relative)
{
    return qEnvironmentVariable("PEPSI_BUILD_DIR") + u'/' + relative;
}

QString WorkerHarness::reset()
{
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid())
        return u"cannot create a temporary directory: "_s + m_dir->errorString();
    m_config = writeConfig();
    if (m_config.isEmpty())
        return u"cannot write the configuration"_s;
    return exec(u"TRUNCATE workqueue, config_overlay"_s);
}

QString WorkerHarness::writeConfig(const QString &extra, const QString &database)
{
    const QString path = m_dir->filePath(u"pepsi-%1.conf"_s.arg(++m_configs));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    const QString text = u"[pepsi]\nDATABASE = "_s + (database.isEmpty() ? m_db.uri() : database)
        + u"\n\n[stage-first]\nPROGRAM = pepsi-stage-example\nNEXT = middle\n"
          u"\n[stage-middle]\nPROGRAM = pepsi-stage-example\nNEXT = last other\n"
          u"\n[stage-other]\nPROGRAM = pepsi-stage-example\n"
          u"\n[stage-fake]\nPROGRAM = pepsi-fakeworker\nNEXT = last\n"
          u"\n[stage-last]\nPROGRAM = pepsi-stage-example\n"_s
        + extra;
    file.write(text.toUtf8());
    return path;
}

QProcess &WorkerHarness::start(const QString &program, const QString &stage, const QStringList &args)
{
    QProcess &process = *m_processes.emplace_back(std::make_unique<QProcess>());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"PEPSI_CONFIG"_s);
    env.remove(u"PEPSI_STAGE"_s);
    if (!stage.isNull())
        env.insert(u"PEPSI_STAGE"_s, stage);
    process.setProcessEnvironment(env);
    process.start(binary(program), args.isEmpty() ? QStringList{u"-c"_s, m_config, u"worker"_s} : args);
    if (!process.waitForStarted(5000))
        qWarning("cannot start %s: %s", qPrintable(program), qPrintable(process.errorString()));
    return process;
}

QByteArrayList WorkerHarness::exchange(QProcess &process, const QByteArray &input, int lines)
{
    if (!input.isEmpty())
        process.write(input);
    QByteArrayList answers;
    while (answers.size() < lines) {
        if (process.canReadLine()) {
            answers.append(process.readLine().chopped(1));
            continue;
        }
        if (!process.waitForReadyRead(10000))
            break; // the caller's comparison shows what is missing
    }
    return answers;
}

QString WorkerHarness::finish(QProcess &process, int timeoutMs)
{
    if (process.state() != QProcess::NotRunning) {
        process.closeWriteChannel();
        if (!process.waitForFinished(timeoutMs))
            return u"running"_s;
    }
    if (process.exitStatus() == QProcess::CrashExit)
        return u"signal %1"_s.arg(process.exitCode());
    return u"exit %1"_s.arg(process.exitCode());
}

qint64 WorkerHarness::insertRow(const QString &stage, const QString &status, const QJsonObject &state)
{
    QSqlQuery q(m_db.db());
    q.prepare(u"INSERT INTO workqueue (stage, status, state) VALUES (:stage, CAST(:status AS workqueue_status), "
              u"CAST(:state AS jsonb)) RETURNING workqueue_id"_s);
    q.bindValue(u":stage"_s, stage);
    q.bindValue(u":status"_s, status);
    q.bindValue(u":state"_s, QString::fromUtf8(QJsonDocument(state).toJson(QJsonDocument::Compact)));
    if (!q.exec() || !q.next())
        qFatal("insert failed: %s", qPrintable(q.lastError().text()));
    return q.value(0).toLongLong();
}

QVariantMap WorkerHarness::row(qint64 id)
{
    QSqlQuery q(m_db.db());
    q.prepare(u"SELECT stage, status::text, state::text, coalesce(timeout > now() + interval '50 s', false), "
              u"xmin::text FROM workqueue WHERE workqueue_id = :id"_s);
    q.bindValue(u":id"_s, id);
    if (!q.exec() || !q.next())
        return {};
    return {{u"stage"_s, q.value(0)},
            {u"status"_s, q.value(1)},
            {u"state"_s, QJsonDocument::fromJson(q.value(2).toByteArray()).object()},
            {u"pausedForAMinute"_s, q.value(3)},
            {u"xmin"_s, q.value(4)}};
}

QString WorkerHarness::place(qint64 id)
{
    const QVariantMap found = row(id);
    return found.value(u"stage"_s).toString() + u' ' + found.value(u"status"_s).toString();
}

QString WorkerHarness::exec(const QString &sql)
{
    QSqlQuery q(m_db.db());
    return q.exec(sql) ? QString() : q.lastError().text();
}
