// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "model/dispatchview.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QWaitCondition>
#include <functional>
#include <optional>

namespace pepsi {

// The only way the control socket's thread reads the dispatcher, without
// waiting for the dispatch loop, which may be inside a claim or a commit: the
// last picture the loop published and the last queue counts. Written by
// DispatchState on the loop (the picture) and by the QueueCountCache (the
// counts), read on the control thread (one picture() per reply); each call
// takes the lock for a copy of implicitly shared values, nothing longer.
//
// While someone reads it (a picture asked for within WatchedForMs), a busy
// loop publishes often (DispatchState: within PublishDelayMs of a change);
// unread, the loop draws no picture nobody looks at (with 500 workers one
// costs a quarter of a millisecond) and only marks the board stale. A reader
// that finds the picture stale or older than MaxAgeMs asks the loop for a new
// one and waits for it, at most MaxWaitMs: an idle loop answers at once, a
// stuck one leaves the reader with the older picture.
class DispatchBoard
{
public:
    static constexpr qint64 MaxAgeMs = 250;
    static constexpr int MaxWaitMs = 100;
    static constexpr qint64 WatchedForMs = 10000;

    DispatchBoard() = default;
    // A board whose picture is older than `maxAgeMs` (-1: always) asks for a
    // new one: a test's scripted dispatcher, which publishes at once when
    // asked, is read afresh at every picture().
    explicit DispatchBoard(qint64 maxAgeMs)
        : m_maxAgeMs(maxAgeMs)
    { }

    // How to ask the loop to publish, from any thread (DispatchState: a
    // queued call). Called without the board's lock, as a scripted
    // dispatcher publishes at once: what it calls must outlive every reader
    // (main() destroys the control thread before the dispatcher).
    void setPublishRequest(std::function<void()> request);
    void publish(DispatchPicture picture);
    // Something changed that the picture does not show yet: the next
    // picture() asks for a new one, however young this one is. So a client
    // that hears of a change (an event) and then asks sees it, unless the
    // loop is held in a statement longer than MaxWaitMs: then, as every
    // reader of a held loop, it gets the picture before.
    void invalidate();
    // Whether a picture was asked for within WatchedForMs.
    bool isWatched() const;
    // The picture, refreshed first if it is older than MaxAgeMs.
    DispatchPicture picture() const;
    // The picture as last published, never waiting for the loop: for what
    // runs off the control thread and reads only what the loop publishes at
    // once when it changes (the graph, whether the database is up).
    DispatchPicture published() const;

    // The counts as of now, or none (forgotten after a requeue or an outage).
    void setCounts(std::optional<QueueCounts> counts);
    struct AgedCounts
    {
        QueueCounts counts;
        qint64 ageMs = 0;
    };
    std::optional<AgedCounts> counts() const;

private:
    const qint64 m_maxAgeMs = MaxAgeMs;
    mutable QMutex m_mutex;
    mutable QWaitCondition m_published;
    std::function<void()> m_requestPublish;
    DispatchPicture m_picture;
    QElapsedTimer m_pictureAge;
    bool m_stale = false;
    mutable QElapsedTimer m_lastAsked;
    quint64 m_generation = 0;
    std::optional<QueueCounts> m_counts;
    QElapsedTimer m_countsAge;
};

} // namespace pepsi
