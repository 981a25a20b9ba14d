// SPDX-License-Identifier: AGPL-3.0-or-later
// The control-protocol request handler (daemon/control/commandtable) against
// a fixed fake dispatcher (the one of tests/control). Whatever a client sends,
// every request line gets exactly one reply, a JSON object with a boolean
// "ok" and the request's "id" (null when it had none); a non-admin peer never
// reaches an admin call, and its admin commands are refused.
//
// Input: byte 0 holds flags (bit 0: the peer is admin, bit 1: the queue
// counts fail, bit 2: the daemon is a standby), the rest is what the client
// sends, one request per line, as ControlConnection frames it (through
// common/control's LineFramer; blank lines get no reply, and a line over the
// limit ends the input as it ends the connection).
#include "control/commandtable.h"
#include "control/lineframer.h"
#include "fakedispatch.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdint>
#include <cstdlib>

using namespace pepsi;

namespace {

void check(bool ok)
{
    if (!ok)
        std::abort();
}

// The log lines of refused and admin commands are not what is tested here.
void quiet(QtMsgType type, const QMessageLogContext &, const QString &)
{
    if (type == QtFatalMsg)
        std::abort();
}

bool isAdminCommand(const QJsonValue &cmd)
{
    for (const CommandSpec &spec : commandTable()) {
        if (spec.admin && cmd.isString() && spec.name == cmd.toString())
            return true;
    }
    return false;
}

void checkOneRequest(const QByteArray &line, CommandContext &context, FakeDispatch &fake)
{
    const qsizetype callsBefore = fake.m_calls.size();
    // The fake answers at once: exactly one reply line, within the limit.
    int replies = 0;
    QByteArray wire;
    runRequest(line, context, [&](const QByteArray &reply) {
        ++replies;
        wire = reply;
    });
    check(replies == 1);
    check(wire.size() <= context.maxLine && wire.endsWith('\n'));
    wire.chop(1);

    // What goes on the wire parses back as one JSON object.
    check(!wire.contains('\n'));
    QJsonParseError error;
    const QJsonDocument parsed = QJsonDocument::fromJson(wire, &error);
    check(error.error == QJsonParseError::NoError && parsed.isObject());
    const QJsonObject answer = parsed.object();

    check(answer.value(QStringLiteral("ok")).isBool());
    const bool ok = answer.value(QStringLiteral("ok")).toBool();
    if (ok)
        check(answer.contains(QStringLiteral("result")));
    else
        check(!answer.value(QStringLiteral("error")).toString().isEmpty());

    // The request's id comes back unchanged; null when there was none.
    check(answer.contains(QStringLiteral("id")));
    const QJsonDocument request = QJsonDocument::fromJson(line);
    const QJsonObject object = request.object();
    const QJsonValue id =
        object.contains(QStringLiteral("id")) ? object.value(QStringLiteral("id")) : QJsonValue(QJsonValue::Null);
    check(answer.value(QStringLiteral("id")) == id);

    if (!context.admin) {
        check(fake.m_calls.size() == callsBefore);
        if (isAdminCommand(object.value(QStringLiteral("cmd"))))
            check(!ok);
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv);
    qInstallMessageHandler(quiet);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static FakeDispatch fake;
    fake.m_calls.clear();
    fake.m_drained.clear();
    fake.m_queuesError = (data[0] & 2) ? QStringLiteral("connection to the database lost") : QString();
    fake.m_info.lifecycle = (data[0] & 4) ? Lifecycle::WaitingForLock : Lifecycle::Running;

    Subscription subscription;
    const bool admin = data[0] & 1;
    CommandContext context{fake.board(), fake,         fake, PeerCredentials{admin ? 0U : 1000U, 4321},
                           admin,        subscription, 7,    &fake};

    // Framed as ControlConnection frames it, by the protocol's one framer; a
    // last line without its newline is the last request here (the connection
    // would wait for the rest).
    QByteArray input(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    input.append('\n');
    protocol::LineFramer framer;
    framer.feed(input, [&](QByteArrayView line) {
        if (!line.trimmed().isEmpty())
            checkOneRequest(line.toByteArray(), context, fake);
        return true;
    });
    return 0;
}
