<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>main</name>
    <message>
        <source>The admin console of pepsi-dispatch: watches and steers a running dispatcher through its control socket.</source>
        <translation>Die Verwaltungskonsole von pepsi-dispatch: beobachtet und steuert einen laufenden Dispatcher über seinen Steuer-Socket.</translation>
    </message>
    <message>
        <source>The daemon&apos;s control socket (default: %1).</source>
        <translation>Der Steuer-Socket des Daemons (Vorgabe: %1).</translation>
    </message>
    <message>
        <source>PATH</source>
        <translation>PFAD</translation>
    </message>
    <message>
        <source>pepsi-console: unexpected argument &apos;%1&apos;; see --help
</source>
        <translation>pepsi-console: unerwartetes Argument „%1“; siehe --help
</translation>
    </message>
</context>
<context>
    <name>pepsi::console::ConnectionStatus</name>
    <message>
        <source>Connected to %1</source>
        <translation>Verbunden mit %1</translation>
    </message>
    <message>
        <source>Reconnecting to %1 (lost at %2)…</source>
        <translation>Verbinde neu mit %1 (getrennt um %2) …</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1 …</translation>
    </message>
    <message>
        <source>Incompatible daemon on %1</source>
        <translation>Inkompatibler Daemon an %1</translation>
    </message>
    <message>
        <source>pepsi-dispatch %1 (pid %2, %3)</source>
        <translation>pepsi-dispatch %1 (PID %2, %3)</translation>
    </message>
    <message>
        <source>up %1</source>
        <translation>läuft seit %1</translation>
    </message>
    <message>
        <source>No daemon on %1 yet; retrying every second…</source>
        <translation>Noch kein Daemon an %1; neuer Versuch jede Sekunde …</translation>
    </message>
</context>
<context>
    <name>pepsi::console::ConsoleFeed</name>
    <message>
        <source>Connected to %1.</source>
        <translation>Verbunden mit %1.</translation>
    </message>
</context>
<context>
    <name>pepsi::console::ControlClient</name>
    <message>
        <source>Disconnected</source>
        <translation>Getrennt</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>Verbinde</translation>
    </message>
    <message>
        <source>Connecting (handshake)</source>
        <translation>Verbinde (Versionsabgleich)</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>Verbunden</translation>
    </message>
    <message>
        <source>Incompatible daemon</source>
        <translation>Inkompatibler Daemon</translation>
    </message>
    <message>
        <source>The daemon closed the connection on %1.</source>
        <translation>Der Daemon hat die Verbindung an %1 geschlossen.</translation>
    </message>
    <message>
        <source>Cannot talk to the daemon on %1: %2</source>
        <translation>Keine Verbindung zum Daemon an %1: %2</translation>
    </message>
    <message>
        <source>the connection to the daemon was lost</source>
        <translation>die Verbindung zum Daemon ist abgebrochen</translation>
    </message>
    <message>
        <source>The daemon sent a line longer than %1 bytes; reconnecting.</source>
        <translation>Der Daemon hat eine Zeile mit mehr als %1 Bytes gesendet; verbinde neu.</translation>
    </message>
    <message>
        <source>not a JSON object</source>
        <translation>kein JSON-Objekt</translation>
    </message>
    <message>
        <source>The daemon sent a line that is not a protocol message (%1): %2</source>
        <translation>Der Daemon hat eine Zeile gesendet, die keine Protokollnachricht ist (%1): %2</translation>
    </message>
    <message>
        <source>The daemon says: %1</source>
        <translation>Der Daemon meldet: %1</translation>
    </message>
    <message>
        <source>The daemon refused &apos;%1&apos;: %2</source>
        <translation>Der Daemon hat „%1“ abgelehnt: %2</translation>
    </message>
    <message>
        <source>%1 is not a pepsi-dispatch control socket: its version reply names no protocol.</source>
        <translation>%1 ist kein Steuer-Socket von pepsi-dispatch: seine Versionsantwort nennt kein Protokoll.</translation>
    </message>
    <message>
        <source>The daemon is older than this console: pepsi-dispatch %1 speaks control protocol %2, this console needs %3. Update pepsi-dispatch or use an older console.</source>
        <translation>Der Daemon ist älter als diese Konsole: pepsi-dispatch %1 spricht Steuerprotokoll %2, diese Konsole braucht %3. Aktualisieren Sie pepsi-dispatch oder verwenden Sie eine ältere Konsole.</translation>
    </message>
    <message>
        <source>This console is older than the daemon: pepsi-dispatch %1 speaks control protocol %2, this console knows %3. Update pepsi-console.</source>
        <translation>Diese Konsole ist älter als der Daemon: pepsi-dispatch %1 spricht Steuerprotokoll %2, diese Konsole kennt %3. Aktualisieren Sie pepsi-console.</translation>
    </message>
    <message>
        <source>no such socket (is pepsi-dispatch running, with this CONTROL_SOCKET?)</source>
        <translation>kein solcher Socket (läuft pepsi-dispatch, mit diesem CONTROL_SOCKET?)</translation>
    </message>
    <message>
        <source>nothing listens on it (a daemon that died left it behind?)</source>
        <translation>niemand lauscht daran (von einem abgestürzten Daemon übrig?)</translation>
    </message>
    <message>
        <source>permission denied (the socket is for root, the service account and its group)</source>
        <translation>Zugriff verweigert (der Socket ist für root, das Dienstkonto und seine Gruppe)</translation>
    </message>
