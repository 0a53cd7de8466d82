#!/usr/bin/env bash
# Regression test: does the current build beat ugine at <git-ref>?
#
#   scripts/regression.sh <git-ref> <game> [extra `ugine match` flags…]
#
# Builds ugine at <git-ref> in a temporary git worktree, builds the current tree, and runs
# an SPRT match of the current build ("new") against it ("base") on generated openings.
# Prints the match summary and the verdict. Exit status: 0 when H1 is accepted (pass),
# 1 when H0 is accepted (fail), 2 without a decision or on error.
#
# Settings (environment variables, with defaults):
#   LIMIT="--tc 5+0.05"          time control flags of `ugine match`
#   SPRT="elo0=0 elo1=10 alpha=0.05 beta=0.05"
#   ROUNDS=5000                  maximum opening pairs
#   OPENINGS=500                 openings generated (`ugine genfens <game> N`)
#   CONCURRENCY=$(nproc)         games at once
#   SEED=1                       seed of the openings and their order
#   BOOK=                        an opening file to play instead of generated openings
#                                (e.g. Mabula's from `ugine genfens mabula 500
#                                --balanced-by-play`, which takes long to make)
#   RECORDS=                     a game-record file to keep (default: a temporary one,
#                                deleted at the end); if it holds games of this match,
#                                the match continues after them (`--resume`)
# Extra flags are passed to `ugine match` (e.g. --option 'Morris Rules=standard').
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
ref=$1
game=$2
shift 2

LIMIT=${LIMIT:---tc 5+0.05}
SPRT=${SPRT:-elo0=0 elo1=10 alpha=0.05 beta=0.05}
ROUNDS=${ROUNDS:-5000}
OPENINGS=${OPENINGS:-500}
CONCURRENCY=${CONCURRENCY:-$(nproc)}
SEED=${SEED:-1}

root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ugine-regression.XXXXXX")
cleanup() {
    git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT

echo "building base ($ref) in $tmp/base" >&2
git -C "$root" worktree add --detach "$tmp/base" "$ref" >/dev/null 2>&1 ||
    { echo "cannot check out '$ref'" >&2; exit 2; }
# The base gets its own target directory (kept under target/ so its dependencies are
# compiled once for all runs): sharing the working tree's would mix the two builds.
base_target="$root/target/regression-base"
(cd "$tmp/base" && CARGO_TARGET_DIR="$base_target" cargo build --release --quiet --bin ugine) ||
    { echo "cannot build '$ref'" >&2; exit 2; }
cp "$base_target/release/ugine" "$tmp/ugine-base"
echo "building new (working tree)" >&2
(cd "$root" && cargo build --release --quiet --bin ugine) || { echo "cannot build the working tree" >&2; exit 2; }
cp "$root/target/release/ugine" "$tmp/ugine-new"

if [ -n "${BOOK:-}" ]; then
    cp "$BOOK" "$tmp/openings.txt" || { echo "cannot read the book '$BOOK'" >&2; exit 2; }
else
    "$tmp/ugine-new" genfens "$game" "$OPENINGS" --seed "$SEED" -o "$tmp/openings.txt"
fi
records=$tmp/games.ugr
resume=()
if [ -n "${RECORDS:-}" ]; then
    records=$RECORDS
    resume=(--resume)
fi
# shellcheck disable=SC2086 # LIMIT and SPRT are lists of words on purpose.
"$tmp/ugine-new" match --game "$game" \
    --engine "name=new cmd=$tmp/ugine-new" --engine "name=base cmd=$tmp/ugine-base" \
    --openings "$tmp/openings.txt" --order random --seed "$SEED" --rounds "$ROUNDS" \
    --concurrency "$CONCURRENCY" --records "$records" "${resume[@]}" $LIMIT --sprt $SPRT "$@" \
    | tee "$tmp/summary.txt" || { echo "the match failed" >&2; exit 2; }

if grep -q '^SPRT: H1 accepted' "$tmp/summary.txt"; then
    echo "verdict: PASS (H1 accepted: new is at least elo1 stronger)"
    exit 0
elif grep -q '^SPRT: H0 accepted' "$tmp/summary.txt"; then
    echo "verdict: FAIL (H0 accepted)"
    exit 1
else
    echo "verdict: no decision after $ROUNDS pairs"
    exit 2
fi
