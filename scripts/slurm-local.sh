#!/usr/bin/env bash
# A real single-node Slurm on this machine, to run the job-array path end to end.
#
#   scripts/slurm-local.sh start   munge, slurmctld and slurmd (as root), configuration and state
#                                  under $SLURM_LOCAL_DIR (default /tmp/nqueens-slurm)
#   scripts/slurm-local.sh test    start; submit scripts/slurm-array.sh for N=$SLURM_TEST_N
#                                  (default 17) in K=6 shards; requeue one running array task
#                                  mid-run; wait; status, merge, audit; check the total against
#                                  A000170 and that the requeued task resumed from its checkpoint;
#                                  then K=1,000 shards of N=$SLURM_SPLIT_N (default 10) through
#                                  scripts/slurm-submit.sh past MaxArraySize (100 here,
#                                  $SLURM_MAX_ARRAY_SIZE), 8 shards an array task, under
#                                  SBATCH_EXPORT=NONE (nothing passed by the environment),
#                                  merged from the results directory; stop
#   scripts/slurm-local.sh stop    stop the daemons this script started, by pid
#
# Needs root and Debian's packages: apt-get install -y slurm-wlm munge
# Every Slurm command needs SLURM_CONF=$SLURM_LOCAL_DIR/slurm.conf while it runs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
STATE=${SLURM_LOCAL_DIR:-/tmp/nqueens-slurm}
export SLURM_CONF=$STATE/slurm.conf
PIDS=$STATE/pids

say() { echo "slurm-local: $*" >&2; }
die() {
  say "$*"
  exit 1
}

need() {
  command -v "$1" >/dev/null ||
    die "$1 not found: install Slurm and munge with: apt-get install -y slurm-wlm munge"
}

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local limit=$1 t=0
  shift
  until "$@" >/dev/null 2>&1; do
    ((t++ < limit * 10)) || return 1
    sleep 0.1
  done
}

node_idle() { sinfo -h -n ci -o %T | grep -qx idle; }

start() {
  for c in munged slurmctld slurmd sbatch squeue scontrol sinfo runuser; do need "$c"; done
  [[ $(id -u) == 0 ]] || die "run as root: slurmd runs the jobs and munged needs its own user"
  [[ -f $PIDS ]] && stop
  rm -rf "$STATE"
  mkdir -p "$STATE/ctld" "$STATE/spool" "$STATE/work"
  : >"$PIDS"
  local cpus mem
  cpus=$(nproc)
  mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
  cat >"$SLURM_CONF" <<CONF
# Written by scripts/slurm-local.sh: one node, no accounting, no cgroups.
ClusterName=nqueens
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_interval=1
MinJobAge=5
KillWait=10
NodeName=ci NodeAddr=localhost CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=ci Default=YES MaxTime=INFINITE State=UP
MaxArraySize=${SLURM_MAX_ARRAY_SIZE:-100}
CONF
  # munge: the system's daemon if one runs, else one started here (and stopped by `stop`).
  if ! munge -n </dev/null >/dev/null 2>&1; then
    install -d -o munge -g munge -m 0755 /run/munge
    [[ -s /etc/munge/munge.key ]] || runuser -u munge -- mungekey --create
    runuser -u munge -- munged
    wait_for 10 test -s /run/munge/munged.pid || die "munged did not start"
    echo "munged $(cat /run/munge/munged.pid)" >>"$PIDS"
  fi
  slurmctld
  wait_for 10 test -s "$STATE/slurmctld.pid" || die "slurmctld did not start: $STATE/slurmctld.log"
  echo "slurmctld $(cat "$STATE/slurmctld.pid")" >>"$PIDS"
  slurmd -N ci
  wait_for 10 test -s "$STATE/slurmd.pid" || die "slurmd did not start: $STATE/slurmd.log"
  echo "slurmd $(cat "$STATE/slurmd.pid")" >>"$PIDS"
  wait_for 30 node_idle || die "node ci is not idle after 30 s: $(sinfo -N 2>&1)"
  say "up: node ci with $cpus CPUs ($(sinfo -V)); SLURM_CONF=$SLURM_CONF"
}

stop() {
  [[ -f $PIDS ]] || return 0
  local name pid
  # Reverse order: slurmd, slurmctld, then munged.
  tac "$PIDS" | while read -r name pid; do
    if kill "$pid" 2>/dev/null; then
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      say "stopped $name ($pid)"
    fi
  done
  rm -f "$PIDS"
}

# The number of tasks done in checkpoint $1, and the tasks in its scope.
progress_of() {
  [[ -s $1 ]] || return 1
  echo "$(grep -o '"id":' "$1" | wc -l) $(grep -o '"tasks":[0-9]*' "$1" | head -1 | cut -d: -f2)"
}

