// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QObject>
#include <QTimer>

#include <functional>

// Calls `sample` every 20 ms while the test waits in the event loop.
class Sampler
{
public:
    explicit Sampler(std::function<void()> sample)
        : m_sample(std::move(sample))
    {
        QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this] { take(); });
        m_timer.start(20);
        take();
    }
    int samples() const { return m_samples; }
    void take()
    {
        m_sample();
        ++m_samples;
    }

private:
    std::function<void()> m_sample;
    QTimer m_timer;
    int m_samples = 0;
};
