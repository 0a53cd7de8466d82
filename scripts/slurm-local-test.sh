#!/usr/bin/env bash
# Proves scripts/slurm-match.sh on a real single-node Slurm cluster on this machine:
#
#   sudo scripts/slurm-local-test.sh [SHARDS]        (default 3 shards)
#
# 1. installs slurm-wlm and munge from the distribution's packages when missing
#    (apt-get; Debian/Ubuntu);
# 2. starts munged, slurmctld and slurmd on localhost with a configuration of its own
#    under a temporary directory (no systemd, no cgroups: proctrack/linuxproc, task/none);
# 3. runs a small deterministic match (ugine at depths 1 and 2 and the random mover,
#    round robin of Nine Men's Morris at fixed depth) as SHARDS array tasks through
#    scripts/slurm-match.sh (`sbatch --array`), which merges the shards when the array
#    ends;
# 4. plays the same match unsharded and compares the two summaries (they must be equal);
# 5. shuts the cluster down (also on failure).
# Exit status 0 when the summaries are equal. Needs root (daemons, packages); not run by
# CI. UGINE overrides the binary (default: target/release/ugine, built if missing).
set -euo pipefail

shards=${1:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "== $*" >&2; }

[ "$(id -u)" = 0 ] || { echo "run as root (it starts the Slurm and munge daemons)" >&2; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge
fi
say "$(slurmctld -V), $(munged --version 2>&1 | head -n 1)"

UGINE=${UGINE:-$root/target/release/ugine}
if [ ! -x "$UGINE" ]; then
    say "building ugine"
    (cd "$root" && cargo build --release --locked)
fi
UGINE=$(realpath "$UGINE")

work=$(mktemp -d /tmp/ugine-slurm.XXXXXX)
chmod 755 "$work"
munge_pid=""
cleanup() {
    say "shutting the cluster down"
    if [ -f "$work/slurm.conf" ]; then
        SLURM_CONF=$work/slurm.conf scontrol shutdown >/dev/null 2>&1 || true
    fi
    for f in "$work/slurmd.pid" "$work/slurmctld.pid"; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
    done
    if [ -n "$munge_pid" ]; then kill "$munge_pid" 2>/dev/null || true; fi
    sleep 1
    say "cluster stopped; files kept in $work"
}
trap cleanup EXIT

say "starting munged"
mkdir -p "$work/munge"
chown munge: "$work/munge" 2>/dev/null || true
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile /etc/munge/munge.key
chown munge: /etc/munge/munge.key
chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge: /run/munge /var/log/munge /var/lib/munge
runuser -u munge -- munged --socket="$work/munge/munge.socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
    --seed-file="$work/munge/munged.seed"
munge_pid=$(cat "$work/munge/munged.pid")
munge -n -S "$work/munge/munge.socket" | unmunge -S "$work/munge/munge.socket" >/dev/null
say "munge works"

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<EOF
ClusterName=ugine-test
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf

say "starting slurmctld and slurmd on $host ($cpus CPUs)"
slurmctld -c
slurmd -c
for _ in $(seq 60); do
    state=$(sinfo -h -o '%t' 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 1
done
sinfo
[ "$(sinfo -h -o '%t')" = idle ] || { echo "the node did not come up" >&2; tail "$work"/*.log >&2; exit 1; }

openings=$work/openings.txt
"$UGINE" genfens morris 4 --seed 11 -o "$openings"
match=(--game morris --format roundrobin
    --engine "name=d1 cmd=$UGINE depth=1" --engine "name=d2 cmd=$UGINE depth=2"
    --engine name=random --rounds 6 --openings "$openings" --order random --seed 5 --quiet)

say "sharded: $shards array tasks through scripts/slurm-match.sh"
"$root/scripts/slurm-match.sh" -n "$shards" -d "$work/records" -w -- "${match[@]}" >"$work/sharded.txt"
echo "-- the controller's log of the array tasks and the merge job:"
grep -E "sched: Allocate JobId|_job_complete: JobId" "$work/slurmctld.log" | sed 's/^\[[^]]*\] //' || true
for k in $(seq "$shards"); do
    echo "shard $k: $(grep -vc '^#' "$work/records/shard-$k-of-$shards.ugr") games" >&2
done
echo "-- merged summary (slurm):"
cat "$work/sharded.txt"
cat "$work/records/merge.log" >&2

say "unsharded, the same match on this machine"
"$UGINE" match "${match[@]}" >"$work/unsharded.txt"
echo "-- unsharded summary:"
cat "$work/unsharded.txt"

if cmp -s "$work/sharded.txt" "$work/unsharded.txt"; then
    say "IDENTICAL: the merged shards and the unsharded match print the same statistics"
else
    say "DIFFERENT:"
    diff "$work/unsharded.txt" "$work/sharded.txt" || true
    exit 1
fi
