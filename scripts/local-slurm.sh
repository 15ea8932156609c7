#!/usr/bin/env bash
# A one-node SLURM cluster on this host, for testing `pipesim campaign --slurm` against a real SLURM (docs/cluster.md).
#
#   scripts/local-slurm.sh start [DIR]   # munged, slurmctld and slurmd; prints `export SLURM_CONF=DIR/slurm.conf`
#   scripts/local-slurm.sh stop [DIR]    # cancels the jobs, stops the job processes and the daemons, by PID
#   scripts/local-slurm.sh status [DIR]  # the daemons' PIDs and sinfo
#
# DIR (default build/slurm-local) holds the configuration, state, logs and PIDs; everything that holds a Unix socket
# goes in a fresh short directory of its own, /tmp/pipesim-slurm.XXXXXX (named in DIR/socket-dir, removed by `stop`
# and after a failed `start`): munge's key, socket and log (munged refuses any directory on their path that others
# may write without a sticky bit) and slurmd's spool, where each job step's socket lives (a Unix socket path holds
# at most 107 bytes: under a long DIR, slurmd could not start a single job). Nothing system-wide is used or changed,
# so two clusters in two directories run side by side (each picks free ports at start). Needs Debian's slurmctld,
# slurmd, slurm-client and munge (scripts/setup.sh); no systemd, no cgroups. `start` exits 77 when those packages
# are absent (ctest skips the cluster tests on that code), 1 when a daemon does not come up (its log is printed).
# `start` stops a cluster already running in DIR first, and `stop` works after a failed or partial `start`.
set -euo pipefail

action="${1:-}"
dir="${2:-build/slurm-local}"
node=pipesim-node
wait_seconds=30

die() {
  echo "local-slurm: $*" >&2
  exit 1
}

case "$action" in start | stop | status) ;; *) die "usage: $0 start|stop|status [DIR]" ;; esac
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
pids_file="$dir/pids"
# the short directory; DIR/munge-dir: written by this script before the spool moved out of DIR
short_dir="$(cat "$dir/socket-dir" 2>/dev/null || cat "$dir/munge-dir" 2>/dev/null || true)"
export SLURM_CONF="$dir/slurm.conf"

# --- processes, always by PID ------------------------------------------------------------------------------------

alive() { # a process that exists and is not a zombie
  local state
  state="$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

process_table() { # "PID PPID" of every process, read in one pass (comm, between parentheses, may hold spaces)
  awk '{ i = length($0); while (i > 0 && substr($0, i, 1) != ")") i--;
         split(substr($0, i + 2), f, " "); print FILENAME, f[2] }' /proc/[0-9]*/stat 2>/dev/null |
    sed -E 's|^/proc/([0-9]+)/stat|\1|' || true
}

descendants() { # descendants of the PIDs given, from one process table
  process_table | awk -v roots="$*" '
    BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) { keep[r[i]] = 1; order[++m] = r[i] } }
    { parent[$1] = $2; pids[++k] = $1 }
    END { changed = 1
          while (changed) { changed = 0
            for (j = 1; j <= k; j++) { p = pids[j]
              if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; print p; changed = 1 } } } }'
}

ours() { # a recorded daemon PID that still runs our program with our files (PIDs are recycled)
  local cmdline
  alive "$1" || return 1
  cmdline="$(tr '\0' ' ' < "/proc/$1/cmdline" 2>/dev/null)" || return 1
  grep -qF -- "$dir/" <<<"$cmdline" || { [ -n "$short_dir" ] && grep -qF -- "$short_dir/" <<<"$cmdline"; }
}

step_daemons() { # slurmstepd processes of this cluster: slurmd starts them in $dir/run, so that is their cwd
  local f p
  for f in $(awk 'FNR == 1 && $0 == "slurmstepd" { print FILENAME }' /proc/[0-9]*/comm 2>/dev/null || true); do
    p="${f%/comm}"
    [ "$(readlink "$p/cwd" 2>/dev/null)" = "$dir/run" ] && echo "${p#/proc/}"
  done
  return 0
}

