// SPDX-License-Identifier: AGPL-3.0-or-later
// pepsi-ctl's command line (ctl/commandline): every command of pepsi-ctl(1)
// parses into what is sent, and every wrong line is refused with a one-line
// reason before anything is sent (exit 64); the ids of `requeue --ids -`.
#include "commandline.h"
#include "requeuefeed.h"
#include "socketlocation.h"

#include <QBuffer>
#include <QTest>

using namespace Qt::StringLiterals;
using pepsi::ctl::CommandLine;
using pepsi::ctl::RequeueFeed;

class tst_CtlCommandLine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void accepted_data();
    void accepted();
    void refused_data();
    void refused();
    void helpAndVersion();
    void everyCommandInUsage();
    void feed_data();
    void feed();
    void feedBatches();
    void targetPrecedence_data();
    void targetPrecedence();
};

void tst_CtlCommandLine::accepted_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("summary"); // the other fields that matter for the row

    QTest::newRow("status") << QStringList{u"status"_s} << u"status"_s << QString() << u""_s;
    QTest::newRow("status STAGE --json after")
        << QStringList{u"status"_s, u"enrich"_s, u"--json"_s} << u"status"_s << u"enrich"_s << u"json"_s;
    QTest::newRow("globals before") << QStringList{u"-c"_s, u"/x.conf"_s, u"--socket=/s"_s, u"--json"_s, u"queues"_s}
                                    << u"queues"_s << QString() << u"json config=/x.conf socket=/s"_s;
    QTest::newRow("-cFILE -t") << QStringList{u"-c/x.conf"_s, u"-t"_s, u"500 ms"_s, u"stats"_s} << u"stats"_s
                               << QString() << u"config=/x.conf timeout=500"_s;
    QTest::newRow("workers --no-ids") << QStringList{u"workers"_s, u"a"_s, u"--no-ids"_s} << u"workers"_s << u"a"_s
                                      << u"noids"_s;
    QTest::newRow("events filtered") << QStringList{u"events"_s, u"tick"_s, u"worker_crashed"_s} << u"events"_s
                                     << QString() << u"events=tick,worker_crashed"_s;
    QTest::newRow("messages") << QStringList{u"messages"_s,   u"a"_s,       u"--status"_s, u"timeout"_s,
                                             u"--limit=50"_s, u"--after"_s, u"99"_s}
                              << u"messages"_s << u"a"_s << u"status=timeout limit=50 after=99"_s;
    QTest::newRow("messages --after 0 --all") << QStringList{u"messages"_s, u"a"_s, u"--after"_s, u"0"_s, u"--all"_s}
                                              << u"messages"_s << u"a"_s << u"after=0 all"_s;
    QTest::newRow("reasons") << QStringList{u"reasons"_s, u"a"_s, u"--status"_s, u"timeout"_s} << u"reasons"_s << u"a"_s
                             << u"status=timeout"_s;
    QTest::newRow("requeue --reason --since")
        << QStringList{u"requeue"_s, u"a"_s,  u"--status"_s, u"failed"_s, u"--reason"_s, u"status 3: no -- way"_s,
                       u"--since"_s, u"10m"_s}
        << u"requeue"_s << u"a"_s << u"status=failed maxage=600000 reason=status 3: no -- way"_s;
    QTest::newRow("requeue --reason=''") << QStringList{u"requeue"_s, u"a"_s, u"--status=failed"_s, u"--reason="_s}
                                         << u"requeue"_s << u"a"_s << u"status=failed reason="_s;
    QTest::newRow("message") << QStringList{u"message"_s, u"42"_s} << u"message"_s << QString() << u"id=42"_s;
    QTest::newRow("drain") << QStringList{u"drain"_s, u"a"_s} << u"drain"_s << u"a"_s << u""_s;
    QTest::newRow("resume") << QStringList{u"resume"_s, u"a"_s} << u"resume"_s << u"a"_s << u""_s;
    QTest::newRow("requeue") << QStringList{u"requeue"_s, u"a"_s, u"--status"_s, u"failed"_s} << u"requeue"_s << u"a"_s
                             << u"status=failed"_s;
    QTest::newRow("requeue --ids - limit age")
        << QStringList{u"requeue"_s, u"--status=timeout"_s, u"a"_s, u"--ids"_s, u"-"_s, u"--limit"_s,
                       u"10000"_s,   u"--max-age"_s,        u"1h"_s}
        << u"requeue"_s << u"a"_s << u"status=timeout stdin limit=10000 maxage=3600000"_s;
    QTest::newRow("set, option any case")
        << QStringList{u"set"_s, u"a"_s, u"parallelism"_s, u"8"_s} << u"set"_s << u"a"_s << u"PARALLELISM=8"_s;
    QTest::newRow("unset, option any case")
        << QStringList{u"unset"_s, u"a"_s, u"queue_limit"_s} << u"unset"_s << u"a"_s << u"QUEUE_LIMIT=0"_s;
    QTest::newRow("reload") << QStringList{u"reload"_s} << u"reload"_s << QString() << u""_s;
    QTest::newRow("metrics") << QStringList{u"metrics"_s} << u"metrics"_s << QString() << u""_s;
    QTest::newRow("top") << QStringList{u"top"_s} << u"top"_s << QString() << u""_s;
    QTest::newRow("top --interval 0.2") << QStringList{u"top"_s, u"--interval"_s, u"0.2"_s} << u"top"_s << QString()
                                        << u"interval=200"_s;
    QTest::newRow("top --interval=500 ms")
        << QStringList{u"top"_s, u"--interval=500 ms"_s} << u"top"_s << QString() << u"interval=500"_s;
    QTest::newRow("-- ends options") << QStringList{u"--"_s, u"status"_s} << u"status"_s << QString() << u""_s;
    QTest::newRow("bridge") << QStringList{u"bridge"_s, u"--socket"_s, u"/s"_s} << u"bridge"_s << QString()
                            << u"socket=/s"_s;
    QTest::newRow("--target") << QStringList{u"--target"_s, u"ssh://ops@db1"_s, u"status"_s} << u"status"_s << QString()
                              << u"target=ssh://ops@db1"_s;
}

