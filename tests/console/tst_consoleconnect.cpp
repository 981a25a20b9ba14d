// SPDX-License-Identifier: AGPL-3.0-or-later
// The console's window over several systems (doc/man/pepsi-console.rst),
// against two scripted dispatchers behind the real control socket: File →
// Connect… adds a system, the recent targets come back in the dialog, and
// the overview shows each system's figures as its `status` snapshot has them.
#include "connectdialog.h"
#include "consolefeed.h"
#include "consolefixture.h"
#include "controlclient.h"
#include "keyedtablemodel.h"
#include "recenttargets.h"
#include "systemlistmodel.h"
#include "systemswindow.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QTest>
#include <memory>
#include <vector>

using namespace pepsi::console;
using namespace Qt::StringLiterals;
using State = ControlClient::State;
using Column = SystemListModel::Column;

class TestConsoleConnect : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void connectAddsASystem();
    void overviewShowsTheDaemonsFigures();
    void closeSystemDropsItsConnection();
    void rowsAndSelectorShowShortNames();

private:
    QTranslator m_english;
};

namespace {

QString cell(const SystemsWindow &console, int row, int column)
{
    return console.overview()->index(row, column).data().toString();
}

// The Connect dialog File → Connect… opened.
ConnectDialog *openConnect(SystemsWindow &console)
{
    console.connectAction()->trigger();
    return console.findChild<ConnectDialog *>();
}

// One fresh daemon a name, each with that database, so that the overview
// names its system after it once it answers; none listening yet.
std::vector<std::unique_ptr<ControlFixture>> daemonsOn(const QStringList &databases)
{
    std::vector<std::unique_ptr<ControlFixture>> daemons;
    for (const QString &database : databases) {
        daemons.push_back(freshConsoleDaemon());
        daemons.back()->dispatch().m_info.database = database;
    }
    return daemons;
}

} // namespace

void TestConsoleConnect::initTestCase() { QVERIFY(setUpConsoleTests(u"tst_consoleconnect"_s, m_english)); }

void TestConsoleConnect::init() { QSettings().remove(u"recentTargets"_s); }

void TestConsoleConnect::connectAddsASystem()
{
    // GIVEN a console on one system, and another system it does not watch yet
    auto first = freshConsoleDaemon();
    auto second = freshConsoleDaemon();
    QVERIFY(first->listen());
    QVERIFY(second->listen());
    SystemsWindow console;
    console.setErrorPopups(false);
    console.addSystem(pepsi::transport::Target::localSocket(first->path()));
    console.show();
    QTRY_COMPARE(console.client(0)->state(), State::Connected);
    // one system: the console as it always was, no overview
    QVERIFY(!console.overviewView()->isVisible());

    // WHEN the operator opens File → Connect… and types a target that does not parse
    ConnectDialog *dialog = openConnect(console);
    QVERIFY(dialog);
    QCOMPARE(dialog->recent()->count(), 1); // the first system's target
    QTest::keyClicks(dialog->edit(), u"ssh://"_s);
    QPushButton *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    // THEN it says why, and OK waits
    QVERIFY(!ok->isEnabled());
    QVERIFY(!dialog->findChild<QLabel *>(u"problem"_s)->text().isEmpty());

    // WHEN it types the second system's socket and says OK
    dialog->edit()->setText(second->path());
    QVERIFY(ok->isEnabled());
    QTest::mouseClick(ok, Qt::LeftButton);

    // THEN the console watches both, shows the new one and lists both in the overview
    QTRY_COMPARE(console.systemCount(), 2);
    QTRY_COMPARE(console.client(1)->state(), State::Connected);
    QCOMPARE(console.client(0)->state(), State::Connected);
    QCOMPARE(console.currentSystem(), 1);
    QVERIFY(console.overviewView()->isVisible());
    QCOMPARE(console.systemBox()->count(), 2);
    // the short name (the fake daemon's database), the full target in the tooltip and the title
    QTRY_COMPARE(cell(console, 1, Column::SystemColumn), u"pepsi (2)"_s);
    QCOMPARE(console.overview()->index(1, 0).data(Qt::ToolTipRole).toString(), second->path());
    QVERIFY(console.windowTitle().contains(second->path()));

    // and the next dialog offers both targets, the latest first
    QCOMPARE(RecentTargets::load(), (QStringList{second->path(), first->path()}));
    QTRY_VERIFY(!console.findChild<ConnectDialog *>()); // the first one is gone
    dialog = openConnect(console);
    QVERIFY(dialog);
    QCOMPARE(dialog->recent()->count(), 2);
    QCOMPARE(dialog->recent()->item(0)->text(), second->path());
    // picking one fills the line
    dialog->recent()->setCurrentRow(1);
    QCOMPARE(dialog->edit()->text(), first->path());
    dialog->reject();

    // WHEN the operator picks the first system in the selector, THEN it is shown
    console.systemBox()->setCurrentIndex(0);
    Q_EMIT console.systemBox()->activated(0);
    QCOMPARE(console.currentSystem(), 0);
    QVERIFY(console.system(0)->isVisible());
    QVERIFY(!console.system(1)->isVisible());
}

