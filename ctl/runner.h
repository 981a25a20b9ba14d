// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "client.h"
#include "commandline.h"
#include "requeuefeed.h"

#include <QObject>
#include <optional>

namespace pepsi::ctl {

class Interrupt;

// One pepsi-ctl command from connection to exit status: connects, checks the
// daemon's protocol version, sends the command's request(s), prints the
// result (a table, or with --json the daemon's result) and finishes with the
// status of doc/man/pepsi-ctl.rst: 0 done, 1 refused (its error on stderr), 69 no
// daemon answering. `requeue --ids -` sends its batches one after another and
// stops at the first refusal, saying how many rows the batches before it moved.
class Runner : public QObject
{
    Q_OBJECT

public:
    Runner(CommandLine line, Client &client, std::optional<RequeueFeed> ids, QObject *parent = nullptr);
    void start();

Q_SIGNALS:
    void finished(int exitStatus);

private:
    void onConnected();
    void run();
    void ask(const QString &cmd, const QJsonObject &arguments, std::function<void(const QJsonValue &)> onResult);
    void print(const QJsonValue &result, const QString &forPeople);
    void follow();
    void reasons();
    void requeue();
    void requeueRows();
    void requeueBatch(qsizetype index);
    void finish(int status);

    CommandLine m_line;
    Client &m_client;
    std::optional<RequeueFeed> m_ids;
    Interrupt *m_interrupt = nullptr;
    bool m_done = false;
    qint64 m_requeued = 0; // rows moved by the batches answered so far
    qsizetype m_batchesDone = 0;
    bool m_more = false;
};

} // namespace pepsi::ctl
