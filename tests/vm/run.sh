#!/bin/sh
# pmuprof VM test harness. See tests/vm/README.md (scenario format) and
# docs/TESTING.md.
#
#   sh tests/vm/run.sh NAME...      run scenarios by name (make vm-test T=NAME)
#   sh tests/vm/run.sh --all        run every tests/vm/scenarios/*.sh
#   sh tests/vm/run.sh --shell      interactive guest (make vm-shell)
#   --keep                          keep run directories of passing scenarios
#
# Prints one "PASS|FAIL|SKIP: vm/NAME[ (reason)]" line per scenario (plus the
# scenario's sub-check lines); exits 1 when anything failed, 2 on usage or
# setup errors.
#
# Results channel: every boot gets a raw virtio-blk disk (results.img); the
# guest's /init writes a tar of $RESULTS onto the bare device and syncs before
# "poweroff -f"; the host extracts it with tar. No filesystem, no 9p, no
# serial encoding: a tar header either is there or the guest never reported.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
VMDIR=$BUILD/vm
SCEN_DIR=${VM_SCEN_DIR:-$ROOT/tests/vm/scenarios}
LIBDIR=$ROOT/tests/vm/lib
export ROOT BUILD

die() {
	echo "vm: $*" >&2
	exit 2
}

note() {
	echo "vm: $*" >&2
}

# ---------------------------------------------------------------- options
MODE=names
KEEP=0
NAMES=""
for a in "$@"; do
	case "$a" in
	--all) MODE=all ;;
	--shell) MODE=shell ;;
	--keep) KEEP=1 ;;
	-h | --help)
		sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	-*) die "unknown option $a (try --help)" ;;
	*) NAMES="$NAMES $a" ;;
	esac
done
if [ "$MODE" = names ] && [ -z "$NAMES" ]; then
	die "no scenario given. Usage: run.sh NAME... | --all | --shell (make vm-test T=NAME); scenarios: $(ls "$SCEN_DIR" 2>/dev/null | sed -n 's/\.sh$//p' | grep -v '\.host$' | tr '\n' ' ')"
fi

# ------------------------------------------------------------ environment
KVER=$(sh scripts/kver.sh) || die "cannot determine the guest kernel version; run 'make deps'"
KERNEL=$BUILD/guest-kernel/vmlinuz-$KVER
KMODDIR=$BUILD/guest-kernel/modules-$KVER
[ -f "$KERNEL" ] || die "guest kernel $KERNEL missing; run 'make deps'"
[ -d "$KMODDIR" ] || die "guest kernel modules $KMODDIR missing; run 'make deps'"
# QEMU: the build with the emulated-PMU series (tests/vm/qemu-pmu/, built and
# cached by 'make qemu-pmu'), else the system's; VM_QEMU=PATH forces one.
# Without the series every scenario still boots (-cpu max behaves as in the
# unpatched QEMU), but those that need a PMU under TCG fail and say why.
QEMU_PMU=""
if [ -n "${VM_QEMU:-}" ]; then
	# taken to carry the series (a build of a development tree of it, say)
	QEMU=$VM_QEMU
	QEMU_PMU=$VM_QEMU
	[ -x "$QEMU" ] || die "VM_QEMU=$QEMU is not an executable"
elif QEMU_PMU=$(sh "$ROOT/tests/vm/qemu-pmu/build.sh" --path 2>/dev/null); then
	QEMU=$QEMU_PMU
else
	QEMU_PMU=""
	QEMU=$(command -v qemu-system-x86_64) || die "qemu-system-x86_64 not found; run 'make deps'"
	note "the emulated-PMU QEMU is not built ('make qemu-pmu'): using $QEMU; PMU scenarios will fail"
fi
# Our build has no firmware of its own: Debian's qemu-system-x86 has it.
QEMU_FW="-L /usr/share/seabios -L /usr/share/qemu"
# The emulated Intel PMU (docs/TESTING.md): Skylake identity, architectural
# PMU v4 under TCG.  '# cpu:' in a scenario overrides it.
PMU_CPU_TCG="max,vendor=GenuineIntel,family=6,model=94,pmu=on"
BUSYBOX=$(command -v busybox) || die "busybox not found; run 'make deps' (busybox-static)"
file -L "$BUSYBOX" 2>/dev/null | grep -q 'dynamically linked' &&
	die "$BUSYBOX is dynamically linked; install busybox-static ('make deps')"
command -v cpio >/dev/null || die "cpio not found; run 'make deps'"
# The test modules must match the guest kernel, whatever KDIR the module build used.
KDIR_GUEST=${VM_KDIR:-/usr/src/linux-headers-$KVER}

