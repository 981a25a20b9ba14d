<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>EventText</name>
    <message>
        <source>Worker starts and exits (recycling)</source>
        <translation>Start und Ende von Workern (Recycling)</translation>
    </message>
    <message>
        <source>Drains, resumes, requeues</source>
        <translation>Anhalten, Fortsetzen, erneut Einreihen</translation>
    </message>
    <message>
        <source>Reloads, database, daemon state</source>
        <translation>Neuladen, Datenbank, Daemon-Zustand</translation>
    </message>
    <message>
        <source>The console&apos;s own notes</source>
        <translation>Eigene Meldungen der Konsole</translation>
    </message>
    <message>
        <source>worker started</source>
        <translation>Worker gestartet</translation>
    </message>
    <message>
        <source>worker exited</source>
        <translation>Worker beendet</translation>
    </message>
    <message>
        <source>worker crashed</source>
        <translation>Worker abgestürzt</translation>
    </message>
    <message>
        <source>worker killed</source>
        <translation>Worker abgebrochen</translation>
    </message>
    <message>
        <source>start failed</source>
        <translation>Start fehlgeschlagen</translation>
    </message>
    <message>
        <source>cooldown</source>
        <translation>Abkühlung</translation>
    </message>
    <message>
        <source>cooldown over</source>
        <translation>Abkühlung vorbei</translation>
    </message>
    <message>
        <source>stage drained</source>
        <translation>Stufe angehalten</translation>
    </message>
    <message>
        <source>stage resumed</source>
        <translation>Stufe fortgesetzt</translation>
    </message>
    <message>
        <source>requeued</source>
        <translation>erneut eingereiht</translation>
    </message>
    <message>
        <source>reload</source>
        <translation>Neuladen</translation>
    </message>
    <message>
        <source>database lost</source>
        <translation>Datenbank verloren</translation>
    </message>
    <message>
        <source>database back</source>
        <translation>Datenbank zurück</translation>
    </message>
    <message>
        <source>daemon state</source>
        <translation>Daemon-Zustand</translation>
    </message>
    <message>
        <source>console</source>
        <translation>Konsole</translation>
    </message>
    <message>
        <source>someone</source>
        <translation>jemand</translation>
    </message>
    <message>
        <source>%1 (uid %2)</source>
        <translation>%1 (UID %2)</translation>
    </message>
    <message>
        <source>uid %1</source>
        <translation>UID %1</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>startet</translation>
    </message>
    <message>
        <source>waiting for the dispatcher lock</source>
        <translation>wartet auf die Dispatcher-Sperre</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>reconnecting to the database</source>
        <translation>verbindet neu mit der Datenbank</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>stoppt</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>untätig</translation>
    </message>
    <message>
        <source>recycled after its message limit</source>
        <translation>nach seinem Nachrichtenlimit ersetzt</translation>
    </message>
    <message>
        <source>retired by a reload or drain</source>
        <translation>durch Neuladen oder Anhalten ausgemustert</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>exited by itself</source>
        <translation>von selbst beendet</translation>
    </message>
    <message>
        <source>message %1</source>
        <translation>Nachricht %1</translation>
    </message>
    <message>
        <source>no message held</source>
        <translation>keine Nachricht gehalten</translation>
    </message>
    <message>
        <source>started</source>
        <translation>gestartet</translation>
    </message>
    <message>
        <source>it ran past its max runtime</source>
        <translation>es lief länger als seine maximale Laufzeit</translation>
    </message>
    <message>
        <source>it broke the stage protocol</source>
        <translation>es verletzte das Stufenprotokoll</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1; %2</translation>
    </message>
    <message>
        <source>could not start: %1</source>
        <translation>konnte nicht starten: %1</translation>
    </message>
    <message>
        <source>could not start: %1; its last error line: %2</source>
        <translation>konnte nicht starten: %1; seine letzte Fehlerzeile: %2</translation>
    </message>
    <message>
        <source>claims nothing until %1: %2</source>
        <translation>holt nichts bis %1: %2</translation>
    </message>
    <message>
        <source>claims again</source>
        <translation>holt wieder</translation>
    </message>
    <message>
        <source>drained by %1: claims nothing until resumed</source>
        <translation>angehalten von %1: holt nichts, bis sie fortgesetzt wird</translation>
    </message>
    <message>
        <source>resumed by %1</source>
        <translation>fortgesetzt von %1</translation>
    </message>
    <message>
        <source>timed-out</source>
        <translation>zeitüberschrittene</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagene</translation>
    </message>
    <message>
        <source>the configuration changed</source>
        <translation>die Konfiguration hat sich geändert</translation>
    </message>
    <message>
        <source>asked on the control socket</source>
        <translation>über den Steuer-Socket verlangt</translation>
    </message>
    <message>
        <source>the database is back</source>
        <translation>die Datenbank ist zurück</translation>
    </message>
    <message>
        <source>SIGHUP</source>
        <translation>SIGHUP</translation>
    </message>
    <message>
        <source>configuration reloaded (%1); stages: %2</source>
        <translation>Konfiguration neu geladen (%1); Stufen: %2</translation>
    </message>
    <message>
        <source>lost the database: %1</source>
        <translation>Datenbank verloren: %1</translation>
    </message>
    <message>
        <source>the database is back after %1</source>
        <translation>die Datenbank ist nach %1 zurück</translation>
    </message>
    <message>
        <source>the daemon is %1</source>
        <translation>der Daemon %1</translation>
    </message>
    <message numerus="yes">
        <source>%1, after %Ln message(s)</source>
        <translation>
            <numerusform>%1, nach %Ln Nachricht</numerusform>
            <numerusform>%1, nach %Ln Nachrichten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1; %2 failed; %Ln other held message(s) put back to pending</source>
        <translation>
            <numerusform>%1; %2 fehlgeschlagen; %Ln weitere gehaltene Nachricht wieder wartend</numerusform>
            <numerusform>%1; %2 fehlgeschlagen; %Ln weitere gehaltene Nachrichten wieder wartend</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln %1 message(s) put back to pending by %2</source>
        <translation>
            <numerusform>%Ln %1 Nachricht von %2 wieder auf wartend gesetzt</numerusform>
            <numerusform>%Ln %1 Nachrichten von %2 wieder auf wartend gesetzt</numerusform>
        </translation>
    </message>
    <message>
        <source>a setting changed with set</source>
        <translation>eine Einstellung per set geändert</translation>
    </message>
    <message>
        <source>Failed messages, failing stages, crashes, kills, start failures, cooldowns</source>
        <translation>Fehlgeschlagene Nachrichten, scheiternde Stufen, Abstürze, Abbrüche, Startfehler, Abkühlungen</translation>
    </message>
    <message>
        <source>messages failed</source>
        <translation>Nachrichten fehlgeschlagen</translation>
    </message>
    <message>
        <source>stage failing</source>
        <translation>Stufe scheitert</translation>
    </message>
    <message>
        <source>stage recovered</source>
        <translation>Stufe erholt</translation>
    </message>
    <message numerus="yes">
        <source>%Ln message(s) failed; the latest: %1</source>
        <translation>
            <numerusform>%Ln Nachricht fehlgeschlagen; zuletzt: %1</numerusform>
            <numerusform>%Ln Nachrichten fehlgeschlagen; zuletzt: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>failing: %1 % of its runs in the last 10 s failed</source>
        <translation>scheitert: %1 % ihrer Läufe in den letzten 10 s fehlgeschlagen</translation>
    </message>
    <message>
        <source>recovered: %1 % of its runs in the last 10 s failed</source>
        <translation>erholt: %1 % ihrer Läufe in den letzten 10 s fehlgeschlagen</translation>
    </message>