void TestConsoleConnect::overviewShowsTheDaemonsFigures()
{
    // GIVEN two systems, one of them with a failing stage
    auto calm = freshConsoleDaemon();
    auto failing = freshConsoleDaemon();
    failing->dispatch().m_stats.stages[u"enrich"_s].failing = true;
    failing->dispatch().m_stats.stages[u"enrich"_s].failureShare = 0.9;
    QVERIFY(calm->listen());
    QVERIFY(failing->listen());

    // WHEN the console watches both
    SystemsWindow console;
    console.setErrorPopups(false);
    console.addSystem(pepsi::transport::Target::localSocket(calm->path()));
    console.addSystem(pepsi::transport::Target::localSocket(failing->path()));
    console.show();

    // THEN each row has its daemon's own figures
    QTRY_COMPARE(cell(console, 0, Column::ConnectionColumn), u"connected"_s);
    QTRY_COMPARE(cell(console, 1, Column::ConnectionColumn), u"connected"_s);
    QTRY_VERIFY(!cell(console, 1, Column::RateColumn).isEmpty());
    for (int row = 0; row < 2; ++row) {
        const pepsi::StatusSnapshot status = console.system(row)->feed()->lastStatus();
        QCOMPARE(cell(console, row, Column::RateColumn), formatRate(status.stats.rate10s));
        QCOMPARE(cell(console, row, Column::BusyColumn),
                 u"%1 of %2"_s.arg(status.poolTotals.busy).arg(status.poolTotals.workers));
        QCOMPARE(cell(console, row, Column::InFlightColumn),
                 u"%1 of %2"_s.arg(status.poolTotals.inFlight).arg(status.poolTotals.capacity));
        QCOMPARE(cell(console, row, Column::OldestColumn), formatDuration(5400)); // enrich's, the oldest
    }
    QCOMPARE(cell(console, 0, Column::FailingColumn), u"none"_s);
    QCOMPARE(cell(console, 1, Column::FailingColumn), u"enrich"_s);
    QVERIFY(!console.overview()->index(0, 0).data(SystemListModel::TroubleRole).toBool());
    QVERIFY(console.overview()->index(1, 0).data(SystemListModel::TroubleRole).toBool());

    // WHEN the calm one goes away, THEN its row says since when, and the other stays connected
    calm->goAway();
    QTRY_VERIFY(cell(console, 0, Column::ConnectionColumn).startsWith(u"not connected since"_s));
    QVERIFY(console.overview()->index(0, 0).data(SystemListModel::TroubleRole).toBool());
    QCOMPARE(cell(console, 1, Column::ConnectionColumn), u"connected"_s);
}

