#!/usr/bin/env bash
# Checks the Slurm path end to end on this machine: a one-node Slurm (munge, slurmctld,
# slurmd; installed with apt-get when missing and run as root, else SKIPPED), a 4-task
# job array of `bench suite` shards through shard.sbatch, merged by merge.sh, against the
# same four shards run one after another in this process and merged the same way. Every
# deterministic field (sizes, r, parts, counts, verdicts) must be equal; times may differ.
# Then a seeded `bench dist` array, whose merged histograms must equal one unsharded run's
# exactly, and a `bench pga-tables` array, whose merged grid points must be the one-run
# grid with every point's count whole.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
skip() { echo "slurm: SKIPPED: $*"; exit 0; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || skip "slurm/munge not installed and cannot install (not root or no apt-get)"
  echo "slurm: installing slurmctld slurmd slurm-client munge"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
    slurmctld slurmd slurm-client munge >/dev/null 2>&1 || skip "apt-get install failed"
fi
[ "$(id -u)" = 0 ] || skip "starting slurmctld/slurmd needs root here"
[ "$(stat -c %a /dev/null)" = 666 ] || skip "/dev/null is not mode 0666 (munged refuses to start)"

if [ -z "${PRIMEKIT_LAB:-}" ]; then
  (cd "$root" && cargo build -q --release -p primekit-lab)
  PRIMEKIT_LAB="${CARGO_TARGET_DIR:-$root/target}/release/primekit-lab"
fi
export PRIMEKIT_LAB

work=$(mktemp -d /tmp/primekit-slurm.XXXXXX)
cleanup() {
  # Daemons first, then wait for them to let go of the state directory (slurmctld may
  # still be writing it); nothing here may change the script's status.
  local pids=()
  for f in "$work"/slurmctld.pid "$work"/slurmd.pid; do
    [ -f "$f" ] && pids+=("$(cat "$f")")
  done
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 50); do
    alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  [ -n "${munge_started:-}" ] && pkill -u munge munged 2>/dev/null || true
  rm -rf "$work" 2>/dev/null || true
}
trap cleanup EXIT

# munge: its own daemon as the munge user, unless one already answers.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  install -d -o munge -g munge -m 0755 /run/munge
  [ -f /etc/munge/munge.key ] || mungekey --create >/dev/null 2>&1 || skip "no munge key"
  runuser -u munge -- /usr/sbin/munged || skip "munged did not start"
  munge_started=1
  sleep 1
  munge -n | unmunge >/dev/null || skip "munge does not answer"
fi

host=$(hostname -s)
addr=""
getent hosts "$host" >/dev/null || addr="NodeAddr=127.0.0.1"
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<CONF
ClusterName=primekit-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
NodeName=$host CPUs=$(nproc) RealMemory=1000 $addr State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld || skip "slurmctld did not start (see $work/slurmctld.log)"
slurmd || skip "slurmd did not start"
for _ in $(seq 50); do
  [ "$(sinfo -h -N -o %t 2>/dev/null | head -1)" = idle ] && break
  sleep 0.2
done
[ "$(sinfo -h -N -o %t | head -1)" = idle ] || skip "the node did not become idle: $(sinfo -h -N -o %t)"

# run_array NAME BENCH-ARGS...: a 4-task array through shard.sbatch, merged into $work/NAME.jsonl.
run_array() {
  local name=$1 id
  shift
  id=$(cd "$work" && sbatch --parsable --array=0-3 "$here/shard.sbatch" "$work/$name" "$@")
  for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$id" 2>/dev/null)" ] && break
    sleep 0.5
  done
  [ -z "$(squeue -h -j "$id")" ] || { echo "slurm: FAIL: job array $id ($name) still queued after 5 min"; exit 1; }
  bash "$here/merge.sh" "$work/$name" 4 >"$work/$name.jsonl" 2>/dev/null || { cat "$work"/*.log >&2; echo "slurm: FAIL: $name shards missing"; exit 1; }
}

args=(suite --bits 256 --r 0,64 --tests mrac,mr64 --count 400 --primes 4 --seed 11)
run_array array "${args[@]}"

for i in 0 1 2 3; do
  "$PRIMEKIT_LAB" bench "${args[@]}" --jobs 1 --shard "$i/4" >"$work/local-$i.jsonl" 2>/dev/null
done
"$PRIMEKIT_LAB" bench merge "$work"/local-*.jsonl >"$work/local.jsonl" 2>/dev/null

python3 - "$work/array.jsonl" "$work/local.jsonl" <<'PY'
import json, sys
keep = ("op", "engine", "test", "bits", "r", "r_used", "part", "count", "declared_prime", "kernel")
def load(p):
    rows = [json.loads(l) for l in open(p) if l.strip().startswith("{")]
    rows = [r for r in rows if r.get("op") == "suite"]
    return sorted(json.dumps({k: r.get(k) for k in keep}, sort_keys=True) for r in rows)
a, b = load(sys.argv[1]), load(sys.argv[2])
assert a and a == b, f"array and one-process merges differ:\n{set(a) ^ set(b)}"
print(f"slurm: 4-task job array merged = one-process merge ({len(a)} suite records, deterministic fields)")
PY

dist=(dist --bits 128 --pga natural --sieve nss --r 64 --count 400 --seed 7)
run_array dist "${dist[@]}"
"$PRIMEKIT_LAB" bench "${dist[@]}" --out "$work/dist.png" >"$work/dist-local.jsonl"
grid=(pga-tables --bits 128 --count 4 --safe-bits)
run_array grid "${grid[@]}"
"$PRIMEKIT_LAB" bench "${grid[@]}" --out "$work/grid-local" >"$work/grid-local.jsonl" 2>/dev/null
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
def load(p, op):
    return [r for r in (json.loads(l) for l in open(p) if l.strip().startswith("{")) if r.get("op") == op]
(a,), (b,) = load(f"{w}/dist.jsonl", "dist"), load(f"{w}/dist-local.jsonl", "dist")
assert "error" not in a, f"dist merge reported: {a['error']}"
for k in ("count", "bits", "pga", "sieve", "r", "L", "seed"):
    assert a[k] == b[k], f"dist {k}: {a[k]} != {b[k]}"
assert a["msb"]["counts"] == b["msb"]["counts"] and a["msb"]["chi2"] == b["msb"]["chi2"], "dist MSB histograms differ"
assert [r["counts"] for r in a["residues"]] == [r["counts"] for r in b["residues"]], "dist residue counts differ"
key = lambda r: tuple(str(r.get(k)) for k in ("engine", "pga", "sieve", "safe", "bits", "r", "L", "t"))
g, l = load(f"{w}/grid.jsonl", "pga"), load(f"{w}/grid-local.jsonl", "pga")
assert g and sorted(map(key, g)) == sorted(map(key, l)), "pga-tables grids differ"
assert all(r["count"] == 4 for r in g if r["engine"] == "primekit"), "a merged grid point lost primes"
print(f"slurm: dist array merged = one seeded run ({a['count']} primes); pga-tables array merged = one-run grid ({len(g)} points)")
PY
