// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

namespace pepsi::console {

// What an event says, for people: its name and its fields as a translated
// sentence ("exited: idle, after 512 messages"; "drained by root"), and the
// kind it belongs to, for the Events view's filters.
class EventText
{
    Q_DECLARE_TR_FUNCTIONS(EventText)

public:
    enum class Kind {
        WorkerLifecycle, // worker_started, worker_exited: recycling, idle exits
        Failure,         // crashes, kills, start failures, cooldowns
        Operator,        // drain, resume, requeue
        Daemon,          // reload, database, state, and any event this console does not know
        Console,         // the console's own notes
    };
    static constexpr int KindCount = 5;

    // The console's own lines in the log carry this event name.
    static QString noteEvent();

    static Kind kindOf(const QString &eventName);
    // "Worker starts and exits", for the filter menu.
    static QString kindTitle(Kind kind);
    // "worker exited" for worker_exited.
    static QString title(const QString &eventName);
    static QString details(const QJsonObject &event);
    // "root (uid 0)".
    static QString user(const QJsonValue &uid);
    // A daemon state (version.state, the `state` event) in words.
    static QString daemonState(const QString &state);
};

} // namespace pepsi::console