test_run() {
  local n=${SLURM_TEST_N:-17} k=6 nq=${NQUEENS:-$ROOT/target/release/nqueens}
  local expected
  expected=$(awk -v n="$n" '$1 == n {print $2}' "$ROOT/data/oeis/b000170.txt")
  [[ -n $expected ]] || die "no known value of A000170($n)"
  [[ -x $nq ]] || (cd "$ROOT" && cargo build --release --quiet)
  start
  trap stop EXIT
  cd "$STATE/work"
  mkdir -p logs
  # Slow on purpose (plain backtracking, the simple kernel, one thread per shard): each shard
  # takes seconds, so the requeue lands mid-run. Checkpoints every 0.2 s.
  local job
  job=$(NQUEENS=$nq NQUEENS_CHECKPOINT_EVERY=0.2 NQUEENS_PROGRESS_EVERY=1 \
    sbatch --parsable --array=0-$((k - 1)) --cpus-per-task=1 \
    "$ROOT/scripts/slurm-array.sh" "$n" "$k" --algorithm plain --kernel simple)
  echo "$ sbatch --array=0-$((k - 1)) --cpus-per-task=1 scripts/slurm-array.sh $n $k --algorithm plain --kernel simple"
  echo "job $job: N=$n in $k shards"
  # Requeue the first array task seen running with part of its work saved.
  local victim="" i t done_tasks
  for ((t = 0; t < 1200; t++)); do
    [[ -z $victim ]] || break
    for ((i = 0; i < k; i++)); do
      [[ $(squeue -h -j "${job}_$i" -o %T 2>/dev/null) == RUNNING ]] || continue
      read -r done_tasks tasks < <(progress_of "checkpoints/n$n-k$k/000/n$n-k$k-shard-$i.ckpt") || continue
      if ((done_tasks > 0 && done_tasks < tasks)); then
        victim=$i
        echo "$ scontrol requeue ${job}_$i        # shard $i/$k running, $done_tasks of $tasks tasks saved"
        scontrol requeue "${job}_$i"
        break
      fi
    done
    sleep 0.1
  done
  [[ -n $victim ]] || die "no array task was seen running mid-way: nothing was requeued"
  # A requeued task waits about 120 s unless told to start now (once it is pending again).
  wait_for 30 sh -c "squeue -h -j ${job}_$victim -o %T | grep -q PENDING" || true
  scontrol update JobId="${job}_$victim" StartTime=now
  echo "$ scontrol update JobId=${job}_$victim StartTime=now"
  echo "$ nqueens status .        # while it runs"
  "$nq" status . || true
  wait_for 900 sh -c "test -z \"\$(squeue -h -j $job)\"" || die "the array did not finish in 15 minutes"
  echo "$ nqueens status ."
  "$nq" status .
  echo "$ nqueens merge results"
  local merged total
  merged=$("$nq" merge --json results)
  "$nq" merge results
  total=$(grep -o '"total":[0-9]*' <<<"$merged" | head -1 | cut -d: -f2)
  [[ $total == "$expected" ]] || die "merged total $total, but A000170($n) = $expected"
  echo "$ nqueens audit results/n$n-k$k/000/*.json --sample 0.1 --seed 1"
  "$nq" audit results/n"$n"-k"$k"/000/*.json --sample 0.1 --seed 1
  local log="logs/nqueens-${job}-$victim.log"
  echo "$ grep -E 'shard|resumed|interrupted' $log"
  grep -E 'shard|resumed|interrupted' "$log" || true
  grep -q 'resumed from the checkpoint' "$log" ||
    die "the requeued shard $victim did not resume from its checkpoint (see $log)"
  say "ok: N=$n counted in $k shards under Slurm, shard $victim requeued mid-run and resumed; total $total = A000170($n)"
  split_run "$nq"
}

# K=1,000 shards through scripts/slurm-submit.sh on a cluster whose MaxArraySize is below K.
split_run() {
  local nq=$1 n=${SLURM_SPLIT_N:-10} k=1000 per=8 expected jobs last total max
  expected=$(awk -v n="$n" '$1 == n {print $2}' "$ROOT/data/oeis/b000170.txt")
  max=$(scontrol show config | awk '$1 == "MaxArraySize" {print $3}')
  ((max < k)) || die "MaxArraySize is $max: the split test needs it below $k"
  mkdir -p "$STATE/split" && cd "$STATE/split"
  # SBATCH_EXPORT=NONE, as some sites default to: no variable reaches the jobs, so each array's
  # offset, step and shards per task (and the binary) must go to slurm-array.sh as arguments.
  echo "$ SBATCH_EXPORT=NONE scripts/slurm-submit.sh $n $k --concurrency 2 --per-task $per --sbatch --cpus-per-task=1   # MaxArraySize $max"
  jobs=$(SBATCH_EXPORT=NONE NQUEENS=$nq NQUEENS_PROGRESS_EVERY=60 "$ROOT/scripts/slurm-submit.sh" "$n" "$k" \
    --concurrency 2 --per-task "$per" --sbatch "--cpus-per-task=1")
  (($(wc -l <<<"$jobs") == (k / per + max - 1) / max)) || die "expected $(((k / per + max - 1) / max)) arrays, got: $jobs"
  last=$(tail -1 <<<"$jobs")
  wait_for 600 sh -c "test -z \"\$(squeue -h)\"" || die "the split arrays did not finish in 10 minutes"
  local results
  results=$(find results -name '*.json' | wc -l)
  ((results == k)) || die "$results results of $k shards"
  [[ -z $(find checkpoints -name '*.ckpt') ]] || die "finished shards left checkpoints behind"
  echo "$ nqueens merge results      # $results files in $(find results -mindepth 2 -type d | wc -l) directories"
  total=$("$nq" merge --json results | grep -o '"total":[0-9]*' | head -1 | cut -d: -f2)
  "$nq" merge results | head -2
  [[ $total == "$expected" ]] || die "split run: merged total $total, but A000170($n) = $expected"
  say "ok: N=$n in K=$k shards through $(wc -l <<<"$jobs") arrays of at most $max tasks (last job $last); total $total = A000170($n)"
}

case ${1:-} in
start) start ;;
stop) stop ;;
test) test_run ;;
*)
  echo "usage: $0 start|stop|test" >&2
  exit 2
  ;;
esac
