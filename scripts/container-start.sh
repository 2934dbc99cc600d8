#!/usr/bin/env bash
# Starts Crewline as built by scripts/container-build.sh: the image's entry point (Dockerfile), also run
# on the bare machine by CI (apps/server/src/container-scripts.process.test.ts).
#
#   container-start.sh            the server, in the role ROLE names (api, worker or all; default all)
#   container-start.sh migrate    apply the pending database migrations, then exit (the Helm chart's
#                                 migration Job). Every server process also applies them when it starts,
#                                 under an advisory lock, so this only takes them out of the start-up path.
#   container-start.sh health     exit 0 when this container is healthy (the image's HEALTHCHECK): for
#                                 ROLE=api or all, GET /api/health answers 200; for ROLE=worker, this
#                                 host's worker wrote its heartbeat to the database within 45 s.
#
# DATABASE_WAIT_SECONDS=N (the image sets 60) first waits up to N seconds for DATABASE_URL to accept a
# connection, so a container started beside its database does not fail while PostgreSQL starts.
# Every other setting is the server's own (README, Configuration).
set -euo pipefail
cd "$(dirname "$0")/.."

command=${1:-serve}
case "$command" in
  serve | migrate) ;;
  health) exec node scripts/container-probe.mjs health ;;
  *)
    echo "container-start: unknown command '$command' (serve, migrate or health)" >&2
    exit 2
    ;;
esac

# Node 24 (22.22 at least) runs the server; the image's base provides it, CI puts the project's first
# on PATH. (The health check above runs every 30 s and needs no more than fetch, so it skips this.)
version=$(node -p 'process.versions.node.split(".").map(Number).reduce((a, n, i) => a + n * [1e6, 1e3, 1][i], 0)')
if [ "$version" -lt 22022000 ]; then
  echo "container-start: Crewline needs Node 22.22 or later; this is Node $(node --version)" >&2
  exit 1
fi

if [ -n "${DATABASE_URL:-}" ] && [ "${DATABASE_WAIT_SECONDS:-0}" != 0 ]; then
  node scripts/container-probe.mjs wait
fi

if [ "$command" = migrate ]; then
  [ -n "${DATABASE_URL:-}" ] || {
    echo "container-start: migrate needs DATABASE_URL (the embedded database migrates as the server starts)" >&2
    exit 2
  }
  exec node --import tsx scripts/container-migrate.ts
fi
# exec: the server is the container's main process, so docker stop's and Kubernetes' SIGTERM reach it
# and it shuts down gracefully (the same flags as `npm start`, docs/decisions/0008-node-24-from-npm.md).
echo "container-start: starting Crewline with ROLE=${ROLE:-all} on Node $(node --version)"
exec node --max-semi-space-size=8 --import tsx apps/server/src/main.ts
