#!/bin/sh
# /init of the pmuprof test guest (PID 1, busybox sh). Installed by
# tests/vm/run.sh; see tests/vm/README.md for the protocol.
# Kernel command line: pmtest=NAME (scenario, or "--shell"),
# pmtest_accel=tcg|kvm, pmtest_gtimeout=SECONDS (guest-side scenario limit).
export PATH=/usr/local/bin:/bin:/sbin:/usr/bin:/usr/sbin
export HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec </dev/console >/dev/console 2>&1
mkdir -p /dev/pts /dev/shm /dev/hugepages /tmp /results /root
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /results
mount -t hugetlbfs hugetlbfs /dev/hugepages
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
# Console shows KERN_WARNING and above from now on (boot ran with "quiet").
echo 5 >/proc/sys/kernel/printk
hostname pmtest

SCENARIO=
VM_ACCEL=tcg
GTIMEOUT=120
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	pmtest=*) SCENARIO=${arg#pmtest=} ;;
	pmtest_accel=*) VM_ACCEL=${arg#pmtest_accel=} ;;
	pmtest_gtimeout=*) GTIMEOUT=${arg#pmtest_gtimeout=} ;;
	esac
done
RESULTS=/results
PMUPROF_KO=
[ -f /lib/pmuprof/pmuprof.ko ] && PMUPROF_KO=/lib/pmuprof/pmuprof.ko
WARNMOD_KO=
[ -f /lib/pmuprof/warnmod.ko ] && WARNMOD_KO=/lib/pmuprof/warnmod.ko
NCPUS=$(grep -c '^processor' /proc/cpuinfo)
export SCENARIO VM_ACCEL RESULTS PMUPROF_KO WARNMOD_KO NCPUS

# Results disk (virtio-blk, raw): the modules come from the guest kernel.
for m in $(cat /lib/pmtest/kmod/virtio_blk.order /lib/pmtest/kmod/virtio_pci.order 2>/dev/null); do
	grep -q "^$m " /proc/modules || insmod "/lib/pmtest/kmod/$m.ko"
done
n=0
while [ ! -b /dev/vda ] && [ $n -lt 500 ]; do
	usleep 10000
	n=$((n + 1))
done

if [ "$SCENARIO" = "--shell" ]; then
	echo "pmtest: interactive guest ($VM_ACCEL, $NCPUS CPUs). pmuprof.ko: ${PMUPROF_KO:-not built}."
	if [ -n "$PMUPROF_KO" ] && insmod "$PMUPROF_KO"; then
		echo "pmtest: pmuprof is loaded ('rmmod pmuprof; insmod $PMUPROF_KO PARAM=...' to reload)"
	fi
	echo "pmtest: scenarios are in /scenarios (. /lib/pmtest/guest.sh for helpers). 'exit' powers off."
	echo "pmtest: files you leave in /results come back to the host when you 'exit', e.g."
	echo "pmtest:   pmuctl record -e cpu-clock -g -o /results/app.pmu -- split7030 -s 3"
	cd /root
	setsid cttyhack sh -l
	cd /
	dmesg >"$RESULTS/dmesg.txt" 2>&1
	if [ -b /dev/vda ]; then
		tar -cf /dev/vda -C "$RESULTS" . 2>/tmp/tar.err ||
			echo "pmtest: writing /results to the results disk failed: $(cat /tmp/tar.err)"
		sync
	fi
	poweroff -f
fi

echo "pmtest: running scenario $SCENARIO ($VM_ACCEL, $NCPUS CPUs, limit ${GTIMEOUT}s) at $(cut -d' ' -f1 /proc/uptime)s"
if [ -f "/scenarios/$SCENARIO.sh" ]; then
	cd /tmp
	timeout -s KILL "$GTIMEOUT" sh -c '. /lib/pmtest/guest.sh; . "/scenarios/$SCENARIO.sh"'
	rc=$?
	cd /
	if [ $rc -eq 137 ] && [ ! -f "$RESULTS/.reason" ]; then
		echo "scenario killed after the guest-side limit of ${GTIMEOUT}s (raise '# timeout:')" >"$RESULTS/.reason"
	fi
else
	echo "scenario /scenarios/$SCENARIO.sh not found in the initramfs" >"$RESULTS/.reason"
	rc=2
fi
echo "pmtest: scenario $SCENARIO exited $rc at $(cut -d' ' -f1 /proc/uptime)s"

# Unload pmuprof if the scenario left it loaded: unload bugs show in dmesg.
if grep -q '^pmuprof ' /proc/modules; then
	rmmod pmuprof 2>/dev/null || echo "pmtest: note: rmmod pmuprof after the scenario failed (still in use?)"
fi

dmesg >"$RESULTS/dmesg.txt" 2>&1
echo "$rc" >"$RESULTS/.status"
if [ -b /dev/vda ]; then
	if ! tar -cf /dev/vda -C "$RESULTS" . 2>/tmp/tar.err; then
		echo "pmtest: writing results failed: $(cat /tmp/tar.err)"
		mkdir -p /tmp/r2
		cp "$RESULTS/.status" "$RESULTS/dmesg.txt" /tmp/r2/ 2>/dev/null
		echo "results did not fit on the results disk (raise '# results-mb:'): $(cat /tmp/tar.err)" >/tmp/r2/.reason
		echo 1 >/tmp/r2/.status
		tar -cf /dev/vda -C /tmp/r2 .
	fi
	sync
else
	echo "pmtest: no results disk /dev/vda; results lost"
fi
echo "pmtest: done"
poweroff -f