# Accelerator: KVM only when /dev/kvm opens AND the CPU advertises vmx/svm
# (PLATFORM.md: a KVM without them hangs a stock kernel at boot).
detect_accel() {
	if [ -n "${VM_ACCEL:-}" ]; then
		echo "$VM_ACCEL"
		return
	fi
	if (exec 3<>/dev/kvm) 2>/dev/null && grep -qwE 'vmx|svm' /proc/cpuinfo; then
		echo kvm
	else
		echo tcg
	fi
}
ACCEL=$(detect_accel)
case "$ACCEL" in
kvm) ACCEL_ARGS="-enable-kvm" DEFAULT_CPU="host,pmu=on" ;;
tcg) ACCEL_ARGS="-accel tcg" DEFAULT_CPU="max" ;;
*) die "VM_ACCEL must be kvm or tcg, not '$ACCEL'" ;;
esac
SCALE=${VM_TIMEOUT_SCALE:-1}

mkdir -p "$VMDIR/logs" "$VMDIR/runs" || die "cannot create $VMDIR"
# Kept runs of failures and their logs expire after a day.
find "$VMDIR/runs" -mindepth 1 -maxdepth 1 -type d -mmin +1440 -exec rm -rf {} + 2>/dev/null
find "$VMDIR/logs" -type f -mmin +1440 -delete 2>/dev/null

# Boot image. Booting the uncompressed ELF vmlinux through its PVH entry
# point skips SeaBIOS's real-mode kernel loader and the in-guest XZ
# decompression, which under TCG saves 3-5 s per boot. The ELF is extracted
# once from the Debian bzImage (XZ payload) and cached; when that fails, or
# with VM_PVH=0, the bzImage boots as is.
pvh_image() {
	out=$VMDIR/vmlinux-$KVER
	if [ -f "$out" ] && [ ! "$KERNEL" -nt "$out" ]; then
		echo "$out"
		return 0
	fi
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$KERNEL" 2>/dev/null | head -n 1 | cut -d: -f1)
	[ -n "$off" ] || return 1
	tail -c +$((off + 1)) "$KERNEL" | xz -dc --single-stream -q >"$out.$$" 2>/dev/null || {
		rm -f "$out.$$"
		return 1
	}
	# ELF with the Xen PVH entry note (XEN_ELFNOTE_PHYS32_ENTRY = 18).
	if [ "$(head -c 4 "$out.$$" | od -An -c | tr -d ' ')" = 177ELF ] &&
		readelf -n "$out.$$" 2>/dev/null | grep -q '(0x00000012)'; then
		mv "$out.$$" "$out"
		echo "$out"
		return 0
	fi
	rm -f "$out.$$"
	return 1
}
BOOT_IMAGE=$KERNEL
if [ "${VM_PVH:-1}" = 1 ] && command -v xz >/dev/null && command -v readelf >/dev/null; then
	BOOT_IMAGE=$(pvh_image) || {
		note "cannot extract a PVH-bootable vmlinux from $KERNEL; booting the bzImage (slower)"
		BOOT_IMAGE=$KERNEL
	}
fi

# ------------------------------------------------------ scenario headers
# hdr FILE KEY: value of "# KEY: value" in the leading comment block.
hdr() {
	sed -n '/^[^#]/q; s/^# *'"$2"': *//p' "$1" | head -n 1
}

# ------------------------------------------------------------ modules
# Stock guest-kernel modules with their dependencies, in load order.
kmod_path() {
	find "$KMODDIR/kernel" -name "$1.ko" -o -name "$(echo "$1" | tr _ -).ko" | head -n 1
}

# kmod_order NAME: dependency-first load order (names with underscores).
kmod_order() {
	_p=$(kmod_path "$1")
	[ -n "$_p" ] || {
		note "stock module $1 not found under $KMODDIR"
		return 1
	}
	for _d in $(modinfo -F depends "$_p" | tr ',' ' '); do
		kmod_order "$_d" || return 1
	done
	echo "$1" | tr - _
}