void TestConsoleConnect::closeSystemDropsItsConnection()
{
    // GIVEN a console watching three systems, the middle one selected
    const auto daemons = daemonsOn({u"a"_s, u"b"_s, u"c"_s});
    SystemsWindow console;
    console.setErrorPopups(false);
    for (const auto &daemon : daemons) {
        QVERIFY(daemon->listen());
        console.addSystem(pepsi::transport::Target::localSocket(daemon->path()));
    }
    console.show();
    for (int i = 0; i < 3; ++i) {
        QTRY_COMPARE(console.client(i)->state(), State::Connected);
        QTRY_COMPARE(daemons[size_t(i)]->server().clientCount(), 1);
    }
    console.selectSystem(1);
    QVERIFY(console.closeSystemAction()->isEnabled());
    QCOMPARE(console.closeSystemAction()->shortcut(), QKeySequence(QKeySequence::Close));

    // WHEN the operator closes it (File → Close system)
    console.closeSystemAction()->trigger();

    // THEN its daemon sees its client go, and its row and selector entry go with it
    QTRY_COMPARE(daemons[1]->server().clientCount(), 0);
    QCOMPARE(console.systemCount(), 2);
    QCOMPARE(console.overview()->rowCount(), 2);
    QCOMPARE(console.systemBox()->count(), 2);
    QTRY_COMPARE(cell(console, 0, Column::SystemColumn), u"a"_s);
    QTRY_COMPARE(cell(console, 1, Column::SystemColumn), u"c"_s);
    QCOMPARE(console.systemBox()->itemText(1), u"c"_s);
    // the one after it is shown
    QCOMPARE(console.currentSystem(), 1);
    QCOMPARE(console.systemBox()->currentIndex(), 1);
    QVERIFY(console.system(1)->isVisible());
    QVERIFY(console.windowTitle().contains(daemons[2]->path()));
    // and the others stay connected, each with its one client
    QCOMPARE(console.client(0)->state(), State::Connected);
    QCOMPARE(console.client(1)->state(), State::Connected);
    QCOMPARE(daemons[0]->server().clientCount(), 1);
    QCOMPARE(daemons[2]->server().clientCount(), 1);

    // WHEN one more goes, THEN the last one stays, as the console of one system
    console.closeSystem(1);
    QTRY_COMPARE(daemons[2]->server().clientCount(), 0);
    QCOMPARE(console.systemCount(), 1);
    QVERIFY(!console.closeSystemAction()->isEnabled());
    QVERIFY(!console.overviewView()->isVisible());
    console.closeSystem(0);
    QCOMPARE(console.systemCount(), 1);
    QCOMPARE(console.client(0)->state(), State::Connected);
    QCOMPARE(daemons[0]->server().clientCount(), 1);
}

void TestConsoleConnect::rowsAndSelectorShowShortNames()
{
    // GIVEN three daemons not listening yet, two of them on databases of the same name
    const auto daemons = daemonsOn({u"orders"_s, u"orders"_s, u"billing"_s});
    SystemsWindow console;
    console.setErrorPopups(false);
    for (const auto &daemon : daemons) {
        console.addSystem(pepsi::transport::Target::localSocket(daemon->path()));
        console.client(console.systemCount() - 1)->setReconnectInterval(100);
    }
    console.show();
    // THEN until a daemon answers, its row is named after its socket's file, numbered apart
    const QStringList before{u"dispatch.sock"_s, u"dispatch.sock (2)"_s, u"dispatch.sock (3)"_s};
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(cell(console, i, Column::SystemColumn), before[i]);
        QCOMPARE(console.systemBox()->itemText(i), before[i]);
        // and the full target is in the tooltips
        QCOMPARE(console.overview()->index(i, 0).data(Qt::ToolTipRole).toString().section(u'\n', 0, 0),
                 daemons[size_t(i)]->path());
    }

    // WHEN the daemons answer
    for (const auto &daemon : daemons)
        QVERIFY(daemon->listen());

    // THEN each is named after its database, the same names told apart
    const QStringList after{u"orders"_s, u"orders (2)"_s, u"billing"_s};
    for (int i = 0; i < 3; ++i) {
        QTRY_COMPARE(cell(console, i, Column::SystemColumn), after[i]);
        QCOMPARE(console.systemBox()->itemText(i), after[i]);
        QCOMPARE(console.overview()->index(i, 0).data(Qt::ToolTipRole).toString(), daemons[size_t(i)]->path());
    }
    // WHEN the first "orders" goes, THEN the other needs no number any more
    console.closeSystem(0);
    QTRY_COMPARE(cell(console, 0, Column::SystemColumn), u"orders"_s);
    QCOMPARE(console.systemBox()->itemText(0), u"orders"_s);
}

QTEST_MAIN(TestConsoleConnect)
#include "tst_consoleconnect.moc"
