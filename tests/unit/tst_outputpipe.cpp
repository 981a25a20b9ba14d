// SPDX-License-Identifier: AGPL-3.0-or-later
// OutputPipe, the worker's stdout as the daemon reads it: what the writer
// wrote arrives whole and in order, a pipe's worth at most per read, and the
// end of it (every writer gone) is seen once, with no notifier left firing;
// nothing is announced before watch() (the worker's start comes first).
#include "pipetest.h"
#include "workers/outputpipe.h"

#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <unistd.h>

using namespace pepsi;

class tst_OutputPipe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void childEndIsNotAStandardDescriptor();
    void whatWasWrittenArrivesInOrder_data();
    void whatWasWrittenArrivesInOrder();
    void theEndStopsTheNotifier();
    void nothingIsAnnouncedBeforeWatch();
    void closedReadsNothing();
};

namespace {

// Reads the pipe as the worker's owner does: once per readyRead(), from the
// moment it watches the pipe.
struct PipeReader
{
    explicit PipeReader(OutputPipe &pipe)
    {
        pipe.watch();
        QObject::connect(&pipe, &OutputPipe::readyRead, &pipe, [this, &pipe] {
            ++calls;
            const QByteArrayView chunk = pipe.read();
            largestChunk = std::max(largestChunk, chunk.size());
            received += chunk;
        });
    }
    QByteArray received;
    int calls = 0;
    qsizetype largestChunk = 0;
};

// Gives the event loop some passes: what should not happen has had its
// chance to.
void letTheLoopRun()
{
    for (int pass = 0; pass < 10; ++pass)
        QCoreApplication::processEvents();
}

// The pipe opened with one status line already written into it: the
// worker's end, -1 when either step failed.
int openWithOneLine(OutputPipe &pipe)
{
    const int writer = pipetest::openAndTakeChildEnd(pipe);
    if (writer >= 0 && ::write(writer, "0\n", 2) != 2) {
        ::close(writer);
        return -1;
    }
    return writer;
}

} // namespace

void tst_OutputPipe::childEndIsNotAStandardDescriptor()
{
    // With 0, 1 and 2 closed a new pipe would get them; QProcess's own
    // redirection in the child would then replace ours. With 0 and 1 closed
    // the write end, the child's, would be 1 (with 1 alone, the read end).
    OutputPipe pipe;
    QString error;
    QVERIFY2(pipetest::openWhileClosed(pipe, {STDIN_FILENO, STDOUT_FILENO}, &error), qPrintable(error));
    QVERIFY(pipe.childEnd() > STDERR_FILENO);
}

void tst_OutputPipe::whatWasWrittenArrivesInOrder_data()
{
    QTest::addColumn<int>("bytes");
    QTest::newRow("a few status lines") << 12;
    QTest::newRow("a pipe's buffer, less one byte") << 65535;
}

void tst_OutputPipe::whatWasWrittenArrivesInOrder()
{
    QFETCH(int, bytes);
    OutputPipe pipe;
    const int writer = pipetest::openAndTakeChildEnd(pipe);
    QVERIFY(writer >= 0);
    QByteArray sent;
    for (int i = 0; sent.size() < bytes; ++i)
        sent += QByteArray::number(i % 10) + '\n';
    sent.truncate(bytes);
    QCOMPARE(::write(writer, sent.constData(), sent.size()), sent.size());

    PipeReader reader(pipe);
    QTRY_COMPARE(reader.received.size(), sent.size());
    QCOMPARE(reader.received, sent);
    QVERIFY(reader.largestChunk <= OutputPipe::ChunkBytes);
    QVERIFY(pipe.read().isEmpty()); // nothing left: no wait, no error
    ::close(writer);
}

void tst_OutputPipe::theEndStopsTheNotifier()
{
    OutputPipe pipe;
    const int writer = openWithOneLine(pipe);
    QVERIFY(writer >= 0);
    ::close(writer);
    PipeReader reader(pipe);
    // The data, then the end: two calls, and none after (a notifier left
    // on at the end would be called on every pass of the event loop).
    QTRY_COMPARE(reader.calls, 2);
    QCOMPARE(reader.received, QByteArray("0\n"));
    letTheLoopRun();
    QCOMPARE(reader.calls, 2);
}

void tst_OutputPipe::nothingIsAnnouncedBeforeWatch()
{
    OutputPipe pipe;
    const int writer = openWithOneLine(pipe);
    QVERIFY(writer >= 0);
    QSignalSpy ready(&pipe, &OutputPipe::readyRead);
    letTheLoopRun();
    QCOMPARE(ready.size(), 0);
    pipe.watch();
    QTRY_VERIFY(!ready.isEmpty());
    QCOMPARE(pipe.read(), QByteArrayView("0\n"));
    ::close(writer);
}

void tst_OutputPipe::closedReadsNothing()
{
    OutputPipe pipe;
    const int writer = openWithOneLine(pipe);
    QVERIFY(writer >= 0);
    pipe.close();
    QVERIFY(pipe.read().isEmpty());
    ::close(writer);
}

QTEST_GUILESS_MAIN(tst_OutputPipe)
#include "tst_outputpipe.moc"