# ------------------------------------------------------- test modules
# The harness's own modules, built against the guest kernel and shipped in
# the guest's /lib/pmuprof/: the negative test tests/vm/negative/warnmod and
# every tests/vm/kmods/NAME/ (NAME.c + Kbuild -> NAME.ko). TESTMODS lists
# the names that built.
TESTMODS=""
build_testmods() {
	for src in "$ROOT/tests/vm/negative/warnmod" "$ROOT"/tests/vm/kmods/*; do
		name=$(basename "$src")
		out=$VMDIR/$name.ko
		[ -f "$src/$name.c" ] && [ -f "$src/Kbuild" ] || continue
		if [ -f "$out" ] && [ -z "$(find "$src" -type f -newer "$out")" ]; then
			TESTMODS="$TESTMODS $name"
			continue
		fi
		[ -d "$KDIR_GUEST" ] || {
			note "cannot build $name: no kernel headers at $KDIR_GUEST"
			continue
		}
		tmp=$VMDIR/$name.build.$$
		rm -rf "$tmp"
		mkdir -p "$tmp"
		cp "$src"/* "$tmp/"
		if make -C "$KDIR_GUEST" M="$tmp" modules >"$tmp/build.log" 2>&1 && [ -f "$tmp/$name.ko" ]; then
			mv "$tmp/$name.ko" "$out.$$" && mv "$out.$$" "$out"
			rm -rf "$tmp"
			TESTMODS="$TESTMODS $name"
		else
			note "building $name failed; see $tmp/build.log"
		fi
	done
}

# ------------------------------------------------------------ initramfs
# base cpio (cached): busybox + applet links, stock modules, /etc.
# overlay cpio: /init, helpers, scenarios, build/guest/*, pmuprof.ko.
# The initrd is the two concatenated (the kernel unpacks both), cached by a
# hash of every input, written atomically (parallel runs are safe).
KMODS_ALL="virtio_pci virtio_blk"
for f in "$SCEN_DIR"/*.sh; do
	[ -f "$f" ] || continue
	KMODS_ALL="$KMODS_ALL $(hdr "$f" kmods)"
done
KMODS_ALL=$(echo $KMODS_ALL | tr ' ' '\n' | sort -u | tr '\n' ' ')

mkcpio() { # DIR OUT
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$2"
}

# perf for the guest: /usr/bin/perf, or the binary behind Debian's versioned
# wrapper script (perf_6.1 and the like).
PERF_BIN=$(command -v perf 2>/dev/null)
if [ -n "$PERF_BIN" ] && [ "$(head -c 4 "$PERF_BIN" 2>/dev/null | tail -c 3)" != ELF ]; then
	PERF_BIN=$(ls /usr/bin/perf_[0-9]* 2>/dev/null | tail -n 1)
fi

build_base() {
	key=$( (
		echo "$KVER $KMODS_ALL"
		echo "base-format 2"
		sha256sum "$BUSYBOX"
		[ -n "$PERF_BIN" ] && sha256sum "$PERF_BIN"
	) | sha256sum | cut -c1-16)
	BASE=$VMDIR/base-$key.cpio
	find "$VMDIR" -maxdepth 1 -name 'base-*.cpio' -mmin +30 ! -name "$(basename "$BASE")" -delete 2>/dev/null
	if [ -f "$BASE" ]; then
		touch "$BASE"
		return 0
	fi
	st=$VMDIR/base.stage.$$
	rm -rf "$st"
	mkdir -p "$st/bin" "$st/sbin" "$st/usr/bin" "$st/usr/sbin" "$st/usr/local/bin" \
		"$st/dev" "$st/proc" "$st/sys" "$st/tmp" "$st/etc" "$st/root" "$st/lib/pmtest/kmod" \
		"$st/lib/pmuprof" "$st/scenarios" "$st/results"
	cp "$BUSYBOX" "$st/bin/busybox"
	for app in $("$BUSYBOX" --list-full); do
		[ "$app" = bin/busybox ] && continue
		mkdir -p "$st/$(dirname "$app")"
		ln -sf /bin/busybox "$st/$app"
	done
	mknod -m 600 "$st/dev/console" c 5 1 2>/dev/null
	mknod -m 666 "$st/dev/null" c 1 3 2>/dev/null
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >"$st/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$st/etc/group"
	for m in $KMODS_ALL; do
		order=$(kmod_order "$m") || die "stock module $m (scenario '# kmods:') not found"
		echo $order >"$st/lib/pmtest/kmod/$m.order"
		for d in $order; do
			[ -f "$st/lib/pmtest/kmod/$d.ko" ] || cp "$(kmod_path "$d")" "$st/lib/pmtest/kmod/$d.ko"
		done
	done
	# Linux perf, the independent oracle of the PMU scenarios, with its shared
	# libraries at their Debian paths.
	if [ -n "$PERF_BIN" ]; then
		cp -L "$PERF_BIN" "$st/usr/bin/perf"
		for lib in $(ldd "$PERF_BIN" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			mkdir -p "$st$(dirname "$lib")"
			cp -L "$lib" "$st$lib"
		done
	fi
	mkcpio "$st" "$BASE.$$" || die "cpio of the base initramfs failed"
	mv "$BASE.$$" "$BASE"
	rm -rf "$st"
}

MODULE_IN_INITRD=0
RUN_SEQ=0
build_initrd() {
	build_base
	build_testmods
	st=$VMDIR/overlay.stage.$$
	rm -rf "$st"
	mkdir -p "$st/lib/pmtest" "$st/lib/pmuprof" "$st/scenarios" "$st/usr/local/bin"
	cp "$LIBDIR/init.sh" "$st/init"
	chmod 755 "$st/init"
	cp "$LIBDIR/guest.sh" "$st/lib/pmtest/guest.sh"
	for f in "$SCEN_DIR"/*.sh; do
		case "$f" in *.host.sh) continue ;; esac
		[ -f "$f" ] && cp "$f" "$st/scenarios/"
	done
	for f in "$BUILD"/guest/*; do
		[ -f "$f" ] && [ -x "$f" ] && cp "$f" "$st/usr/local/bin/"
	done
	# The module for the guest: kernel/pmuprof.ko when it was built against the
	# guest's headers (the default here), else the copy `make guest-module`
	# builds in build/guest-kmod/ (machines whose own kernel has headers).
	for ko in "$ROOT/kernel/pmuprof.ko" "$BUILD/guest-kmod/kernel/pmuprof.ko"; do
		[ -f "$ko" ] || continue
		vm=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
		if [ "$vm" = "$KVER" ]; then
			cp "$ko" "$st/lib/pmuprof/pmuprof.ko" && MODULE_IN_INITRD=1
			break
		fi
		note "$ko is built for '$vm', the guest runs $KVER: not using it (make guest-module builds one for the guest)"
	done
	for name in $TESTMODS; do
		cp "$VMDIR/$name.ko" "$st/lib/pmuprof/"
	done
	key=$( (
		echo "$BASE"
		cd "$st" && find . -type f | LC_ALL=C sort | xargs sha256sum
	) | sha256sum | cut -c1-16)
	INITRD=$VMDIR/initrd-$key.cpio
	if [ ! -f "$INITRD" ]; then
		mkcpio "$st" "$st.cpio" || die "cpio of the overlay failed"
		cat "$BASE" "$st.cpio" >"$INITRD.$$" && mv "$INITRD.$$" "$INITRD"
		rm -f "$st.cpio"
	fi
	rm -rf "$st"
	touch "$INITRD"
	# Initrds unused for 30 minutes go away (every boot touches its initrd,
	# so a long --all run elsewhere keeps its own); base and current stay.
	find "$VMDIR" -maxdepth 1 -name 'initrd-*.cpio' -mmin +30 ! -name "$(basename "$INITRD")" -delete 2>/dev/null
}

# ----------------------------------------------------------------- boot
# no_timer_check: at boot the kernel checks that the IO-APIC timer ticks
# within a short busy-wait; a TCG vCPU starved by a loaded host misses it
# and the guest panics ("IO-APIC + timer doesn't work!", seen at load 4-5
# on 2 cores). KVM guests skip the check themselves (kvmclock).
CMDLINE_BASE="console=ttyS0 quiet panic=-1 no_timer_check hugepagesz=1G hugepages=1 hugepagesz=2M hugepages=64"
# Under KVM the guest's NMI watchdog would hold a PMU counter (perf-based
# hard-lockup detector) and pmuprof would get EBUSY; scenarios that test that
# path turn it back on with "sysctl -w kernel.nmi_watchdog=1".
[ "$ACCEL" = kvm ] && CMDLINE_BASE="$CMDLINE_BASE nmi_watchdog=0"
# tsc=reliable under TCG: the guest's TSC is the host's, but the clocksource
# watchdog compares it with the HPET across NMI-heavy stretches and a
# starved vCPU, and may mark it unstable ("skew is too large", seen in a
# clean-clone make check's pmu_startstop at 24 s). Every clock read is then
# an HPET MMIO exit, and that scenario ran past its 400 s limit instead of
# about 80 s. (bench/handler_cost.sh boots with the same flag.)
[ "$ACCEL" = tcg ] && CMDLINE_BASE="$CMDLINE_BASE tsc=reliable"

# dmesg/console policy. Only kernel lines (timestamped "[ 1.234] ...") are
# judged, so a scenario printing "WARNING:" itself is not taken for the kernel.
BAD_RE='(Oops|BUG:|kernel BUG at|WARNING:|Kernel panic|NMI received for unknown reason|Dazed and confused|soft lockup|hard LOCKUP|rcu: INFO:|detected stalls? on CPU|self-detected stall|general protection fault|Call Trace:|blocked for more than [0-9]+ seconds|UBSAN:|double fault|stack guard page)'

# policy_scan FILE...: print the first offending kernel lines, if any.
# DMESG_EXPECT (a scenario's "# dmesg-expect: REGEX") exempts the lines the
# scenario provokes on purpose and counts itself, e.g. the "unknown reason"
# report of an NMI that nobody may claim.
policy_scan() {
	for f in "$@"; do
		[ -f "$f" ] || continue
		# "traps: prog[pid] general protection fault ip:..." is a user-space
		# crash reported by the kernel, not a kernel problem.
		grep -aE '^\[ *[0-9]+\.[0-9]+\].*'"$BAD_RE" "$f" | grep -avE '\] traps: [^ ]+\[[0-9]+\] ' |
			grep -avE "${DMESG_EXPECT:-^\$^}" | head -n 3
	done | head -n 3
}

now() {
	date +%s.%N
}

# unskip: stdin to stdout; without a hardware prerequisite ($hw empty) a
# sub-check's SKIP line becomes a FAIL line.
unskip() {
	if [ -n "$hw" ]; then
		cat
	else
		sed 's/^SKIP: \(.*\)$/FAIL: \1 [a skip without a hardware prerequisite in "# needs:"]/'
	fi
}

# run_one NAME: prints the scenario's lines; sets RESULT (PASS|FAIL|SKIP) and REASON.
run_one() {
	name=$1
	file=$SCEN_DIR/$name.sh
	RESULT=FAIL
	REASON=""
	if [ ! -f "$file" ]; then
		RESULT=FAIL
		REASON="no such scenario $file"
		return
	fi
	needs=$(hdr "$file" needs)
	tmo=$(hdr "$file" timeout)
	smp=$(hdr "$file" smp)
	mem=$(hdr "$file" mem)
	rmb=$(hdr "$file" results-mb)
	tmo=${tmo:-180}
	tmo=$((tmo * SCALE))
	smp=${smp:-2}
	mem=${mem:-3072}
	rmb=${rmb:-64}
	for v in "$tmo" "$smp" "$mem" "$rmb"; do
		case "$v" in
		'' | *[!0-9]*)
			REASON="bad header in $file: timeout/smp/mem/results-mb must be plain numbers"
			return
			;;
		esac
	done
	cpu=$(hdr "$file" cpu)
	extra_cmdline=$(hdr "$file" cmdline)
	extra_qemu=$(hdr "$file" qemu)
	pmu_cmdline=""
	# Accelerator requirements first: a KVM-only scenario is a SKIP under TCG
	# whatever else it needs.
	for n in $needs; do
		case "$n" in
		pmu)
			# a PMU: the host's virtual PMU under KVM, the emulated one under TCG
			if [ "$ACCEL" = tcg ]; then
				if [ -z "$QEMU_PMU" ]; then
					REASON="needs the emulated-PMU QEMU under TCG; run 'make qemu-pmu'"
					return
				fi
				cpu=${cpu:-$PMU_CPU_TCG}
				# as under KVM: the PMU free for pmuprof (see CMDLINE_BASE)
				pmu_cmdline="nmi_watchdog=0"
			fi
			;;
		kvm-pmu)
			if [ "$ACCEL" != kvm ]; then
				RESULT=SKIP
				REASON="needs KVM with a virtual PMU; running under TCG"
				return
			fi
			;;
		tcg)
			if [ "$ACCEL" != tcg ]; then
				RESULT=SKIP
				REASON="only meaningful under TCG"
				return
			fi
			;;
		esac
	done
	for n in $needs; do
		case "$n" in
		kvm-pmu | tcg | pmu) ;;
		perf)
			if [ -z "$PERF_BIN" ]; then
				REASON="needs Linux perf in the guest; run 'make deps' (linux-perf)"
				return
			fi
			;;
		module)
			if [ ! -f "$ROOT/kernel/pmuprof.ko" ] && [ ! -f "$BUILD/guest-kmod/kernel/pmuprof.ko" ]; then
				REASON="pmuprof.ko not built; run 'make module' (or 'make guest-module')"
				return
			fi
			if [ "$MODULE_IN_INITRD" != 1 ]; then
				REASON="kernel/pmuprof.ko is not built for the guest kernel $KVER (see the note above)"
				return
			fi
			;;
		bin:*)
			if [ ! -x "$BUILD/guest/${n#bin:}" ]; then
				REASON="guest binary build/guest/${n#bin:} not built; run 'make guest-bins'"
				return
			fi
			;;
		host:*)
			if [ ! -x "$BUILD/bin/${n#host:}" ]; then
				REASON="host tool build/bin/${n#host:} not built; run 'make'"
				return
			fi
			;;
		*)
			REASON="unknown '# needs: $n' in $file"
			return
			;;
		esac
	done

	RUN_SEQ=$((RUN_SEQ + 1))
	stamp=$(date +%Y%m%d-%H%M%S)-$$-$RUN_SEQ
	rdir=$VMDIR/runs/$name-$stamp
	mkdir -p "$rdir/results"
	truncate -s "${rmb}M" "$rdir/results.img"
	touch "$INITRD"
	gt=$((tmo - 20))
	[ $gt -ge 10 ] || gt=10
	qout=$rdir/qemu.out
	if [ "${VM_VERBOSE:-0}" = 1 ]; then
		# console on our stderr (and still in console.log)
		serial="-chardev stdio,id=con,signal=off,logfile=$rdir/console.log -serial chardev:con"
		qout=/dev/stderr
	else
		serial="-serial file:$rdir/console.log"
	fi
	[ "$ACCEL" = kvm ] && cpu=""
	cpu=${cpu:-$DEFAULT_CPU}
	cmdline="$CMDLINE_BASE"
	# RETBleed: the emulated Skylake is an affected model, and the kernel's
	# warning about it would fail the dmesg policy.
	case "$cpu" in *GenuineIntel*) cmdline="$cmdline retbleed=off" ;; esac
	[ -n "$pmu_cmdline" ] && cmdline="$cmdline $pmu_cmdline"
	[ -n "$extra_cmdline" ] && cmdline="$cmdline $extra_cmdline"
	cmdline="$cmdline pmtest=$name pmtest_accel=$ACCEL pmtest_gtimeout=$gt"
	echo "$QEMU $QEMU_FW $ACCEL_ARGS -cpu $cpu -smp $smp -m $mem $extra_qemu -nodefaults -display none" \
		"-no-reboot -serial stdio -drive file=results.img,format=raw,if=virtio" \
		"-kernel $BOOT_IMAGE -initrd $INITRD -append '$cmdline'" >"$rdir/qemu-cmdline"
	echo "INFO: vm/$name qemu: $(cat "$rdir/qemu-cmdline")"
	t0=$(now)
	# shellcheck disable=SC2086
	# timeout(1) puts QEMU in its own process group, so a Ctrl-C on run.sh
	# would not reach it: forward INT/TERM explicitly.
	# -name debug-threads=on: the threads carry names ("CPU 1/TCG"), which
	# bench/tools/qemu_threads.sh and host tools (top -H) show.
	timeout -k 5 "$tmo" "$QEMU" $QEMU_FW $ACCEL_ARGS -cpu "$cpu" -smp "$smp" -m "$mem" \
		$extra_qemu -nodefaults -display none \
		-name "pmuprof-$name,debug-threads=on" -no-reboot $serial \
		-drive "file=$rdir/results.img,format=raw,if=virtio,cache=unsafe" \
		-kernel "$BOOT_IMAGE" -initrd "$INITRD" \
		-append "$cmdline" \
		</dev/null >"$qout" 2>&1 &
	tpid=$!
	trap 'kill -TERM $tpid 2>/dev/null; note "interrupted; run dir $rdir"; exit 130' INT TERM
	wait $tpid
	qrc=$?
	trap - INT TERM
	t1=$(now)
	secs=$(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}')
	echo "$secs" >"$rdir/seconds"
	tar -xf "$rdir/results.img" -C "$rdir/results" 2>/dev/null
	rm -f "$rdir/results.img"
	# QEMU's own output (the emulated PMU's pmu-insn-totals lines) for the host part
	[ -f "$rdir/qemu.out" ] && cp "$rdir/qemu.out" "$rdir/results/qemu.out"
	[ -f "$rdir/results/dmesg.txt" ] && cp "$rdir/results/dmesg.txt" "$rdir/dmesg.txt"

	gst=""
	[ -f "$rdir/results/.status" ] && gst=$(cat "$rdir/results/.status")
	greason=""
	[ -f "$rdir/results/.reason" ] && greason=$(head -n 1 "$rdir/results/.reason")
	# A skip needs a hardware prerequisite declared in "# needs:" (kvm-pmu, pmu,
	# tcg); any other reason not to run is a failure (unskip turns it into one).
	hw=""
	case " $needs " in *" kvm-pmu "* | *" pmu "* | *" tcg "*) hw=1 ;; esac
	unskipped=""
	[ -z "$hw" ] && grep -qs '^SKIP: ' "$rdir/results/.checks" && unskipped=1
	# Sub-checks of a harness self-test ("# expect: fail ...") are not reported.
	[ -f "$rdir/results/.checks" ] && [ -z "$(hdr "$file" expect)" ] && unskip <"$rdir/results/.checks"
	DMESG_EXPECT=$(hdr "$file" dmesg-expect)
	bad=$(policy_scan "$rdir/console.log" "$rdir/dmesg.txt")

	if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
		REASON="boot timed out after ${tmo}s (wall clock; '# timeout:' or VM_TIMEOUT_SCALE)"
	elif [ -z "$gst" ]; then
		REASON="guest never reported (crash, panic or hang; qemu exit $qrc)"
		[ -s "$rdir/qemu.out" ] && REASON="$REASON; qemu: $(head -n 1 "$rdir/qemu.out" | cut -c1-120)"
		[ -n "$bad" ] && REASON="$REASON; kernel problem in console: $(echo "$bad" | head -n 1 | sed 's/^\[ *[0-9.]*\] *//' | cut -c1-100)"
	elif [ -n "$bad" ]; then
		REASON="kernel problem in dmesg: $(echo "$bad" | head -n 1 | sed 's/^\[ *[0-9.]*\] *//' | cut -c1-100)"
	elif [ "$gst" = 77 ] && [ -n "$hw" ]; then
		RESULT=SKIP
		REASON=${greason:-skipped by the scenario}
	elif [ "$gst" = 77 ]; then
		REASON="skipped (${greason:-no reason}) without a hardware prerequisite in '# needs:'"
	elif [ "$gst" != 0 ]; then
		REASON="scenario exited $gst${greason:+: $greason}"
	elif [ -f "$rdir/results/.failed" ]; then
		REASON="a sub-check failed"
	elif [ -n "$unskipped" ]; then
		REASON="a sub-check skipped without a hardware prerequisite in '# needs:'"
	else
		RESULT=PASS
	fi

	# Host part, only after a passing guest part.
	hfile=$SCEN_DIR/$name.host.sh
	if [ "$RESULT" = PASS ] && [ -f "$hfile" ]; then
		RESULTS=$rdir/results BIN=$BUILD/bin GUEST_BIN=$BUILD/guest VM_ACCEL=$ACCEL SCENARIO=$name \
			timeout -k 5 "$tmo" sh "$hfile" "$rdir/results" >"$rdir/host.log" 2>&1
		hrc=$?
		[ $hrc -eq 124 ] && echo "HOSTREASON: host part timed out after ${tmo}s" >>"$rdir/host.log"
		grep -E '^(PASS|FAIL|SKIP): ' "$rdir/host.log" | unskip
		hreason=$(sed -n 's/^HOSTREASON: //p' "$rdir/host.log" | head -n 1)
		if [ $hrc -eq 77 ] && [ -n "$hw" ]; then
			RESULT=SKIP
			REASON="host part: ${hreason:-skipped}"
		elif [ $hrc -ne 0 ]; then
			RESULT=FAIL
			REASON="host part exited $hrc${hreason:+: $hreason} (see $rdir/host.log)"
		elif grep -q '^FAIL: ' "$rdir/host.log"; then
			RESULT=FAIL
			REASON="a host sub-check failed (see $rdir/host.log)"
		elif [ -z "$hw" ] && grep -q '^SKIP: ' "$rdir/host.log"; then
			RESULT=FAIL
			REASON="a host sub-check skipped without a hardware prerequisite in '# needs:'"
		fi
	fi

	# "# expect: fail REGEX": a harness self-test whose inner FAIL is expected.
	expected_fail=0
	expect=$(hdr "$file" expect)
	case "$expect" in
	fail\ *)
		if [ "$RESULT" = FAIL ] && echo "$REASON" | grep -qE "${expect#fail }"; then
			expected_fail=1
		fi
		;;
	esac
	if [ $expected_fail = 1 ]; then
		note "$name: FAIL (as expected by '# expect:') in ${secs}s ($ACCEL, smp $smp)"
	else
		note "$name: $RESULT in ${secs}s ($ACCEL, smp $smp)"
	fi
	if [ "$RESULT" = FAIL ] && [ $expected_fail = 0 ]; then
		cp "$rdir/console.log" "$VMDIR/logs/$name-$stamp.console.log" 2>/dev/null
		REASON="$REASON; console log build/vm/logs/$name-$stamp.console.log, run dir ${rdir#"$ROOT"/}"
		note "$name: console log kept at $VMDIR/logs/$name-$stamp.console.log"
		[ -n "$bad" ] && echo "$bad" | sed 's/^/vm:   /' >&2
	elif [ "$KEEP" = 0 ]; then
		rm -rf "$rdir"
	else
		note "$name: run directory kept at $rdir"
	fi
}

