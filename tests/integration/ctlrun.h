// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "daemonprocess.h"

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QLocalServer>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <functional>

// pepsi-ctl as a process, for tst_ctl: one run to its end, and a scripted
// socket that plays a daemon that misbehaves.
struct CtlRun
{
    bool finished = false; // false: still running when the time ran out (then killed)
    int exitCode = -1;
    QProcess::ExitStatus exitStatus = QProcess::CrashExit;
    QString out;
    QString err;
    qint64 elapsedMs = 0;
    // "exit 1, stderr: ..." for failure messages.
    QString describe() const;
};

QString ctlBinary();

// What every test of pepsi-ctl checks first: the daemon's binaries and pepsi-ctl are built.
#define PEPSI_REQUIRE_CTL_BINARIES()                                                                                   \
    do {                                                                                                               \
        PEPSI_REQUIRE_BINARIES();                                                                                      \
        QVERIFY2(QFile::exists(ctlBinary()), qPrintable(ctlBinary()));                                                 \
    } while (false)

// pepsi-ctl --json's output as a document; a warning with the text when it is not JSON.
QJsonDocument parsed(const QString &text);
// Runs pepsi-ctl ARGUMENTS with `input` on stdin, as `account` when given
// (runuser), waiting at most timeoutMs while the event loop runs (a scripted
// server in this process must answer meanwhile).
CtlRun runCtl(const QStringList &arguments, const QByteArray &input = {}, int timeoutMs = 20000,
              const QString &account = {});

// A socket that answers each line it reads with what `answer` says: the bytes
// to write, and whether to close the connection after them.
class ScriptedServer : public QObject
{
    Q_OBJECT

public:
    struct Answer
    {
        QByteArray bytes;
        bool close = false;
    };
    // line: the request without its newline; index: 0 for the first of a connection.
    using Script = std::function<Answer(const QByteArray &line, int index)>;
    // `greeting`: written as soon as a client connects (before any request).
    explicit ScriptedServer(Script script, QByteArray greeting = {});
    QString path() const { return m_path; }
    bool isListening() const { return m_server.isListening(); }
    QStringList received;

private:
    QTemporaryDir m_dir;
    QString m_path;
    QLocalServer m_server;
    Script m_script;
    QByteArray m_greeting;
};