void tst_CtlCommandLine::accepted()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, command);
    QFETCH(QString, stage);
    QFETCH(QString, summary);
    const auto parsed = CommandLine::parse(arguments);
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : qPrintable(parsed.error()));
    const CommandLine &line = parsed.value();
    QCOMPARE(line.action, CommandLine::Action::Run);
    QCOMPARE(line.command, command);
    QCOMPARE(line.stage, stage);
    QStringList got;
    if (line.json)
        got << u"json"_s;
    if (!line.configFile.isEmpty())
        got << u"config="_s + line.configFile;
    if (!line.socketPath.isEmpty())
        got << u"socket="_s + line.socketPath;
    if (!line.target.isEmpty())
        got << u"target="_s + line.target;
    if (line.timeout != std::chrono::seconds(15))
        got << u"timeout=%1"_s.arg(line.timeout.count());
    if (!line.withIds)
        got << u"noids"_s;
    if (!line.events.isEmpty())
        got << u"events="_s + line.events.join(u',');
    if (!line.status.isEmpty())
        got << u"status="_s + line.status;
    if (line.idsFromStdin)
        got << u"stdin"_s;
    if (line.limit)
        got << u"limit=%1"_s.arg(*line.limit);
    if (line.afterId)
        got << u"after=%1"_s.arg(*line.afterId);
    if (line.maxAgeMs)
        got << u"maxage=%1"_s.arg(*line.maxAgeMs);
    if (line.all)
        got << u"all"_s;
    if (line.reason)
        got << u"reason="_s + *line.reason;
    if (line.messageId)
        got << u"id=%1"_s.arg(line.messageId);
    if (!line.option.isEmpty())
        got << u"%1=%2"_s.arg(line.option).arg(line.value);
    if (line.interval != std::chrono::seconds(2))
        got << u"interval=%1"_s.arg(line.interval.count());
    QCOMPARE(got.join(u' '), summary);
}

