#!/usr/bin/env bash
# Judge ugine's Mabula moves against exact values: how often the move it plays keeps the
# position's game-theoretic value (the move is one of those the solver says keep it).
#
#   scripts/judge.sh [extra "Name=Value" options…]
#
# Settings (environment variables, with defaults):
#   ENGINE=target/release/ugine       the engine (any UGI engine that plays Mabula)
#   MOVETIME=100                      milliseconds per move
#   YARDSTICK=tests/data/mabula-yardstick.txt
# Each option is sent as `setoption name <Name> value <Value>` (e.g. "EvalFile=net.nnue").
# Prints one line per position (border marbles, value, move played, kept or lost), then
# per border-marble count and in all: kept / positions. Exit status 0, or 2 on error.
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
ENGINE=${ENGINE:-$root/target/release/ugine}
MOVETIME=${MOVETIME:-100}
YARDSTICK=${YARDSTICK:-$root/tests/data/mabula-yardstick.txt}
[ -x "$ENGINE" ] || { echo "no engine at $ENGINE (build it: cargo build --release)" >&2; exit 2; }
[ -r "$YARDSTICK" ] || { echo "cannot read $YARDSTICK" >&2; exit 2; }

coproc ENG { "$ENGINE"; }
send() { printf '%s\n' "$1" >&"${ENG[1]}"; }
# Reads engine lines until one starts with $1, into $reply (not in a subshell: the
# coprocess's descriptors are not open there). Stops on `info string error`.
await() {
    local line
    while IFS= read -r -t 30 line <&"${ENG[0]}"; do
        case $line in
            "info string error"*) echo "engine: $line" >&2; exit 2 ;;
            "$1"*) reply=$line; return 0 ;;
        esac
    done
    echo "no '$1' from the engine" >&2
    exit 2
}

send "ugi"
await "ugiok"
send "setoption name Game value mabula"
for o in "$@"; do
    send "setoption name ${o%%=*} value ${o#*=}"
done
send "isready"
await "readyok"

declare -A total kept
all=0 good=0
while IFS='|' read -r fen border value moves; do
    case $fen in '#'* | '') continue ;; esac
    fen=$(echo "$fen" | xargs) border=$(echo "$border" | xargs) value=$(echo "$value" | xargs)
    send "uginewgame"
    send "position fen $fen"
    send "go movetime $MOVETIME"
    await "bestmove"
    best=$(echo "$reply" | awk '{print $2}')
    verdict=lost
    for m in $moves; do
        if [ "$m" = "$best" ]; then verdict=kept; fi
    done
    total[$border]=$(( ${total[$border]:-0} + 1 ))
    all=$((all + 1))
    if [ $verdict = kept ]; then
        kept[$border]=$(( ${kept[$border]:-0} + 1 ))
        good=$((good + 1))
    fi
    echo "$border border, $value: $best $verdict"
done <"$YARDSTICK"
send "quit"

for b in $(printf '%s\n' "${!total[@]}" | sort -n); do
    echo "border $b: kept ${kept[$b]:-0} / ${total[$b]}"
done
echo "kept the exact value in $good / $all positions ($(( all ? 100 * good / all : 0 )) %) at $MOVETIME ms"
