// SPDX-License-Identifier: AGPL-3.0-or-later
// The peers of tests/bench/peers/run-peers: the same 3-stage pipeline as
// pepsi-bench (each job updates its own row and enqueues the next stage's job
// in the same transaction) on Graphile Worker or pg-boss, and Graphile
// Worker's add_job -> task start latency. Prints one JSON line on stdout.
//
//   node peers.js graphile|pgboss|graphile-latency URI KEY=VALUE...
//
// Keys: messages, concurrency (Graphile), batch and workers (pg-boss),
// count and interval (latency), postmaster (pid, for PostgreSQL's CPU).
'use strict';

const fs = require('fs');
const { Pool } = require('pg');

const [mode, uri, ...rest] = process.argv.slice(2);
const opt = Object.fromEntries(rest.map((kv) => kv.split('=')));
const num = (key, fallback) => (opt[key] === undefined ? fallback : Number(opt[key]));

function log(text) {
  process.stderr.write(`peers.js: ${text}\n`);
}

// utime + stime (+ reaped children) of a process and its live children, in µs,
// as tests/bench/procstats.cpp reads them.
const ticksPerSecond = 100; // sysconf(_SC_CLK_TCK) on Linux
function procTicks(pid, withChildren) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after "(comm)": state is f[0]; utime f[11], stime f[12], cutime f[13], cstime f[14]
    let t = Number(f[11]) + Number(f[12]);
    if (withChildren) t += Number(f[13]) + Number(f[14]);
    return t;
  } catch {
    return 0;
  }
}
function treeCpuUsec(pid) {
  if (!pid) return -1;
  let ticks = procTicks(pid, true);
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    let children = '';
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {}
    for (const child of children.split(' ').filter(Boolean)) ticks += procTicks(child, true);
  }
  return (ticks * 1e6) / ticksPerSecond;
}
function selfCpuUsec() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

const postmaster = num('postmaster', 0);
const messages = num('messages', 20000);
const stages = ['stage1', 'stage2', 'stage3'];

async function prepareItems(pool) {
  await pool.query('DROP TABLE IF EXISTS peer_items');
  await pool.query(
    'CREATE TABLE peer_items (id bigint PRIMARY KEY, stage int NOT NULL DEFAULT 0, updated timestamptz)'
  );
  await pool.query('INSERT INTO peer_items (id) SELECT generate_series(1, $1)', [messages]);
  await pool.query('VACUUM ANALYZE peer_items');
}

// The reference stage's work: one UPDATE of the job's own row, then the next
// stage's job, in one transaction.
async function hop(client, stageIndex, id, enqueueNext) {
  await client.query('BEGIN');
  try {
    await client.query('UPDATE peer_items SET stage = $2, updated = now() WHERE id = $1', [id, stageIndex + 1]);
    if (stageIndex + 1 < stages.length) await enqueueNext(client, stages[stageIndex + 1], id);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

function measure() {
  return { wall: process.hrtime.bigint(), self: selfCpuUsec(), pg: treeCpuUsec(postmaster) };
}
function report(system, settings, before, after, hops) {
  const seconds = Number(after.wall - before.wall) / 1e9;
  const nodeUsec = after.self - before.self;
  const pgUsec = postmaster ? after.pg - before.pg : -1;
  console.log(
    JSON.stringify({
      system,
      settings,
      hops,
      seconds: +seconds.toFixed(3),
      hops_per_s: Math.round(hops / seconds),
      node_us_per_hop: +(nodeUsec / hops).toFixed(1),
      pg_us_per_hop: pgUsec >= 0 ? +(pgUsec / hops).toFixed(1) : null,
      cpu_us_per_hop: pgUsec >= 0 ? +((nodeUsec + pgUsec) / hops).toFixed(1) : null,
    })
  );
}

async function graphile() {
  const { run, runMigrations } = require('graphile-worker');
  const concurrency = num('concurrency', 32);
  const pool = new Pool({ connectionString: uri, max: 4 });
  await prepareItems(pool);
  // Graphile's documented performance settings (worker.graphile.org/docs/performance):
  // a pool one larger than the concurrency, a local queue, batched completion.
  const preset = {
    worker: {
      connectionString: uri,
      concurrentJobs: concurrency,
      maxPoolSize: concurrency + 1,
      localQueue: { size: 500 },
      completeJobBatchDelay: 0,
      failJobBatchDelay: 0,
    },
  };
  await runMigrations({ connectionString: uri, preset });
  await pool.query('DELETE FROM graphile_worker._private_jobs');
  await pool.query("SELECT graphile_worker.add_job('stage1', json_build_object('id', i)) FROM generate_series(1, $1) i", [
    messages,
  ]);
  const enqueue = (client, next, id) =>
    client.query('SELECT graphile_worker.add_job($1, json_build_object($2::text, $3::bigint))', [next, 'id', id]);
  let finished = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const taskList = {};
  stages.forEach((name, index) => {
    taskList[name] = async (payload, helpers) => {
      await helpers.withPgClient((client) => hop(client, index, payload.id, enqueue));
      if (index === stages.length - 1 && ++finished === messages) resolveDone();
    };
  });
  const before = measure();
  const runner = await run({ concurrency, noHandleSignals: true, taskList, preset, logger: quietLogger() });
  await done;
  const after = measure();
  await runner.stop();
  await pool.end();
  report('Graphile Worker 0.17.3', `concurrency ${concurrency}, local queue 500, batched completion`, before, after,
         3 * messages);
}

function quietLogger() {
  const { Logger } = require('graphile-worker');
  return new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') log(message);
  });
}

