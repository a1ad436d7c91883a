#!/bin/sh
# The QEMU-trace profilers behind bench/handler_breakdown.sh and
# bench/kernel_breakdown.sh (bench/tools/tb_profile.py, ktrace_profile.py)
# on a hand-made trace whose counts are known: blocks of known instructions
# (three NOPs; one REP MOVSB, which counts once per execution as the
# emulated PMU counts it), executions on two vCPUs, and for the kernel
# profiler NMIs entered and left. Seconds; no VM.
S=trace_tools
. "$(dirname "$0")/lib/hostsuite.sh"
cd "$ROOT" || exit 1
for need in python3 objdump nm cc; do
	if ! command -v $need >/dev/null 2>&1; then
		echo "FAIL: $S/setup (no $need; scripts/deps.sh installs it)"
		exit 0
	fi
done
suite_setup || exit 0
# expect NAME FILE ERE: FILE has a line matching ERE
expect() {
	if grep -Eq "$3" "$2"; then
		pass "$1"
	else
		fail "$1" "no line matching '$3' in the output: $(tr '\n' '|' <"$2")"
	fi
}

# A QEMU in_asm block (IN:, its address, its bytes as OBJD-T lines) and an
# exec line, as QEMU 7.2 without capstone writes them.
# Addresses are hex strings: sh arithmetic is signed and would clamp them.
block() { printf 'IN: \n0x%s:  \nOBJD-T: %s\n\n' "$1" "$2"; }
exec_on() { printf 'Trace %s: 0x7f0000001000 [00000000/%s/00000000/ff000000] \n' "$1" "$2"; }
add() { python3 -c "print('%016x' % (0x$1 + 0x$2))"; }

# --- tb_profile.py: module functions from the module's symbols ----------
cat >"$W/ko.c" <<'EOF'
void pp_one(void) { }
void pp_two(void) { }
EOF
cc -O0 -c -o "$W/ko.o" "$W/ko.c" || {
	fail tb/setup "cc could not build the fixture object"
	exit 0
}
text=ffffffffc0001000
off() { nm "$W/ko.o" | awk -v s="$1" '$3 == s { print $1 }'; }
one=$(add $text "$(off pp_one)")
two=$(add $text "$(off pp_two)")
d=$W/tb
mkdir -p "$d"
printf 'HC ko-text 0x%s\nHC rec   lost 0 samples\nHC rec   cycles:u  2 samples\n' "$text" >"$d/out.pmuprof"
{
	block "$one" 909090   # 3 instructions
	block "$two" f3a4     # REP MOVSB: 1
	for i in 1 2 3 4; do exec_on 1 "$one"; done
	exec_on 0 "$one"      # another vCPU: not counted
	for i in 1 2 3 4 5 6 7 8 9 10; do exec_on 1 "$two"; done
} >"$d/trace.log"
python3 bench/tools/tb_profile.py "$d" "$W/ko.o" >"$W/tb.out" 2>&1
expect tb/total "$W/tb.out" '^2 samples; module instructions on CPU 1: 22, 11\.0 per sample'
expect tb/per-function-nops "$W/tb.out" '^pp_one +6\.0 +2\.00$'
expect tb/rep-once-per-execution "$W/tb.out" '^pp_two +5\.0 +5\.00$'
python3 bench/tools/tb_profile.py "$d" "$W/ko.o" 0 >"$W/tb0.out" 2>&1
expect tb/other-vcpu "$W/tb0.out" '^2 samples; module instructions on CPU 0: 3, 1\.5 per sample'
rm "$d/out.pmuprof"
python3 bench/tools/tb_profile.py "$d" "$W/ko.o" >"$W/tbno.out" 2>&1 &&
	fail tb/no-guest-log "exit 0 without out.*" ||
	expect tb/no-guest-log "$W/tbno.out" 'no .HC ko-text. or sample count'

# --- ktrace_profile.py: kernel functions, NMIs only or everything -------
nmi=ffffffff81000000
foo=ffffffff81000100
sys=ffffffff81000200
d=$W/k
mkdir -p "$d"
{
	printf 'HC ks %s asm_exc_nmi\nHC ks %s pp_foo\nHC ks %s entry_SYSCALL_64\n' "$nmi" "$foo" "$sys"
	printf 'HC rec   cycles:u  4 samples\n'
} >"$d/out.pmuprof"
{
	block "$nmi" 9090     # 2
	block "$foo" 909090   # 3
	block "$sys" 90       # 1
	exec_on 1 "$nmi"
	exec_on 1 "$foo"
	exec_on 1 "$foo"
	exec_on 1 "$sys"      # the NMI is over: a system call follows
	exec_on 1 "$foo"
	exec_on 1 "$nmi"
	exec_on 1 "$foo"
	exec_on 0 "$nmi"      # another vCPU
} >"$d/trace.log"
python3 bench/tools/ktrace_profile.py "$d" 1 nmi >"$W/kn.out" 2>&1
expect k/nmi-total "$W/kn.out" '^vCPU 1, nmi: 13 instructions; 2 NMIs, 4 samples; 6\.5 per NMI'
expect k/nmi-function "$W/kn.out" '^pp_foo +4\.5 +1\.50$'
expect k/nmi-entry "$W/kn.out" '^asm_exc_nmi +2\.0 +1\.00$'
grep -q entry_SYSCALL_64 "$W/kn.out" && fail k/nmi-excludes-syscall "entry_SYSCALL_64 counted in nmi mode" ||
	pass k/nmi-excludes-syscall
python3 bench/tools/ktrace_profile.py "$d" 1 all >"$W/ka.out" 2>&1
expect k/all-total "$W/ka.out" '^vCPU 1, all: 17 instructions; 0 NMIs, 4 samples; 4\.2 per sample'
python3 bench/tools/ktrace_profile.py "$d" 1 bogus >"$W/kb.out" 2>&1 &&
	fail k/bad-mode "exit 0 for mode bogus" ||
	expect k/bad-mode "$W/kb.out" 'mode must be nmi or all'
exit 0