</context>
<context>
    <name>pepsi::console::EventLogModel</name>
    <message>
        <source>console</source>
        <translation>Konsole</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
</context>
<context>
    <name>pepsi::console::KeyedTableModel</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 d %2 h</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
</context>
<context>
    <name>pepsi::console::MainWindow</name>
    <message>
        <source>PEPSI dispatcher console</source>
        <translation>PEPSI-Dispatcher-Konsole</translation>
    </message>
    <message>
        <source>&amp;Pipeline</source>
        <translation>&amp;Pipeline</translation>
    </message>
    <message>
        <source>P&amp;ools</source>
        <translation>P&amp;ools</translation>
    </message>
    <message>
        <source>&amp;Queues</source>
        <translation>&amp;Warteschlangen</translation>
    </message>
    <message>
        <source>&amp;Throughput</source>
        <translation>&amp;Durchsatz</translation>
    </message>
    <message>
        <source>&amp;Workers</source>
        <translation>W&amp;orker</translation>
    </message>
    <message>
        <source>Filter events (any column)…</source>
        <translation>Ereignisse filtern (alle Spalten) …</translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation>&amp;Ereignisse</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Daemon</source>
        <translation>Dae&amp;mon</translation>
    </message>
    <message>
        <source>Refresh &amp;now</source>
        <translation>&amp;Jetzt aktualisieren</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>Ü&amp;ber</translation>
    </message>
    <message>
        <source>About pepsi-console</source>
        <translation>Über pepsi-console</translation>
    </message>
    <message>
        <source>&lt;b&gt;pepsi-console %1&lt;/b&gt;&lt;p&gt;The admin console of pepsi-dispatch, a client of its control socket (control protocol %2).&lt;/p&gt;</source>
        <translation>&lt;b&gt;pepsi-console %1&lt;/b&gt;&lt;p&gt;Die Verwaltungskonsole von pepsi-dispatch, ein Client seines Steuer-Sockets (Steuerprotokoll %2).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Stage actions</source>
        <translation>Stufenaktionen</translation>
    </message>
    <message>
        <source>Stage:</source>
        <translation>Stufe:</translation>
    </message>
    <message>
        <source>pepsi-console</source>
        <translation>pepsi-console</translation>
    </message>
</context>
<context>
    <name>pepsi::console::PipelineWidget</name>
    <message>
        <source>workers %1 busy / %2 cap</source>
        <translation>Worker %1 belegt / %2 max.</translation>
    </message>
    <message>
        <source>in flight %1 / %2</source>
        <translation>in Arbeit %1 / %2</translation>
    </message>
    <message>
        <source>pending %L1</source>
        <translation>wartend %L1</translation>
    </message>
    <message>
        <source>pending ?</source>
        <translation>wartend ?</translation>
    </message>
    <message>
        <source>rate %1</source>
        <translation>Rate %1</translation>
    </message>
    <message>
        <source>No pipeline yet: waiting for the daemon.</source>
        <translation>Noch keine Pipeline: warte auf den Daemon.</translation>
    </message>
    <message>
        <source>COOLDOWN</source>
        <translation>ABKÜHLUNG</translation>
    </message>
    <message>
        <source>DRAINED</source>
        <translation>ANGEHALTEN</translation>
    </message>
    <message>
        <source>RETIRED</source>
        <translation>AUSGEMUSTERT</translation>
    </message>
    <message>
        <source>%1 stage runs (10 s), %L2 messages in flight, %L3 of %L4 workers busy, %L5 messages through since start</source>
        <translation>%1 Stufenläufe (10 s), %L2 Nachrichten in Arbeit, %L3 von %L4 Workern belegt, %L5 Nachrichten durchgelaufen seit dem Start</translation>
    </message>
