// SPDX-License-Identifier: AGPL-3.0-or-later
#include "consolefixture.h"

#include "consolescript.h"

#include <QCoreApplication>
#include <QStandardPaths>

using namespace Qt::StringLiterals;
using pepsi::console::ControlClient;

bool setUpConsoleTests(const QString &program, QTranslator &english)
{
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
    QCoreApplication::setOrganizationName(u"pepsi-test"_s);
    QCoreApplication::setApplicationName(program);
    if (!english.load(u":/i18n/pepsi-console_en.qm"_s))
        return false;
    QCoreApplication::installTranslator(&english);
    return true;
}

std::unique_ptr<ControlFixture> freshConsoleDaemon()
{
    auto daemon = std::make_unique<ControlFixture>();
    scriptThreeStages(daemon->dispatch());
    return daemon;
}

namespace {

// The window names the socket in its title when it is made: the path first.
ControlClient *pointedAt(ControlClient *client, const QString &path)
{
    client->setSocketPath(path);
    return client;
}

} // namespace

ConsoleWindow::ConsoleWindow(const ControlFixture &daemon)
    : MainWindow(pointedAt(&m_heldClient, daemon.path()))
{
    setErrorPopups(false);
}
