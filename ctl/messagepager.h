// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "commandline.h"

#include "control/snapshots.h"

#include <QList>
#include <QObject>

namespace pepsi::ctl {

class Client;

// `messages STAGE --all`: a stage's rows in one status, page after page,
// each request starting after the page before's `next_after_id`, until a
// page says there is none. With --json one JSON array of every row, written
// as the pages come (a backlog of millions is never held here); for people
// one table once every page is read. A refusal ends it (exit 1, what was
// printed so far stays); a cursor that does not move on is a refusal too.
class MessagePager : public QObject
{
    Q_OBJECT

public:
    MessagePager(Client &client, CommandLine line, QObject *parent = nullptr);
    void start();

Q_SIGNALS:
    void finished(int exitStatus);

private:
    void ask(qint64 afterId);
    void onPage(qint64 afterId, const MessagePage &page);
    void end();

    Client &m_client;
    CommandLine m_line;
    QList<MessageRow> m_rows; // for people: every row, to print one table
    qint64 m_written = 0;     // --json: the rows written so far
};

} // namespace pepsi::ctl
