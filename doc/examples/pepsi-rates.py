#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""Print the per-stage rates of a running pepsi-dispatch once a second.

Subscribes to the control socket's `tick` event (doc/control-protocol.rst)
and prints one line per tick: the time, then every stage with its runs per
second over the last 10 s, its busy workers and its messages in flight.
Python standard library only.

    pepsi-rates.py [--socket PATH] [--ticks N]
"""
import argparse
import json
import os
import socket
import sys
import time


def default_socket():
    if os.geteuid() == 0:
        return "/run/pepsi/dispatch.sock"
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "pepsi", "dispatch.sock")
    return "/tmp/pepsi-%d/dispatch.sock" % os.geteuid()


def main():
    parser = argparse.ArgumentParser(description="Per-stage rates of pepsi-dispatch, once a second.")
    parser.add_argument("--socket", default=os.environ.get("PEPSI_CONTROL_SOCKET", default_socket()),
                        help="the control socket (default: %(default)s)")
    parser.add_argument("--ticks", type=int, default=0, help="exit after N ticks (default: run until interrupted)")
    args = parser.parse_args()

    try:
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(args.socket)
    except OSError as error:
        print("pepsi-rates: cannot connect to %s: %s" % (args.socket, error.strerror or error), file=sys.stderr)
        return 1
    stream = connection.makefile("rw", encoding="utf-8", newline="\n")
    stream.write(json.dumps({"id": "rates", "cmd": "subscribe", "events": ["tick"]}) + "\n")
    stream.flush()

    seen = 0
    while True:
        # readline, not iteration: iterating a socket file reads ahead and
        # would hold the lines back until a buffer fills.
        line = stream.readline()
        if not line:
            break
        message = json.loads(line)
        if "ok" in message:
            if not message["ok"]:
                print("pepsi-rates: %s" % message.get("error"), file=sys.stderr)
                return 1
            continue
        if message.get("event") != "tick":
            continue
        stages = message.get("stages", {})
        parts = ["%s %.1f/s busy %d in flight %d" % (name, stage.get("rate_10s", 0.0), stage.get("busy", 0),
                                                      stage.get("in_flight", 0))
                 for name, stage in sorted(stages.items())]
        print("%s  %s  (claimed %d, completed %d)" % (time.strftime("%H:%M:%S"), "  ".join(parts) or "(no stages)",
                                                     message.get("claimed", 0), message.get("completed", 0)),
              flush=True)
        seen += 1
        if args.ticks and seen >= args.ticks:
            return 0
    print("pepsi-rates: the daemon closed the connection", file=sys.stderr)
    return 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
