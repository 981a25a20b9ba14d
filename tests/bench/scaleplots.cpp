// SPDX-License-Identifier: AGPL-3.0-or-later
#include "scaleplots.h"

#include "benchsetup.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTextStream>

namespace pepsi::bench {

namespace {

// Every plot the same size and font, readable in the HTML docs.
const char *const Terminal = "set terminal pngcairo size 900,540 font 'DejaVu Sans,11'\n";

std::optional<QString> writeFile(const QString &path, const QString &text)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    file.write(text.toUtf8());
    return std::nullopt;
}

std::optional<QString> chainsPlot(const QDir &dir, const ChainsResult &chains)
{
    QString chainRows;
    QString fanOutRows;
    QTextStream chainOut(&chainRows);
    QTextStream fanOut(&fanOutRows);
    chainOut << "# stages hops_per_s daemon_us_per_hop claim_ms workers\n";
    fanOut << "# stages hops_per_s daemon_us_per_hop claim_ms workers\n";
    for (const TopologyRun &run : chains.runs) {
        QTextStream &to = run.name.startsWith(QLatin1String("chain")) ? chainOut : fanOut;
        to << run.stages << ' ' << num(run.hopsPerSecond()) << ' ' << num(run.usecPerHop(), 2) << ' '
           << num(run.claimMeanMs, 3) << ' ' << run.workers << '\n';
    }
    chainOut.flush();
    fanOut.flush();
    if (auto e = writeFile(dir.filePath(QStringLiteral("scale-chains.dat")), chainRows))
        return e;
    if (auto e = writeFile(dir.filePath(QStringLiteral("scale-fanout.dat")), fanOutRows))
        return e;
    return writeFile(
        dir.filePath(QStringLiteral("scale-chains.gp")),
        QString::fromLatin1(Terminal)
            + QStringLiteral("set output 'scale-chains.png'\n"
                             "set title 'Cost against the number of stages (same hops through each)'\n"
                             "set xlabel 'stages'\nset logscale x\nset xrange [2:150]\n"
                             "set ylabel 'hops/s'\nset y2label 'daemon CPU µs per hop'\n"
                             "set yrange [0:*]\nset y2range [0:*]\nset ytics nomirror\nset y2tics\n"
                             "set xtics (3, 10, 22, 50, 100)\nset key below\nset grid\n"
                             "plot 'scale-chains.dat' using 1:2 with linespoints lw 2 pt 7 title 'chain: hops/s', \\\n"
                             "     'scale-chains.dat' using 1:3 axes x1y2 with linespoints lw 2 pt 5 "
                             "title 'chain: daemon µs/hop', \\\n"
                             "     'scale-fanout.dat' using 1:2 with points pt 9 ps 2 title 'fan-out 1-20-1: hops/s', "
                             "\\\n"
                             "     'scale-fanout.dat' using 1:3 axes x1y2 with points pt 11 ps 2 "
                             "title 'fan-out 1-20-1: daemon µs/hop'\n"));
}

std::optional<QString> backlogPlot(const QDir &dir, const BacklogResult &backlog)
{
    QString rows = QStringLiteral("# pending claim_mean_ms hops_per_s\n");
    for (const BacklogRun &run : backlog.runs)
        rows += QStringLiteral("%1 %2 %3\n")
                    .arg(run.pending)
                    .arg(num(run.claimMeanMs, 3), num(double(run.hops) / run.seconds));
    if (auto e = writeFile(dir.filePath(QStringLiteral("scale-backlog.dat")), rows))
        return e;
    const int finished = backlog.runs.isEmpty() ? 0 : backlog.runs.constFirst().finished;
    return writeFile(dir.filePath(QStringLiteral("scale-backlog.gp")),
                     QString::fromLatin1(Terminal)
                         + QStringLiteral("set output 'scale-backlog.png'\n"
                                          "set title 'Claim round against the backlog (%1 finished rows beside it, "
                                          "no VACUUM)'\n"
                                          "set xlabel 'pending rows'\nset logscale x\n"
                                          "set ylabel 'claim round, mean ms'\nset y2label 'hops/s'\n"
                                          "set yrange [0:*]\nset y2range [0:*]\nset ytics nomirror\nset y2tics\n"
                                          "set key below\nset grid\n"
                                          "plot 'scale-backlog.dat' using 1:2 with linespoints lw 2 pt 7 "
                                          "title 'claim round (ms)', \\\n"
                                          "     'scale-backlog.dat' using 1:3 axes x1y2 with linespoints lw 2 pt 5 "
                                          "title 'drain rate (hops/s)'\n")
                               .arg(finished));
}

std::optional<QString> historyPlot(const QDir &dir, const HistoryResult &history)
{
    // The drift run repeats the first size: a point of its own beside it.
    QString rows = QStringLiteral("# finished_millions hops_per_s steady_hops_per_s again\n");
    for (const HistoryRun &h : history.runs)
        rows += QStringLiteral("%1 %2 %3 %4\n")
                    .arg(num(double(h.finished) / 1e6, 3), num(h.run.hopsPerSecond()), num(h.steadyHopsPerSecond),
                         h.again ? QStringLiteral("1") : QStringLiteral("0"));
    if (auto e = writeFile(dir.filePath(QStringLiteral("scale-history.dat")), rows))
        return e;
    const double target = 0.9 * history.runs.constFirst().run.hopsPerSecond();
    return writeFile(
        dir.filePath(QStringLiteral("scale-history.gp")),
        QString::fromLatin1(Terminal)
            + QStringLiteral("set output 'scale-history.png'\n"
                             "set title 'The reference pipeline beside finished rows (vacuumed)'\n"
                             "set xlabel 'finished rows in the table (millions)'\nset ylabel 'hops/s'\n"
                             "set xrange [-0.5:*]\nset yrange [0:*]\nset key below\nset grid\n"
                             "plot 'scale-history.dat' using 1:($4 == 0 ? $2 : 1/0) with linespoints lw 2 pt 7 "
                             "title 'hops/s', \\\n"
                             "     'scale-history.dat' using 1:($4 == 0 ? $3 : 1/0) with linespoints lw 2 pt 5 "
                             "title 'steady hops/s (10-90 %)', \\\n"
                             "     'scale-history.dat' using 1:($4 == 1 ? $2 : 1/0) with points pt 9 ps 2 "
                             "title 'hops/s, first size again at the end', \\\n"
                             "     %1 with lines dt 2 lw 2 title '0.9 x hops/s of the first run (target)'\n")
                  .arg(num(target)));
}

std::optional<QString> soakPlot(const QDir &dir, const SoakResult &soak)
{
    QString rows = QStringLiteral("# minute messages_per_min open dead_tuples heap_mib index_mib\n");
    // The first sample is the start: no rate yet.
    for (const SoakSample &s : soak.samples.mid(1))
        rows +=
            QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                .arg(num(s.minute, 2), num(s.messagesPerMin, 1), QString::number(s.open), QString::number(s.deadTuples),
                     num(double(s.heapBytes) / 1048576.0, 2), num(double(s.indexBytes) / 1048576.0, 2));
    if (auto e = writeFile(dir.filePath(QStringLiteral("scale-soak.dat")), rows))
        return e;
    return writeFile(
        dir.filePath(QStringLiteral("scale-soak.gp")),
        QString::fromLatin1(Terminal)
            + QStringLiteral(
                  "set output 'scale-soak.png'\n"
                  "set title 'Soak at %1 messages/s, stock autovacuum'\n"
                  "set xlabel 'minutes'\nset ylabel 'messages finished per minute'\n"
                  "set y2label 'dead tuples; heap and indexes (MiB x 1000)'\n"
                  "set yrange [0:*]\nset y2range [0:*]\nset ytics nomirror\nset y2tics\n"
                  "set key below\nset grid\n"
                  "plot 'scale-soak.dat' using 1:2 with linespoints lw 2 pt 7 title 'messages/min', \\\n"
                  "     'scale-soak.dat' using 1:4 axes x1y2 with lines lw 1 title 'dead tuples', \\\n"
                  "     'scale-soak.dat' using 1:($5*1000) axes x1y2 with lines dt 2 title 'heap MiB x 1000', "
                  "\\\n"
                  "     'scale-soak.dat' using 1:($6*1000) axes x1y2 with lines dt 3 "
                  "title 'indexes MiB x 1000'\n")
                  .arg(num(soak.feedMessagesPerSecond, 1)));
}

} // namespace

