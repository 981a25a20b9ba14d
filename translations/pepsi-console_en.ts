<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>EventText</name>
    <message numerus="yes">
        <source>%1, after %n message(s)</source>
        <translation>
            <numerusform>%1, after %n message</numerusform>
            <numerusform>%1, after %n messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1; %2 failed; %n other held message(s) put back to pending</source>
        <translation>
            <numerusform>%1; %2 failed; %n other held message put back to pending</numerusform>
            <numerusform>%1; %2 failed; %n other held messages put back to pending</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n %1 message(s) put back to pending by %2</source>
        <translation>
            <numerusform>%n %1 message put back to pending by %2</numerusform>
            <numerusform>%n %1 messages put back to pending by %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pepsi::console::StageActions</name>
    <message numerus="yes">
        <source>Put %n failed message(s) of stage %1 back to pending?</source>
        <translation>
            <numerusform>Put %n failed message of stage %1 back to pending?</numerusform>
            <numerusform>Put %n failed messages of stage %1 back to pending?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Put %n timed-out message(s) of stage %1 back to pending?</source>
        <translation>
            <numerusform>Put %n timed-out message of stage %1 back to pending?</numerusform>
            <numerusform>Put %n timed-out messages of stage %1 back to pending?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) of stage %1 put back to pending.</source>
        <translation>
            <numerusform>%n message of stage %1 put back to pending.</numerusform>
            <numerusform>%n messages of stage %1 put back to pending.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pepsi::console::ThroughputPlot</name>
    <message numerus="yes">
        <source>runs per second per stage that did not fail (dashed: that failed), 10-second average, last %n minute(s)</source>
        <translation>
            <numerusform>runs per second per stage that did not fail (dashed: that failed), 10-second average, last minute</numerusform>
            <numerusform>runs per second per stage that did not fail (dashed: that failed), 10-second average, last %n minutes</numerusform>
        </translation>
    </message>
</context>
</TS>
