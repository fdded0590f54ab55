# Sourced by scripts/test.sh. start_private_postgres starts a throwaway PostgreSQL cluster in a
# temporary directory on a free local port (trust authentication, reachable only on 127.0.0.1 and
# a socket in that directory), sets TEST_DATABASE_URL to it and registers its stop and removal at
# exit. It never touches the host's clusters, roles or passwords. initdb refuses to run as root,
# so as root the cluster belongs to the unprivileged `postgres` account (Debian's package makes
# it); without one it gives up and the caller falls back to PGlite.

PRIVATE_PG_DIR=""
PRIVATE_PG_AS=()

stop_private_postgres() {
  [ -n "$PRIVATE_PG_DIR" ] || return 0
  "${PRIVATE_PG_AS[@]}" "$PRIVATE_PG_BIN/pg_ctl" -D "$PRIVATE_PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PRIVATE_PG_DIR"
  PRIVATE_PG_DIR=""
}

start_private_postgres() {
  local initdb port
  initdb="$(command -v initdb || ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n1)"
  [ -x "$initdb" ] || { echo "no initdb found" >&2; return 1; }
  PRIVATE_PG_BIN="$(dirname "$initdb")"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 && command -v runuser >/dev/null || { echo "running as root without a postgres account" >&2; return 1; }
    PRIVATE_PG_AS=(runuser -u postgres --)
  fi
  port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
  PRIVATE_PG_DIR="$(mktemp -d -t cxr-test-pg-XXXXXX)"
  trap stop_private_postgres EXIT
  [ "$(id -u)" = 0 ] && chown postgres: "$PRIVATE_PG_DIR"
  "${PRIVATE_PG_AS[@]}" "$initdb" -D "$PRIVATE_PG_DIR/data" -U postgres -A trust -E UTF8 --no-locale >"$PRIVATE_PG_DIR/initdb.log" 2>&1 \
    || { cat "$PRIVATE_PG_DIR/initdb.log" >&2; stop_private_postgres; return 1; }
  "${PRIVATE_PG_AS[@]}" "$PRIVATE_PG_BIN/pg_ctl" -D "$PRIVATE_PG_DIR/data" -l "$PRIVATE_PG_DIR/server.log" -w \
    -o "-p $port -k $PRIVATE_PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
    || { cat "$PRIVATE_PG_DIR/server.log" >&2; stop_private_postgres; return 1; }
  TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "Started a private PostgreSQL cluster on 127.0.0.1:$port ($PRIVATE_PG_DIR), stopped at exit"
}
