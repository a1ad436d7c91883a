#!/bin/sh
# bench/tools/qemu_threads.sh SCENARIO OUT [TIMEOUT_S]: the host's view of
# the emulator while the VM harness runs the bench scenario SCENARIO.
#
# The guest part of the scenario writes "BENCH-PHASE begin KEY=V..." and
# "BENCH-PHASE end KEY=V..." lines to its console (benchwork -M, around its
# timed work); for every begin/end pair this appends one line to OUT:
#   qthreads KEY=V... wall_s=W main_s=S cpu0_s=S cpu0_waits=N cpu1_s=S ...
# cpuN_s: host CPU seconds (user+sys) of QEMU's thread for guest CPU N
# ("CPU N/TCG", named by the harness's -name debug-threads=on), main_s: the
# main loop thread; cpuN_waits: its voluntary context switches, i.e. times
# it blocked (under TCG mostly on QEMU's big lock, or halted when idle).
# Under TCG a guest CPU's work is its thread's CPU time, so these separate
# what the guest did from what the host did to it (preemption, lock waits).
# Exits when that QEMU is gone, or after TIMEOUT_S (default 1800).
set -u
SCEN=$1 OUT=$2 TMO=${3:-1800}
t_end=$(($(date +%s) + TMO))

# The QEMU of this scenario: comm qemu-system-x86, "pmtest=SCEN " in its
# command line (the harness passes it in -append).
find_qemu() {
	for p in $(pgrep -x qemu-system-x86 2>/dev/null); do
		tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | grep -q "pmtest=$SCEN " && echo "$p" && return 0
	done
	return 1
}
pid=
while [ -z "$pid" ]; do
	[ "$(date +%s)" -lt "$t_end" ] || exit 1
	pid=$(find_qemu) || {
		pid=
		sleep 0.2
	}
done
log=$(tr '\0' '\n' <"/proc/$pid/cmdline" | sed -n 's/^file:\(.*console\.log\)$/\1/p' | head -n 1)
[ -n "$log" ] || {
	echo "qemu_threads: no console log file in the command line of QEMU $pid" >&2
	exit 1
}
hz=$(getconf CLK_TCK)

# snap: "NAME utime+stime_ticks voluntary_switches" for the main thread
# (main) and each vCPU thread (cpuN); other threads are left out (the stat
# line's comm may contain blanks: parse after the ')'). One awk reads them
# all: forking a few processes per thread made the snapshot lag the console
# by up to seconds on a loaded host, and the last run's end marker was then
# read after QEMU had exited (its row went missing from section (1b)).
snap() {
	awk -v pid="$pid" 'BEGIN {
		ls = "ls /proc/" pid "/task 2>/dev/null"
		while ((ls | getline tid) > 0) {
			d = "/proc/" pid "/task/" tid
			comm = ""
			if ((getline comm <(d "/comm")) <= 0)
				continue
			close(d "/comm")
			if (comm ~ /^CPU [0-9]+\/(TCG|KVM)$/) {
				split(comm, c, /[ \/]/)
				name = "cpu" c[2]
			} else if (tid == pid)
				name = "main"
			else
				continue
			st = ""
			getline st <(d "/stat")
			close(d "/stat")
			sub(/.*\) /, "", st)
			split(st, f, " ")
			vol = 0
			while ((getline l <(d "/status")) > 0)
				if (l ~ /^voluntary_ctxt_switches:/) {
					split(l, v, /[ \t]+/)
					vol = v[2]
				}
			close(d "/status")
			print name, f[12] + f[13], vol
		}
		close(ls)
	}'
}

# Follow the console until QEMU exits (tail -F reacts at once through
# inotify); the loop at the end stops the tail when QEMU is gone.
tail -n +1 -F "$log" 2>/dev/null | {
	begin_snap='' begin_t='' key=''
	while IFS= read -r line; do
		case "$line" in
		*"BENCH-PHASE begin "*)
			key=$(echo "$line" | sed 's/.*BENCH-PHASE begin //' | tr -d '\r')
			begin_t=$(date +%s.%N)
			begin_snap=$(snap)
			;;
		*"BENCH-PHASE end "*)
			[ -n "$begin_snap" ] || continue
			end_t=$(date +%s.%N)
			end_snap=$(snap)
			printf '%s\n--\n%s\n' "$begin_snap" "$end_snap" | awk -v key="$key" -v t0="$begin_t" \
				-v t1="$end_t" -v hz="$hz" '
				$0 == "--" { second = 1; next }
				!second { c0[$1] = $2; v0[$1] = $3; next }
				{ c1[$1] = $2; v1[$1] = $3; names[$1] = 1 }
				END {
					printf "qthreads %s wall_s=%.3f", key, t1 - t0
					for (n in names) if (n in c0)
						printf " %s_s=%.2f %s_waits=%d", n, (c1[n] - c0[n]) / hz, n, v1[n] - v0[n]
					printf "\n"
				}' >>"$OUT"
			begin_snap=''
			;;
		esac
	done
} &
reader=$!
while kill -0 "$pid" 2>/dev/null && [ "$(date +%s)" -lt "$t_end" ]; do sleep 0.5; done
# the pipeline's tail does not end by itself: stop it, then the reader ends
pkill -P "$reader" 2>/dev/null
pkill -f "tail -n \+1 -F $log" 2>/dev/null
wait "$reader" 2>/dev/null
exit 0
