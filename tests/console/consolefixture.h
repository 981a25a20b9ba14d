// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once
// The set-up the console's window tests share (tst_consolewindow,
// tst_consoleactions, tst_consoletranslation, tst_consoleoperator,
// tst_consolemessages): the application as pepsi-console sets it up, a
// scripted dispatcher behind the real control socket, and a window whose
// client talks to it.
#include "controlclient.h"
#include "controlfixture.h"
#include "mainwindow.h"

#include <QString>
#include <QTranslator>
#include <memory>

// Once per test program, from initTestCase(): QSettings go to a test location
// of `program`'s own, and the English plural forms are loaded as pepsi-console
// loads them. False when the translation is missing.
[[nodiscard]] bool setUpConsoleTests(const QString &program, QTranslator &english);

// A fresh dispatcher of three stages (consolescript.h), not yet listening.
std::unique_ptr<ControlFixture> freshConsoleDaemon();

namespace detail {
// A base of its own, so that the client is made before the window that takes
// it and destroyed after it.
struct ConsoleClientHolder
{
    pepsi::console::ControlClient m_heldClient;
};
} // namespace detail

// The console's window with a client of its own pointed at `daemon`'s socket,
// not yet connected: a test arranges what the window must see first. Errors
// go to the status bar instead of modal pop-ups nobody clicks away offscreen.
class ConsoleWindow : private detail::ConsoleClientHolder, public pepsi::console::MainWindow
{
public:
    explicit ConsoleWindow(const ControlFixture &daemon);

    pepsi::console::ControlClient &client() { return m_heldClient; }
    void connectToDaemon() { m_heldClient.start(); }
};
