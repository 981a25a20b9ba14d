// SPDX-License-Identifier: AGPL-3.0-or-later
#include "runner.h"

#include "control/helpcodec.h"
#include "control/messagecodec.h"
#include "control/protocol.h"
#include "control/reloadcodec.h"
#include "interrupt.h"
#include "messagepager.h"
#include "output.h"
#include "top.h"
#include "views.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace pepsi::ctl {

namespace cmd = protocol::cmd;
namespace field = protocol::field;

namespace {

QString jsonText(const QJsonValue &value, QJsonDocument::JsonFormat format)
{
    // Compact: one line (an event of `events --json`); indented ends with its newline.
    const QString newline = format == QJsonDocument::Compact ? QStringLiteral("\n") : QString();
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(format)) + newline;
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(format)) + newline;
    // A bare value: wrapped and unwrapped, so that it prints as JSON too.
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2)) + u'\n';
}

} // namespace

Runner::Runner(CommandLine line, Client &client, std::optional<RequeueFeed> ids, QObject *parent)
    : QObject(parent)
    , m_line(std::move(line))
    , m_client(client)
    , m_ids(std::move(ids))
{
    connect(&m_client, &Client::connected, this, &Runner::onConnected);
    connect(&m_client, &Client::failed, this, [this](const QString &message) {
        QString text = message;
        if (m_batchesDone > 0)
            text += QStringLiteral(" (the %1 batches before it requeued %2 rows)").arg(m_batchesDone).arg(m_requeued);
        printError(text);
        finish(ExitUnavailable);
    });
}

void Runner::start() { m_client.connectToDaemon(); }

void Runner::finish(int status)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT finished(status);
}

void Runner::ask(const QString &command, const QJsonObject &arguments, std::function<void(const QJsonValue &)> onResult)
{
    m_client.request(command, arguments, [this, onResult = std::move(onResult)](const Client::Reply &reply) {
        if (!reply.ok) {
            printError(reply.error);
            return finish(ExitRefused);
        }
        onResult(reply.result);
    });
}

void Runner::print(const QJsonValue &result, const QString &forPeople)
{
    printOut(m_line.json ? jsonText(result, QJsonDocument::Indented) : forPeople);
    finish(ExitOk);
}

void Runner::onConnected()
{
    // Nothing is asked of a daemon that would read it otherwise.
    ask(QString(cmd::Version), {}, [this](const QJsonValue &result) {
        const int version = result[field::Protocol].toInt();
        if (version != protocol::Version) {
            printError(QStringLiteral("the daemon on %1 speaks control protocol %2, pepsi-ctl %3: use the pepsi-ctl "
                                      "of the daemon's version (%4)")
                           .arg(m_client.location().path)
                           .arg(version)
                           .arg(protocol::Version)
                           .arg(result[field::Daemon].toString()));
            return finish(ExitUnavailable);
        }
        run();
    });
}

