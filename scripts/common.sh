# SPDX-License-Identifier: AGPL-3.0-or-later
# shellcheck shell=bash
# Shared set-up of scripts/test and scripts/demo; sourced, not run.
#
# Environment:
#   BUILD_DIR   build directory (default: <repo>/build)
#   BUILD_LOCK  lock file serialising builds and test runs on this machine
#               (default: /tmp/pepsi-build.lock)
#   PG_DIR      the PostgreSQL sandbox (default: <repo>/.pg)
#   PEPSI_UNLOCKED=1  run without the build lock (scripts/test's gate runs the
#               static checks and the fuzzers' build beside the suite this way,
#               as SCHED_IDLE work instead)
#
# Run as root, the daemon under test drops to the service account `pepsi` and
# starts its workers from BUILD_DIR as that account, so BUILD_DIR and every
# directory above it must be searchable by others (true for a checkout under
# /work or /home/<user> with the usual 755 modes; see check_build_dir_access).

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR_GIVEN=${BUILD_DIR:-}
BUILD_DIR=${BUILD_DIR:-$REPO/build}
BUILD_LOCK=${BUILD_LOCK:-/tmp/pepsi-build.lock}
PG_DIR=${PG_DIR:-$REPO/.pg}
SANDBOX=$REPO/scripts/pg-sandbox

say() {
  echo "${0##*/}: $*" >&2
}

# locked COMMAND...: runs COMMAND holding the build lock, unless PEPSI_UNLOCKED=1.
locked() {
  if [[ ${PEPSI_UNLOCKED:-} == 1 ]]; then
    "$@"
  else
    flock "$BUILD_LOCK" "$@"
  fi
}

# The service account the daemon drops to as root, and a second unprivileged
# account the tests use as "some other user".
ensure_accounts() {
  [[ $(id -u) -eq 0 ]] || return 0
  local account
  for account in pepsi pepsi-test; do
    if ! id "$account" >/dev/null 2>&1; then
      say "creating the system account $account"
      useradd --system --no-create-home --shell /usr/sbin/nologin "$account"
    fi
  done
}

# As root, the service account must be able to run what the build produces.
# A checkout it cannot enter (under /root, say) builds in /var/tmp instead,
# unless BUILD_DIR was given.
check_build_dir_access() {
  [[ $(id -u) -eq 0 ]] || return 0
  mkdir -p "$BUILD_DIR"
  runuser -u pepsi -- test -r "$BUILD_DIR" -a -x "$BUILD_DIR" && return 0
  if [[ -z $BUILD_DIR_GIVEN ]]; then
    BUILD_DIR=/var/tmp/pepsi-build-$(printf '%s' "$REPO" | cksum | cut -d' ' -f1)
    mkdir -p "$BUILD_DIR"
    chmod 755 "$BUILD_DIR"
    say "the account pepsi cannot enter $REPO: building in $BUILD_DIR instead"
  else
    say "warning: the account pepsi cannot enter $BUILD_DIR (a parent directory is closed to it);"
    say "warning: tests that start the daemon as root will fail there."
  fi
}

# configure_and_build [TARGET...]: Ninja, RelWithDebInfo, under the build lock;
# CONFIGURE_ARGS (an array) adds cmake -D options.
CONFIGURE_ARGS=()
configure_and_build() {
  local targets=()
  (($# > 0)) && targets=(--target "$@")
  local launcher=()
  # ccache, where installed, makes rebuilds in several checkouts cheap
  # (CCACHE_BASEDIR: the same sources in another directory still hit).
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$REPO} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
  flock "$BUILD_LOCK" cmake -S "$REPO" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
    "${CONFIGURE_ARGS[@]}" >&2
  flock "$BUILD_LOCK" cmake --build "$BUILD_DIR" -j "$(nproc)" "${targets[@]}" >&2
}

# with_sandbox MARK COMMAND...: starts the sandbox and runs COMMAND with
# PEPSI_TEST_DATABASE (the admin URI) exported, holding a shared lock on the
# sandbox for as long as COMMAND runs, so that another run's release_sandbox
# does not stop it underneath. MARK=1: if this call started the sandbox, mark
# it for release_sandbox. flock -o: COMMAND and its children (daemons under
# test) do not inherit the lock's descriptor.
with_sandbox() {
  local mark=$1
  shift
  mkdir -p "$PG_DIR"
  # shellcheck disable=SC2016 # expanded by the inner shell, from its arguments
  flock -s -o "$PG_DIR/.users" bash -c '
    sandbox=$1 dir=$2 mark=$3
    shift 3
    if [[ $mark == 1 ]] && ! "$sandbox" status "$dir" >/dev/null 2>&1; then
      touch "$dir/.started-by-test"
    fi
    uri=$("$sandbox" start "$dir") || exit 1
    export PEPSI_TEST_DATABASE=$uri
    exec "$@"' with_sandbox "$SANDBOX" "$PG_DIR" "$mark" "$@"
}

# Stops the sandbox if a with_sandbox MARK=1 started it and nobody else is
# using it now; otherwise leaves it running.
release_sandbox() {
  [[ -f $PG_DIR/.started-by-test ]] || return 0
  local status=0
  # shellcheck disable=SC2016 # expanded by the inner shell, from its arguments
  flock -n -E 200 -x -o "$PG_DIR/.users" bash -c '
    [[ -f $2/.started-by-test ]] || exit 0
    "$1" stop "$2" && rm -f "$2/.started-by-test"' \
    release_sandbox "$SANDBOX" "$PG_DIR" || status=$?
  if ((status == 200)); then
    say "the PostgreSQL sandbox in $PG_DIR is in use by another run; left running"
  elif ((status != 0)); then
    say "could not stop the PostgreSQL sandbox in $PG_DIR"
  fi
}
