// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "consolefixture.h"

#include <QObject>
#include <QString>
#include <QTranslator>
#include <memory>

namespace pepsi::console {
class MessagesView;
}

// Two reasons the Messages view's tests give their failed rows.
inline const QString BadInput = QStringLiteral("status 3: bad input: no such customer");
inline const QString Busy = QStringLiteral("status 75: busy");

// `count` failed rows of enrich from id `first` on, with `reason`, and their details.
void addFailed(FakeDispatch &dispatch, qint64 first, int count, const QString &reason);

// A test of the Messages view (tst_consolemessages, tst_consolemessagesview):
// the console set up once, and every test function a fresh scripted
// dispatcher of its own (m_daemon) that requeues for real and holds only the
// rows the test adds. Qt Test runs a base class's initTestCase() and init()
// as its own.
class MessagesViewTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

protected:
    // Shows the window, connects it, and opens the Messages view of enrich's
    // failed rows once the daemon has named the stage and sent its figures.
    static void openFailedOfEnrich(ConsoleWindow &window);
    // The daemon listening with 20 failed rows of enrich (ids 1 to 20,
    // BadInput), and a window on them (openFailedOfEnrich) once its list
    // has them all; null, with the test failed or a warning, otherwise.
    std::unique_ptr<ConsoleWindow> openTwentyFailed();

    QTranslator m_english;
    std::unique_ptr<ControlFixture> m_daemon;
};