</context>
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
        <source>pepsi-console: %1; see --help
</source>
        <translation>pepsi-console: %1; siehe --help
</translation>
    </message>
    <message>
        <source>A daemon to watch: a control socket&apos;s path or ssh://[USER@]HOST[:PORT][/SOCKET] (default: the --socket path).</source>
        <translation>Ein zu beobachtender Daemon: der Pfad eines Steuer-Sockets oder ssh://[USER@]HOST[:PORT][/SOCKET] (Vorgabe: der Pfad von --socket).</translation>
    </message>
    <message>
        <source>[TARGET...]</source>
        <translation>[ZIEL...]</translation>
    </message>
</context>
<context>
    <name>pepsi::console::ConfirmedRequeue</name>
    <message numerus="yes">
        <source>the %Ln selected</source>
        <translation>
            <numerusform>die %Ln ausgewählte</numerusform>
            <numerusform>die %Ln ausgewählten</numerusform>
        </translation>
    </message>
    <message>
        <source>Counting the messages of that reason failed: %1</source>
        <translation>Zählen der Nachrichten dieses Grundes fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>no reason</source>
        <translation>kein Grund</translation>
    </message>
    <message>
        <source>reason &quot;%1&quot;</source>
        <translation>Grund „%1“</translation>
    </message>
    <message>
        <source>Counting the recent messages failed: %1</source>
        <translation>Zählen der jüngsten Nachrichten fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <source>those of the last %Ln minute(s)</source>
        <translation>
            <numerusform>die der letzten Minute</numerusform>
            <numerusform>die der letzten %Ln Minuten</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing to requeue: %1 has no such messages in status %2.</source>
        <translation>Nichts erneut einzureihen: %1 hat keine solchen Nachrichten im Status „%2“.</translation>
    </message>
    <message numerus="yes">
        <source>Put %Ln message(s) of stage %1 in status %2 back to pending (%3)?</source>
        <translation>
            <numerusform>%Ln Nachricht der Stufe %1 im Status „%2“ wieder auf wartend setzen (%3)?</numerusform>
            <numerusform>%Ln Nachrichten der Stufe %1 im Status „%2“ wieder auf wartend setzen (%3)?</numerusform>
        </translation>
    </message>
    <message>
        <source>The daemon moves at most %L1 at a time: the console asks in batches until all are moved.</source>
        <translation>Der Daemon verschiebt höchstens %L1 auf einmal: die Konsole fragt in Teilen, bis alle verschoben sind.</translation>
    </message>
    <message>
        <source>Requeue messages of %1</source>
        <translation>Nachrichten von %1 erneut einreihen</translation>
    </message>
    <message>
        <source>Requeueing: %L1 of %L2 moved…</source>
        <translation>Erneut einreihen: %L1 von %L2 verschoben…</translation>
    </message>
    <message>
        <source>Requeueing: reading the ids…</source>
        <translation>Erneut einreihen: lese die IDs…</translation>
    </message>
    <message numerus="yes">
        <source>%Ln message(s) of stage %1 put back to pending.</source>
        <translation>
            <numerusform>%Ln Nachricht der Stufe %1 wieder auf wartend gesetzt.</numerusform>
            <numerusform>%Ln Nachrichten der Stufe %1 wieder auf wartend gesetzt.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pepsi::console::ConnectDialog</name>
    <message>
        <source>Connect to a dispatcher</source>
        <translation>Mit einem Dispatcher verbinden</translation>
    </message>
    <message>
        <source>/run/pepsi/dispatch.sock or ssh://user@host</source>
        <translation>/run/pepsi/dispatch.sock oder ssh://benutzer@host</translation>
    </message>
    <message>
        <source>&amp;Target (a control socket&apos;s path or ssh://[USER@]HOST[:PORT][/SOCKET]):</source>
        <translation>&amp;Ziel (Pfad eines Steuer-Sockets oder ssh://[USER@]HOST[:PORT][/SOCKET]):</translation>
    </message>
    <message>
        <source>&amp;Recent targets:</source>
        <translation>&amp;Letzte Ziele:</translation>
    </message>
</context>
<context>
    <name>pepsi::console::ConnectionStatus</name>
    <message>
        <source>up %1</source>
        <translation>Betriebszeit %1</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>Verbunden</translation>
    </message>
    <message>
        <source>Not connected since %1; retrying every %2</source>
        <translation>Nicht verbunden seit %1; neuer Versuch alle %2</translation>
    </message>
    <message>
        <source>No daemon yet; retrying every %1</source>
        <translation>Noch kein Daemon; neuer Versuch alle %1</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbinde…</translation>
    </message>
    <message>
        <source>Incompatible daemon</source>
        <translation>Inkompatibler Daemon</translation>
    </message>
    <message>
        <source>pepsi-dispatch %1, pid %2, %3</source>
        <translation>pepsi-dispatch %1, PID %2, %3</translation>
    </message>
    <message>
        <source>Not the daemon&apos;s socket; retrying every %1</source>
        <translation>Nicht der Socket des Daemons; neuer Versuch alle %1</translation>
    </message>
    <message>
        <source>ssh failed; retrying every %1</source>
        <translation>ssh fehlgeschlagen; neuer Versuch alle %1</translation>
    </message>
</context>
<context>
    <name>pepsi::console::ConsoleFeed</name>
    <message>
        <source>Connected to %1.</source>
        <translation>Verbunden mit %1.</translation>
    </message>
    <message>
        <source>Reconnected after %1.</source>
        <translation>Nach %1 wieder verbunden.</translation>
    </message>
    <message>
        <source>The daemon restarted (pid %1, was %2): the rows that were running went back to pending when it started, and its statistics count from zero.</source>
        <translation>Der Daemon wurde neu gestartet (PID %1, vorher %2): die laufenden Zeilen wurden bei seinem Start wieder wartend, und seine Statistik zählt von null.</translation>
    </message>
    <message>
        <source>Drains do not survive a restart: %1 claims messages again.</source>
        <translation>Anhalten überdauert keinen Neustart: %1 holt wieder Nachrichten.</translation>
    </message>
    <message>
        <source>The same daemon (pid %1).</source>
        <translation>Derselbe Daemon (PID %1).</translation>
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
        <source>Cannot talk to the daemon on %1: it is a directory, not a socket (the daemon&apos;s socket is CONTROL_SOCKET, dispatch.sock in its runtime directory)</source>
        <translation>Keine Verbindung zum Daemon an %1: das ist ein Verzeichnis, kein Socket (der Socket des Daemons ist CONTROL_SOCKET, dispatch.sock in seinem Laufzeitverzeichnis)</translation>
    </message>
    <message>
        <source>Cannot talk to the daemon on %1: it is a regular file, not a socket</source>
        <translation>Keine Verbindung zum Daemon an %1: das ist eine gewöhnliche Datei, kein Socket</translation>
    </message>
    <message>
        <source>Cannot talk to the daemon on %1: it is not a socket</source>
        <translation>Keine Verbindung zum Daemon an %1: das ist kein Socket</translation>
    </message>
    <message>
        <source>%1 closed the connection before answering &apos;version&apos;: not a pepsi-dispatch control socket (PostgreSQL&apos;s, say)?</source>
        <translation>%1 hat die Verbindung geschlossen, ohne auf „version“ zu antworten: kein Steuer-Socket von pepsi-dispatch (etwa der von PostgreSQL)?</translation>
    </message>
    <message>
        <source>Cannot talk to the daemon on %1: permission denied (the socket is for root, the service account and its group)</source>
        <translation>Keine Verbindung zum Daemon an %1: Zugriff verweigert (der Socket ist für root, das Dienstkonto und seine Gruppe)</translation>
    </message>
    <message>
        <source>%1 is not a pepsi-dispatch control socket: its first line is not ours (%2): %3</source>
        <translation>%1 ist kein Steuer-Socket von pepsi-dispatch: seine erste Zeile ist nicht unsere (%2): %3</translation>
    </message>
    <message>
        <source>Cannot reach the daemon through %1: %2</source>
        <translation>Der Daemon ist über %1 nicht erreichbar: %2</translation>
    </message>
    <message>
        <source>ssh ended before the far side answered</source>
        <translation>ssh endete, bevor die Gegenseite antwortete</translation>
    </message>
    <message>
        <source>Cannot talk to the daemon through %1: %2</source>
        <translation>Keine Verbindung zum Daemon über %1: %2</translation>
    </message>
</context>
<context>
    <name>pepsi::console::EventLogModel</name>
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
    <name>pepsi::console::EventsView</name>
    <message>
        <source>Filter events (any column: a stage, a pid, a message id)…</source>
        <translation>Ereignisse filtern (jede Spalte: eine Stufe, eine PID, eine Nachrichten-ID)…</translation>
    </message>
    <message>
        <source>Show…</source>
        <translation>Zeigen…</translation>
    </message>
    <message>
        <source>Which kinds of event the log shows. Worker starts and exits are hidden at first: a pool that recycles its workers writes them by the hundred.</source>
        <translation>Welche Arten von Ereignissen das Protokoll zeigt. Start und Ende von Workern sind zunächst ausgeblendet: ein Pool, der seine Worker ersetzt, schreibt sie zu Hunderten.</translation>
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
    <message>
        <source>PEPSI dispatcher console – %1</source>
        <translation>PEPSI-Dispatcher-Konsole – %1</translation>
    </message>
    <message>
        <source>Not connected to the daemon: what the views show is from %1 and no longer live. The console reconnects by itself.</source>
        <translation>Nicht mit dem Daemon verbunden: was die Ansichten zeigen, stammt von %1 und ist nicht mehr aktuell. Die Konsole verbindet sich von selbst neu.</translation>
    </message>
    <message>
        <source>(choose)</source>
        <translation>(wählen)</translation>
    </message>
    <message>
        <source>Set %1 of %2…</source>
        <translation>%1 von %2 setzen…</translation>
    </message>
    <message>
        <source>Set %1 of %2</source>
        <translation>%1 von %2 setzen</translation>
    </message>
    <message>
        <source>%1 (now %2):</source>
        <translation>%1 (jetzt %2):</translation>
    </message>
    <message>
        <source>&amp;Messages</source>
        <translation>&amp;Nachrichten</translation>
    </message>
    <message>
        <source>Show failed messages of %1</source>
        <translation>Fehlgeschlagene Nachrichten von %1 zeigen</translation>
    </message>
    <message>
        <source>Show timed-out messages of %1</source>
        <translation>Zeitüberschrittene Nachrichten von %1 zeigen</translation>
    </message>
</context>
<context>
    <name>pepsi::console::MessageListModel</name>
    <message>
        <source>Listing the messages of %1: not connected to the daemon.</source>
        <translation>Nachrichten von %1 auflisten: nicht mit dem Daemon verbunden.</translation>
    </message>
    <message>
        <source>Listing the messages of %1 failed: %2</source>
        <translation>Auflisten der Nachrichten von %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keiner)</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Claims</source>
        <translation>Abholungen</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
</context>
<context>
    <name>pepsi::console::MessageRequeue</name>
    <message numerus="yes">
        <source>Requeueing messages of %1: not connected to the daemon (%Ln moved).</source>
        <translation>
            <numerusform>Nachrichten von %1 erneut einreihen: nicht mit dem Daemon verbunden (%Ln verschoben).</numerusform>
            <numerusform>Nachrichten von %1 erneut einreihen: nicht mit dem Daemon verbunden (%Ln verschoben).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Requeueing messages of %1 failed after %Ln moved: %2</source>
        <translation>
            <numerusform>Erneutes Einreihen von Nachrichten von %1 nach %Ln verschobenen fehlgeschlagen: %2</numerusform>
            <numerusform>Erneutes Einreihen von Nachrichten von %1 nach %Ln verschobenen fehlgeschlagen: %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pepsi::console::MessagesView</name>
    <message>
        <source>Load &amp;more</source>
        <translation>&amp;Mehr laden</translation>
    </message>
    <message>
        <source>Requeue &amp;selected…</source>
        <translation>&amp;Ausgewählte erneut einreihen…</translation>
    </message>
    <message>
        <source>Requeue this &amp;reason…</source>
        <translation>Diesen &amp;Grund erneut einreihen…</translation>
    </message>
    <message>
        <source>Requeue the last &amp;minutes…</source>
        <translation>Die letzten M&amp;inuten erneut einreihen…</translation>
    </message>
    <message>
        <source>(choose)</source>
        <translation>(wählen)</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>zeitüberschritten</translation>
    </message>
    <message>
        <source>paused (retried later)</source>
        <translation>pausiert (später wiederholt)</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>wartend</translation>
    </message>
    <message>
        <source>running</source>
        <translation>laufend</translation>
    </message>
    <message>
        <source>Message id…</source>
        <translation>Nachrichten-ID…</translation>
    </message>
    <message>
        <source>Select a message to see its state.</source>
        <translation>Wählen Sie eine Nachricht, um ihren Zustand zu sehen.</translation>
    </message>
    <message>
        <source>Stage:</source>
        <translation>Stufe:</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Status:</translation>
    </message>
    <message>
        <source>Requeue the last minutes</source>
        <translation>Die letzten Minuten erneut einreihen</translation>
    </message>
    <message>
        <source>Requeue the messages that got this status in the last … minutes:</source>
        <translation>Die Nachrichten erneut einreihen, die diesen Status in den letzten … Minuten erhielten:</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Lade…</translation>
    </message>
    <message numerus="yes">
        <source>%Ln message(s) loaded, more to load</source>
        <translation>
            <numerusform>%Ln Nachricht geladen, weitere vorhanden</numerusform>
            <numerusform>%Ln Nachrichten geladen, weitere vorhanden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln message(s), all loaded</source>
        <translation>
            <numerusform>%Ln Nachricht, alle geladen</numerusform>
            <numerusform>%Ln Nachrichten, alle geladen</numerusform>
        </translation>
    </message>
    <message>
        <source>Asking the daemon for message %1…</source>
        <translation>Frage den Daemon nach Nachricht %1…</translation>
    </message>
    <message>
        <source>Message %1: %2</source>
        <translation>Nachricht %1: %2</translation>
    </message>
    <message>
        <source>Created %1, status since %2</source>
        <translation>Erzeugt %1, Status seit %2</translation>
    </message>
    <message>
        <source>Retried at %1</source>
        <translation>Wiederholt um %1</translation>
    </message>
    <message>
        <source>Reason: %1</source>
        <translation>Grund: %1</translation>
    </message>
    <message>
        <source>The state is longer than 16 KiB: what follows is its first 16 KiB, cut (no longer valid JSON). pepsi-ctl message %1 shows the same; the database has it whole.</source>
        <translation>Der Zustand ist länger als 16 KiB: es folgen seine ersten 16 KiB, abgeschnitten (kein gültiges JSON mehr). pepsi-ctl message %1 zeigt dasselbe; die Datenbank hat ihn vollständig.</translation>
    </message>
    <message>
        <source>State:</source>
        <translation>Zustand:</translation>
    </message>
    <message numerus="yes">
        <source>Message %1 of stage %2, status %3, claimed %Ln time(s)</source>
        <translation>
            <numerusform>Nachricht %1 der Stufe %2, Status „%3“, %Ln-mal abgeholt</numerusform>
            <numerusform>Nachricht %1 der Stufe %2, Status „%3“, %Ln-mal abgeholt</numerusform>
        </translation>
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
        <source>%1 stage runs (10 s), %L2 messages in flight, %L3 of %L4 workers busy; since start %L5 messages done, %L6 failed or timed out</source>
        <translation>%1 Stufenläufe (10 s), %L2 Nachrichten in Arbeit, %L3 von %L4 Workern belegt; seit dem Start %L5 Nachrichten erledigt, %L6 fehlgeschlagen oder zeitüberschritten</translation>
    </message>
    <message>
        <source>Not connected: these figures are from %1 and no longer live.</source>
        <translation>Nicht verbunden: diese Zahlen stammen von %1 und sind nicht mehr aktuell.</translation>
    </message>
    <message>
        <source>FAILING</source>
        <translation>SCHLÄGT FEHL</translation>
    </message>
    <message>
        <source>done %1</source>
        <translation>erledigt %1</translation>
    </message>
    <message>
        <source>failing %1</source>
        <translation>fehlschlagend %1</translation>
    </message>
    <message>
        <source>failed %L1</source>
        <translation>fehlgeschlagen %L1</translation>
    </message>
    <message>
        <source>failed ?</source>
        <translation>fehlgeschlagen ?</translation>
    </message>
    <message>
        <source>timed out %L1</source>
        <translation>zeitüberschritten %L1</translation>
    </message>
    <message>
        <source>timed out ?</source>
        <translation>zeitüberschritten ?</translation>
    </message>
    <message>
        <source>done ?</source>
        <translation>erledigt ?</translation>
    </message>
    <message>
        <source>failing ?</source>
        <translation>fehlschlagend ?</translation>
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
    <message>
        <source>Queue limit</source>
        <translation>Warteschlangenlimit</translation>
    </message>
    <message>
        <source>PARALLELISM and QUEUE_LIMIT can be set here (the context menu) by root and the service account.</source>
        <translation>PARALLELISM und QUEUE_LIMIT lassen sich hier setzen (Kontextmenü), von root und dem Dienstkonto.</translation>
    </message>
    <message>
        <source>Set live (config_overlay); the file says %1.</source>
        <translation>Im laufenden Betrieb gesetzt (config_overlay); die Datei sagt %1.</translation>
    </message>
    <message>
        <source>Set live (config_overlay); the file has none, the default applies without it.</source>
        <translation>Im laufenden Betrieb gesetzt (config_overlay); die Datei hat keinen Wert, ohne ihn gilt die Voreinstellung.</translation>
    </message>
    <message>
        <source>From the configuration file.</source>
        <translation>Aus der Konfigurationsdatei.</translation>
    </message>
    <message>
        <source>The default: neither the file nor config_overlay sets it.</source>
        <translation>Die Voreinstellung: weder die Datei noch config_overlay setzt den Wert.</translation>
    </message>
    <message>
        <source>%1 (live)</source>
        <translation>%1 (live)</translation>
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
        <source>steady</source>
        <translation>stabil</translation>
    </message>
    <message>
        <source>How the pending backlog moved since the snapshot before (the console asks for one every few seconds). Highlighted, &quot;growing&quot;: it grew in %1 snapshots in a row and holds at least %L2 messages: the stage does not keep up.</source>
        <translation>Wie sich der wartende Rückstand seit der vorigen Momentaufnahme bewegt hat (die Konsole fragt alle paar Sekunden nach einer). Hervorgehoben, „wächst“: er ist in %1 Momentaufnahmen hintereinander gewachsen und umfasst mindestens %L2 Nachrichten: die Stufe kommt nicht nach.</translation>
    </message>
    <message>
        <source>growing (%1)</source>
        <translation>wächst (%1)</translation>
    </message>
    <message>
        <source>rising (%1)</source>
        <translation>steigt (%1)</translation>
    </message>
    <message>
        <source>falling (%1)</source>
        <translation>sinkt (%1)</translation>
    </message>
    <message>
        <source>Pending waited</source>
        <translation>Wartend seit</translation>
    </message>
    <message>
        <source>How long the pending rows have waited at this stage (since they became pending here), as Postfix&apos;s qshape counts its queue: under 1 s, 1–10 s, 10–60 s, 1–10 min, 10–60 min, an hour or more. Sorted by the rows that waited a minute or more.</source>
        <translation>Wie lange die wartenden Zeilen an dieser Stufe schon warten (seit sie hier wartend wurden), gezählt wie Postfix’ qshape seine Warteschlange zählt: unter 1 s, 1–10 s, 10–60 s, 1–10 min, 10–60 min, eine Stunde oder länger. Sortiert nach den Zeilen, die eine Minute oder länger warten.</translation>
    </message>
    <message>
        <source>%1 %L2</source>
        <translation>%1 %L2</translation>
    </message>
</context>
<context>
    <name>pepsi::console::ReasonModel</name>
    <message>
        <source>Counting the reasons of %1: not connected to the daemon.</source>
        <translation>Gründe von %1 zählen: nicht mit dem Daemon verbunden.</translation>
    </message>
    <message>
        <source>Counting the reasons of %1 failed: %2</source>
        <translation>Zählen der Gründe von %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>All reasons (the 100 most frequent listed)</source>
        <translation>Alle Gründe (die 100 häufigsten aufgeführt)</translation>
    </message>
    <message>
        <source>All reasons</source>
        <translation>Alle Gründe</translation>
    </message>
    <message>
        <source>(no reason)</source>
        <translation>(kein Grund)</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Nachrichten</translation>
    </message>
    <message>
        <source>Oldest</source>
        <translation>Älteste</translation>
    </message>
    <message>
        <source>Newest</source>
        <translation>Neueste</translation>
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
    <message>
        <source>Requeueing the failed messages of %1</source>
        <translation>Neueinreihen der fehlgeschlagenen Nachrichten von %1</translation>
    </message>
    <message>
        <source>Requeueing the timed-out messages of %1</source>
        <translation>Neueinreihen der zeitüberschrittenen Nachrichten von %1</translation>
    </message>
    <message>
        <source>&amp;Drain %1…</source>
        <translation>%1 &amp;anhalten…</translation>
    </message>
    <message>
        <source>Re&amp;sume %1</source>
        <translation>%1 &amp;fortsetzen</translation>
    </message>
    <message>
        <source>Requeue &amp;failed of %1…</source>
        <translation>&amp;Fehlgeschlagene von %1 erneut einreihen…</translation>
    </message>
    <message>
        <source>Requeue &amp;timed out of %1…</source>
        <translation>&amp;Zeitüberschrittene von %1 erneut einreihen…</translation>
    </message>
    <message>
        <source>Stop claiming messages for stage %1; its workers finish what they hold.</source>
        <translation>Für Stufe %1 keine Nachrichten mehr holen; ihre Worker beenden, was sie halten.</translation>
    </message>
    <message>
        <source>Claim messages for stage %1 again.</source>
        <translation>Für Stufe %1 wieder Nachrichten holen.</translation>
    </message>
    <message>
        <source>Put the failed messages of stage %1 back to pending.</source>
        <translation>Die fehlgeschlagenen Nachrichten der Stufe %1 wieder auf wartend setzen.</translation>
    </message>
    <message>
        <source>Put the timed-out messages of stage %1 back to pending.</source>
        <translation>Die zeitüberschrittenen Nachrichten der Stufe %1 wieder auf wartend setzen.</translation>
    </message>
    <message>
        <source>Disabled: choose a stage first (the Stage box, a box on the Pipeline, a row of a table).</source>
        <translation>Deaktiviert: zuerst eine Stufe wählen (das Stufenfeld, ein Kasten in der Pipeline, eine Tabellenzeile).</translation>
    </message>
    <message>
        <source>Stage %1 is drained already.</source>
        <translation>Stufe %1 ist schon angehalten.</translation>
    </message>
    <message>
        <source>Stage %1 is not drained: it claims messages.</source>
        <translation>Stufe %1 ist nicht angehalten: sie holt Nachrichten.</translation>
    </message>
    <message>
        <source>Drain stage %1? It stops claiming messages. Its busy workers (%L2) finish the messages they hold (%L3); the pending messages (%L4) wait at %1 until it is resumed.</source>
        <translation>Stufe %1 anhalten? Sie holt keine Nachrichten mehr. Ihre belegten Worker (%L2) beenden die Nachrichten, die sie halten (%L3); die wartenden Nachrichten (%L4) warten bei %1, bis sie fortgesetzt wird.</translation>
    </message>
    <message>
        <source>Drain %1</source>
        <translation>%1 anhalten</translation>
    </message>
    <message>
        <source>Stage %1 is failing now: %2 % of its runs in the last 10 s failed (%3). Requeued messages will probably fail again.</source>
        <translation>Stufe %1 schlägt gerade fehl: %2 % ihrer Läufe der letzten 10 s sind fehlgeschlagen (%3). Erneut eingereihte Nachrichten werden wahrscheinlich wieder fehlschlagen.</translation>
    </message>
    <message>
        <source>The daemon moves at most %L1 at a time: the console asks in batches until that many are moved.</source>
        <translation>Der Daemon verschiebt höchstens %L1 auf einmal: die Konsole fragt in Teilen, bis so viele verschoben sind.</translation>
    </message>
    <message>
        <source>Requeue messages of %1</source>
        <translation>Nachrichten von %1 erneut einreihen</translation>
    </message>
    <message numerus="yes">
        <source>Put %Ln failed message(s) of stage %1 back to pending?</source>
        <translation>
            <numerusform>%Ln fehlgeschlagene Nachricht der Stufe %1 wieder auf wartend setzen?</numerusform>
            <numerusform>%Ln fehlgeschlagene Nachrichten der Stufe %1 wieder auf wartend setzen?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Put %Ln timed-out message(s) of stage %1 back to pending?</source>
        <translation>
            <numerusform>%Ln zeitüberschrittene Nachricht der Stufe %1 wieder auf wartend setzen?</numerusform>
            <numerusform>%Ln zeitüberschrittene Nachrichten der Stufe %1 wieder auf wartend setzen?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln message(s) of stage %1 put back to pending.</source>
        <translation>
            <numerusform>%Ln Nachricht der Stufe %1 wieder auf wartend gesetzt.</numerusform>
            <numerusform>%Ln Nachrichten der Stufe %1 wieder auf wartend gesetzt.</numerusform>
        </translation>
    </message>
    <message>
        <source>More remain: stage %1 is still failing its messages.</source>
        <translation>Es bleiben weitere: Stufe %1 lässt ihre Nachrichten weiter fehlschlagen.</translation>
    </message>
    <message>
        <source>Set %1 of stage %2 from %3 to %4? The daemon writes it to the configuration overlay and reloads, which retires every worker (they finish what they hold) and starts new ones.</source>
        <translation>%1 der Stufe %2 von %3 auf %4 setzen? Der Daemon schreibt es in das Konfigurations-Overlay und lädt neu; dabei werden alle Worker ausgemustert (sie beenden, was sie halten) und neue gestartet.</translation>
    </message>
    <message>
        <source>its current value</source>
        <translation>seinem jetzigen Wert</translation>
    </message>
    <message>
        <source>Set %1 of %2</source>
        <translation>%1 von %2 setzen</translation>
    </message>
    <message>
        <source>Setting %1 of %2</source>
        <translation>Setze %1 von %2</translation>
    </message>
    <message>
        <source>%1 of stage %2 set to %3; the Pools view shows it once the daemon has reloaded.</source>
        <translation>%1 der Stufe %2 auf %3 gesetzt; die Pool-Ansicht zeigt es, sobald der Daemon neu geladen hat.</translation>
    </message>
    <message numerus="yes">
        <source>Stage %1 failed its last %Ln message(s), and none succeeded since. Requeued messages will probably fail again.</source>
        <translation>
            <numerusform>Die letzte Nachricht der Stufe %1 ist fehlgeschlagen, seitdem gelang keine. Erneut eingereihte Nachrichten werden wahrscheinlich wieder fehlschlagen.</numerusform>
            <numerusform>Die letzten %Ln Nachrichten der Stufe %1 sind fehlgeschlagen, seitdem gelang keine. Erneut eingereihte Nachrichten werden wahrscheinlich wieder fehlschlagen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pepsi::console::SystemListModel</name>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <source>Runs/s</source>
        <translation>Läufe/s</translation>
    </message>
    <message>
        <source>Failing stages</source>
        <translation>Fehlschlagende Stufen</translation>
    </message>
    <message>
        <source>Oldest pending</source>
        <translation>Älteste wartende</translation>
    </message>
    <message>
        <source>Busy workers</source>
        <translation>Belegte Worker</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>In Arbeit</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>verbunden</translation>
    </message>
    <message>
        <source>incompatible daemon</source>
        <translation>inkompatibler Daemon</translation>
    </message>
    <message>
        <source>not connected since %1</source>
        <translation>nicht verbunden seit %1</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>verbinde</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
</context>
<context>
    <name>pepsi::console::SystemsWindow</name>
    <message>
        <source>Systems</source>
        <translation>Systeme</translation>
    </message>
    <message>
        <source>System:</source>
        <translation>System:</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>&amp;Verbinden…</translation>
    </message>
    <message>
        <source>C&amp;lose system</source>
        <translation>System &amp;schließen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>PEPSI dispatcher console – %1</source>
        <translation>PEPSI-Dispatcher-Konsole – %1</translation>
    </message>
    <message>
        <source>PEPSI dispatcher console</source>
        <translation>PEPSI-Dispatcher-Konsole</translation>
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
    <message>
        <source>Failing (10 s)</source>
        <translation>Fehlschlagend (10 s)</translation>
    </message>
    <message>
        <source>%1 (%2 %)</source>
        <translation>%1 (%2 %)</translation>
    </message>
    <message>
        <source>The failed part of the 10-second rate: failures, timeouts and crashes made up this share of the runs that ended in the last 10 s, as the daemon counts them. Highlighted while the daemon says the stage is failing.</source>
        <translation>Der fehlgeschlagene Teil der 10-Sekunden-Rate: Fehler, Zeitüberschreitungen und Abstürze machten diesen Anteil der Läufe aus, die in den letzten 10 s endeten, wie der Daemon sie zählt. Hervorgehoben, solange der Daemon die Stufe als fehlschlagend meldet.</translation>
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
    <message>
        <source>−%1 s</source>
        <translation>−%1 s</translation>
    </message>
    <message>
        <source>%1 %2, failing %3 (dashed)</source>
        <translation>%1 %2, fehlschlagend %3 (gestrichelt)</translation>
    </message>
    <message numerus="yes">
        <source>runs per second per stage that did not fail (dashed: that failed), 10-second average, last %n minute(s)</source>
        <translation>
            <numerusform>nicht fehlgeschlagene Läufe pro Sekunde und Stufe (gestrichelt: fehlgeschlagene), 10-Sekunden-Mittel, letzte Minute</numerusform>
            <numerusform>nicht fehlgeschlagene Läufe pro Sekunde und Stufe (gestrichelt: fehlgeschlagene), 10-Sekunden-Mittel, letzte %n Minuten</numerusform>
        </translation>
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
    <message>
        <source>Held</source>
        <translation>Gehalten</translation>
    </message>
    <message>
        <source>Messages this worker holds now (its queue, head of line included).</source>
        <translation>Nachrichten, die dieser Worker jetzt hält (seine Warteschlange, die vorderste eingeschlossen).</translation>
    </message>
</context>
</TS>
