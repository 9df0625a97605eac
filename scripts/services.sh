#!/usr/bin/env bash
# Backing services for the Opportunity Matching Service: NATS, Redis and a MongoDB-compatible
# server.
#
#   bash scripts/services.sh [up|down|status]      (npm run services -- up|down|status)
#
# up (default) makes sure each of NATS_URL, REDIS_URL and MONGO_URL answers, trying in order
# (DESIGN.md, "MongoDB on machines that cannot install it"):
#   1. whatever the URL already points at, if it answers;
#   2. a Docker engine, if `docker info` answers: `docker compose up -d` of nats/redis/mongo only;
#   3. local programs: nats-server and redis-server from the OS packages (apt-get installs them
#      when missing), and FerretDB 1.24.2 built once from the Go module proxy into the cache
#      folder and run over the local PostgreSQL (started, or installed, when needed);
#   4. otherwise it stops with a message that says what to install.
# If anything fails, whatever this invocation started is stopped again (never a half-started
# set). `down` stops only what this script started (pid files in the cache folder). `status`
# prints one line per service on stdout and exits 3 when one does not answer.
# Progress lines go to stderr, so stdout stays clean for the commands that run after `up`.
#
# NATS: a NATS started here requires the credentials the services will use: those in NATS_URL
# (nats://user:password@host:port), else NATS_USER and NATS_PASSWORD; with none (the default,
# for the tests on 127.0.0.1, like Redis and MongoDB here) it takes no credentials.
#
# Environment: NATS_URL (nats://127.0.0.1:4222), REDIS_URL (redis://127.0.0.1:6379),
# MONGO_URL (mongodb://127.0.0.1:27017/), OMS_CACHE_DIR (~/.cache/oms),
# FERRETDB_POSTGRESQL_URL (postgres://postgres@127.0.0.1:5432/ferretdb; where that login is
# refused, a role and database oms_ferretdb are created and the URL kept in the cache folder),
# FERRETDB_PG_POOL (40), FERRETDB_PG_PARALLEL_WORKERS (0) and FERRETDB_PG_SYNCHRONOUS_COMMIT
# (off): settings of FerretDB's PostgreSQL connections (see up_mongo),
# OMS_SERVICES_TIMEOUT (seconds to wait for readiness, 30), OMS_NO_DOCKER=1 (skip Docker),
# OMS_SERVICES_QUIET=1 (no line for a service that already answers; what is started is shown).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${OMS_CACHE_DIR:-$HOME/.cache/oms}"
NATS_URL="${NATS_URL:-nats://127.0.0.1:4222}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
MONGO_URL="${MONGO_URL:-mongodb://127.0.0.1:27017/}"
READY_TIMEOUT="${OMS_SERVICES_TIMEOUT:-30}"
FERRETDB_VERSION="v1.24.2"
FERRETDB_MODULE="github.com/FerretDB/FerretDB"
# FerretDB is built with the patches of deploy/ferretdb/, in this order (see its README):
# single-document atomicity, queries answered from indexes, cheaper requests, sparse indexes, update
# locks per document, findAndModify's projection, lean reads. The binary's name
# carries their hash, so a change of any patch builds anew and an older build started by this
# script is replaced.
FERRETDB_PATCHES=(atomic-updates query-indexes request-costs sparse-indexes document-locks findandmodify-fields lean-reads)
FERRETDB_PATCH_FILES=("${FERRETDB_PATCHES[@]/#/$ROOT/deploy/ferretdb/}")
FERRETDB_PATCH_FILES=("${FERRETDB_PATCH_FILES[@]/%/.patch}")
FERRETDB_BUILD="$FERRETDB_VERSION-oms-$(cat "${FERRETDB_PATCH_FILES[@]}" | sha256sum | cut -c1-8)"
FERRETDB_BIN="$CACHE/bin/ferretdb-$FERRETDB_BUILD"
FERRETDB_PGURL_FILE="$CACHE/ferretdb-postgresql-url"
PG_DEFAULT_URL="postgres://postgres@127.0.0.1:5432/ferretdb"

SERVICES=(nats redis mongo)
declare -A URL=([nats]="$NATS_URL" [redis]="$REDIS_URL" [mongo]="$MONGO_URL")
declare -A DEFAULT_PORT=([nats]=4222 [redis]=6379 [mongo]=27017 [postgres]=5432)
declare -A PROGRAM=([nats]=nats-server [redis]=redis-server [mongo]=ferretdb)
STARTED=()   # what this invocation started, in order: nats redis mongo postgres docker:<svc>

