# Sourced by the tests that need a real PostgreSQL server: pg_start starts one from Debian's
# postgresql (initdb in a temp directory, loopback only, trust auth for its own user) and sets
# PG_URL; pg_stop stops it. Run as root (as in CI), the server runs as `nobody`: PostgreSQL refuses
# to run as root. The database is SQL_ASCII, so it keeps any byte as SQLite does.
# Needs WORK (a temp directory) set by the caller.
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1)
PG_URL=""
pg_available() { [ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ]; }
pg_as() {  # pg_as CMD...: as the server's user
  if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}
pg_start() {
  local dir=$WORK/pg port
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown nobody "$dir" && chmod 755 "$WORK"
  pg_as "$PG_BIN/initdb" -D "$dir/data" -U railyard --auth=trust -E SQL_ASCII --locale=C > "$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; return 1; }
  for _ in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 20000))
    if pg_as "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=50" start > /dev/null 2>&1; then
      PG_URL="postgresql://railyard@127.0.0.1:$port/railyard"
      pg_as "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U railyard railyard || return 1
      PG_PORT=$port
      export PG_BIN PG_PORT PG_URL
      export -f pg_as pg_psql  # for the checks that run in `bash -c`
      return 0
    fi
  done
  cat "$dir/server.log"
  return 1
}
pg_stop() { [ -n "$PG_URL" ] && pg_as "$PG_BIN/pg_ctl" -D "$WORK/pg/data" -m fast stop > /dev/null 2>&1; PG_URL=""; }
pg_psql() { pg_as "$PG_BIN/psql" -X -q -h 127.0.0.1 -p "$PG_PORT" -U railyard -d "${PG_DB:-railyard}" "$@"; }
