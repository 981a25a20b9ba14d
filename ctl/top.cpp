// SPDX-License-Identifier: AGPL-3.0-or-later
#include "top.h"

#include "client.h"
#include "control/protocol.h"
#include "interrupt.h"
#include "output.h"
#include "topview.h"

#include <QDateTime>
#include <QSocketNotifier>
#include <unistd.h>

namespace pepsi::ctl {

namespace {

// Home, clear the screen: the frame replaces the last one where it stood.
constexpr char ClearScreen[] = "\x1b[H\x1b[2J";

} // namespace

Top::Top(Client &client, std::chrono::milliseconds interval, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_interval(interval)
    , m_onTerminal(::isatty(STDOUT_FILENO) == 1)
{
    m_next.setSingleShot(true);
    connect(&m_next, &QTimer::timeout, this, &Top::ask);
}

Top::~Top() { restoreTerminal(); }

bool Top::start()
{
    m_interrupt = new Interrupt(this);
    if (!m_interrupt->install()) {
        printError(QStringLiteral("cannot catch SIGINT"));
        return false;
    }
    connect(m_interrupt, &Interrupt::interrupted, this, [this] { finish(0); });
    // Keys only when both ends are a terminal: a frame per keystroke
    // otherwise, and stdin in raw mode would outlive a killed pepsi-ctl.
    termios terminal{};
    if (m_onTerminal && ::isatty(STDIN_FILENO) == 1 && ::tcgetattr(STDIN_FILENO, &terminal) == 0) {
        m_savedTerminal = terminal;
        terminal.c_lflag &= ~tcflag_t(ICANON | ECHO);
        terminal.c_cc[VMIN] = 1;
        terminal.c_cc[VTIME] = 0;
        (void)::tcsetattr(STDIN_FILENO, TCSANOW, &terminal);
        m_keys = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
        connect(m_keys, &QSocketNotifier::activated, this, &Top::onKey);
    }
    ask();
    return true;
}

void Top::ask()
{
    m_client.request(QString(protocol::cmd::Status), {}, [this](const Client::Reply &reply) {
        if (m_done)
            return;
        if (!reply.ok) {
            printError(reply.error);
            return finish(1);
        }
        const QString frame = views::topFrame(reply.result.toObject(), m_interval, m_keys != nullptr);
        printOut(m_onTerminal ? QString(QString::fromLatin1(ClearScreen) + frame) : QString(frame + u'\n'));
        m_next.start(m_interval);
    });
}

void Top::onKey()
{
    char key = 0;
    const ssize_t n = ::read(STDIN_FILENO, &key, 1);
    // End of input (the terminal went away) quits as `q` does.
    if (n == 0 || (n == 1 && (key == 'q' || key == 'Q')))
        finish(0);
}

void Top::finish(int status)
{
    if (std::exchange(m_done, true))
        return;
    m_next.stop();
    if (m_keys)
        m_keys->setEnabled(false);
    restoreTerminal();
    Q_EMIT finished(status);
}

void Top::restoreTerminal()
{
    if (m_savedTerminal) {
        (void)::tcsetattr(STDIN_FILENO, TCSANOW, &*m_savedTerminal);
        m_savedTerminal.reset();
    }
}

} // namespace pepsi::ctl
