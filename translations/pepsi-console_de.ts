<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>main</name>
    <message>
        <source>The admin console of pepsi-dispatch: watches and steers a running dispatcher through its control socket.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The daemon&apos;s control socket (default: %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pepsi-console: unexpected argument &apos;%1&apos;; see --help
</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::ConnectionStatus</name>
    <message>
        <source>Connected to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnecting to %1 (lost at %2)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Incompatible daemon on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pepsi-dispatch %1 (pid %2, %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>up %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::ConsoleFeed</name>
    <message>
        <source>Connected to %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::ControlClient</name>
    <message>
        <source>Disconnected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting (handshake)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Incompatible daemon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The daemon closed the connection on %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot talk to the daemon on %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the connection to the daemon was lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The daemon sent a line longer than %1 bytes; reconnecting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The daemon sent a line that is not a protocol message (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The daemon says: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The daemon refused &apos;%1&apos;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a pepsi-dispatch control socket: its version reply names no protocol.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The daemon is older than this console: pepsi-dispatch %1 speaks control protocol %2, this console needs %3. Update pepsi-dispatch or use an older console.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This console is older than the daemon: pepsi-dispatch %1 speaks control protocol %2, this console knows %3. Update pepsi-console.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::EventLogModel</name>
    <message>
        <source>console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::KeyedTableModel</name>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::MainWindow</name>
    <message>
        <source>PEPSI dispatcher console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pipeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;ools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Queues</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter events (any column)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Daemon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh &amp;now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About pepsi-console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;pepsi-console %1&lt;/b&gt;&lt;p&gt;The admin console of pepsi-dispatch, a client of its control socket (control protocol %2).&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage actions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pepsi-console</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::PipelineWidget</name>
    <message>
        <source>workers %1 busy / %2 cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in flight %1 / %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pending %L1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pending ?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rate %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No pipeline yet: waiting for the daemon.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>COOLDOWN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DRAINED</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RETIRED</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::PoolModel</name>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Busy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retiring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In cooldown until %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cooldown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drained</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>claiming</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::QueueModel</name>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timed out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Oldest pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backlog</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>growing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grew</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>steady</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::StageActions</name>
    <message>
        <source>&amp;Drain stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;sume stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requeue &amp;failed…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requeue &amp;timed out…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;load configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop claiming messages for the selected stage; its workers finish what they hold.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Claim messages for the selected stage again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the failed messages of the selected stage back to pending.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the timed-out messages of the selected stage back to pending.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-read the configuration overlay and retire every worker.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drain %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected to the daemon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the daemon accepts admin commands only from root and its service account</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disabled: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not connected to the daemon.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timed-out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage %1 has no %2 messages to requeue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Put %n %1 message(s) of stage %2 back to pending?</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Requeue messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requeue %1 messages of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage %1 drained: it claims nothing until resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage %1 resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) put back to pending.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>More remain; requeue again for the rest.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Configuration reloaded: %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::ThroughputModel</name>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate (10 s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate (60 s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeouts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Crashes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Busy time</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>pepsi::console::ThroughputPlot</name>
    <message>
        <source>No samples yet: the daemon sends one a second.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>−%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>messages per second per stage, 10-second average, last %n minute(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pepsi::console::WorkerModel</name>
    <message>
        <source>PID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head age</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max runtime</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The watchdog kills this worker when its head-of-line message reaches %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, retiring</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