# URL for display, password masked.
show_url() { sed -E 's#^([a-z+]+://[^:/@]*):[^@/]*@#\1:***@#' <<<"$1"; }

# url_decode STRING: percent-decoded (URL user information is percent-encoded).
url_decode() { printf '%b' "${1//%/\\x}"; }

# nats_credentials: sets NATS_AUTH_USER and NATS_AUTH_PASS to what the services will connect
# with (shared/config.ts reads the same): NATS_URL's user and password, else NATS_USER and
# NATS_PASSWORD; both empty when there are none.
nats_credentials() {
  local u="${NATS_URL#*://}"
  u="${u%%[/,]*}"
  NATS_AUTH_USER="${NATS_USER:-}"
  NATS_AUTH_PASS="${NATS_PASSWORD:-}"
  if [[ $u == *@* ]]; then
    u="${u%@*}"
    NATS_AUTH_USER="$(url_decode "${u%%:*}")"
    NATS_AUTH_PASS=""
    [[ $u == *:* ]] && NATS_AUTH_PASS="$(url_decode "${u#*:}")"
  fi
  return 0
}

say() { printf 'services: %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

# ---------------------------------------------------------------------------------------------
# URLs and reachability

# host_port URL DEFAULT_PORT -> sets HOST and PORT (first host of a list; credentials, path and
# query dropped; [v6] literals understood).
host_port() {
  local u="$1"
  u="${u#*://}"
  u="${u%%/*}"
  u="${u%%\?*}"
  u="${u##*@}"
  u="${u%%,*}"
  if [[ $u == \[*\]* ]]; then
    HOST="${u%%]*}"; HOST="${HOST#[}"; PORT="${u#*]}"; PORT="${PORT#:}"
  elif [[ $u == *:* ]]; then
    HOST="${u%:*}"; PORT="${u##*:}"
  else
    HOST="$u"; PORT=""
  fi
  [[ -n $HOST ]] || HOST=127.0.0.1
  [[ -n $PORT ]] || PORT="$2"
}

is_local() {
  case "$1" in
    localhost | 127.* | ::1 | 0.0.0.0 | "") return 0 ;;
    *) return 1 ;;
  esac
}

# The address a locally started server binds to.
bind_addr() {
  case "$1" in
    localhost | 0.0.0.0 | "") echo 127.0.0.1 ;;
    *) echo "$1" ;;
  esac
}

# tcp_answers HOST PORT: a TCP connection is accepted within a second.
tcp_answers() {
  timeout 1 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null
}

