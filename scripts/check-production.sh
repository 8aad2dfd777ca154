#!/usr/bin/env bash
# A production install runs without dev dependencies: the built dist/, db/ and the start script,
# `npm ci --omit=dev`, then the start command; the page answers and a sign-up is stored.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/.build-stamp ] || { echo "check-production: build first (npm run build)"; exit 1; }
prod=$(mktemp -d)
trap 'if [ -n "${server:-}" ]; then kill "$server" 2>/dev/null || true; fi; rm -rf "$prod"' EXIT
cp -r package.json package-lock.json dist db scripts "$prod"/
cd "$prod"
npm ci --omit=dev --no-audit --no-fund >/dev/null
[ ! -d node_modules/vite ] || { echo "check-production: dev dependencies were installed"; exit 1; }
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
PORT=$port HOST=127.0.0.1 SQLITE_PATH="$prod/data/waitlist.db" npm start >"$prod/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
page=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/" || true)
signup=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d '{"email":"production-check@example.com"}' "http://127.0.0.1:$port/rest/v1/waitlist" || true)
if [ "$page" != 200 ] || [ "$signup" != 201 ]; then
  echo "check-production: page $page, sign-up $signup"; cat "$prod/server.log"; exit 1
fi
# A signal to npm (what Docker and process managers send) must stop the server too.
kill -TERM "$server"
wait "$server" || true
server=
if curl -s -o /dev/null "http://127.0.0.1:$port/healthz"; then
  echo "check-production: the server still answers after npm got SIGTERM"; exit 1
fi
echo "check-production: npm ci --omit=dev, npm start: page 200, sign-up 201; SIGTERM to npm stopped the server"