Result<QStringList, QString> writeScalePlots(const QString &path, const std::optional<ChainsResult> &chains,
                                             const std::optional<BacklogResult> &backlog,
                                             const std::optional<HistoryResult> &history,
                                             const std::optional<SoakResult> &soak)
{
    if (!QDir().mkpath(path))
        return QStringLiteral("cannot create %1").arg(path);
    const QDir dir(path);
    QStringList names;
    if (chains && chains->runs.size() > 1) {
        if (auto e = chainsPlot(dir, *chains))
            return *e;
        names << QStringLiteral("scale-chains");
    }
    if (backlog && !backlog->runs.isEmpty()) {
        if (auto e = backlogPlot(dir, *backlog))
            return *e;
        names << QStringLiteral("scale-backlog");
    }
    if (history && !history->runs.isEmpty()) {
        if (auto e = historyPlot(dir, *history))
            return *e;
        names << QStringLiteral("scale-history");
    }
    if (soak && soak->samples.size() > 1) {
        if (auto e = soakPlot(dir, *soak))
            return *e;
        names << QStringLiteral("scale-soak");
    }
    const QString gnuplot = QStandardPaths::findExecutable(QStringLiteral("gnuplot"));
    if (gnuplot.isEmpty()) {
        progress(QStringLiteral("gnuplot is not installed (apt-get install gnuplot-nox): only the data and scripts "
                                "are in %1")
                     .arg(path));
        return QStringList();
    }
    QStringList made;
    for (const QString &name : names) {
        QProcess plot;
        plot.setWorkingDirectory(path);
        plot.setProcessChannelMode(QProcess::MergedChannels);
        plot.start(gnuplot, {name + QStringLiteral(".gp")});
        if (!plot.waitForFinished(60'000) || plot.exitStatus() != QProcess::NormalExit || plot.exitCode() != 0)
            return QStringLiteral("gnuplot %1.gp failed: %2").arg(name, QString::fromUtf8(plot.readAll()).trimmed());
        made << dir.filePath(name + QStringLiteral(".png"));
    }
    return made;
}

} // namespace pepsi::bench
