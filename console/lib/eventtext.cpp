// SPDX-License-Identifier: AGPL-3.0-or-later
#include "eventtext.h"

#include "control/failurecodec.h"
#include "control/protocol.h"
#include "control/reloadcodec.h"

#include "keyedtablemodel.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <pwd.h>

namespace pepsi::console {

using namespace Qt::StringLiterals;
namespace event = protocol::event;
namespace field = protocol::field;
namespace value = protocol::value;

QString EventText::noteEvent() { return u"console"_s; }

EventText::Kind EventText::kindOf(const QString &name)
{
    if (name == event::WorkerStarted || name == event::WorkerExited)
        return Kind::WorkerLifecycle;
    if (name == event::WorkerCrashed || name == event::WorkerKilled || name == event::StartFailed
        || name == event::CooldownEntered || name == event::CooldownLeft || name == event::MessageFailed
        || name == event::StageFailing || name == event::StageRecovered)
        return Kind::Failure;
    if (name == event::StageDrained || name == event::StageResumed || name == event::Requeued)
        return Kind::Operator;
    if (name == noteEvent())
        return Kind::Console;
    return Kind::Daemon;
}

QString EventText::kindTitle(Kind kind)
{
    switch (kind) {
    case Kind::WorkerLifecycle:
        return tr("Worker starts and exits (recycling)");
    case Kind::Failure:
        return tr("Failed messages, failing stages, crashes, kills, start failures, cooldowns");
    case Kind::Operator:
        return tr("Drains, resumes, requeues");
    case Kind::Daemon:
        return tr("Reloads, database, daemon state");
    case Kind::Console:
        return tr("The console's own notes");
    }
    return {};
}

QString EventText::title(const QString &name)
{
    static const QHash<QString, const char *> titles{
        {event::WorkerStarted, QT_TR_NOOP("worker started")},
        {event::WorkerExited, QT_TR_NOOP("worker exited")},
        {event::WorkerCrashed, QT_TR_NOOP("worker crashed")},
        {event::WorkerKilled, QT_TR_NOOP("worker killed")},
        {event::StartFailed, QT_TR_NOOP("start failed")},
        {event::CooldownEntered, QT_TR_NOOP("cooldown")},
        {event::CooldownLeft, QT_TR_NOOP("cooldown over")},
        {event::StageDrained, QT_TR_NOOP("stage drained")},
        {event::StageResumed, QT_TR_NOOP("stage resumed")},
        {event::Requeued, QT_TR_NOOP("requeued")},
        {event::Reload, QT_TR_NOOP("reload")},
        {event::DatabaseLost, QT_TR_NOOP("database lost")},
        {event::DatabaseRestored, QT_TR_NOOP("database back")},
        {event::State, QT_TR_NOOP("daemon state")},
        {event::MessageFailed, QT_TR_NOOP("messages failed")},
        {event::StageFailing, QT_TR_NOOP("stage failing")},
        {event::StageRecovered, QT_TR_NOOP("stage recovered")},
        {u"console"_s, QT_TR_NOOP("console")},
    };
    const char *text = titles.value(name);
    return text ? tr(text) : name;
}

QString EventText::user(const QJsonValue &uid)
{
    if (!uid.isDouble())
        return tr("someone");
    const auto id = uid_t(uid.toInteger());
    // getpwuid_r: the console is single-threaded, but the reentrant form costs nothing.
    passwd entry{};
    passwd *found = nullptr;
    char buffer[1024];
    if (getpwuid_r(id, &entry, buffer, sizeof buffer, &found) == 0 && found)
        return tr("%1 (uid %2)").arg(QString::fromLocal8Bit(found->pw_name)).arg(id);
    return tr("uid %1").arg(id);
}

QString EventText::daemonState(const QString &state)
{
    if (state == "starting"_L1)
        return tr("starting");
    if (state == "waiting_for_lock"_L1)
        return tr("waiting for the dispatcher lock");
    if (state == "running"_L1)
        return tr("running");
    if (state == "reconnecting"_L1)
        return tr("reconnecting to the database");
    if (state == "stopping"_L1)
        return tr("stopping");
    return state;
}

namespace {

QString exitReason(const QString &reason)
{
    if (reason == "idle"_L1)
        return EventText::tr("idle");
    if (reason == "recycled"_L1)
        return EventText::tr("recycled after its message limit");
    if (reason == "retired"_L1)
        return EventText::tr("retired by a reload or drain");
    if (reason == "stopped"_L1)
        return EventText::tr("stopped");
    if (reason == "clean"_L1)
        return EventText::tr("exited by itself");
    return reason;
}

QString generic(const QJsonObject &event)
{
    QStringList parts;
    static const QStringList shown{field::Event, field::Seq, field::Time, field::Stage, field::Pid};
    for (auto it = event.constBegin(); it != event.constEnd(); ++it) {
        if (shown.contains(it.key()) || it.key().startsWith(u'_')) // ours: not the daemon's words
            continue;
        const QJsonValue v = it.value();
        QString text;
        if (v.isString())
            text = v.toString();
        else if (v.isNull())
            text = u"–"_s;
        else if (v.isArray())
            text = QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
        else if (v.isObject())
            text = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
        else
            text = v.toVariant().toString();
        parts.append(it.key() + u'=' + text);
    }
    return parts.join(u"  "_s);
}

} // namespace

QString EventText::details(const QJsonObject &e)
{
    const QString name = e.value(field::Event).toString();
    const auto str = [&e](QLatin1StringView key) { return e.value(key).toString(); };
    const auto message = [&e] {
        const QJsonValue id = e.value(field::MessageId);
        return id.isDouble() ? tr("message %1").arg(id.toInteger()) : tr("no message held");
    };
    if (name == noteEvent())
        return str("text"_L1);
    if (name == event::WorkerStarted)
        return tr("started");
    if (name == event::WorkerExited) {
        const int n = e.value(field::Messages).toInt();
        return tr("%1, after %Ln message(s)", nullptr, n).arg(exitReason(str(field::Reason)));
    }
    if (name == event::WorkerCrashed) {
        const int n = e.value(field::Requeued).toInt();
        return tr("%1; %2 failed; %Ln other held message(s) put back to pending", nullptr, n)
            .arg(str(field::Cause), message());
    }
    if (name == event::WorkerKilled) {
        const QString reason = str(field::Reason) == "timeout"_L1 ? tr("it ran past its max runtime")
            : str(field::Reason) == "protocol error"_L1           ? tr("it broke the stage protocol")
                                                                  : str(field::Reason);
        QString text = tr("%1; %2").arg(reason, message());
        if (!str(field::Detail).isEmpty())
            text += u" ("_s + str(field::Detail) + u')';
        return text;
    }
    if (name == event::StartFailed) {
        const QString stderrLine = str(field::Stderr);
        return stderrLine.isEmpty()
            ? tr("could not start: %1").arg(str(field::Cause))
            : tr("could not start: %1; its last error line: %2").arg(str(field::Cause), stderrLine);
    }
    if (name == event::CooldownEntered) {
        const QDateTime until = QDateTime::fromString(str(field::Until), Qt::ISODateWithMs);
        return tr("claims nothing until %1: %2").arg(until.toLocalTime().toString(u"HH:mm:ss"_s), str(field::Reason));
    }
    if (name == event::CooldownLeft)
        return tr("claims again");
    if (name == event::StageDrained)
        return tr("drained by %1: claims nothing until resumed").arg(user(e.value(field::Uid)));
    if (name == event::StageResumed)
        return tr("resumed by %1").arg(user(e.value(field::Uid)));
    if (name == event::Requeued) {
        const int n = e.value(field::Count).toInt();
        const QString status = str(field::Status) == "timeout"_L1 ? tr("timed-out") : tr("failed");
        return tr("%Ln %1 message(s) put back to pending by %2", nullptr, n).arg(status, user(e.value(field::Uid)));
    }
    if (name == event::Reload) {
        QStringList stages;
        for (const QJsonValue v : e.value(field::Stages).toArray())
            stages.append(v.toString());
        const QString source = str(field::Source);
        const QString why = source == value::Notify ? tr("the configuration changed")
            : source == value::Socket               ? tr("asked on the control socket")
            : source == value::Reconnect            ? tr("the database is back")
            : source == value::Signal               ? tr("SIGHUP")
            : source == value::Set                  ? tr("a setting changed with set")
                                                    : source;
        const QString text = tr("configuration reloaded (%1); stages: %2").arg(why, stages.join(u", "_s));
        // Stage and option names and their values, as pepsi.conf spells them: not translated.
        const ReloadChanges changes = protocol::reloadChangesFromJson(e.value(field::Changed).toObject());
        return changes.isEmpty() ? text : text + u"; "_s + protocol::describe(changes);
    }
    if (name == event::DatabaseLost)
        return tr("lost the database: %1").arg(str(field::Reason));
    if (name == event::DatabaseRestored)
        return tr("the database is back after %1").arg(formatDuration(e.value(field::AfterMs).toInteger()));
    if (name == event::State)
        return tr("the daemon is %1").arg(daemonState(str(field::State)));
    if (name == event::MessageFailed) {
        const MessageFailedEvent failed = protocol::messageFailedFromJson(e);
        return tr("%Ln message(s) failed; the latest: %1", nullptr, int(failed.count)).arg(failed.reason);
    }
    if (name == event::StageFailing || name == event::StageRecovered) {
        const StageFailureEvent change = protocol::stageFailureFromJson(e);
        const int percent = protocol::failurePercent(change.failureShare);
        return name == event::StageFailing ? tr("failing: %1 % of its runs in the last 10 s failed").arg(percent)
                                           : tr("recovered: %1 % of its runs in the last 10 s failed").arg(percent);
    }
    return generic(e);
}

} // namespace pepsi::console