# print_result NAME: the aggregator's line. A scenario with "# expect: fail
# REGEX" is a negative test of the harness itself: it is reported inverted as
# vm/harness/detects-X (from harness_detects_X), PASS only when the inner run
# FAILed with a reason matching REGEX. Sets COUNT_FAIL=1 if the line is a FAIL.
print_result() {
	name=$1
	COUNT_FAIL=0
	expect=$(hdr "$SCEN_DIR/$name.sh" expect 2>/dev/null)
	case "$expect" in
	fail\ *)
		label=$(echo "$name" | sed 's/^harness_/harness\//; s/_/-/g')
		if [ "$expected_fail" = 1 ]; then
			echo "PASS: vm/$label"
			note "$label: inner scenario failed as it must: $REASON"
		else
			echo "FAIL: vm/$label (the harness missed it: inner result $RESULT${REASON:+ ($REASON)}, expected FAIL matching '${expect#fail }')"
			COUNT_FAIL=1
		fi
		return
		;;
	esac
	if [ -n "$REASON" ]; then
		echo "$RESULT: vm/$name ($REASON)"
	else
		echo "$RESULT: vm/$name"
	fi
	[ "$RESULT" = FAIL ] && COUNT_FAIL=1
}

# shell_summary DIR: what came back from an interactive guest, and the
# commands that render its recordings (symbols: the guest binaries are the
# build's own, so --symfs is not needed for them).
shell_summary() {
	_n=$(find "$1" -type f ! -name dmesg.txt | wc -l)
	if [ "$_n" -eq 0 ]; then
		note "the guest left nothing in /results (its dmesg is in $1/dmesg.txt if it exited cleanly)"
		return
	fi
	note "the guest's /results is in $1 ($_n files):"
	find "$1" -type f | sed "s|^|vm:   |" >&2
	for _f in $(find "$1" -type f -name '*.pmu'); do
		note "render $_f with:"
		echo "vm:   $BUILD/bin/pmuconv report $_f" >&2
		echo "vm:   $BUILD/bin/pmuconv html $_f -o ${_f%.pmu}.html" >&2
		echo "vm:   $BUILD/bin/pmuconv flamegraph $_f -o ${_f%.pmu}-flames/" >&2
	done
}

