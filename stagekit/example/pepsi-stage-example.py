#!/usr/bin/python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""pepsi-stage-example.py: the reference stage in Python, without the C++ kit.

Run by pepsi-dispatch as `pepsi-stage-example.py [-c CONFIG_FILE] worker` with
PEPSI_STAGE=<stage>. For every message id on stdin it advances the row to the
stage's first NEXT stage (or marks it done at a terminal stage) after an
optional WORK_TIME, records `state.handled_by.<stage> = "python"` in the same
guarded UPDATE, and answers one status line. Needs python3-psycopg2.
"""
import configparser
import os
import re
import sys
import time

import psycopg2

EX_USAGE, EX_TEMPFAIL, EX_CONFIG = 64, 75, 78
UNITS = {"ms": 0.001, "s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}

# One guarded, autocommitted statement: it matches only while the row is still
# this stage's and running, and moves it together with the stage's own data.
ADVANCE = """
UPDATE workqueue
   SET stage = %(next)s, status = 'pending', updated = now(),
       state = jsonb_set(state, '{handled_by}',
                         coalesce(state->'handled_by', '{}') || jsonb_build_object(%(stage)s, 'python'))
 WHERE workqueue_id = %(id)s AND stage = %(stage)s AND status = 'running'
"""
FINISH = """
UPDATE workqueue
   SET status = 'done', updated = now(),
       state = jsonb_set(state, '{handled_by}',
                         coalesce(state->'handled_by', '{}') || jsonb_build_object(%(stage)s, 'python'))
 WHERE workqueue_id = %(id)s AND stage = %(stage)s AND status = 'running'
"""


def log(text):
    # stderr reaches the dispatcher's log with the stage and pid; stdout is the protocol's.
    print(text, file=sys.stderr, flush=True)


def answer(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def load_config(path):
    """The INI file as pepsi.conf(5) says: case-insensitive names, $VAR from [PATHS] then the environment."""
    parser = configparser.ConfigParser(interpolation=None, strict=False, comment_prefixes=("#",),
                                       inline_comment_prefixes=None, default_section="\x00none")
    with open(path, encoding="utf-8") as f:
        parser.read_file(f)
    sections = {name.lower(): dict(parser.items(name)) for name in parser.sections()}
    paths = sections.get("paths", {})

    def expand(value):
        def one(match):
            name, default = match.group(1) or match.group(3), match.group(2)
            found = paths.get(name.lower(), os.environ.get(name))
            return found if found else (default or "")
        return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)", one, value)

    return {name: {k: expand(v) for k, v in options.items()} for name, options in sections.items()}


def relative_time(text):
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|min|m|h|d)?\s*", text)
    if not match:
        raise ValueError(f"not a relative time: {text!r}")
    return float(match.group(1)) * UNITS[match.group(2) or "s"]


def main(argv):
    args = argv[1:]
    config_file = os.environ.get("PEPSI_CONFIG") or "/etc/pepsi/pepsi.conf"
    if len(args) == 3 and args[0] == "-c":
        config_file, args = args[1], args[2:]
    if args != ["worker"]:
        log("usage: pepsi-stage-example.py [-c CONFIG_FILE] worker")
        return EX_USAGE
    stage = os.environ.get("PEPSI_STAGE", "")
    try:
        config = load_config(config_file)
        section = config[f"stage-{stage}"]
        successors = section.get("next", "").split()
        work_time = relative_time(section.get("work_time", "0"))
    except (OSError, KeyError, ValueError, configparser.Error) as error:
        log(f"{config_file}: stage {stage!r}: {error}")
        return EX_CONFIG
    database = config.get("pepsi", {}).get("database", "postgres:///pepsi")

    connection = None
    for raw in sys.stdin.buffer:
        message_id = int(raw)
        if work_time:
            time.sleep(work_time)  # the "work"
        try:
            if connection is None or connection.closed:
                connection = psycopg2.connect(database, application_name=f"pepsi-stage {stage}")
                connection.autocommit = True
            with connection.cursor() as cursor:
                params = {"id": message_id, "stage": stage, "next": successors[0] if successors else None}
                cursor.execute(ADVANCE if successors else FINISH, params)
                moved = cursor.rowcount == 1
        except psycopg2.OperationalError as error:
            # A passing fault: the dispatcher pauses the message and retries it later.
            connection = None
            reason = str(error).strip().splitlines()[0] if str(error).strip() else "database error"
            answer(f"{EX_TEMPFAIL} database: {reason}")
            continue
        except psycopg2.Error as error:
            answer(f"1 {str(error).strip().splitlines()[0]}")
            continue
        # No row matched: it is no longer ours (timed out or reset); do not write again.
        answer("0" if moved else "1 the row is no longer running at this stage")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
