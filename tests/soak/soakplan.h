// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

// What each soak message does at each stage (state.fake, for the fake
// worker) and where it must end up. Faults are drawn per message and stage
// from a seeded generator, so a run can be repeated.
class SoakPlan
{
public:
    static const QStringList Stages;            // a -> b -> c
    static constexpr int MaxRuntimeSeconds = 2; // the daemon's MAX_RUNTIME for the soak

    struct Expected
    {
        QString status;               // done | failed | timeout
        QString stage;                // where it ends
        std::optional<QString> error; // exact state.dispatch_error of failed/timeout rows
        bool errorIsPrefix = false;   // ... or how it starts (a flood's quoted line)
        bool triedLater = false;      // done after a tempfail-once: the error starts "status 75: "
        QHash<QString, int> runs;     // state.runs.<stage> without reruns
    };

    SoakPlan(int messages, quint32 seed);

    int size() const { return int(m_fakes.size()); }
    const QList<QJsonObject> &fakes() const { return m_fakes; }
    Expected expected(int index) const;
    // "crash" -> how many (message, stage) pairs got it, per stage
    const QMap<QString, QMap<QString, int>> &faultCounts() const { return m_faultCounts; }

private:
    QList<QJsonObject> m_fakes;
    QMap<QString, QMap<QString, int>> m_faultCounts; // stage -> mode -> count
};
