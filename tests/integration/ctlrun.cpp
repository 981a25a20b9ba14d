// SPDX-License-Identifier: AGPL-3.0-or-later
#include "ctlrun.h"

#include "daemonprocess.h"

#include <QElapsedTimer>
#include <QJsonParseError>
#include <QLocalSocket>
#include <QTest>

QString CtlRun::describe() const
{
    return QStringLiteral("%1, stdout: %2, stderr: %3")
        .arg(finished ? QStringLiteral("exit %1").arg(exitCode) : QStringLiteral("did not finish"), out.left(2000),
             err.left(2000));
}

QJsonDocument parsed(const QString &text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON (%s): %s", qPrintable(error.errorString()), qPrintable(text.left(500)));
    return document;
}

QString ctlBinary() { return DaemonProcess::buildDir() + QStringLiteral("/ctl/pepsi-ctl"); }

CtlRun runCtl(const QStringList &arguments, const QByteArray &input, int timeoutMs, const QString &account)
{
    QProcess process;
    if (account.isEmpty())
        process.start(ctlBinary(), arguments);
    else
        process.start(QStringLiteral("runuser"),
                      QStringList{QStringLiteral("-u"), account, QStringLiteral("--"), ctlBinary()} + arguments);
    CtlRun run;
    QElapsedTimer clock;
    clock.start();
    if (!process.waitForStarted(10000)) {
        run.err = process.errorString();
        return run;
    }
    process.write(input);
    process.closeWriteChannel();
    run.finished = QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, timeoutMs);
    run.elapsedMs = clock.elapsed();
    if (!run.finished) {
        process.kill();
        process.waitForFinished(5000);
    }
    run.exitCode = process.exitCode();
    run.exitStatus = process.exitStatus();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

ScriptedServer::ScriptedServer(Script script, QByteArray greeting)
    : m_script(std::move(script))
    , m_greeting(std::move(greeting))
{
    m_path = m_dir.filePath(QStringLiteral("scripted.sock"));
    m_server.listen(m_path);
    connect(&m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *socket = m_server.nextPendingConnection()) {
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            if (!m_greeting.isEmpty())
                socket->write(m_greeting);
            auto index = std::make_shared<int>(0);
            connect(socket, &QLocalSocket::readyRead, this, [this, socket, index] {
                while (socket->canReadLine()) {
                    const QByteArray line = socket->readLine().chopped(1);
                    received.append(QString::fromUtf8(line));
                    const Answer answer = m_script(line, (*index)++);
                    socket->write(answer.bytes);
                    if (answer.close) {
                        socket->flush();
                        socket->disconnectFromServer();
                        return;
                    }
                }
            });
        }
    });
}