async function pgboss() {
  const PgBoss = require('pg-boss');
  const batch = num('batch', 100);
  const workers = num('workers', 2);
  const connections = num('connections', 32);
  const pool = new Pool({ connectionString: uri, max: connections });
  await prepareItems(pool);
  await pool.query('DROP SCHEMA IF EXISTS pgboss CASCADE');
  // Maintenance and the scheduler off: they are not part of a hop.
  const boss = new PgBoss({ connectionString: uri, max: 10, supervise: false, schedule: false });
  boss.on('error', (err) => log(err.message));
  await boss.start();
  for (const name of stages) await boss.createQueue(name);
  for (let first = 0; first < messages; first += 10000) {
    const jobs = [];
    for (let id = first + 1; id <= Math.min(messages, first + 10000); ++id) jobs.push({ name: 'stage1', data: { id } });
    await boss.insert(jobs);
  }
  // The next stage's job in the handler's own transaction (send's db option).
  const enqueue = (client, next, id) =>
    boss.send(next, { id }, { db: { executeSql: (text, values) => client.query(text, values) } });
  let finished = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const before = measure();
  for (const [index, name] of stages.entries()) {
    for (let w = 0; w < workers; ++w) {
      // A batch at a time (its jobs concurrently, one transaction each); pg-boss
      // completes the batch when the handler returns. 0.5 s is the shortest poll.
      await boss.work(name, { batchSize: batch, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        await Promise.all(
          jobs.map(async (job) => {
            const client = await pool.connect();
            try {
              await hop(client, index, job.data.id, enqueue);
            } finally {
              client.release();
            }
          })
        );
        if (index === stages.length - 1 && (finished += jobs.length) >= messages) resolveDone();
      });
    }
  }
  await done;
  const after = measure();
  await boss.stop({ graceful: false, wait: false });
  await pool.end();
  report('pg-boss 10.4.2', `batch ${batch}, ${workers} workers per queue, ${connections} connections`, before, after,
         3 * messages);
  setTimeout(() => process.exit(0), 200).unref();
}

// add_job's commit -> the task's first line, on a warm, idle worker.
async function graphileLatency() {
  const { run, runMigrations } = require('graphile-worker');
  const count = num('count', 500);
  const interval = num('interval', 20);
  const preset = {
    worker: { connectionString: uri, concurrentJobs: 4, maxPoolSize: 5, localQueue: { size: 500 }, completeJobBatchDelay: 0 },
  };
  await runMigrations({ connectionString: uri, preset });
  const pool = new Pool({ connectionString: uri, max: 1 });
  await pool.query('DELETE FROM graphile_worker._private_jobs');
  const nowMs = () => performance.timeOrigin + performance.now();
  const started = new Map();
  const taskList = { ping: async (payload) => void started.set(payload.n, nowMs()) };
  const runner = await run({ concurrency: 4, noHandleSignals: true, taskList, preset, logger: quietLogger() });
  const committed = new Map();
  await pool.query("SELECT graphile_worker.add_job('ping', json_build_object('n', -1))"); // warm-up
  await new Promise((resolve) => setTimeout(resolve, 500));
  const t0 = nowMs();
  for (let n = 0; n < count; ++n) {
    const wait = t0 + n * interval - nowMs();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await pool.query("SELECT graphile_worker.add_job('ping', json_build_object('n', $1::int))", [n]);
    committed.set(n, nowMs()); // autocommit: committed when the reply came
  }
  const deadline = nowMs() + 30000;
  while (started.size < count + 1 && nowMs() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await runner.stop();
  await pool.end();
  const lat = [...committed].filter(([n]) => started.has(n)).map(([n, c]) => started.get(n) - c).sort((a, b) => a - b);
  const pct = (p) => lat[Math.min(lat.length - 1, Math.max(0, Math.ceil(p * lat.length) - 1))];
  console.log(
    JSON.stringify({
      system: 'Graphile Worker 0.17.3 add_job -> task start',
      count: lat.length,
      lost: count - lat.length,
      interval_ms: interval,
      p50_ms: +pct(0.5).toFixed(2),
      p90_ms: +pct(0.9).toFixed(2),
      p99_ms: +pct(0.99).toFixed(2),
      max_ms: +lat[lat.length - 1].toFixed(2),
    })
  );
}

const modes = { graphile, pgboss, 'graphile-latency': graphileLatency };
if (!modes[mode] || !uri) {
  log('usage: node peers.js graphile|pgboss|graphile-latency URI [key=value...]');
  process.exit(64);
}
modes[mode]().catch((err) => {
  log(err.stack || String(err));
  process.exit(1);
});
