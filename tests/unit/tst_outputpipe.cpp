// SPDX-License-Identifier: AGPL-3.0-or-later
// OutputPipe, the worker's stdout as the daemon reads it: what the writer
// wrote arrives whole and in order, a pipe's worth at most per read, and the
// end of it (every writer gone) is seen once, with no notifier left firing;
// nothing is announced before watch() (the worker's start comes first).
#include "workers/outputpipe.h"

#include <QSignalSpy>
#include <QTest>

#include <fcntl.h>
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

private:
    // Takes the write end from the pipe, as the child does.
    static int takeWriteEnd(OutputPipe &pipe);
};

int tst_OutputPipe::takeWriteEnd(OutputPipe &pipe)
{
    const int writer = ::fcntl(pipe.childEnd(), F_DUPFD_CLOEXEC, 3);
    pipe.releaseChildEnd();
    return writer;
}

void tst_OutputPipe::childEndIsNotAStandardDescriptor()
{
    // With 0, 1 and 2 closed a new pipe would get them; QProcess's own
    // redirection in the child would then replace ours.
    const int savedOut = ::dup(STDOUT_FILENO);
    ::close(STDOUT_FILENO);
    OutputPipe pipe;
    QString error;
    const bool opened = pipe.open(&error);
    ::dup2(savedOut, STDOUT_FILENO);
    ::close(savedOut);
    QVERIFY2(opened, qPrintable(error));
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
    QString error;
    QVERIFY2(pipe.open(&error), qPrintable(error));
    const int writer = takeWriteEnd(pipe);
    QByteArray sent;
    for (int i = 0; sent.size() < bytes; ++i)
        sent += QByteArray::number(i % 10) + '\n';
    sent.truncate(bytes);
    QCOMPARE(::write(writer, sent.constData(), sent.size()), sent.size());

    QByteArray received;
    pipe.watch();
    connect(&pipe, &OutputPipe::readyRead, this, [&] {
        const QByteArrayView chunk = pipe.read();
        QVERIFY(chunk.size() <= OutputPipe::ChunkBytes);
        received += chunk;
    });
    QTRY_COMPARE(received.size(), sent.size());
    QCOMPARE(received, sent);
    QVERIFY(pipe.read().isEmpty()); // nothing left: no wait, no error
    ::close(writer);
}

void tst_OutputPipe::theEndStopsTheNotifier()
{
    OutputPipe pipe;
    QString error;
    QVERIFY2(pipe.open(&error), qPrintable(error));
    const int writer = takeWriteEnd(pipe);
    QCOMPARE(::write(writer, "0\n", 2), 2);
    ::close(writer);
    QByteArray received;
    int calls = 0;
    pipe.watch();
    connect(&pipe, &OutputPipe::readyRead, this, [&] {
        ++calls;
        received += pipe.read();
    });
    // The data, then the end: two calls, and none after (a notifier left
    // on at the end would be called on every pass of the event loop).
    QTRY_COMPARE(calls, 2);
    QCOMPARE(received, QByteArray("0\n"));
    for (int pass = 0; pass < 10; ++pass)
        QCoreApplication::processEvents();
    QCOMPARE(calls, 2);
}

void tst_OutputPipe::nothingIsAnnouncedBeforeWatch()
{
    OutputPipe pipe;
    QString error;
    QVERIFY2(pipe.open(&error), qPrintable(error));
    const int writer = takeWriteEnd(pipe);
    QCOMPARE(::write(writer, "0\n", 2), 2);
    QSignalSpy ready(&pipe, &OutputPipe::readyRead);
    for (int pass = 0; pass < 10; ++pass)
        QCoreApplication::processEvents();
    QCOMPARE(ready.size(), 0);
    pipe.watch();
    QTRY_VERIFY(!ready.isEmpty());
    QCOMPARE(pipe.read(), QByteArrayView("0\n"));
    ::close(writer);
}

void tst_OutputPipe::closedReadsNothing()
{
    OutputPipe pipe;
    QString error;
    QVERIFY2(pipe.open(&error), qPrintable(error));
    const int writer = takeWriteEnd(pipe);
    QCOMPARE(::write(writer, "0\n", 2), 2);
    pipe.close();
    QVERIFY(pipe.read().isEmpty());
    ::close(writer);
}

QTEST_GUILESS_MAIN(tst_OutputPipe)
#include "tst_outputpipe.moc"
