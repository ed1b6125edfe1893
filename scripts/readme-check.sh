#!/usr/bin/env bash
# Runs README.md's commands as written, one fenced block after another, in a fresh clone with a HOME of its own:
# npm ci, npm start (in the background, until it answers), the operator CLI (the ids it prints put where README
# says), curl, the client package built, packed and installed, and the TypeScript program run with Node. The test
# block is left out: it is `npm test` itself. Node 22.18+ must be first on PATH (the checkout's pinned Node is put
# there when the system's is older). Prints each command; exits non-zero on the first that fails.
set -euo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
export HOME="$work/home"
mkdir -p "$HOME"
git clone --quiet --no-local "$repository" "$work/svc"
cd "$work/svc"

# The fenced blocks of README.md, in order: block-1.sh, block-2.sh, … and block-N.ts.
awk -v dir="$work" '/^```(sh|ts)$/ { n++; file = dir "/block-" n "." substr($0, 4); next } /^```$/ { file = ""; next } file { print > file }' README.md

run() { echo "+ $*"; bash -euo pipefail -c "$*"; }

run "$(cat "$work/block-1.sh" | grep -v '^npm start$')"
PATH="$work/svc/node_modules/.bin:$PATH"
# In a process group of its own, so that stopping it stops the Bun server npm started too.
setsid npm start >"$work/server.log" 2>&1 &
server=$!
trap 'kill -- -$server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do curl -fs http://127.0.0.1:8787/api/v1/templates >/dev/null && break; sleep 0.2; done

mapfile -t cli <"$work/block-2.sh"
account="$(bash -c "${cli[0]}" | grep -oE 'acct_[0-9a-z]+' | head -1)"
key="$(bash -c "${cli[1]/<the account id printed above>/$account}" | grep -oE 'svc_(live|test)_[A-Za-z0-9_-]+' | head -1)"
eval "${cli[2]/<the key printed above>/$key}"
echo "+ account $account, key ${key:0:12}…"

run "$(cat "$work/block-3.sh")"
test "$(head -c 5 preview.pdf)" = '%PDF-'
run "$(cat "$work/block-4.sh")"
cp "$work/block-5.ts" "$HOME/first/first.mts"
(cd "$HOME/first" && echo '+ node first.mts' && node first.mts)
test -s "$HOME/first/invoice-1-preview.pdf"
echo "README's commands all ran."
