// SPDX-License-Identifier: AGPL-3.0-or-later
#include "app/logging.h"

#include <QByteArray>
#include <QStringList>
#include <cstdio>

namespace pepsi {

namespace {

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "DEBUG";
    case QtInfoMsg:
        return "INFO";
    case QtWarningMsg:
        return "WARNING";
    case QtCriticalMsg:
        return "ERROR";
    case QtFatalMsg:
        return "FATAL";
    }
    return "?";
}

QString foldLines(const QString &message)
{
    QStringList parts = message.split(u'\n', Qt::SkipEmptyParts);
    for (QString &part : parts)
        part = part.trimmed();
    parts.removeAll(QString());
    return parts.join(u' ');
}

void writeLine(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    QByteArray line;
    line.reserve(message.size() + 48);
    line.append(levelName(type)).append(' ');
    if (context.category && qstrcmp(context.category, "default") != 0)
        line.append(context.category).append(": ");
    // One event, one line: a message of several lines (libpq's error texts
    // are: "server closed the connection unexpectedly\n\tThis probably
    // means ...") is folded, so that every line of the log is in its format.
    if (message.contains(u'\n'))
        line.append(foldLines(message).toUtf8()).append('\n');
    else
        line.append(message.toUtf8()).append('\n');
    // One write per line so lines from concurrent processes do not interleave.
    // Nowhere to report a failed write of the log itself.
    (void)std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
    (void)std::fflush(stderr);
}

} // namespace

std::optional<LogLevel> parseLogLevel(const QString &text)
{
    const QString upper = text.toUpper();
    if (upper == u"ERROR")
        return LogLevel::Error;
    if (upper == u"WARNING")
        return LogLevel::Warning;
    if (upper == u"INFO")
        return LogLevel::Info;
    if (upper == u"DEBUG")
        return LogLevel::Debug;
    return std::nullopt;
}

void installLogging(LogLevel level)
{
    qInstallMessageHandler(writeLine);
    QString rules =
        QStringLiteral("pepsi.*.debug=%1\npepsi.*.info=%2\npepsi.*.warning=%3\n")
            .arg(level >= LogLevel::Debug ? u"true" : u"false", level >= LogLevel::Info ? u"true" : u"false",
                 level >= LogLevel::Warning ? u"true" : u"false");
    // Qt's own categories stay at warnings and above.
    rules += QStringLiteral("qt.*.debug=false\n");
    QLoggingCategory::setFilterRules(rules);
}

} // namespace pepsi