void tst_CtlCommandLine::refused_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("error");

    QTest::newRow("nothing") << QStringList{} << u"missing command"_s;
    QTest::newRow("unknown command") << QStringList{u"frobnicate"_s} << u"unknown command \"frobnicate\""_s;
    QTest::newRow("unknown option") << QStringList{u"--verbose"_s, u"status"_s} << u"unknown option \"--verbose\""_s;
    QTest::newRow("another command's option")
        << QStringList{u"status"_s, u"--limit"_s, u"3"_s} << u"status: unknown option \"--limit\""_s;
    QTest::newRow("-c without value") << QStringList{u"status"_s, u"-c"_s} << u"option -c needs a value"_s;
    QTest::newRow("--json=yes") << QStringList{u"--json=yes"_s, u"status"_s} << u"option --json takes no value"_s;
    QTest::newRow("bad timeout") << QStringList{u"-t"_s, u"soon"_s, u"status"_s} << u"-t: \"soon\" is not a time"_s;
    QTest::newRow("drain without stage") << QStringList{u"drain"_s}
                                         << u"drain: missing argument (pepsi-ctl drain STAGE)"_s;
    QTest::newRow("queues with argument") << QStringList{u"queues"_s, u"a"_s} << u"queues: unexpected argument \"a\""_s;
    QTest::newRow("bad stage name") << QStringList{u"drain"_s, u"Big Stage"_s} << u"is not a stage name"_s;
    QTest::newRow("requeue without status")
        << QStringList{u"requeue"_s, u"a"_s} << u"requeue: --status failed or --status timeout is required"_s;
    QTest::newRow("requeue pending") << QStringList{u"requeue"_s, u"a"_s, u"--status"_s, u"pending"_s}
                                     << u"requeue: --status is one of failed, timeout, not \"pending\""_s;
    QTest::newRow("requeue --ids file") << QStringList{u"requeue"_s, u"a"_s, u"--status=failed"_s, u"--ids=x"_s}
                                        << u"--ids takes \"-\""_s;
    QTest::newRow("requeue limit 0") << QStringList{u"requeue"_s, u"a"_s, u"--status=failed"_s, u"--limit=0"_s}
                                     << u"requeue: --limit must be 1 to 10000"_s;
    QTest::newRow("messages limit 501") << QStringList{u"messages"_s, u"a"_s, u"--limit=501"_s}
                                        << u"messages: --limit must be 1 to 500"_s;
    QTest::newRow("messages --after -1") << QStringList{u"messages"_s, u"a"_s, u"--after=-1"_s}
                                         << u"messages: --after needs a message id (0: from the start)"_s;
    QTest::newRow("messages --all=yes") << QStringList{u"messages"_s, u"a"_s, u"--all=yes"_s}
                                        << u"option --all takes no value"_s;
    QTest::newRow("reasons --limit") << QStringList{u"reasons"_s, u"a"_s, u"--limit=3"_s}
                                     << u"reasons: unknown option \"--limit\""_s;
    QTest::newRow("reasons without stage")
        << QStringList{u"reasons"_s} << u"reasons: missing argument (pepsi-ctl reasons STAGE [--status S])"_s;
    QTest::newRow("requeue --since lately")
        << QStringList{u"requeue"_s, u"a"_s, u"--status=failed"_s, u"--since"_s, u"lately"_s}
        << u"requeue: --since: "_s;
    QTest::newRow("requeue --since and --max-age")
        << QStringList{u"requeue"_s, u"a"_s, u"--status=failed"_s, u"--since=1h"_s, u"--max-age=2h"_s}
        << u"requeue: give --since or --max-age, not both"_s;
    QTest::newRow("message abc") << QStringList{u"message"_s, u"abc"_s} << u"message: \"abc\" is not a message id"_s;
    QTest::newRow("message -5") << QStringList{u"message"_s, u"--"_s, u"-5"_s} << u"is not a message id"_s;
    QTest::newRow("set unknown option") << QStringList{u"set"_s, u"a"_s, u"PROGRAM"_s, u"/bin/sh"_s}
                                        << u"set: OPTION is one of PARALLELISM, QUEUE_LIMIT, MAX_MESSAGES"_s;
    QTest::newRow("set value") << QStringList{u"set"_s, u"a"_s, u"PARALLELISM"_s, u"many"_s}
                               << u"set: VALUE must be a whole number above zero"_s;
    QTest::newRow("unset unknown option") << QStringList{u"unset"_s, u"a"_s, u"NEXT"_s}
                                          << u"unset: OPTION is one of PARALLELISM, QUEUE_LIMIT, MAX_MESSAGES"_s;
    QTest::newRow("unset a value") << QStringList{u"unset"_s, u"a"_s, u"PARALLELISM"_s, u"2"_s}
                                   << u"unset: unexpected argument \"2\""_s;
    QTest::newRow("bridge --target") << QStringList{u"--target=/s"_s, u"bridge"_s}
                                     << u"bridge: --target is not for the bridge"_s;
    QTest::newRow("empty --target") << QStringList{u"--target="_s, u"status"_s} << u"--target: the target is empty"_s;
    QTest::newRow("bridge with argument") << QStringList{u"bridge"_s, u"x"_s} << u"bridge: unexpected argument \"x\""_s;
    QTest::newRow("unknown event") << QStringList{u"events"_s, u"boom"_s} << u"events: unknown event \"boom\""_s;
    QTest::newRow("top too often") << QStringList{u"top"_s, u"--interval"_s, u"0.05"_s}
                                   << u"top: --interval is a time of at least 0.1 s"_s;
    QTest::newRow("top interval word") << QStringList{u"top"_s, u"--interval=often"_s}
                                       << u"top: --interval is a time of at least 0.1 s"_s;
    QTest::newRow("top with a stage") << QStringList{u"top"_s, u"a"_s} << u"top: unexpected argument \"a\""_s;
}

