<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>pepsi::console::StageActions</name>
    <message numerus="yes">
        <source>Put %n failed message(s) of stage %1 back to pending?</source>
        <translation><numerusform>Put %n failed message of stage %1 back to pending?</numerusform><numerusform>Put %n failed messages of stage %1 back to pending?</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Put %n timed-out message(s) of stage %1 back to pending?</source>
        <translation><numerusform>Put %n timed-out message of stage %1 back to pending?</numerusform><numerusform>Put %n timed-out messages of stage %1 back to pending?</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) put back to pending.</source>
        <translation><numerusform>%n message put back to pending.</numerusform><numerusform>%n messages put back to pending.</numerusform></translation>
    </message>
</context>
<context>
    <name>pepsi::console::ThroughputPlot</name>
    <message numerus="yes">
        <source>messages per second per stage, 10-second average, last %n minute(s)</source>
        <translation><numerusform>messages per second per stage, 10-second average, last minute</numerusform><numerusform>messages per second per stage, 10-second average, last %n minutes</numerusform></translation>
    </message>
</context>
</TS>