void Runner::run()
{
    const QString &command = m_line.command;
    QJsonObject stage;
    if (!m_line.stage.isEmpty())
        stage.insert(field::Stage, m_line.stage);

    if (command == cmd::Status)
        return ask(command, stage, [this](const QJsonValue &r) { print(r, views::status(r.toObject())); });
    if (command == cmd::Workers) {
        QJsonObject arguments = stage;
        // People see the held count; the ids lists could pass the line limit.
        if (!m_line.json || !m_line.withIds)
            arguments.insert(field::Ids, false);
        return ask(command, arguments, [this](const QJsonValue &r) { print(r, views::workers(r.toArray())); });
    }
    if (command == cmd::Queues)
        return ask(command, {}, [this](const QJsonValue &r) { print(r, views::queues(r.toObject())); });
    if (command == cmd::Stages)
        return ask(command, {}, [this](const QJsonValue &r) { print(r, views::stages(r.toObject())); });
    if (command == cmd::Stats)
        return ask(command, {}, [this](const QJsonValue &r) { print(r, views::stats(r.toObject())); });
    if (command == cmd::Metrics)
        return ask(command, {}, [this](const QJsonValue &r) { print(r, r[field::Text].toString()); });
    if (command == u"events")
        return follow();
    if (command == u"top") {
        auto *top = new Top(m_client, m_line.interval, this);
        connect(top, &Top::finished, this, &Runner::finish);
        if (!top->start())
            finish(ExitUnavailable);
        return;
    }
    if (command == cmd::Messages && m_line.all) {
        auto *pager = new MessagePager(m_client, m_line, this);
        connect(pager, &MessagePager::finished, this, &Runner::finish);
        return pager->start();
    }
    if (command == cmd::Reasons)
        return reasons();
    if (command == cmd::Messages) {
        QJsonObject arguments = stage;
        arguments.insert(field::Status, m_line.status.isEmpty() ? QString(protocol::value::Failed) : m_line.status);
        if (m_line.limit)
            arguments.insert(field::Limit, *m_line.limit);
        if (m_line.afterId)
            arguments.insert(field::AfterId, QJsonValue(*m_line.afterId));
        return ask(command, arguments, [this](const QJsonValue &r) { print(r, views::messages(r, m_line.stage)); });
    }
    if (command == cmd::Message)
        return ask(command, {{field::MessageId, QJsonValue(m_line.messageId)}},
                   [this](const QJsonValue &r) { print(r, views::message(r.toObject())); });
    if (command == cmd::Drain || command == cmd::Resume)
        return ask(command, stage, [this, command](const QJsonValue &r) {
            print(
                r,
                QStringLiteral("%1: %2\n")
                    .arg(m_line.stage, command == cmd::Drain ? QStringLiteral("drained") : QStringLiteral("resumed")));
        });
    if (command == cmd::Requeue)
        return requeue();
    if (command == cmd::Set) {
        QJsonObject arguments = stage;
        arguments.insert(field::Option, m_line.option);
        arguments.insert(field::Value, QJsonValue(m_line.value));
        return ask(command, arguments, [this](const QJsonValue &r) {
            print(r,
                  QStringLiteral("%1: %2 = %3 (config_overlay; the graph reloads)\n")
                      .arg(m_line.stage, m_line.option)
                      .arg(m_line.value));
        });
    }
    if (command == cmd::Unset) {
        QJsonObject arguments = stage;
        arguments.insert(field::Option, m_line.option);
        return ask(command, arguments, [this](const QJsonValue &r) {
            print(r,
                  QStringLiteral("%1: %2 removed from config_overlay; the file's value or the default applies once "
                                 "the graph reloads\n")
                      .arg(m_line.stage, m_line.option));
        });
    }
    if (command == cmd::Reload)
        return ask(command, {}, [this](const QJsonValue &r) {
            const ReloadSnapshot reload = protocol::reloadFromJson(r.toObject());
            print(r,
                  QStringLiteral("reloaded; stages: %1\n%2\n")
                      .arg(reload.stages.isEmpty() ? QStringLiteral("none") : reload.stages.join(u", "),
                           protocol::describe(reload.changed)));
        });
    printError(QStringLiteral("no such command: %1").arg(command));
    finish(ExitUsage);
}

void Runner::follow()
{
    m_interrupt = new Interrupt(this);
    if (!m_interrupt->install()) {
        printError(QStringLiteral("cannot catch SIGINT"));
        return finish(ExitUnavailable);
    }
    // Ctrl-C ends a follow that did its job: exit 0.
    connect(m_interrupt, &Interrupt::interrupted, this, [this] { finish(ExitOk); });
    connect(&m_client, &Client::eventReceived, this, [this](const QJsonObject &event) {
        printOut(m_line.json ? jsonText(event, QJsonDocument::Compact) : views::eventLine(event));
    });
    QJsonObject arguments;
    if (!m_line.events.isEmpty())
        arguments.insert(field::Events, QJsonArray::fromStringList(m_line.events));
    ask(QString(cmd::Subscribe), arguments, [this](const QJsonValue &) { m_client.setFollowing(true); });
}