void tst_CtlCommandLine::refused()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, error);
    const auto parsed = CommandLine::parse(arguments);
    QVERIFY(!parsed.ok());
    QVERIFY2(parsed.error().contains(error), qPrintable(parsed.error()));
    QVERIFY(!parsed.error().contains(u'\n'));
}

void tst_CtlCommandLine::helpAndVersion()
{
    QCOMPARE(CommandLine::parse({u"status"_s, u"-h"_s})->action, CommandLine::Action::Help);
    QCOMPARE(CommandLine::parse({u"--version"_s})->action, CommandLine::Action::Version);
}

// The usage text names every command, as pepsi-ctl(1) and the completion do.
void tst_CtlCommandLine::everyCommandInUsage()
{
    QCOMPARE(CommandLine::commands().size(), 18);
    for (const QString &command : CommandLine::commands())
        QVERIFY2(CommandLine::usage().contains(u"\n  "_s + command + u' '), qPrintable(command));
}

void tst_CtlCommandLine::feed_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<qsizetype>("count");
    QTest::addColumn<QString>("error");

    QTest::newRow("three") << "1\n2\n3\n"_ba << qsizetype(3) << QString();
    QTest::newRow("blanks, spaces, no last newline") << "\n 7 \n\n\t8\r\n9"_ba << qsizetype(3) << QString();
    QTest::newRow("empty") << ""_ba << qsizetype(0) << QString();
    QTest::newRow("a word") << "1\n2\nabc\n4\n"_ba << qsizetype(0) << u"stdin line 3: \"abc\" is not a message id"_s;
    QTest::newRow("zero") << "0\n"_ba << qsizetype(0) << u"stdin line 1: \"0\" is not a message id"_s;
    QTest::newRow("two on a line") << "1 2\n"_ba << qsizetype(0) << u"\"1 2\" is not a message id"_s;
    QTest::newRow("a long line") << QByteArray(100000, '1') << qsizetype(0) << u"stdin line 1: not a message id"_s;
}

void tst_CtlCommandLine::feed()
{
    QFETCH(QByteArray, input);
    QFETCH(qsizetype, count);
    QFETCH(QString, error);
    QBuffer buffer(&input);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const auto feed = RequeueFeed::read(buffer);
    if (!error.isEmpty()) {
        QVERIFY(!feed.ok());
        QVERIFY2(feed.error().contains(error), qPrintable(feed.error()));
        return;
    }
    QVERIFY2(feed.ok(), feed.ok() ? "" : qPrintable(feed.error()));
    QCOMPARE(feed->size(), count);
}

