#!/usr/bin/env bash
# Runs a `ugine match` on a Slurm cluster: one shard per task of a job array, then a
# job that merges the shards' records when the array has ended.
#
#   scripts/slurm-match.sh [-n SHARDS] [-d DIR] [-w] -- <ugine match flags…>
#
#   -n SHARDS   number of shards = array tasks (default 8)
#   -d DIR      shared record directory, visible from every node (default ./ugine-match)
#   -w          wait for the merge and print the merged summary (default: submit and exit)
#
# Each task runs `ugine match <flags> --shard K/SHARDS --record-dir DIR` (K is the task's
# SLURM_ARRAY_TASK_ID); with --sprt every shard stops once the games of all shards decide.
# The merge job writes DIR/summary.txt (`ugine merge DIR/shard-*-of-SHARDS.ugr`). Logs go
# to DIR/shard-K.log and DIR/merge.log; the job scripts are kept as DIR/*.sbatch.
# A task that is requeued or restarted resumes its own record file.
#
# Environment:
#   UGINE        the ugine binary, as seen from the nodes (default: `ugine` on PATH, else
#                ./target/release/ugine made absolute)
#   SBATCH_ARGS  extra sbatch options for the shard tasks, e.g.
#                "--partition=cpu --cpus-per-task=4 --time=12:00:00" (give
#                --cpus-per-task as many cores as the match's --concurrency)
set -euo pipefail

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

shards=8
dir=./ugine-match
wait=0
while getopts "n:d:wh" opt; do
    case $opt in
        n) shards=$OPTARG ;;
        d) dir=$OPTARG ;;
        w) wait=1 ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || usage
case $shards in '' | *[!0-9]* | 0) echo "-n needs a positive number" >&2; exit 2 ;; esac

if [ -z "${UGINE:-}" ]; then
    if command -v ugine >/dev/null; then
        UGINE=$(command -v ugine)
    else
        UGINE=$(realpath ./target/release/ugine)
    fi
fi
mkdir -p "$dir"
dir=$(realpath "$dir")

# The match flags, quoted for bash.
match_args=$(printf ' %q' "$@")
cat >"$dir/shard.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=ugine-shard
#SBATCH --array=1-$shards
#SBATCH --output=$dir/shard-%a.log
set -euo pipefail
k=\$SLURM_ARRAY_TASK_ID
resume=()
# A requeued task continues its own record file.
[ -s "$dir/shard-\$k-of-$shards.ugr" ] && resume=(--resume)
exec $(printf '%q' "$UGINE") match$match_args --shard "\$k/$shards" --record-dir $(printf '%q' "$dir") "\${resume[@]}"
EOF
cat >"$dir/merge.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=ugine-merge
#SBATCH --output=$dir/merge.log
set -euo pipefail
$(printf '%q' "$UGINE") merge $(printf '%q' "$dir")/shard-*-of-$shards.ugr >$(printf '%q' "$dir")/summary.txt
EOF

# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options on purpose.
array=$(sbatch --parsable ${SBATCH_ARGS:-} "$dir/shard.sbatch")
array=${array%%;*}
merge_opts=(--parsable --dependency="afterany:$array" --kill-on-invalid-dep=yes)
[ "$wait" = 1 ] && merge_opts+=(--wait)
echo "submitted: shards = array job $array (1-$shards), records in $dir" >&2
if [ "$wait" = 1 ]; then
    echo "waiting for the shards and the merge…" >&2
    sbatch "${merge_opts[@]}" "$dir/merge.sbatch" >/dev/null ||
        { echo "the merge job failed: see $dir/merge.log" >&2; exit 1; }
    cat "$dir/summary.txt"
else
    merge=$(sbatch "${merge_opts[@]}" "$dir/merge.sbatch")
    echo "merge job $merge (after the array) writes $dir/summary.txt" >&2
fi