</context>
<context>
    <name>pepsi::console::PoolModel</name>
    <message>
        <source>Stage</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Busy</source>
        <translation>Belegt</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Frei</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>Startend</translation>
    </message>
    <message>
        <source>Retiring</source>
        <translation>Auslaufend</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>Cap</source>
        <translation>Max.</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>In Arbeit</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>Kapazität</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>In cooldown until %1: %2</source>
        <translation>In Abkühlung bis %1: %2</translation>
    </message>
    <message>
        <source>retired</source>
        <translation>ausgemustert</translation>
    </message>
    <message>
        <source>cooldown</source>
        <translation>Abkühlung</translation>
    </message>
    <message>
        <source>drained</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>claiming</source>
        <translation>holt Nachrichten</translation>
    </message>
</context>
<context>
    <name>pepsi::console::QueueModel</name>
    <message>
        <source>Stage</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Laufend</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Timed out</source>
        <translation>Zeitüberschreitung</translation>
    </message>
    <message>
        <source>Oldest pending</source>
        <translation>Älteste wartende</translation>
    </message>
    <message>
        <source>Backlog</source>
        <translation>Rückstand</translation>
    </message>
    <message>
        <source>growing</source>
        <translation>wächst</translation>
    </message>
    <message>
        <source>grew</source>
        <translation>gewachsen</translation>
    </message>
    <message>
        <source>steady</source>
        <translation>stabil</translation>
    </message>
</context>
<context>
    <name>pepsi::console::StageActions</name>
    <message>
        <source>&amp;Drain stage</source>
        <translation>Stufe &amp;anhalten</translation>
    </message>
    <message>
        <source>Re&amp;sume stage</source>
        <translation>Stufe &amp;fortsetzen</translation>
    </message>
    <message>
        <source>Requeue &amp;failed…</source>
        <translation>Fehlgeschlagene &amp;neu einreihen …</translation>
    </message>
    <message>
        <source>Requeue &amp;timed out…</source>
        <translation>&amp;Zeitüberschrittene neu einreihen …</translation>
    </message>
    <message>
        <source>Re&amp;load configuration</source>
        <translation>Konfiguration neu &amp;laden</translation>
    </message>
    <message>
        <source>Stop claiming messages for the selected stage; its workers finish what they hold.</source>
        <translation>Für die gewählte Stufe keine Nachrichten mehr holen; ihre Worker beenden, was sie haben.</translation>
    </message>
    <message>
        <source>Claim messages for the selected stage again.</source>
        <translation>Für die gewählte Stufe wieder Nachrichten holen.</translation>
    </message>
    <message>
        <source>Put the failed messages of the selected stage back to pending.</source>
        <translation>Die fehlgeschlagenen Nachrichten der gewählten Stufe wieder auf wartend setzen.</translation>
    </message>
    <message>
        <source>Put the timed-out messages of the selected stage back to pending.</source>
        <translation>Die zeitüberschrittenen Nachrichten der gewählten Stufe wieder auf wartend setzen.</translation>
    </message>
    <message>
        <source>Re-read the configuration overlay and retire every worker.</source>
        <translation>Die Konfigurationsüberlagerung neu lesen und alle Worker auslaufen lassen.</translation>
    </message>
    <message>
        <source>not connected to the daemon</source>
        <translation>nicht mit dem Daemon verbunden</translation>
    </message>
    <message>
        <source>the daemon accepts admin commands only from root and its service account</source>
        <translation>der Daemon nimmt Verwaltungsbefehle nur von root und seinem Dienstkonto an</translation>
    </message>
    <message>
        <source>Disabled: %1.</source>
        <translation>Deaktiviert: %1.</translation>
    </message>
    <message>
        <source>%1: not connected to the daemon.</source>
        <translation>%1: nicht mit dem Daemon verbunden.</translation>
    </message>
    <message>
        <source>Requeue messages</source>
        <translation>Nachrichten neu einreihen</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>Stage %1 drained: it claims nothing until resumed.</source>
        <translation>Stufe %1 angehalten: sie holt nichts, bis sie fortgesetzt wird.</translation>
    </message>
    <message>
        <source>Stage %1 resumed.</source>
        <translation>Stufe %1 fortgesetzt.</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) put back to pending.</source>
        <translation>
            <numerusform>%n Nachricht wieder auf wartend gesetzt.</numerusform>
            <numerusform>%n Nachrichten wieder auf wartend gesetzt.</numerusform>
        </translation>
    </message>
    <message>
        <source>More remain; requeue again for the rest.</source>
        <translation>Es sind weitere übrig; für den Rest erneut einreihen.</translation>
    </message>
    <message>
        <source>Configuration reloaded: %1.</source>
        <translation>Konfiguration neu geladen: %1.</translation>
    </message>
    <message>
        <source>Draining %1</source>
        <translation>Anhalten von %1</translation>
    </message>
    <message>
        <source>Resuming %1</source>
        <translation>Fortsetzen von %1</translation>
    </message>
    <message>
        <source>Reloading</source>
        <translation>Neuladen</translation>
    </message>
    <message>
        <source>Stage %1 has no failed messages to requeue.</source>
        <translation>Stufe %1 hat keine fehlgeschlagenen Nachrichten zum Neueinreihen.</translation>
    </message>
    <message>
        <source>Stage %1 has no timed-out messages to requeue.</source>
        <translation>Stufe %1 hat keine zeitüberschrittenen Nachrichten zum Neueinreihen.</translation>
    </message>
    <message numerus="yes">
        <source>Put %n failed message(s) of stage %1 back to pending?</source>
        <translation>
            <numerusform>%n fehlgeschlagene Nachricht der Stufe %1 wieder auf wartend setzen?</numerusform>
            <numerusform>%n fehlgeschlagene Nachrichten der Stufe %1 wieder auf wartend setzen?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Put %n timed-out message(s) of stage %1 back to pending?</source>
        <translation>
            <numerusform>%n zeitüberschrittene Nachricht der Stufe %1 wieder auf wartend setzen?</numerusform>
            <numerusform>%n zeitüberschrittene Nachrichten der Stufe %1 wieder auf wartend setzen?</numerusform>
        </translation>
    </message>
    <message>
        <source>Requeueing the failed messages of %1</source>
        <translation>Neueinreihen der fehlgeschlagenen Nachrichten von %1</translation>
    </message>
    <message>
        <source>Requeueing the timed-out messages of %1</source>
        <translation>Neueinreihen der zeitüberschrittenen Nachrichten von %1</translation>
    </message>
