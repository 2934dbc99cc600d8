#!/usr/bin/env bash
# Builds Crewline for a container into OUTPUT_DIR: the Dockerfile's build stage runs it, and so does CI
# on the bare machine (apps/server/src/container-scripts.process.test.ts), since images cannot be built
# there. OUTPUT_DIR then holds everything `scripts/container-start.sh` needs and nothing to build with:
# the server's and packages' TypeScript sources (run by tsx, a dependency of the server, as `npm start`
# runs them), the migrations, the built web app, and node_modules without devDependencies.
#
#   scripts/container-build.sh OUTPUT_DIR
#
# CREWLINE_BUILD_REUSE_NODE_MODULES=1 skips `npm ci` and takes the checkout's node_modules as they are
# (hard-linked into OUTPUT_DIR when it is on the same file system): CI's test builds in seconds instead
# of installing again. The web app is built only when apps/web/dist is not the build of the current
# sources (scripts/web-build.ts --if-stale), so a checkout that already built it does not build twice.
set -euo pipefail

die() {
  echo "container-build: $*" >&2
  exit 1
}

[ $# -eq 1 ] || die "usage: scripts/container-build.sh OUTPUT_DIR"
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
[ -z "$(ls -A "$out")" ] || die "$out is not empty"
case "$out/" in "$root"/*) die "OUTPUT_DIR must be outside the checkout ($root)" ;; esac
cd "$root"

if [ "${CREWLINE_BUILD_REUSE_NODE_MODULES:-}" = 1 ]; then
  [ -d node_modules/tsx ] || die "CREWLINE_BUILD_REUSE_NODE_MODULES=1, but node_modules is not installed"
  echo "container-build: reusing the installed node_modules"
else
  npm ci --no-audit --no-fund
fi

# npm scripts run on the Node 24 of the `node` devDependency; so does the web build here (on the bare
# machine the system's Node may be older than the build's TypeScript scripts need).
export PATH="$root/node_modules/.bin:$PATH"
node scripts/web-build.ts --if-stale

echo "container-build: copying the server into $out"
# What runs: the server's and packages' sources without their tests, the start scripts, and the web
# app as its build only: without apps/web/package.json the web app is no workspace there, so npm prune
# drops its packages too (React and the rest are in the build already). Tests, e2e, bench, docs stay.
copy() {
  tar -C "$root" --exclude='*.test.ts' --exclude='*.test.tsx' --exclude=node_modules -cf - "$@" |
    tar -C "$out" -xf -
}
copy package.json package-lock.json .npmrc tsconfig.base.json packages apps/server apps/web/dist \
  scripts/container-start.sh scripts/container-probe.mjs scripts/container-migrate.ts

# node_modules: all of them, then without the devDependencies. Hard links cost no copy; npm prune only
# unlinks what it drops, and npm's own record of the tree (which it rewrites) is copied, not linked.
[ ! -L node_modules ] || die "node_modules is a symbolic link: npm prune would empty what it points to"
for modules in node_modules apps/server/node_modules packages/*/node_modules; do
  [ -d "$modules" ] || continue
  mkdir -p "$out/$(dirname "$modules")"
  cp -al "$modules" "$out/$modules" 2>/dev/null || cp -a "$modules" "$out/$modules"
done
rm -f "$out/node_modules/.package-lock.json"
[ -f node_modules/.package-lock.json ] && cp node_modules/.package-lock.json "$out/node_modules/"
(cd "$out" && npm prune --omit=dev --offline --ignore-scripts --no-audit --no-fund)

# The image brings its own Node: the `node` devDependency is gone, and the server must still start.
[ ! -e "$out/node_modules/.bin/node" ] || die "the node devDependency survived the prune"
[ -d "$out/node_modules/tsx" ] || die "tsx is missing after the prune (it must be a dependency of the server)"
echo "container-build: done ($(du -sh "$out" | cut -f1) in $out)"
