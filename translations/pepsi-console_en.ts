<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>EventText</name>
    <message numerus="yes">
        <source>%1, after %Ln message(s)</source>
        <translation>
            <numerusform>%1, after %Ln message</numerusform>
            <numerusform>%1, after %Ln messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1; %2 failed; %Ln other held message(s) put back to pending</source>
        <translation>
            <numerusform>%1; %2 failed; %Ln other held message put back to pending</numerusform>
            <numerusform>%1; %2 failed; %Ln other held messages put back to pending</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln %1 message(s) put back to pending by %2</source>
        <translation>
            <numerusform>%Ln %1 message put back to pending by %2</numerusform>
            <numerusform>%Ln %1 messages put back to pending by %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln message(s) failed; the latest: %1</source>
        <translation>
            <numerusform>%Ln message failed; the latest: %1</numerusform>
            <numerusform>%Ln messages failed; the latest: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pepsi::console::ConfirmedRequeue</name>
    <message numerus="yes">
        <source>the %Ln selected</source>
        <translation>
            <numerusform>the %Ln selected</numerusform>
            <numerusform>the %Ln selected</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>those of the last %Ln minute(s)</source>
        <translation>
            <numerusform>those of the last minute</numerusform>
            <numerusform>those of the last %Ln minutes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Put %Ln message(s) of stage %1 in status %2 back to pending (%3)?</source>
        <translation>
            <numerusform>Put %Ln message of stage %1 in status %2 back to pending (%3)?</numerusform>
            <numerusform>Put %Ln messages of stage %1 in status %2 back to pending (%3)?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln message(s) of stage %1 put back to pending.</source>
        <translation>
            <numerusform>%Ln message of stage %1 put back to pending.</numerusform>
            <numerusform>%Ln messages of stage %1 put back to pending.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pepsi::console::MessageRequeue</name>
    <message numerus="yes">
        <source>Requeueing messages of %1: not connected to the daemon (%Ln moved).</source>
        <translation>
            <numerusform>Requeueing messages of %1: not connected to the daemon (%Ln moved).</numerusform>
            <numerusform>Requeueing messages of %1: not connected to the daemon (%Ln moved).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Requeueing messages of %1 failed after %Ln moved: %2</source>
        <translation>
            <numerusform>Requeueing messages of %1 failed after %Ln moved: %2</numerusform>
            <numerusform>Requeueing messages of %1 failed after %Ln moved: %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pepsi::console::MessagesView</name>
    <message numerus="yes">
        <source>%Ln message(s) loaded, more to load</source>
        <translation>
            <numerusform>%Ln message loaded, more to load</numerusform>
            <numerusform>%Ln messages loaded, more to load</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln message(s), all loaded</source>
        <translation>
            <numerusform>%Ln message, all loaded</numerusform>
            <numerusform>%Ln messages, all loaded</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Message %1 of stage %2, status %3, claimed %Ln time(s)</source>
        <translation>
            <numerusform>Message %1 of stage %2, status %3, claimed %Ln time</numerusform>
            <numerusform>Message %1 of stage %2, status %3, claimed %Ln times</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pepsi::console::StageActions</name>
    <message numerus="yes">
        <source>Put %Ln failed message(s) of stage %1 back to pending?</source>
        <translation>
            <numerusform>Put %Ln failed message of stage %1 back to pending?</numerusform>
            <numerusform>Put %Ln failed messages of stage %1 back to pending?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Put %Ln timed-out message(s) of stage %1 back to pending?</source>
        <translation>
            <numerusform>Put %Ln timed-out message of stage %1 back to pending?</numerusform>
            <numerusform>Put %Ln timed-out messages of stage %1 back to pending?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln message(s) of stage %1 put back to pending.</source>
        <translation>
            <numerusform>%Ln message of stage %1 put back to pending.</numerusform>
            <numerusform>%Ln messages of stage %1 put back to pending.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Stage %1 failed its last %Ln message(s), and none succeeded since. Requeued messages will probably fail again.</source>
        <translation>
            <numerusform>Stage %1 failed its last message, and none succeeded since. Requeued messages will probably fail again.</numerusform>
            <numerusform>Stage %1 failed its last %Ln messages, and none succeeded since. Requeued messages will probably fail again.</numerusform>
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
