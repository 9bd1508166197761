#!/usr/bin/env bash
# Run a command against PostgreSQL: a throwaway PostgreSQL 15 server started as the postgres
# user on a unix socket in a temporary folder, stopped and removed afterwards even on failure.
# When DATABASE_URL is already set, that server is used instead.
set -euo pipefail

if [ -n "${DATABASE_URL:-}" ]; then
  exec "$@"
fi

PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ ! -x "$PGBIN/initdb" ]; then
  echo "ERROR: PostgreSQL server binaries not found (install Debian's postgresql-15)." >&2
  exit 1
fi
run_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

workdir=$(mktemp -d /tmp/leidraad-pg.XXXXXX)
chmod 755 "$workdir"
[ "$(id -u)" = 0 ] && chown postgres "$workdir"
cleanup() {
  run_pg "$PGBIN/pg_ctl" -D "$workdir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$workdir"
}
trap cleanup EXIT INT TERM

run_pg "$PGBIN/initdb" -D "$workdir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
run_pg "$PGBIN/pg_ctl" -D "$workdir/data" -l "$workdir/server.log" -w \
  -o "-k $workdir -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
run_pg "$PGBIN/createdb" -h "$workdir" -U postgres leidraad
echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') running on socket $workdir"

export DATABASE_URL="postgres://postgres@/leidraad?host=$workdir"
"$@"
