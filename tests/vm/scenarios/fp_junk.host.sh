#!/bin/sh
# Host half of fp_junk: pmuconv's frame-pointer warning for the walk through
# %rbp-as-data (naming nofp), none for the control, whose samples keep
# main as spin's caller.
. "$ROOT/tests/vm/lib/host.sh"
cd "$RESULTS" || fail "no results directory"
path=$(cat nofp.path)
mkdir -p "symfs$(dirname "$path")" && cp "$GUEST_BIN/nofp" "symfs$path" || fail "no nofp binary"
for m in rbp fp; do
	"$BIN/pmuconv" folded "$m.pmu" --symfs symfs --comm nofp -o "$m.folded" 2>"$m.err" ||
		fail_check "folded-$m" "pmuconv folded failed: $(tail -n 1 "$m.err")"
	cat "$m.err" >>"$RESULTS/host.log" 2>/dev/null
done
if grep -q "frame-pointer walk" rbp.err && grep "frame-pointer walk" rbp.err | grep -q "$path"; then
	pass_check warns-junk-chains
else
	fail_check warns-junk-chains "no frame-pointer warning naming $path: $(head -c 300 rbp.err)"
fi
# the junk is visible as [stack] frames above spin
if grep -q '\[stack\]+0x[0-9a-f]*;spin ' rbp.folded; then
	pass_check junk-stack-frames
else
	fail_check junk-stack-frames "no '[stack]+0x...;spin' stack in rbp.folded: $(head -n 3 rbp.folded | tr '\n' ' ')"
fi
if grep -q "frame-pointer walk" fp.err; then
	fail_check control-no-warning "warned for the control: $(grep 'frame-pointer walk' fp.err | head -c 300)"
else
	pass_check control-no-warning
fi
# control: main is the caller of spin in (nearly) every sample
total=$(awk '{ n += $NF } END { print n + 0 }' fp.folded)
good=$(awk '/;main;spin[ ;]/ { n += $NF } END { print n + 0 }' fp.folded)
if [ "$total" -gt 0 ] && [ $((good * 100)) -ge $((total * 90)) ]; then
	pass_check control-main-spin
else
	fail_check control-main-spin "$good of $total control samples have ...;main;spin"
fi
host_done