# ---------------------------------------------------------------- main
[ -d "$BUILD/guest" ] || note "no $BUILD/guest (run 'make guest-bins'); the guest has busybox only"
build_initrd

if [ "$MODE" = shell ]; then
	# The guest's /results comes back on 'exit' (tar on the results disk,
	# as for scenarios) into a directory of its own, with the commands
	# that render what it holds. Ctrl-A X kills QEMU: nothing comes back.
	sdir=$VMDIR/shell-$(date +%Y%m%d-%H%M%S)-$$
	mkdir -p "$sdir/results"
	note "interactive guest ($ACCEL); 'exit' leaves and brings /results back to $sdir/results (Ctrl-A X leaves without it)"
	truncate -s "${VM_SHELL_RESULTS_MB:-256}M" "$sdir/results.img"
	# VM_CPU=pmu boots the emulated Intel PMU (TCG), VM_CPU=SPEC any -cpu.
	cpu=${VM_CPU:-$DEFAULT_CPU}
	[ "$cpu" = pmu ] && cpu=$PMU_CPU_TCG
	note "$QEMU -cpu $cpu"
	# shellcheck disable=SC2086
	"$QEMU" $QEMU_FW $ACCEL_ARGS -cpu "$cpu" -smp 2 -m 3072 -nodefaults -nographic -no-reboot \
		-serial mon:stdio \
		-drive "file=$sdir/results.img,format=raw,if=virtio,cache=unsafe" \
		-kernel "$BOOT_IMAGE" -initrd "$INITRD" \
		-append "$CMDLINE_BASE pmtest=--shell pmtest_accel=$ACCEL"
	qrc=$?
	tar -xf "$sdir/results.img" -C "$sdir/results" 2>/dev/null
	rm -f "$sdir/results.img"
	shell_summary "$sdir/results"
	exit $qrc
fi

if [ "$MODE" = all ]; then
	NAMES=$(ls "$SCEN_DIR" | sed -n 's/\.sh$//p' | grep -v '\.host$' | LC_ALL=C sort)
fi

nfail=0
for name in $NAMES; do
	expected_fail=0
	run_one "$name"
	print_result "$name"
	nfail=$((nfail + COUNT_FAIL))
done
[ $nfail -eq 0 ]