</context>
<context>
    <name>pepsi::console::ThroughputModel</name>
    <message>
        <source>Stage</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Rate (10 s)</source>
        <translation>Rate (10 s)</translation>
    </message>
    <message>
        <source>Rate (60 s)</source>
        <translation>Rate (60 s)</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Timeouts</source>
        <translation>Zeitüberschreitungen</translation>
    </message>
    <message>
        <source>Crashes</source>
        <translation>Abstürze</translation>
    </message>
    <message>
        <source>Busy time</source>
        <translation>Belegte Zeit</translation>
    </message>
</context>
<context>
    <name>pepsi::console::ThroughputPlot</name>
    <message>
        <source>No samples yet: the daemon sends one a second.</source>
        <translation>Noch keine Messwerte: der Daemon sendet einen pro Sekunde.</translation>
    </message>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>−%1 min</source>
        <translation>−%1 min</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message numerus="yes">
        <source>messages per second per stage, 10-second average, last %n minute(s)</source>
        <translation>
            <numerusform>Nachrichten pro Sekunde je Stufe, 10-Sekunden-Mittel, letzte Minute</numerusform>
            <numerusform>Nachrichten pro Sekunde je Stufe, 10-Sekunden-Mittel, letzte %n Minuten</numerusform>
        </translation>
    </message>
    <message>
        <source>−%1 s</source>
        <translation>−%1 s</translation>
    </message>
</context>
<context>
    <name>pepsi::console::WorkerModel</name>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Nachrichten</translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>Head id</source>
        <translation>Kopf-ID</translation>
    </message>
    <message>
        <source>Head age</source>
        <translation>Kopf-Alter</translation>
    </message>
    <message>
        <source>Max runtime</source>
        <translation>Max. Laufzeit</translation>
    </message>
    <message>
        <source>The watchdog kills this worker when its head-of-line message reaches %1.</source>
        <translation>Der Watchdog beendet diesen Worker, wenn seine vorderste Nachricht %1 erreicht.</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>startet</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>stoppt</translation>
    </message>
    <message>
        <source>%1, retiring</source>
        <translation>%1, läuft aus</translation>
    </message>
</context>
</TS>