# answers SERVICE: what its URL points at accepts connections. mongodb+srv URLs cannot be
# checked with a TCP connect and are trusted.
answers() {
  local url="${URL[$1]}"
  [[ $1 == mongo && $url == mongodb+srv://* ]] && return 0
  host_port "$url" "${DEFAULT_PORT[$1]}"
  tcp_answers "$HOST" "$PORT"
}

# wait_until SECONDS PID CMD...: poll CMD every 0.2 s; give up early if PID (when set) dies.
wait_until() {
  local deadline=$((SECONDS + $1)) pid="$2"
  shift 2
  while ! "$@"; do
    if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

# ready PID CMD...: CMD succeeds within READY_TIMEOUT and PID is still alive (not another
# program answering on the port).
ready() {
  local pid="$1"
  shift
  wait_until "$READY_TIMEOUT" "$pid" "$@" && sleep 0.2 && kill -0 "$pid" 2>/dev/null
}

# ---------------------------------------------------------------------------------------------
# Processes this script owns: $CACHE/<program>.pid and $CACHE/<program>.log

pid_file() { echo "$CACHE/${PROGRAM[$1]}.pid"; }
log_file() { echo "$CACHE/${PROGRAM[$1]}.log"; }

# our_pid NAME: prints the pid of the live process this script started as NAME, if any.
our_pid() {
  local f pid
  f="$(pid_file "$1")"
  [[ -f $f ]] || return 1
  pid="$(cat "$f" 2>/dev/null || true)"
  if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null &&
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "${PROGRAM[$1]}"; then
    echo "$pid"
    return 0
  fi
  rm -f "$f"
  return 1
}

# spawn NAME CMD...: start CMD detached (own session, stdin closed, output to the log) and
# record its pid.
spawn() {
  local name="$1" pf log
  shift
  pf="$(pid_file "$name")"
  log="$(log_file "$name")"
  rm -f "$pf"
  if command -v setsid >/dev/null; then
    setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pf" "$@" </dev/null >>"$log" 2>&1 8>&- 9>&- &
  else
    nohup bash -c 'echo $$ >"$0"; exec "$@"' "$pf" "$@" </dev/null >>"$log" 2>&1 8>&- 9>&- &
  fi
  local i
  for i in $(seq 50); do
    [[ -s $pf ]] && break
    sleep 0.1
  done
  [[ -s $pf ]] || return 1
  SPAWNED_PID="$(cat "$pf")"
}

stop_pid() {
  local name="$1" pid
  pid="$(our_pid "$name")" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  local i
  for i in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  rm -f "$(pid_file "$name")"
  say "$name: stopped ${PROGRAM[$name]} (pid $pid)"
}

log_tail() {
  [[ -f $1 ]] || return 0
  say "last lines of $1:"
  tail -n 15 "$1" | sed 's/^/    /' >&2
}

# ---------------------------------------------------------------------------------------------
# Privileges and packages

as_root() {
  if [[ $EUID -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    return 1
  fi
}

can_be_root() { [[ $EUID -eq 0 ]] || { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; }

# apt_install PKG...: installs with apt-get; runs apt-get update and retries once on failure.
apt_install() {
  command -v apt-get >/dev/null || return 1
  can_be_root || return 1
  local log="$CACHE/apt.log"
  say "installing $* with apt-get (log $log)"
  # 8>&- 9>&-: daemons that a package starts must not inherit the lock files
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >>"$log" 2>&1 8>&- 9>&- && return 0
  as_root apt-get update -q >>"$log" 2>&1 8>&- 9>&- || true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >>"$log" 2>&1 8>&- 9>&-
}

# find_program NAME: on PATH, or in the sbin folders Debian packages use.
find_program() {
  local p
  if p="$(command -v "$1")"; then
    echo "$p"
    return 0
  fi
  for p in /usr/sbin/"$1" /usr/local/sbin/"$1" /usr/local/bin/"$1"; do
    [[ -x $p ]] && { echo "$p"; return 0; }
  done
  return 1
}

# need_program NAME PACKAGE: prints the program's path, installing PACKAGE when it is missing.
need_program() {
  local p
  p="$(find_program "$1")" && { echo "$p"; return 0; }
  apt_install "$2" || die "$1 is not installed and could not be installed here: run \`sudo apt-get install -y $2\` (or point ${3:-the URL} at a running server)"
  find_program "$1" || die "$1 still missing after installing $2"
}

# ---------------------------------------------------------------------------------------------
# Docker

DOCKER_COMPOSE=()
docker_usable() {
  [[ ${OMS_NO_DOCKER:-} == 1 ]] && return 1
  command -v docker >/dev/null || return 1
  timeout 10 docker info >/dev/null 2>&1 || return 1
  if docker compose version >/dev/null 2>&1; then
    DOCKER_COMPOSE=(docker compose)
  elif command -v docker-compose >/dev/null; then
    DOCKER_COMPOSE=(docker-compose)
  else
    return 1
  fi
}

compose() {
  (cd "$ROOT" && "${DOCKER_COMPOSE[@]}" -f "$ROOT/docker-compose.yml" "$@" 8>&- 9>&-)
}

# Ports the compose file publishes on 127.0.0.1 (defaults 4222, 6379, 27017), and the NATS
# credentials its nats service requires (empty: none; see docker-compose.yml).
export_compose_ports() {
  nats_credentials
  export NATS_USER="$NATS_AUTH_USER" NATS_PASSWORD="$NATS_AUTH_PASS"
  host_port "$NATS_URL" 4222; export OMS_NATS_PORT="$PORT"
  host_port "$REDIS_URL" 6379; export OMS_REDIS_PORT="$PORT"
  host_port "$MONGO_URL" 27017; export OMS_MONGO_PORT="$PORT"
}

up_docker() {
  local missing=("$@") s
  export_compose_ports
  say "starting ${missing[*]} with ${DOCKER_COMPOSE[*]} (Docker engine answers)"
  compose up -d "${missing[@]}" >&2 || die "\`${DOCKER_COMPOSE[*]} up -d ${missing[*]}\` failed"
  for s in "${missing[@]}"; do
    STARTED+=("docker:$s")
    echo "$s" >>"$CACHE/docker-services"
  done
  for s in "${missing[@]}"; do
    wait_until "$((READY_TIMEOUT * 2))" "" answers "$s" ||
      die "$s container started but $(show_url "${URL[$s]}") does not answer after $((READY_TIMEOUT * 2)) s (see \`${DOCKER_COMPOSE[*]} logs $s\`)"
    say "$s: started container '$s' with ${DOCKER_COMPOSE[*]}, answers at $(show_url "${URL[$s]}")"
  done
}

down_docker() {
  local f="$CACHE/docker-services" svcs
  [[ -s $f ]] || return 0
  mapfile -t svcs < <(sort -u "$f")
  if docker_usable; then
    export_compose_ports
    compose stop "${svcs[@]}" >&2 || true
    say "docker: stopped containers ${svcs[*]}"
  else
    say "docker: cannot reach the Docker engine to stop ${svcs[*]}"
  fi
  rm -f "$f"
}

# ---------------------------------------------------------------------------------------------
# Local programs

# conf_escape STRING: a NATS configuration double-quoted string's content.
conf_escape() {
  local s="${1//\\/\\\\}"
  printf '%s' "${s//\"/\\\"}"
}

up_nats() {
  local bin addr
  host_port "$NATS_URL" 4222
  addr="$(bind_addr "$HOST")"
  bin="$(need_program nats-server nats-server NATS_URL)"
  mkdir -p "$CACHE/nats"
  # deploy/nats/nats.conf: the payload limit an 8 MB product import needs.
  local conf="$ROOT/deploy/nats/nats.conf" auth=""
  nats_credentials
  if [[ -n $NATS_AUTH_USER ]]; then
    # The credentials go into a file only this user reads, never onto the command line.
    conf="$CACHE/nats-auth.conf"
    (umask 077 && {
      cat "$ROOT/deploy/nats/nats.conf"
      printf 'authorization { user: "%s", password: "%s" }\n' "$(conf_escape "$NATS_AUTH_USER")" "$(conf_escape "$NATS_AUTH_PASS")"
    } >"$conf")
    auth=", user $NATS_AUTH_USER required"
  fi
  spawn nats "$bin" -c "$conf" -a "$addr" -p "$PORT" -js -sd "$CACHE/nats" ||
    die "could not start nats-server (log $(log_file nats))"
  STARTED+=(nats)
  if ! ready "$SPAWNED_PID" tcp_answers "$addr" "$PORT"; then
    log_tail "$(log_file nats)"
    die "nats-server did not answer on $addr:$PORT within $READY_TIMEOUT s"
  fi
  say "nats: started $bin (JetStream$auth) on $addr:$PORT, pid $SPAWNED_PID, log $(log_file nats)"
}

up_redis() {
  local bin addr
  host_port "$REDIS_URL" 6379
  addr="$(bind_addr "$HOST")"
  bin="$(need_program redis-server redis-server REDIS_URL)"
  mkdir -p "$CACHE/redis"
  spawn redis "$bin" --bind "$addr" --port "$PORT" --daemonize no --save "" --appendonly no \
    --maxmemory-policy noeviction --dir "$CACHE/redis" ||
    die "could not start redis-server (log $(log_file redis))"
  STARTED+=(redis)
  if ! ready "$SPAWNED_PID" tcp_answers "$addr" "$PORT"; then
    log_tail "$(log_file redis)"
    die "redis-server did not answer on $addr:$PORT within $READY_TIMEOUT s"
  fi
  say "redis: started $bin on $addr:$PORT, pid $SPAWNED_PID, log $(log_file redis)"
}

# --- PostgreSQL for FerretDB -------------------------------------------------------------------

pg_url() {
  if [[ -n ${FERRETDB_POSTGRESQL_URL:-} ]]; then
    echo "$FERRETDB_POSTGRESQL_URL"
  elif [[ -s $FERRETDB_PGURL_FILE ]]; then
    cat "$FERRETDB_PGURL_FILE"
  else
    echo "$PG_DEFAULT_URL"
  fi
}

# Same URL, other database.
pg_url_db() {
  local url="$1" db="$2" base query=""
  base="${url%%\?*}"
  [[ $url == *\?* ]] && query="?${url#*\?}"
  echo "${base%/*}/$db$query"
}

as_postgres() {
  if [[ $EUID -eq 0 ]] && command -v runuser >/dev/null; then
    runuser -u postgres -- "$@"
  elif command -v sudo >/dev/null && sudo -n -u postgres true 2>/dev/null; then
    sudo -n -u postgres "$@"
  else
    return 1
  fi
}

# Starts the local cluster serving PORT (installing PostgreSQL if there is none).
start_local_postgres() {
  local port="$1" ver cluster cport status
  if ! command -v pg_lsclusters >/dev/null || [[ -z $(pg_lsclusters -h 2>/dev/null) ]]; then
    apt_install postgresql ||
      die "PostgreSQL (needed by FerretDB) is not installed and could not be installed here: run \`sudo apt-get install -y postgresql\`, or set MONGO_URL to a running MongoDB"
    if [[ -z $(pg_lsclusters -h 2>/dev/null) ]]; then
      ver="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
      as_root pg_createcluster "$ver" main >>"$CACHE/apt.log" 2>&1 8>&- 9>&- || die "pg_createcluster $ver main failed"
    fi
  fi
  while read -r ver cluster cport status _; do
    [[ $cport == "$port" ]] || continue
    [[ $status == online* ]] && return 0
    as_root pg_ctlcluster --skip-systemctl-redirect "$ver" "$cluster" start >&2 8>&- 9>&- ||
      die "could not start PostgreSQL cluster $ver/$cluster: run \`pg_ctlcluster $ver $cluster start\` as root"
    echo "$ver $cluster" >"$CACHE/postgres.started"
    STARTED+=(postgres)
    PG_STARTED="PostgreSQL $ver/$cluster"
    return 0
  done < <(pg_lsclusters -h)
  die "no local PostgreSQL cluster listens on port $port (see pg_lsclusters); set FERRETDB_POSTGRESQL_URL"
}

# Makes sure the PostgreSQL that FerretDB uses answers and has its database; sets PG_URL.
ensure_postgres() {
  local url host port err db
  url="$(pg_url)"
  host_port "$url" 5432
  host="$HOST"
  port="$PORT"
  PG_STARTED=""
  if ! tcp_answers "$host" "$port"; then
    is_local "$host" || die "PostgreSQL at $host:$port (FERRETDB_POSTGRESQL_URL) does not answer"
    start_local_postgres "$port"
    wait_until "$READY_TIMEOUT" "" tcp_answers "$host" "$port" ||
      die "PostgreSQL did not answer on $host:$port within $READY_TIMEOUT s"
  fi
  command -v psql >/dev/null || apt_install postgresql-client ||
    die "psql is missing: run \`sudo apt-get install -y postgresql-client\`"
  # readiness: accepting TCP is not accepting queries yet
  local i
  for i in $(seq $((READY_TIMEOUT * 5))); do
    err="$(psql "$url" -XAtqc 'select 1' 2>&1 >/dev/null)" && break
    [[ $err == *"does not exist"* || $err == *authentication* || $err == *password* || $err == *"no pg_hba"* ]] && break
    sleep 0.2
  done
  if [[ -n $err ]]; then
    db="${url%%\?*}"
    db="${db##*/}"
    if [[ $err == *"database \"$db\" does not exist"* ]] &&
      psql "$(pg_url_db "$url" postgres)" -XAtqc "create database \"$db\"" >/dev/null 2>&1; then
      say "mongo: created PostgreSQL database $db for FerretDB"
      err=""
    elif is_local "$host" && [[ -z ${FERRETDB_POSTGRESQL_URL:-} ]] && as_postgres true 2>/dev/null; then
      # Default Debian authentication (scram on TCP, peer on the socket): create a role with a
      # password and a database of its own, and remember the URL.
      local role=oms_ferretdb pass
      pass="$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 20)"
      as_postgres psql -p "$port" -XAtqc "do \$\$ begin if not exists (select from pg_roles where rolname = '$role') then create role $role login; end if; end \$\$; alter role $role password '$pass'" >/dev/null ||
        die "could not create PostgreSQL role $role for FerretDB"
      if [[ -z $(as_postgres psql -p "$port" -XAtqc "select 1 from pg_database where datname = '$role'") ]]; then
        as_postgres createdb -p "$port" -O "$role" "$role" || die "could not create PostgreSQL database $role"
      fi
      url="postgres://$role:$pass@$host:$port/$role"
      psql "$url" -XAtqc 'select 1' >/dev/null || die "cannot connect to PostgreSQL as $role"
      (umask 077 && echo "$url" >"$FERRETDB_PGURL_FILE")
      say "mongo: created PostgreSQL role and database $role for FerretDB"
      err=""
    fi
  fi
  [[ -z $err ]] || die "FerretDB cannot use PostgreSQL at $(show_url "$url"): $err (set FERRETDB_POSTGRESQL_URL)"
  PG_URL="$url"
}

# --- FerretDB binary ------------------------------------------------------------------------------

# A usable build prints its version (builds without build/version/version.txt panic at start).
ferretdb_ok() { [[ -x $1 ]] && "$1" --version >/dev/null 2>&1; }

find_go() {
  command -v go 2>/dev/null && return 0
  [[ -x /usr/local/go/bin/go ]] && { echo /usr/local/go/bin/go; return 0; }
  return 1
}

build_ferretdb() {
  local go tmp log="$CACHE/ferretdb-build.log" dir
  go="$(find_go)" ||
    die "Go (1.24 or later) is needed once to build FerretDB $FERRETDB_VERSION: install it from https://go.dev/dl/ into /usr/local/go, or set MONGO_URL to a running MongoDB"
  mkdir -p "$CACHE/bin"
  exec 8>"$CACHE/ferretdb-build.lock"
  flock 8
  ferretdb_ok "$FERRETDB_BIN" && { exec 8>&-; return 0; }
  say "mongo: building FerretDB $FERRETDB_BUILD with $("$go" env GOVERSION) (once; a few minutes; log $log)"
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/oms-ferretdb.XXXXXX")"
  : >"$log"
  # DESIGN.md's recipe is `go install ...@v1.24.2`; here the module is fetched with go get (go
  # install fails where the proxy refuses the @v/list lookup, and its build panics anyway: the
  # module zip lacks build/version/version.txt), copied, given version.txt and the patch, and
  # built.
  if ! (
    cd "$tmp" &&
      export CGO_ENABLED=0 GOFLAGS=-buildvcs=false &&
      "$go" mod init oms-ferretdb-build &&
      "$go" get "$FERRETDB_MODULE/cmd/ferretdb@$FERRETDB_VERSION" &&
      dir="$("$go" list -m -f '{{.Dir}}' "$FERRETDB_MODULE")" &&
      cp -R "$dir" src &&
      chmod -R u+w src &&
      echo "$FERRETDB_VERSION" >src/build/version/version.txt &&
      cd src &&
      for p in "${FERRETDB_PATCH_FILES[@]}"; do
        { git apply -p1 "$p" 2>/dev/null || patch -p1 --forward <"$p"; } || exit 1
      done &&
      grep -q lockForFilter internal/handler/msg_update.go &&
      grep -q omsBuild internal/backends/postgresql/collection.go &&
      grep -q omsUnmarshal internal/handler/sjson/sjson.go &&
      "$go" build -trimpath -o "$CACHE/bin/.ferretdb.new" ./cmd/ferretdb
  ) >>"$log" 2>&1; then
    chmod -R u+w "$tmp" 2>/dev/null || true
    rm -rf "$tmp"
    log_tail "$log"
    die "building FerretDB $FERRETDB_BUILD failed (log $log); it needs Go 1.24+, the Go module proxy and git (or patch), or set MONGO_URL to a running MongoDB"
  fi
  chmod -R u+w "$tmp" 2>/dev/null || true
  rm -rf "$tmp"
  ferretdb_ok "$CACHE/bin/.ferretdb.new" || die "the FerretDB build does not run (log $log)"
  mv -f "$CACHE/bin/.ferretdb.new" "$FERRETDB_BIN"
  # Earlier builds (a running one keeps its file open until it is replaced).
  find "$CACHE/bin" -maxdepth 1 -name 'ferretdb*' ! -name "$(basename "$FERRETDB_BIN")" -delete 2>/dev/null || true
  exec 8>&-
  say "mongo: built $FERRETDB_BIN ($("$FERRETDB_BIN" --version 2>/dev/null | head -n 1))"
}

up_mongo() {
  local addr port
  host_port "$MONGO_URL" 27017
  addr="$(bind_addr "$HOST")"
  port="$PORT"
  if ! ferretdb_ok "$FERRETDB_BIN"; then
    build_ferretdb
  fi
  ensure_postgres
  mkdir -p "$CACHE/ferretdb-state"
  # FerretDB 1.x deadlocks (every request hangs, PostgreSQL idle) when a request that changes
  # metadata (a new database, collection or index) cannot get a PostgreSQL connection while
  # the others hold theirs: its pool must stay well below PostgreSQL's max_connections (100 by
  # default, shared with anything else using that server). FERRETDB_PG_POOL sizes the pool;
  # the services' own pools (MONGO_POOL_SIZE) keep the concurrent requests below it.
  local pg_url="$PG_URL"
  [[ $pg_url == *pool_max_conns=* ]] || pg_url="$pg_url$([[ $pg_url == *\?* ]] && echo '&' || echo '?')pool_max_conns=${FERRETDB_PG_POOL:-40}"
  # Queries that no index serves still scan their tables; on a small machine a parallel scan's
  # worker start-up costs more than the scan (a two-field lookup among 5,000 products: 35 ms
  # parallel, 5 ms not). pgx sends unknown URL parameters as settings.
  [[ $pg_url == *max_parallel_workers_per_gather=* ]] || pg_url="$pg_url&max_parallel_workers_per_gather=${FERRETDB_PG_PARALLEL_WORKERS:-0}"
  # FerretDB's statements are prepared once per connection; PostgreSQL then plans each run anew
  # (its default chooses between a plan per run and one reused plan by their estimated costs).
  # FERRETDB_PG_PLAN_CACHE_MODE sets its plan_cache_mode (auto, force_generic_plan, force_custom_plan).
  [[ $pg_url == *plan_cache_mode=* ]] || pg_url="$pg_url&plan_cache_mode=${FERRETDB_PG_PLAN_CACHE_MODE:-auto}"
  # A commit is acknowledged before its WAL reaches the disk, as MongoDB acknowledges a write
  # (w: 1) before its journal's next flush: a crash of this machine may lose the last moments of
  # writes, never make a document half-written, and updates stop waiting on a disk flush each
  # (an updateOne by index: 2.5 ms to 0.9 ms here). FERRETDB_PG_SYNCHRONOUS_COMMIT=on waits.
  [[ $pg_url == *synchronous_commit=* ]] || pg_url="$pg_url&synchronous_commit=${FERRETDB_PG_SYNCHRONOUS_COMMIT:-off}"
  # A document over about 2 KB (an opportunity with its rationale and the notice's copy: 5.6 KB
  # of JSON) is stored compressed, and every jsonb field a query reads (filter, sort key, index
  # recheck) decompresses the whole document again: with PostgreSQL's default pglz, a list of 28
  # opportunities took 2-3 ms in PostgreSQL. lz4 decompresses several times faster and compresses
  # as well. FERRETDB_PG_TOAST_COMPRESSION=pglz keeps the default (a PostgreSQL built without lz4).
  [[ $pg_url == *default_toast_compression=* ]] || pg_url="$pg_url&default_toast_compression=${FERRETDB_PG_TOAST_COMPRESSION:-lz4}"
  # pgx asks for TLS by default (sslmode=prefer), and Debian's PostgreSQL grants it: on a
  # connection to this machine that only costs CPU (a tenth of FerretDB's time in an indexed
  # lookup). A URL that sets sslmode, or a PostgreSQL elsewhere, keeps its choice.
  host_port "$PG_URL" 5432
  if is_local "$HOST" && [[ $pg_url != *sslmode=* ]]; then pg_url="$pg_url&sslmode=disable"; fi
  spawn mongo "$FERRETDB_BIN" \
    --handler=postgresql \
    --postgresql-url="$pg_url" \
    --listen-addr="$addr:$port" \
    --debug-addr=- \
    --telemetry=disable \
    --state-dir="$CACHE/ferretdb-state" \
    --log-level=warn ||
    die "could not start FerretDB (log $(log_file mongo))"
  STARTED+=(mongo)
  if ! ready "$SPAWNED_PID" tcp_answers "$addr" "$port"; then
    log_tail "$(log_file mongo)"
    die "FerretDB did not answer on $addr:$port within $READY_TIMEOUT s"
  fi
  say "mongo: started FerretDB $FERRETDB_BUILD on $addr:$port over PostgreSQL $(show_url "$PG_URL")${PG_STARTED:+ ($PG_STARTED started)}, pid $SPAWNED_PID, log $(log_file mongo)"
}

stop_postgres() {
  local f="$CACHE/postgres.started" ver cluster
  [[ -s $f ]] || return 0
  read -r ver cluster <"$f"
  if as_root pg_ctlcluster --skip-systemctl-redirect "$ver" "$cluster" stop >&2; then
    say "postgres: stopped PostgreSQL cluster $ver/$cluster"
  else
    say "postgres: could not stop PostgreSQL cluster $ver/$cluster"
  fi
  rm -f "$f"
}

# ---------------------------------------------------------------------------------------------
# Rollback of a failed `up`

take_lock() {
  command -v flock >/dev/null || return 0
  exec 9>"$CACHE/services.lock"
  flock -w 900 9 || die "another scripts/services.sh holds $CACHE/services.lock"
}

ROLLBACK=0
rollback() {
  local i item
  for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do
    item="${STARTED[$i]}"
    case "$item" in
      docker:*) ;;
      postgres) stop_postgres ;;
      *) stop_pid "$item" ;;
    esac
  done
  local docker_items=()
  for item in "${STARTED[@]}"; do
    [[ $item == docker:* ]] && docker_items+=("${item#docker:}")
  done
  if ((${#docker_items[@]})); then
    compose stop "${docker_items[@]}" >&2 || true
    rm -f "$CACHE/docker-services"
  fi
}

on_exit() {
  local rc=$?
  if ((rc != 0 && ROLLBACK)) && ((${#STARTED[@]})); then
    say "stopping what this run started: ${STARTED[*]}"
    rollback
  fi
  exit "$rc"
}
trap on_exit EXIT

# ---------------------------------------------------------------------------------------------

describe_found() {
  local s="$1" pid
  [[ ${OMS_SERVICES_QUIET:-} == 1 ]] && return 0
  if pid="$(our_pid "$s")"; then
    say "$s: $(show_url "${URL[$s]}") answers (${PROGRAM[$s]} started earlier by this script, pid $pid)"
  else
    say "$s: $(show_url "${URL[$s]}") answers"
  fi
}

# stale_ferretdb: the FerretDB this script started earlier runs another build than FERRETDB_BIN
# (one without the current patch), or without the PostgreSQL settings up_mongo now gives it.
stale_ferretdb() {
  local pid exe
  pid="$(our_pid mongo)" || return 1
  exe="$(readlink "/proc/$pid/exe" 2>/dev/null || true)"
  [[ -n $exe && ${exe% (deleted)} != "$FERRETDB_BIN" ]] && return 0
  [[ -r /proc/$pid/cmdline ]] && ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 'plan_cache_mode='
}

cmd_up() {
  local s missing=()
  if stale_ferretdb; then
    mkdir -p "$CACHE"
    take_lock
    say "mongo: the FerretDB started earlier by this script is not build $FERRETDB_BUILD with the current settings: replacing it"
    stop_pid mongo
  fi
  for s in "${SERVICES[@]}"; do
    answers "$s" || missing+=("$s")
  done
  if ((${#missing[@]} == 0)); then
    for s in "${SERVICES[@]}"; do describe_found "$s"; done
    return 0
  fi

  mkdir -p "$CACHE"
  take_lock
  ROLLBACK=1
  missing=()
  for s in "${SERVICES[@]}"; do
    if answers "$s"; then
      describe_found "$s"
    else
      host_port "${URL[$s]}" "${DEFAULT_PORT[$s]}"
      is_local "$HOST" ||
        die "$s: $(show_url "${URL[$s]}") does not answer, and it is not on this machine, so nothing can be started for it (start it, or unset the URL to use a local one)"
      missing+=("$s")
    fi
  done
  ((${#missing[@]})) || return 0

  if docker_usable; then
    up_docker "${missing[@]}"
  else
    for s in "${missing[@]}"; do
      "up_$s"
    done
  fi
  ROLLBACK=0
}

cmd_down() {
  mkdir -p "$CACHE"
  take_lock
  local s any=0
  for s in mongo redis nats; do
    if our_pid "$s" >/dev/null; then
      stop_pid "$s"
      any=1
    fi
  done
  [[ -s $CACHE/postgres.started ]] && { stop_postgres; any=1; }
  [[ -s $CACHE/docker-services ]] && { down_docker; any=1; }
  ((any)) || say "nothing started by this script is running"
}

cmd_status() {
  local s state who pid rc=0
  for s in "${SERVICES[@]}"; do
    if answers "$s"; then state="answers"; else state="DOWN"; rc=3; fi
    if pid="$(our_pid "$s")"; then
      who="${PROGRAM[$s]}, started by this script, pid $pid, log $(log_file "$s")"
    elif [[ -s $CACHE/docker-services ]] && grep -qx "$s" "$CACHE/docker-services"; then
      who="docker compose service $s, started by this script"
    else
      who="not started by this script"
    fi
    printf '%-6s %-34s %-8s (%s)\n' "$s" "$(show_url "${URL[$s]}")" "$state" "$who"
  done
  return "$rc"
}

case "${1:-up}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  -h | --help | help) sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' ;;
  *) die "unknown command '$1' (use up, down or status)" ;;
esac
