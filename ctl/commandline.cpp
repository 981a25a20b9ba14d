// SPDX-License-Identifier: AGPL-3.0-or-later
#include "commandline.h"

#include "config/relativetime.h"
#include "control/protocol.h"
#include "standardoptions.h"

#include <QHash>
#include <QRegularExpression>

namespace pepsi::ctl {

namespace cmd = protocol::cmd;

namespace {

// What a command takes: how many positional arguments (the first is a stage
// where `stageFirst`), and which of its own options.
struct CommandSpec
{
    QLatin1StringView name;
    const char *synopsis;
    int minArgs;
    int maxArgs; // -1: any number
    bool stageFirst;
    QStringList options;
};

const QList<CommandSpec> &specs()
{
    const QString status = QStringLiteral("--status");
    const QString limit = QStringLiteral("--limit");
    static const QList<CommandSpec> list{
        {cmd::Status, "status [STAGE]", 0, 1, true, {}},
        {cmd::Workers, "workers [STAGE] [--no-ids]", 0, 1, true, {QStringLiteral("--no-ids")}},
        {cmd::Queues, "queues", 0, 0, false, {}},
        {cmd::Stages, "stages", 0, 0, false, {}},
        {cmd::Stats, "stats", 0, 0, false, {}},
        {QLatin1StringView("events"), "events [NAME...]", 0, -1, false, {}},
        {cmd::Messages,
         "messages STAGE [--status S] [--limit N] [--after ID] [--all]",
         1,
         1,
         true,
         {status, limit, QStringLiteral("--after"), QStringLiteral("--all")}},
        {cmd::Reasons, "reasons STAGE [--status S]", 1, 1, true, {status}},
        {cmd::Message, "message ID", 1, 1, false, {}},
        {cmd::Drain, "drain STAGE", 1, 1, true, {}},
        {cmd::Resume, "resume STAGE", 1, 1, true, {}},
        {cmd::Requeue,
         "requeue STAGE --status failed|timeout [--ids -] [--reason TEXT] [--since DURATION] [--limit N]",
         1,
         1,
         true,
         {status, QStringLiteral("--ids"), limit, QStringLiteral("--max-age"), QStringLiteral("--reason"),
          QStringLiteral("--since")}},
        {cmd::Set, "set STAGE OPTION VALUE", 3, 3, true, {}},
        {cmd::Unset, "unset STAGE OPTION", 2, 2, true, {}},
        {cmd::Reload, "reload", 0, 0, false, {}},
        {cmd::Metrics, "metrics", 0, 0, false, {}},
        {QLatin1StringView("top"), "top [--interval S]", 0, 0, false, {QStringLiteral("--interval")}},
        {QLatin1StringView("bridge"), "bridge", 0, 0, false, {}},
    };
    return list;
}

const CommandSpec *specOf(const QString &name)
{
    for (const CommandSpec &spec : specs()) {
        if (spec.name == name)
            return &spec;
    }
    return nullptr;
}

// Options that take a value, global or a command's.
const QStringList &valueOptions()
{
    static const QStringList names{
        QStringLiteral("-c"),        QStringLiteral("--config"),   QStringLiteral("--socket"),
        QStringLiteral("-t"),        QStringLiteral("--timeout"),  QStringLiteral("--status"),
        QStringLiteral("--limit"),   QStringLiteral("--after"),    QStringLiteral("--ids"),
        QStringLiteral("--max-age"), QStringLiteral("--interval"), QStringLiteral("--reason"),
        QStringLiteral("--since"),   QStringLiteral("--target"),
    };
    return names;
}

std::optional<qint64> integerFrom(const QString &text, qint64 least)
{
    bool ok = false;
    const qint64 number = text.toLongLong(&ok);
    if (!ok || number < least || text.startsWith(u'+'))
        return std::nullopt;
    return number;
}

// `top` asks for a status no more often: each costs the daemon a picture.
constexpr std::chrono::milliseconds MinTopInterval{100};

std::optional<qint64> positiveInteger(const QString &text) { return integerFrom(text, 1); }

bool isStageName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9][a-z0-9_-]{0,62}$"));
    return pattern.match(name).hasMatch();
}

} // namespace

