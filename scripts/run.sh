#!/usr/bin/env bash
# Entry point of the npm scripts: bash scripts/run.sh <command> [args...]
#
#   start            every service (SERVICES, TRANSPORTER, PORT) in one process
#   start-cluster    every service as its own process over NATS (scripts/cluster-start.ts)
#   test-cluster     starts a cluster, runs the e2e suite against it, stops it
#   test [args]      the vitest suite (vitest run)
#   cli [args]       the command-line tool (stdout carries only the command's answer)
#   typecheck        tsc -p tsconfig.json
#   lint-openapi     writes .data/openapi.json and lints it with redocly
#   openapi-types    regenerates test/client/api.d.ts (the generated client's types)
#   bench-<name>     scripts/bench-<name>.ts (e.g. bench-gateway)
#   eval-<name>      scripts/eval-<name>.ts (e.g. eval-ask: the ask answerer on the dev questions)
#
# It installs the dependencies when node_modules is missing or older than package-lock.json,
# runs everything on the Node 24 that the `node` dev dependency puts in node_modules/.bin
# (DESIGN.md, Runtime), and brings the backing services up (scripts/services.sh) for the
# commands that need them. OMS_SKIP_SERVICES=1 skips that step (services managed elsewhere).
# All of its own output goes to stderr.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf 'run: %s\n' "$*" >&2; }
die() {
  say "ERROR: $*"
  exit 1
}

usage() {
  sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2
}

[[ $# -ge 1 ]] || { usage; exit 2; }
cmd="$1"
shift

# (a) Dependencies. npm writes node_modules/.package-lock.json on every install.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  command -v npm >/dev/null || die "npm is not installed: install Node.js (any version with npm 10+) from your OS packages"
  # npm must not run on the node binary that `npm ci` is about to delete and reinstall:
  # drop node_modules/.bin entries (npm run adds them) from its PATH.
  clean_path="$(tr ':' '\n' <<<"$PATH" | { grep -v '/node_modules/\.bin$' || true; } | paste -sd: -)"
  if [[ -f package-lock.json ]]; then
    say "installing dependencies (npm ci)"
    mkdir -p .data
    if ! PATH="$clean_path" npm ci --no-audit --no-fund --loglevel=error >.data/npm-ci.log 2>&1; then
      # A registry that lacks some other platform's optional packages (e.g. a mirror without the
      # darwin/win32 builds of msgpackr-extract) gives a lock file that `npm ci` calls out of
      # sync; `npm install --no-save` installs the same locked versions and writes nothing.
      say "npm ci failed ($(grep -m1 -o 'npm error code [A-Z0-9_]*' .data/npm-ci.log || echo 'see .data/npm-ci.log'); full output in .data/npm-ci.log); installing the locked versions with npm install --no-save"
      PATH="$clean_path" npm install --no-save --no-audit --no-fund --loglevel=error >&2 || die "npm install failed"
    fi
  else
    say "installing dependencies (npm install; no package-lock.json)"
    PATH="$clean_path" npm install --no-audit --no-fund --loglevel=error >&2 || die "npm install failed"
  fi
fi

# (b) Node 24 from the `node` dev dependency, first on PATH for this process and its children.
export PATH="$ROOT/node_modules/.bin:$PATH"
node_version="$(node --version 2>/dev/null || true)"
[[ $node_version == v24.* ]] ||
  die "expected Node 24 at node_modules/.bin/node (the 'node' dev dependency), found '${node_version:-nothing}' ($(command -v node || echo 'no node')); run \`npm ci\` and approve the 'node' install script"

# (c) Backing services for the commands that talk to them.
services_up() {
  [[ ${OMS_SKIP_SERVICES:-} == 1 ]] && return 0
  bash "$ROOT/scripts/services.sh" up >&2 || die "backing services are not available (see above)"
}

case "$cmd" in
  start)
    say "node $node_version"
    services_up
    exec node --import tsx services/main.ts "$@"
    ;;
  start-cluster | test-cluster)
    say "node $node_version"
    services_up
    exec node --import tsx "scripts/cluster-${cmd%-cluster}.ts" "$@"
    ;;
  test)
    say "node $node_version"
    # test/unit/compose-file.test.ts validates docker-compose.yml with Debian's docker-compose
    # (no Docker engine needed). Install it where we can; the test says how when we cannot.
    if ! command -v docker-compose >/dev/null && command -v apt-get >/dev/null && [[ $(id -u) == 0 ]]; then
      say "installing docker-compose with apt-get (log: .data/apt-docker-compose.log)"
      mkdir -p .data
      { DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends docker-compose ||
        { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends docker-compose; }; } \
        >.data/apt-docker-compose.log 2>&1 || say "could not install docker-compose (see .data/apt-docker-compose.log)"
    fi
    services_up
    exec node node_modules/vitest/vitest.mjs run "$@"
    ;;
  cli)
    OMS_SERVICES_QUIET=1 services_up
    exec node --import tsx scripts/cli.ts "$@"
    ;;
  typecheck)
    exec node node_modules/typescript/bin/tsc -p tsconfig.json "$@"
    ;;
  lint-openapi)
    mkdir -p .data
    node --import tsx scripts/openapi-dump.ts >.data/openapi.json
    exec node node_modules/@redocly/cli/bin/cli.js lint .data/openapi.json "$@"
    ;;
  openapi-types)
    mkdir -p .data
    node --import tsx scripts/openapi-dump.ts >.data/openapi.json
    exec node node_modules/openapi-typescript/bin/cli.js .data/openapi.json --default-non-nullable false -o test/client/api.d.ts
    ;;
  bench-*)
    bench="scripts/${cmd}.ts"
    [[ -f $bench ]] || die "no benchmark $bench"
    say "node $node_version"
    services_up
    exec node --import tsx "$bench" "$@"
    ;;
  eval-*)
    evaluation="scripts/${cmd}.ts"
    [[ -f $evaluation ]] || die "no evaluation $evaluation"
    say "node $node_version"
    services_up
    exec node --import tsx "$evaluation" "$@"
    ;;
  -h | --help | help)
    usage
    ;;
  *)
    usage
    die "unknown command '$cmd'"
    ;;
esac
