#!/usr/bin/env bash
# Peak memory of one MCP server asked to parse many malformed files at
# once (sweep 13, P1): sixteen pipelined `symbols` calls, each on its own
# 1 MB `X<X<…int>…> x;` C++ file, which tree-sitter's error recovery
# parses up to its deadline or memory bound. Prints each binary's wall
# time and peak resident memory (GNU time), and checks a `ping` sent
# after the sixteen is answered first (the server's thread stays free).
#
#   benches/mcp_parse_memory.sh [BIN [OLD_BIN]]
#
# BIN defaults to target/release/ctxcurate (built first when missing).
# Measured on two cores: 1,250 MB and 8.9 s (ctx-s10) -> 760 MB and
# 19.3 s (one parse per core at a time; each now runs to its own bound).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-$PWD/target/release/ctxcurate}
old=${2:-}
[ -x "$bin" ] || cargo build --release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/p" "$work/home"
python3 - "$work/p" <<'PY'
import sys
n = 340000
for i in range(16):
    with open(f"{sys.argv[1]}/t{i}.cpp", "w") as f:
        f.write("X<" * n + "int" + ">" * n + " x;\n")
PY
printf '[presets.default]\n' > "$work/p/ctxcurate.toml"
cat > "$work/drive.py" <<'PY'
import json, subprocess, sys, time
server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(o):
    server.stdin.write((json.dumps(o) + "\n").encode()); server.stdin.flush()
send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
server.stdout.readline()
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
for i in range(16):
    send({"jsonrpc": "2.0", "id": 100 + i, "method": "tools/call",
          "params": {"name": "symbols", "arguments": {"path": f"t{i}.cpp"}}})
send({"jsonrpc": "2.0", "id": 999, "method": "ping"})
order = []
while len(order) < 17:
    line = server.stdout.readline()
    if not line:
        sys.exit("the server ended early")
    reply = json.loads(line)
    if "id" in reply:
        order.append(reply["id"])
server.stdin.close(); server.wait()
print("ping answered first" if order[0] == 999 else f"ping answered as reply {order.index(999) + 1} of 17")
PY
run() {
  (cd "$work/p" && HOME="$work/home" XDG_CONFIG_HOME="$work/home/cfg" XDG_STATE_HOME="$work/home/state" \
    XDG_CACHE_HOME="$work/home/cache" /usr/bin/time -f "$1: wall %e s" \
    python3 "$work/drive.py" /usr/bin/time -f "$1 server: peak %M KB" "$1" mcp)
}
run "$bin"
[ -z "$old" ] || run "$old"