stop_pids() { # SIGTERM, up to 5 s, then SIGKILL
  local p left i
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  for i in $(seq 1 50); do
    left=()
    for p in "$@"; do alive "$p" && left+=("$p"); done
    [ ${#left[@]} -eq 0 ] && return 0
    sleep 0.1
  done
  echo "local-slurm: killing ${left[*]}" >&2
  kill -KILL "${left[@]}" 2>/dev/null || true
}

recorded_pids() {
  [ -f "$pids_file" ] || return 0
  local name pid
  while read -r name pid; do
    if ours "$pid"; then echo "$pid"; fi
  done < "$pids_file"
}

stop_cluster() {
  [ -f "$pids_file" ] || { remove_short_dir; return 0; }
  local daemons ctld roots p i targets=()
  daemons="$(recorded_pids)"
  ctld="$(awk '$1 == "slurmctld" {print $2}' "$pids_file")"
  if [ -n "$ctld" ] && ours "$ctld" && timeout 3 scontrol ping 2>/dev/null | grep -q UP; then # SLURM ends its jobs
    timeout 5 scancel --user="$(id -un)" >/dev/null 2>&1 || true
    for i in $(seq 1 50); do
      [ -z "$(step_daemons)" ] && break
      sleep 0.1
    done
  fi
  roots="$(step_daemons) $daemons" # job processes die with their step daemon, daemons with their helpers
  for p in $roots $(descendants $roots); do targets+=("$p"); done
  stop_pids "${targets[@]}"
  rm -f "$pids_file"
  remove_short_dir
  echo "local-slurm: stopped ${#targets[@]} processes in $dir" >&2
}

remove_short_dir() { # only a directory this script made (and its older name)
  case "$short_dir" in /tmp/pipesim-slurm.* | /tmp/pipesim-munge.*) rm -rf "$short_dir" ;; esac
  rm -f "$dir/socket-dir" "$dir/munge-dir"
  short_dir=""
}

# --- start ---------------------------------------------------------------------------------------------------------

free_port() { # a TCP port no socket of this host uses, from 20000-59999
  local port used i
  used="$(awk 'NR > 1 { split($2, a, ":"); print a[2] }' /proc/net/tcp /proc/net/tcp6 2>/dev/null || true)"
  for i in $(seq 1 100); do
    port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    if ! grep -qx "$(printf '%04X' "$port")" <<<"$used"; then
      echo "$port"
      return 0
    fi
  done
  die "no free TCP port found"
}

write_config() {
  local user="$1" ctld_port="$2" slurmd_port="$3"
  cat > "$SLURM_CONF" <<EOF
# Written by scripts/local-slurm.sh: a one-node cluster for tests (docs/cluster.md). Not for production.
ClusterName=pipesim-local
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
# cred_expire also sets how long a requeued job waits before it may start again (default 120 s)
AuthInfo=socket=$short_dir/munge.socket,cred_expire=5
StateSaveLocation=$dir/state
SlurmdSpoolDir=$short_dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
MailProg=/bin/true
# no systemd, no cgroups: processes tracked by parent PID, no task binding, no accounting daemon
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
MpiDefault=none
# every array task at once, and a requeued or dependent job scheduled within seconds
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_interval=1
# a dependency that can no longer be satisfied cancels the job instead of leaving it pending forever
DependencyParameters=kill_invalid_depend
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
KillWait=2
MinJobAge=600
ReturnToService=2
# this host declared with 8 CPUs whatever it has, so the tests' array tasks run side by side
SlurmdParameters=config_overrides
NodeName=$node NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

wait_for() { # wait_for DESCRIPTION PID COMMAND...: until COMMAND succeeds, PID dies, or $wait_seconds pass
  local what="$1" pid="$2" i
  shift 2
  for i in $(seq 1 $((wait_seconds * 10))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    alive "$pid" || { echo "local-slurm: $what died" >&2; return 1; }
    sleep 0.1
  done
  echo "local-slurm: $what not up after $wait_seconds s" >&2
  return 1
}

launch() { # launch NAME COMMAND...: in its own session, cwd $dir/run, PID recorded at once
  local name="$1"
  shift
  (cd "$dir/run" && exec setsid "$@" </dev/null >"$dir/log/$name.out" 2>&1) &
  echo "$name $!" >> "$pids_file"
  echo $!
}

node_idle() { sinfo --noheader --nodes="$node" --format=%T | grep -qx idle; }
ctld_up() { scontrol ping | grep -q UP; }

start_failed() {
  local log
  for log in "$dir"/log/* "$short_dir/munged.log"; do
    [ -f "$log" ] && { echo "--- $log" >&2; tail -n 20 "$log" >&2; }
  done
  stop_cluster
  exit 1
}

check_socket_length() { # slurmd names a step's socket <spool>/<node>_<job>.<step>, ids up to 10 digits each
  local longest="$short_dir/spool/$node/${node}_4294967294.4294967294"
  [ ${#longest} -lt 108 ] || die "a job step's socket would be ${#longest} bytes long ($longest), above 107"
}

start_cluster() {
  local missing=() prog user munged ctld slurmd ctld_port slurmd_port
  for prog in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
    command -v "$prog" >/dev/null 2>&1 || [ -x "/usr/sbin/$prog" ] || missing+=("$prog")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "local-slurm: ${missing[*]} not found: install slurmctld slurmd slurm-client munge (scripts/setup.sh)" >&2
    exit 77
  fi
  export PATH="$PATH:/usr/sbin:/sbin"
  stop_cluster
  trap 'status=$?; if [ "$status" -ne 0 ]; then trap - EXIT; stop_cluster 2>/dev/null; exit "$status"; fi' EXIT
  rm -rf "$dir/state" "$dir/spool" "$dir/log" "$dir/run"
  mkdir -p "$dir/state" "$dir/log" "$dir/run"
  short_dir="$(mktemp -d /tmp/pipesim-slurm.XXXXXX)"
  echo "$short_dir" > "$dir/socket-dir"
  chmod 755 "$short_dir" # munged: 700 makes the socket inaccessible, group-writable is insecure
  mkdir -p "$short_dir/spool/$node" # slurmd does not create it ("Domain socket directory ... No such file")
  check_socket_length
  mungekey --create --keyfile="$short_dir/munge.key"
  user="$(id -un)"
  ctld_port="$(free_port)"
  slurmd_port="$(free_port)"
  while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port="$(free_port)"; done
  write_config "$user" "$ctld_port" "$slurmd_port"

  munged="$(launch munged munged --foreground --socket="$short_dir/munge.socket" \
    --key-file="$short_dir/munge.key" --pid-file="$short_dir/munged.pid" --seed-file="$short_dir/munged.seed" \
    --log-file="$short_dir/munged.log")"
  wait_for munged "$munged" test -S "$short_dir/munge.socket" || start_failed
  ctld="$(launch slurmctld slurmctld -D -f "$SLURM_CONF")"
  wait_for slurmctld "$ctld" ctld_up || start_failed
  slurmd="$(launch slurmd slurmd -D -f "$SLURM_CONF" -N "$node")"
  wait_for "slurmd (node $node idle)" "$slurmd" node_idle || start_failed
  echo "export SLURM_CONF=$SLURM_CONF" > "$dir/env"
  echo "local-slurm: up in $dir (munged $munged, slurmctld $ctld, slurmd $slurmd)" >&2
  echo "export SLURM_CONF=$SLURM_CONF"
}

case "$action" in
  start) start_cluster ;;
  stop) stop_cluster ;;
  status)
    if [ -f "$pids_file" ]; then cat "$pids_file"; else echo "local-slurm: no cluster in $dir"; fi
    sinfo 2>&1 || true
    ;;
esac
