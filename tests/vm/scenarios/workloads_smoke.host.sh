#!/bin/sh
# Host half of workloads_smoke: hot functions set up frame pointers, and the memory loops of the page-size workloads
# must start with their load (QEMU TCG samples land on the first instruction
# of a translation block, i.e. the loop's branch target; see
# tests/workloads/pagesizes.c). Checked on the very binaries the guest ran.
. "$ROOT/tests/vm/lib/host.sh"
command -v objdump >/dev/null || fail "objdump not installed (apt-get install binutils, or make deps)"

# loop_heads BIN FUNC: one line per backward conditional jump in FUNC (a
# loop): the instruction at its target.
loop_heads() {
	objdump -d --no-show-raw-insn "$1" | awk -v fn="<$2>:" '
		$2 == fn { infn = 1; next }
		infn && /^$/ { exit }
		infn { addr = $1; sub(":", "", addr); insn[addr] = $0
		       if ($2 ~ /^j(ne|nz)$/ && length($3) == length(addr) && $3 < addr) t[++n] = $3 }
		END { for (i = 1; i <= n; i++) print insn[t[i]] }'
}

for spec in pagesizes:touch_4k pagesizes:touch_2m pagesizes:touch_thp pagesizes:touch_1g \
	demo:stream_sum demo:chase_pointers demo:scan_table; do
	bin=${spec%%:*}
	fn=${spec#*:}
	heads=$(loop_heads "$GUEST_BIN/$bin" "$fn")
	if [ -z "$heads" ]; then
		fail_check "load-first/$fn" "no loop found in $fn"
	elif echo "$heads" | grep -qv '(%'; then
		fail_check "load-first/$fn" "a loop head is not a load: $(echo "$heads" | grep -v '(%' | head -n 1 | sed 's/^ *[0-9a-f]*:[[:space:]]*//')"
	else
		pass_check "load-first/$fn"
	fi
done
# Every hot function sets up its frame (push %rbp; mov %rsp,%rbp) first, so
# a frame-pointer walk from a sample inside it reaches its caller.
for spec in split7030:hot_a split7030:hot_b syscall_heavy:loop_getppid syscall_heavy:loop_read \
	pagesizes:touch_4k pagesizes:touch_2m pagesizes:touch_thp pagesizes:touch_1g \
	demo:checksum_blocks demo:stream_sum demo:chase_pointers demo:scan_table demo:run_demo; do
	bin=${spec%%:*}
	fn=${spec#*:}
	pro=$(objdump -d --no-show-raw-insn "$GUEST_BIN/$bin" | awk -v fn="<$fn>:" '
		$2 == fn { infn = 1; next } infn && /^$/ { exit } infn && n < 2 { $1 = ""; print; n++ }' | tr -s ' \t' ' ')
	case "$pro" in
	*"push %rbp"*"mov %rsp,%rbp"*) pass_check "frame-pointer/$fn" ;;
	*) fail_check "frame-pointer/$fn" "prologue is '$(echo $pro)'" ;;
	esac
done
host_done