const QStringList &CommandLine::commands()
{
    static const QStringList names = [] {
        QStringList list;
        for (const CommandSpec &spec : specs())
            list.append(spec.name);
        return list;
    }();
    return names;
}

QString CommandLine::usage()
{
    return QStringLiteral(
        "Usage: pepsi-ctl [-c FILE] [--socket PATH | --target TARGET] [--json] [-t TIME] [-h] [-v] COMMAND [ARGS]\n"
        "\n"
        "Command-line client of the pepsi-dispatch control socket.\n"
        "\n"
        "Options:\n"
        "  -c, --config FILE  configuration file whose CONTROL_SOCKET names the socket\n"
        "                     (default: $PEPSI_CONFIG, then /etc/pepsi/pepsi.conf, if readable)\n"
        "  --socket PATH      the control socket (wins over the configuration)\n"
        "  --target TARGET    a socket path or ssh://[USER@]HOST[:PORT][/SOCKET/PATH]\n"
        "                     (default: $PEPSI_TARGET, else the local socket)\n"
        "  --json             print the daemon's result as JSON instead of tables\n"
        "  -t, --timeout TIME longest wait for each reply (default 15 s; \"500 ms\", \"1 min\")\n"
        "  -v, --version      print the version and exit\n"
        "  -h, --help         print this help and exit\n"
        "\n"
        "Commands:\n"
        "  status [STAGE]     pools, in flight, queue and rates per stage\n"
        "  workers [STAGE]    every worker process (--no-ids: without the ids they hold, with --json)\n"
        "  queues             rows per stage and status, pending rows by age\n"
        "  stages             the pipeline graph and the daemon's settings\n"
        "  stats              totals and per-stage counters since the daemon started\n"
        "  events [NAME...]   follow events (all, or the named ones) until interrupted\n"
        "  messages STAGE     a stage's rows with their reasons\n"
        "    --status S       pending, running, paused, failed (default) or timeout\n"
        "    --limit N        at most N rows (1 to 500)\n"
        "    --after ID       the page after that id (0: from the start)\n"
        "    --all            every page to the end (with --json: one array of every row)\n"
        "  reasons STAGE      a stage's failure reasons with their counts, oldest and newest\n"
        "    --status S       failed (default), timeout, pending, running or paused\n"
        "  message ID         one row and its state\n"
        "  drain STAGE        stop claiming for a stage; its workers finish what they hold\n"
        "  resume STAGE       claim for a drained stage again\n"
        "  requeue STAGE      move failed or timeout rows back to pending\n"
        "    --status S       failed or timeout (required)\n"
        "    --ids -          only the ids read from stdin, one per line\n"
        "    --reason TEXT    only the rows with that reason, as `pepsi-ctl reasons` shows it\n"
        "    --since DURATION only the rows that reached the status within DURATION (10m, 2h, 30s)\n"
        "    --limit N        at most N rows (1 to 10000; default 1000)\n"
        "  set STAGE OPTION VALUE  write a config_overlay row (PARALLELISM, QUEUE_LIMIT, MAX_MESSAGES)\n"
        "  unset STAGE OPTION      remove that config_overlay row: the file's value or the default applies\n"
        "  reload             re-read config_overlay and start a claim round\n"
        "  metrics            the Prometheus text format\n"
        "  top                a live view: status and failures per stage, refreshed until q or Ctrl-C\n"
        "    --interval S     seconds between refreshes (default 2; \"0.5\", \"500 ms\")\n"
        "  bridge             relay the protocol between stdin/stdout and the socket\n"
        "                     (what an ssh:// target runs on the far host)\n"
        "\n"
        "Exit status: 0 done, 1 the daemon refused, 64 bad command line, 69 no daemon answers\n"
        "(through ssh: or ssh failed, with its message); bridge: 65 a line over the limit,\n"
        "74 its client stopped reading.\n");
}

