#!/usr/bin/env bash
# The strength table of the README, reproducible with one command:
#
#   scripts/strength.sh [game…]          (default: every game)
#
# Builds the working tree, then per game plays three matches on generated openings and
# prints one Markdown table row each: ugine against the built-in `random` mover, against
# the built-in `uct` (plain MCTS) at the same time per move, and ugine at double time
# against itself at single time. W-L-D and Elo ± 95% are from ugine's (or double time's)
# side, as `ugine match` prints them.
#
# Settings (environment variables, with defaults):
#   MOVETIME=200                 milliseconds per move (double time: twice that)
#   ROUNDS=50                    opening pairs per match (each pair: 2 games)
#   CONCURRENCY=1                games at once
#   MARGIN=1s                    grace over the move time before a loss on time
#   SEED=1                       seed of the openings
set -euo pipefail

MOVETIME=${MOVETIME:-200}
ROUNDS=${ROUNDS:-50}
CONCURRENCY=${CONCURRENCY:-1}
MARGIN=${MARGIN:-1s}
SEED=${SEED:-1}
# ugine's default `Move Overhead` (ms).
DEFAULT_OVERHEAD=30
games=("$@")
if [ ${#games[@]} -eq 0 ]; then
    games=(morris moebius-chess mobius mabula morpiae)
fi

root=$(git rev-parse --show-toplevel)
(cd "$root" && cargo build --release --locked --quiet --bin ugine)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ugine-strength.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
U="$tmp/ugine"
cp "$root/target/release/ugine" "$U"

# One match; prints "W-L-D | Elo ± e" from the summary of its first engine.
play() {
    local game=$1 movetime=$2 first=$3 second=$4
    "$U" match --game "$game" --engine "$first" --engine "$second" \
        --openings "$tmp/$game.txt" --order random --seed "$SEED" --rounds "$ROUNDS" \
        --movetime "${movetime}ms" --margin "$MARGIN" --concurrency "$CONCURRENCY" --quiet \
        >"$tmp/summary.txt"
    local wld elo
    wld=$(grep -o 'W-L-D [0-9]*-[0-9]*-[0-9]*' "$tmp/summary.txt" | head -1 | cut -d' ' -f2)
    elo=$(grep -o 'Elo [-+][0-9.]* ± [0-9.]*' "$tmp/summary.txt" | head -1 | cut -d' ' -f2-)
    echo "$wld | $elo"
}

echo "| game | opponent | W-L-D | Elo ± 95% |"
echo "|---|---|---|---|"
for game in "${games[@]}"; do
    "$U" genfens "$game" "$ROUNDS" --seed "$SEED" -o "$tmp/$game.txt"
    echo "| $game | random, ${MOVETIME} ms/move | $(play "$game" "$MOVETIME" "name=ugine cmd=$U" name=random) |"
    echo "| $game | uct, ${MOVETIME} ms/move each | $(play "$game" "$MOVETIME" "name=ugine cmd=$U" name=uct) |"
    # Double time: the match gives every move 2·MOVETIME; the single-time engine spends
    # MOVETIME of it as extra `Move Overhead` (on top of the default, which both keep).
    single=$((MOVETIME + DEFAULT_OVERHEAD))
    echo "| $game | itself: $((2 * MOVETIME)) vs ${MOVETIME} ms/move | $(play "$game" $((2 * MOVETIME)) "name=double cmd=$U" "name=single cmd=$U 'option.Move Overhead=$single'") |"
done
