<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>delayq::ui::OverviewModel</name>
    <message numerus="yes">
        <source>Fair order: %n group(s) in turn with due tasks</source>
        <translation>
            <numerusform>Fair order: %n group in turn with due tasks</numerusform>
            <numerusform>Fair order: %n groups in turn with due tasks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n held by their group cap or rate</source>
        <translation>
            <numerusform>%n held by its group cap or rate</numerusform>
            <numerusform>%n held by their group cap or rate</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>+%n more</source>
        <comment>busy groups left out of a narrow cell</comment>
        <translation>
            <numerusform>+%n more</numerusform>
            <numerusform>+%n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>delayq::ui::TaskDetails</name>
    <message numerus="yes">
        <source>Message (binary, %n byte(s))</source>
        <translation>
            <numerusform>Message (binary, %n byte)</numerusform>
            <numerusform>Message (binary, %n bytes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Payload (binary, %n byte(s))</source>
        <translation>
            <numerusform>Payload (binary, %n byte)</numerusform>
            <numerusform>Payload (binary, %n bytes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Message (JSON, %n byte(s))</source>
        <translation>
            <numerusform>Message (JSON, %n byte)</numerusform>
            <numerusform>Message (JSON, %n bytes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Message (text, %n byte(s))</source>
        <translation>
            <numerusform>Message (text, %n byte)</numerusform>
            <numerusform>Message (text, %n bytes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Payload (JSON, %n byte(s))</source>
        <translation>
            <numerusform>Payload (JSON, %n byte)</numerusform>
            <numerusform>Payload (JSON, %n bytes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Payload (text, %n byte(s))</source>
        <translation>
            <numerusform>Payload (text, %n byte)</numerusform>
            <numerusform>Payload (text, %n bytes)</numerusform>
        </translation>
    </message>
</context>
</TS>