Result<CommandLine, QString> CommandLine::parse(const QStringList &arguments)
{
    CommandLine line;
    QStringList positional;
    QHash<QString, QString> given; // command options, by name
    bool optionsEnded = false;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        QString arg = arguments[i];
        if (optionsEnded || !arg.startsWith(u'-') || arg == u"-") {
            positional.append(arg);
            continue;
        }
        if (arg == u"--") {
            optionsEnded = true;
            continue;
        }
        QString value;
        bool hasValue = false;
        if (arg.startsWith(u"--") && arg.contains(u'=')) {
            value = arg.mid(arg.indexOf(u'=') + 1);
            arg = arg.left(arg.indexOf(u'='));
            hasValue = true;
        } else if (!arg.startsWith(u"--") && arg.size() > 2) {
            value = arg.mid(2); // -cFILE, -t5
            arg = arg.left(2);
            hasValue = true;
        }
        if (valueOptions().contains(arg)) {
            if (!hasValue) {
                if (i + 1 >= arguments.size())
                    return QStringLiteral("option %1 needs a value").arg(arg);
                value = arguments[++i];
            }
        } else if (hasValue) {
            return QStringLiteral("option %1 takes no value").arg(arg);
        }

        if (takeStandardOption(arg, line))
            return line;
        if (arg == u"-c" || arg == u"--config") {
            if (value.isEmpty())
                return QStringLiteral("%1: the file name is empty").arg(arg);
            line.configFile = value;
        } else if (arg == u"--socket") {
            if (value.isEmpty())
                return QStringLiteral("--socket: the path is empty");
            line.socketPath = value;
        } else if (arg == u"--target") {
            if (value.isEmpty())
                return QStringLiteral("--target: the target is empty");
            line.target = value;
        } else if (arg == u"--json") {
            line.json = true;
        } else if (arg == u"-t" || arg == u"--timeout") {
            const auto timeout = parseRelativeTime(value);
            if (!timeout || timeout->count() <= 0)
                return QStringLiteral("%1: \"%2\" is not a time above zero (\"10 s\", \"500 ms\")").arg(arg, value);
            line.timeout = *timeout;
        } else if (arg == u"--no-ids" || arg == u"--all" || valueOptions().contains(arg)) {
            given.insert(arg, value);
        } else {
            return QStringLiteral("unknown option \"%1\"").arg(arg);
        }
    }

    if (positional.isEmpty())
        return QStringLiteral("missing command (one of: %1)").arg(commands().join(u", "));
    line.command = positional.takeFirst();
    const CommandSpec *spec = specOf(line.command);
    if (!spec)
        return QStringLiteral("unknown command \"%1\" (one of: %2)").arg(line.command.left(64), commands().join(u", "));
    for (auto it = given.cbegin(); it != given.cend(); ++it) {
        if (!spec->options.contains(it.key()))
            return QStringLiteral("%1: unknown option \"%2\"").arg(line.command, it.key());
    }
    if (positional.size() < spec->minArgs)
        return QStringLiteral("%1: missing argument (pepsi-ctl %2)")
            .arg(line.command, QLatin1StringView(spec->synopsis));
    if (spec->maxArgs >= 0 && positional.size() > spec->maxArgs)
        return QStringLiteral("%1: unexpected argument \"%2\"")
            .arg(line.command, positional.at(spec->maxArgs).left(64));
    if (spec->stageFirst && !positional.isEmpty()) {
        line.stage = positional.takeFirst();
        if (!isStageName(line.stage))
            return QStringLiteral("%1: \"%2\" is not a stage name ([a-z0-9][a-z0-9_-]*)")
                .arg(line.command, line.stage.left(64));
    }

    if (line.command == cmd::Message) {
        const auto id = positiveInteger(positional.first());
        if (!id)
            return QStringLiteral("message: \"%1\" is not a message id").arg(positional.first().left(64));
        line.messageId = *id;
    } else if (line.command == cmd::Set || line.command == cmd::Unset) {
        line.option = positional.at(0).toUpper();
        if (!protocol::settableOptions().contains(line.option))
            return QStringLiteral("%1: OPTION is one of %2, not \"%3\"")
                .arg(line.command, protocol::settableOptions().join(u", "), positional.at(0).left(64));
    }
    if (line.command == cmd::Set) {
        const auto value = positiveInteger(positional.at(1));
        if (!value)
            return QStringLiteral("set: VALUE must be a whole number above zero, not \"%1\"")
                .arg(positional.at(1).left(64));
        line.value = *value;
    } else if (line.command == u"events") {
        line.events = positional;
        const QStringList &known = protocol::eventNames();
        for (const QString &name : std::as_const(line.events)) {
            if (!known.contains(name))
                return QStringLiteral("events: unknown event \"%1\" (known: %2)").arg(name.left(64), known.join(u", "));
        }
    }

    if (line.command == u"bridge" && !line.target.isEmpty())
        return QStringLiteral("bridge: --target is not for the bridge (it relays to a local socket: --socket)");

    line.withIds = !given.contains(QStringLiteral("--no-ids"));
    line.all = given.contains(QStringLiteral("--all"));
    if (given.contains(QStringLiteral("--status"))) {
        line.status = given.value(QStringLiteral("--status"));
        const QStringList allowed = line.command == cmd::Requeue
            ? QStringList{protocol::value::Failed, protocol::value::Timeout}
            // not done: the daemon does not list finished rows (no index of their own)
            : QStringList{protocol::value::Pending, protocol::value::Running, protocol::value::Paused,
                          protocol::value::Failed, protocol::value::Timeout};
        if (!allowed.contains(line.status))
            return QStringLiteral("%1: --status is one of %2, not \"%3\"")
                .arg(line.command, allowed.join(u", "), line.status.left(64));
    } else if (line.command == cmd::Requeue) {
        return QStringLiteral("requeue: --status failed or --status timeout is required");
    }
    if (given.contains(QStringLiteral("--limit"))) {
        const int most = line.command == cmd::Requeue ? protocol::MaxRequeueLimit : protocol::MaxMessagesLimit;
        const auto limit = positiveInteger(given.value(QStringLiteral("--limit")));
        if (!limit || *limit > most)
            return QStringLiteral("%1: --limit must be 1 to %2").arg(line.command).arg(most);
        line.limit = int(*limit);
    }
    if (given.contains(QStringLiteral("--after"))) {
        const auto after = integerFrom(given.value(QStringLiteral("--after")), 0);
        if (!after)
            return QStringLiteral("messages: --after needs a message id (0: from the start)");
        line.afterId = *after;
    }
    if (given.contains(QStringLiteral("--ids"))) {
        if (given.value(QStringLiteral("--ids")) != u"-")
            return QStringLiteral("requeue: --ids takes \"-\" (the ids on stdin, one per line)");
        line.idsFromStdin = true;
    }
    if (given.contains(QStringLiteral("--interval"))) {
        const auto interval = parseRelativeTime(given.value(QStringLiteral("--interval")));
        if (!interval || *interval < MinTopInterval)
            return QStringLiteral(
                       "top: --interval is a time of at least 0.1 s (\"2\", \"0.5\", \"500 ms\"), not \"%1\"")
                .arg(given.value(QStringLiteral("--interval")).left(64));
        line.interval = *interval;
    }
    // --since is --max-age's name now; the older one still works.
    for (const QString &name : {QStringLiteral("--since"), QStringLiteral("--max-age")}) {
        if (!given.contains(name))
            continue;
        if (line.maxAgeMs)
            return QStringLiteral("requeue: give --since or --max-age, not both");
        const auto age = parseRelativeTime(given.value(name));
        if (!age)
            return QStringLiteral("requeue: %1: %2 (\"10m\", \"2h\", \"30s\")").arg(name, age.error());
        line.maxAgeMs = age->count();
    }
    if (given.contains(QStringLiteral("--reason")))
        line.reason = given.value(QStringLiteral("--reason"));
    return line;
}

} // namespace pepsi::ctl
