// SPDX-License-Identifier: AGPL-3.0-or-later
// The console's German translation: the .ts file leaves no message
// unfinished and keeps every placeholder, and the .qm the build makes from it
// turns the window's tabs, actions and headings German.
#include "consolefeed.h"
#include "consolefixture.h"
#include "controlfixture.h"
#include "mainwindow.h"
#include "poolmodel.h"
#include "stageactions.h"

#include <QAction>
#include <QFile>
#include <QRegularExpression>
#include <QSettings>
#include <QTabWidget>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

using namespace pepsi::console;
using namespace Qt::StringLiterals;

class TestConsoleTranslation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void germanTranslationIsComplete();
    void germanTranslationLoads();

private:
    static QString buildDir() { return qEnvironmentVariable("PEPSI_BUILD_DIR", QStringLiteral(PEPSI_BINARY_DIR)); }
    std::unique_ptr<ControlFixture> m_daemon;
    QTranslator m_english;
};

void TestConsoleTranslation::initTestCase() { QVERIFY(setUpConsoleTests(u"tst_consoletranslation"_s, m_english)); }

void TestConsoleTranslation::init()
{
    QSettings().clear();
    m_daemon = freshConsoleDaemon();
}

void TestConsoleTranslation::germanTranslationIsComplete()
{
    QFile file(QStringLiteral(PEPSI_SOURCE_DIR "/translations/pepsi-console_de.ts"));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    struct Message
    {
        QString source;
        QString type;
        QStringList forms;
    };
    QList<Message> messages;
    QXmlStreamReader xml(file.readAll());
    bool numerus = false;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == "message"_L1) {
            messages.append(Message{});
            numerus = xml.attributes().value("numerus"_L1) == "yes"_L1;
        } else if (xml.name() == "source"_L1 && !messages.isEmpty()) {
            messages.last().source = xml.readElementText();
        } else if (xml.name() == "translation"_L1 && !messages.isEmpty()) {
            messages.last().type = xml.attributes().value("type"_L1).toString();
            if (!numerus) {
                messages.last().forms.append(xml.readElementText());
                continue;
            }
            while (xml.readNextStartElement()) {
                if (xml.name() == "numerusform"_L1)
                    messages.last().forms.append(xml.readElementText());
                else
                    xml.skipCurrentElement();
            }
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(messages.size() > 100);
    static const QRegularExpression placeholder(u"%L?\\d"_s);
    const auto placeholders = [](const QString &text) {
        QStringList found;
        for (auto it = placeholder.globalMatch(text); it.hasNext();)
            found.append(it.next().captured().remove(u'L'));
        found.sort();
        found.removeDuplicates();
        return found;
    };
    for (const Message &message : std::as_const(messages)) {
        QVERIFY2(message.type.isEmpty(), qPrintable(u"%1: %2"_s.arg(message.type, message.source)));
        QVERIFY2(!message.forms.isEmpty(), qPrintable(u"untranslated: "_s + message.source));
        for (const QString &form : message.forms) {
            QVERIFY2(!form.isEmpty(), qPrintable(u"untranslated: "_s + message.source));
            // Every %1, %2... survives the translation.
            QVERIFY2(placeholders(form) == placeholders(message.source),
                     qPrintable(u"%1 -> %2"_s.arg(message.source, form)));
        }
    }
}

void TestConsoleTranslation::germanTranslationLoads()
{
    QTranslator translator;
    const QString dir = buildDir() + u"/console"_s;
    QVERIFY2(translator.load(QLocale(QLocale::German), u"pepsi-console"_s, u"_"_s, dir), qPrintable(dir));
    QCoreApplication::installTranslator(&translator);
    ConsoleWindow window(*m_daemon);
    const QString tab = window.tabs()->tabText(MainWindow::QueuesTab);
    const QString header = window.feed()->pools()->headerData(PoolModel::InFlight, Qt::Horizontal).toString();
    QCoreApplication::removeTranslator(&translator);
    QCOMPARE(tab, u"&Warteschlangen"_s);
    QCOMPARE(window.actions()->drain()->text(), u"Stufe &anhalten"_s);
    QCOMPARE(header, u"In Arbeit"_s);
}

QTEST_MAIN(TestConsoleTranslation)
#include "tst_consoletranslation.moc"