void Runner::reasons()
{
    const QString status = m_line.status.isEmpty() ? QString(protocol::value::Failed) : m_line.status;
    ask(QString(cmd::Reasons), {{field::Stage, m_line.stage}, {field::Status, status}},
        [this, status](const QJsonValue &r) {
            const MessagePage page = protocol::messagePageFromJson(r.toObject());
            // --json: the list itself; what it leaves off is said on stderr.
            if (m_line.json && page.moreReasons)
                printError(
                    QStringLiteral("reasons: only the %1 most frequent reasons are listed").arg(page.reasons.size()));
            print(protocol::toJson(page.reasons),
                  views::reasons(r.toObject(), QStringLiteral("%1 rows at stage %2").arg(status, m_line.stage),
                                 terminalWidth()));
        });
}

void Runner::requeue()
{
    if (!m_line.reason)
        return requeueRows();
    // A daemon from before "reason" ignores it, as any argument it does not
    // know, and would move every row of the status: ask it first.
    ask(QString(cmd::Help), {}, [this](const QJsonValue &r) {
        if (!protocol::commandArgumentsFromJson(r.toObject()).value(QString(cmd::Requeue)).contains(field::Reason)) {
            printError(QStringLiteral("the daemon on %1 cannot requeue by reason (it is older than pepsi-ctl); "
                                      "nothing was requeued")
                           .arg(m_client.location().path));
            return finish(ExitRefused);
        }
        requeueRows();
    });
}

void Runner::requeueRows()
{
    if (m_ids)
        return requeueBatch(0);
    QJsonObject arguments{{field::Stage, m_line.stage}, {field::Status, m_line.status}};
    if (m_line.limit)
        arguments.insert(field::Limit, *m_line.limit);
    if (m_line.maxAgeMs)
        arguments.insert(field::MaxAgeMs, QJsonValue(*m_line.maxAgeMs));
    if (m_line.reason)
        arguments.insert(field::Reason, *m_line.reason);
    ask(QString(cmd::Requeue), arguments, [this](const QJsonValue &r) {
        const bool more = r[field::More].toBool();
        print(
            r,
            QStringLiteral("%1: %2 %3 rows back to pending%4\n")
                .arg(m_line.stage)
                .arg(r[field::Requeued].toInteger())
                .arg(m_line.status,
                     more ? QStringLiteral("; more rows match (run it again, or give a larger --limit)") : QString()));
    });
}

void Runner::requeueBatch(qsizetype index)
{
    if (index >= m_ids->batchCount()) {
        const QJsonObject result{{field::Requeued, double(m_requeued)}, {field::More, m_more}};
        return print(
            result,
            QStringLiteral("%1: %2 of %3 ids requeued from %4 back to pending%5\n")
                .arg(m_line.stage)
                .arg(m_requeued)
                .arg(m_ids->size())
                .arg(m_line.status,
                     m_requeued < m_ids->size()
                         ? QStringLiteral(" (the others are not %1 at this stage, or are locked)").arg(m_line.status)
                         : QString()));
    }
    const QList<qint64> ids = m_ids->batch(index);
    QJsonArray list;
    for (qint64 id : ids)
        list.append(QJsonValue(id));
    QJsonObject arguments{{field::Stage, m_line.stage},
                          {field::Status, m_line.status},
                          {field::Ids, list},
                          {field::Limit, int(ids.size())}};
    if (m_line.maxAgeMs)
        arguments.insert(field::MaxAgeMs, QJsonValue(*m_line.maxAgeMs));
    if (m_line.reason)
        arguments.insert(field::Reason, *m_line.reason);
    m_client.request(QString(cmd::Requeue), arguments, [this, index](const Client::Reply &reply) {
        if (!reply.ok) {
            printError(m_batchesDone == 0 ? reply.error
                                          : QStringLiteral("%1 (batch %2 of %3; the %4 before it requeued %5 rows)")
                                                .arg(reply.error)
                                                .arg(index + 1)
                                                .arg(m_ids->batchCount())
                                                .arg(m_batchesDone)
                                                .arg(m_requeued));
            return finish(ExitRefused);
        }
        m_requeued += reply.result[field::Requeued].toInteger();
        m_more = m_more || reply.result[field::More].toBool();
        ++m_batchesDone;
        requeueBatch(index + 1);
    });
}

} // namespace pepsi::ctl
