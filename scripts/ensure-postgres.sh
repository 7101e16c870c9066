#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1:5432 (team-mode tests), starting the
# machine's cluster when it is installed but stopped. Exit 0 when a server answers.
set -uo pipefail
ready() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
command -v pg_isready >/dev/null || { echo "ensure-postgres: pg_isready not installed"; exit 1; }
ready && { echo "ensure-postgres: PostgreSQL is up"; exit 0; }
if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
  for version in $(ls /etc/postgresql); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  done
fi
for _ in $(seq 1 30); do ready && { echo "ensure-postgres: PostgreSQL started"; exit 0; }; sleep 1; done
echo "ensure-postgres: no PostgreSQL server on 127.0.0.1:5432"
exit 1
