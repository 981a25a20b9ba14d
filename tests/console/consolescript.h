// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once
// The scripted dispatcher the console's window tests share: three stages,
// ingest -> enrich -> deliver, and one worker near its max_runtime.
#include "config/configuration.h"
#include "fakedispatch.h"

#include <QDateTime>

inline void scriptThreeStages(FakeDispatch &dispatch)

{
    using namespace pepsi;
    using namespace Qt::StringLiterals;
    const auto config = Configuration::parse("[stage-ingest]\nPROGRAM = /usr/lib/pepsi/ingest\nNEXT = enrich\n"
                                             "[stage-enrich]\nPROGRAM = /usr/lib/pepsi/enrich\nNEXT = deliver\n"
                                             "[stage-deliver]\nPROGRAM = /usr/lib/pepsi/deliver\n",
                                             u"window.conf"_s);
    dispatch.m_graph = StageGraph::fromConfiguration(config.value()).value();
    const auto pool = [](const QString &stage, int workers, int busy, int inFlight, int capacity) {
        PoolSnapshot snapshot;
        snapshot.stage = stage;
        snapshot.workers = workers;
        snapshot.busy = busy;
        snapshot.idle = workers - busy;
        snapshot.parallelism = 4;
        snapshot.queueLimit = 4;
        snapshot.inFlight = inFlight;
        snapshot.capacity = capacity;
        return snapshot;
    };
    PoolSnapshot deliver = pool(u"deliver"_s, 1, 0, 0, 0);
    deliver.cooldownUntil = QDateTime::currentDateTimeUtc().addSecs(60);
    deliver.cooldownReason = u"exited with status 78"_s;
    dispatch.m_pools = {pool(u"ingest"_s, 2, 2, 8, 16), pool(u"enrich"_s, 4, 3, 9, 16), deliver};

    dispatch.m_stats.messages = 119876;
    dispatch.m_stats.rate10s = 1590.0;
    dispatch.m_stats.stages = {{u"ingest"_s, StageStatsSnapshot{100, 0, 0, 0, 0, 800.0, 700.0, 0}},
                               {u"enrich"_s, StageStatsSnapshot{52011, 0, 0, 0, 0, 790.0, 690.0, 0}},
                               {u"deliver"_s, StageStatsSnapshot{10, 0, 0, 0, 0, 0.0, 1.0, 0}}};
    dispatch.m_queues.stages = {{u"ingest"_s, StageQueue{5000, 8, 0, 0, 0, 900}},
                                {u"enrich"_s, StageQueue{1200, 9, 3, 12, 2, 5400}},
                                {u"deliver"_s, StageQueue{40, 0, 0, 0, 0, 100}}};
    dispatch.m_queues.stages[u"enrich"_s].pendingAges = {1000, 150, 40, 10, 0, 0};

    WorkerSnapshot worker;
    worker.pid = 5001;
    worker.stage = u"enrich"_s;
    worker.state = WorkerSnapshot::State::Running;
    worker.messages = 10;
    worker.uptimeMs = 1000;
    worker.ids = {1};
    worker.headAgeMs = 290000;
    worker.maxRuntimeMs = 300000;
    dispatch.m_workers = {worker};
}
