// SPDX-License-Identifier: AGPL-3.0-or-later
// InputPipe, the worker's stdin as the daemon writes it: what the pipe does
// not take at once waits and arrives whole and in order, end of input comes
// after the last byte, and a pipe nobody reads reports itself once.
#include "pipetest.h"
#include "workers/inputpipe.h"

#include <QSignalSpy>
#include <QSocketNotifier>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace pepsi;

class tst_InputPipe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void childEndIsNotAStandardDescriptor();
    void whatThePipeDoesNotTakeWaits_data();
    void whatThePipeDoesNotTakeWaits();
    void closeEndsInputAfterThePendingBytes();
    void readerGoneIsReportedOnce();

private:
    // Opens the pipe and takes its read end, as the child does;
    // non-blocking, for reading from the event loop. -1 when it did not open.
    static int openReadEnd(InputPipe &pipe);
};

namespace {

// Reads a pipe from the event loop, as a worker reads its stdin, until the
// end of input.
struct PipeReader
{
    explicit PipeReader(int fd)
        : notifier(fd, QSocketNotifier::Read)
    {
        QObject::connect(&notifier, &QSocketNotifier::activated, [this, fd] {
            char chunk[4096];
            const ssize_t n = ::read(fd, chunk, sizeof chunk);
            if (n > 0) {
                received.append(chunk, n);
            } else if (n == 0) {
                endOfInput = true;
                notifier.setEnabled(false);
            }
        });
    }
    QSocketNotifier notifier;
    QByteArray received;
    bool endOfInput = false;
};

} // namespace

int tst_InputPipe::openReadEnd(InputPipe &pipe)
{
    const int reader = pipetest::openAndTakeChildEnd(pipe);
    if (reader >= 0)
        ::fcntl(reader, F_SETFL, O_NONBLOCK);
    return reader;
}

void tst_InputPipe::childEndIsNotAStandardDescriptor()
{
    // With 0, 1 and 2 closed a new pipe would get them; QProcess's own
    // redirection in the child would then replace ours. With 0 closed the
    // read end, the child's, would be 0.
    InputPipe pipe;
    QString error;
    QVERIFY2(pipetest::openWhileClosed(pipe, {STDIN_FILENO}, &error), qPrintable(error));
    QVERIFY(pipe.childEnd() > STDERR_FILENO);
}

void tst_InputPipe::whatThePipeDoesNotTakeWaits_data()
{
    QTest::addColumn<int>("bytes");
    QTest::newRow("one batch of ids") << 40;
    QTest::newRow("four times a pipe's buffer") << 4 * 65536;
}

void tst_InputPipe::whatThePipeDoesNotTakeWaits()
{
    QFETCH(int, bytes);
    InputPipe pipe;
    const int reader = openReadEnd(pipe);
    QVERIFY(reader >= 0);
    QByteArray sent;
    for (int i = 0; sent.size() < bytes; ++i)
        sent += QByteArray::number(i) + '\n';
    pipe.write(sent.first(sent.size() / 2));
    pipe.write(sent.sliced(sent.size() / 2));
    QCOMPARE(pipe.bytesToWrite() > 0, sent.size() > 65536);

    PipeReader read(reader);
    QTRY_COMPARE(read.received.size(), sent.size());
    QCOMPARE(read.received, sent);
    QCOMPARE(pipe.bytesToWrite(), 0);
    ::close(reader);
}

void tst_InputPipe::closeEndsInputAfterThePendingBytes()
{
    InputPipe pipe;
    const int reader = openReadEnd(pipe);
    QVERIFY(reader >= 0);
    const QByteArray sent(3 * 65536, 'x');
    pipe.write(sent);
    pipe.close();
    pipe.write("after the end\n"); // dropped: input has ended
    PipeReader read(reader);
    QTRY_VERIFY(read.endOfInput);
    QCOMPARE(read.received, sent);
    ::close(reader);
}

void tst_InputPipe::readerGoneIsReportedOnce()
{
    InputPipe pipe;
    const int reader = openReadEnd(pipe);
    QVERIFY(reader >= 0);
    ::close(reader);
    QSignalSpy broken(&pipe, &InputPipe::broken);
    pipe.write("1\n2\n"); // EPIPE, not SIGPIPE: the test would die of it
    QCOMPARE(broken.size(), 1);
    QCOMPARE(broken.first().first().toString(), QStringLiteral("Broken pipe"));
    pipe.write("3\n");
    QCOMPARE(broken.size(), 1);
    QCOMPARE(pipe.bytesToWrite(), 0);
}

QTEST_GUILESS_MAIN(tst_InputPipe)
#include "tst_inputpipe.moc"