// Batches of BatchSize in input order, the last one the rest.
void tst_CtlCommandLine::feedBatches()
{
    QByteArray input;
    const int total = 2 * RequeueFeed::BatchSize + 17;
    for (int i = 1; i <= total; ++i)
        input += QByteArray::number(9007199254740000LL + i) + '\n';
    QBuffer buffer(&input);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const auto feed = RequeueFeed::read(buffer);
    QVERIFY(feed.ok());
    QCOMPARE(feed->batchCount(), 3);
    QCOMPARE(feed->batch(0).size(), RequeueFeed::BatchSize);
    QCOMPARE(feed->batch(2).size(), 17);
    QCOMPARE(feed->batch(0).first(), 9007199254740001LL);
    QCOMPARE(feed->batch(2).last(), 9007199254740000LL + total);
}

// --target over --socket (not both), --socket and -c over $PEPSI_TARGET, and
// the bridge never follows $PEPSI_TARGET (it is the far end).
void tst_CtlCommandLine::targetPrecedence_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("environment"); // PEPSI_TARGET
    QTest::addColumn<QString>("path");        // where it goes; the error when it is refused
    QTest::addColumn<QString>("origin");
    QTest::addColumn<bool>("remote");

    QTest::newRow("--target ssh") << QStringList{u"--target"_s, u"ssh://db1/s"_s, u"status"_s} << QString()
                                  << u"ssh://db1/s"_s << u"--target"_s << true;
    QTest::newRow("--target path") << QStringList{u"--target"_s, u"/t"_s, u"status"_s} << u"ssh://db2"_s << u"/t"_s
                                   << u"--target"_s << false;
    QTest::newRow("PEPSI_TARGET") << QStringList{u"status"_s} << u"ssh://db2"_s << u"ssh://db2"_s << u"PEPSI_TARGET"_s
                                  << true;
    QTest::newRow("--socket over PEPSI_TARGET")
        << QStringList{u"--socket"_s, u"/s"_s, u"status"_s} << u"ssh://db2"_s << u"/s"_s << u"--socket"_s << false;
    QTest::newRow("bridge ignores PEPSI_TARGET")
        << QStringList{u"--socket"_s, u"/s"_s, u"bridge"_s} << u"ssh://db2"_s << u"/s"_s << u"--socket"_s << false;
    QTest::newRow("both") << QStringList{u"--target"_s, u"/t"_s, u"--socket"_s, u"/s"_s, u"status"_s} << QString()
                          << u"give --target or --socket, not both"_s << QString() << false;
    QTest::newRow("bad PEPSI_TARGET") << QStringList{u"status"_s} << u"ssh://a:b:c"_s
                                      << u"PEPSI_TARGET: target \"ssh://a:b:c\": an IPv6 address goes in brackets"_s
                                      << QString() << false;
}

void tst_CtlCommandLine::targetPrecedence()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, environment);
    QFETCH(QString, path);
    QFETCH(QString, origin);
    QFETCH(bool, remote);
    qputenv("PEPSI_TARGET", environment.toUtf8());
    const auto line = CommandLine::parse(arguments);
    QVERIFY(line.ok());
    const auto where = pepsi::ctl::locateSocket(*line);
    qunsetenv("PEPSI_TARGET");
    if (origin.isEmpty()) {
        QVERIFY(!where.ok());
        QVERIFY2(where.error().startsWith(path), qPrintable(where.error()));
        return;
    }
    QVERIFY2(where.ok(), where.ok() ? "" : qPrintable(where.error()));
    QCOMPARE(where->path, path);
    QCOMPARE(where->origin, origin);
    QCOMPARE(bool(where->remote), remote);
    QCOMPARE(where->target().isSsh(), remote);
}

QTEST_APPLESS_MAIN(tst_CtlCommandLine)
#include "tst_ctlcommandline.moc"
