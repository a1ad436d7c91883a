#!/bin/sh
# What pmuconv's start-up leaves in place for a short conversion (issue 18:
# bench/RESULTS.md 5d): libdw, libelf, their compressors, jansson and
# protobuf-c linked from their static archives when all are installed, so
# the only shared libraries are glibc's (host/pmuconv/build.mk); and the heap
# advised for transparent huge pages from a huge-page boundary, unless
# PMUCONV_HEAP=plain (host/pmuconv/heap.c). The heap is read from
# /proc/PID/smaps of a pmuconv waiting on its input (report -, a FIFO).
set -u
cd "$(dirname "$0")/../.." || exit 1
ok() { echo "PASS: pmuconv_startup/$1"; }
ko() { echo "FAIL: pmuconv_startup/$1 ($2)"; }
P=${BUILD:-build}/bin/pmuconv
[ -x "$P" ] || {
	echo "FAIL: pmuconv_startup ($P not built: make all)"
	exit 0
}
CC=${CC:-cc}

missing=
for l in dw elf bz2 lzma z jansson protobuf-c; do
	f=$($CC -print-file-name=lib$l.a)
	[ -f "$f" ] || missing="$missing $l"
done
needed=$(readelf -d "$P" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
if [ "${PMUCONV_STATIC:-auto}" = no ]; then
	case $needed in
	*libdw.so*) ok static-libs ;; # shared, as asked
	*) ko static-libs "PMUCONV_STATIC=no but pmuconv needs only: $needed" ;;
	esac
elif [ -n "$missing" ]; then
	ko static-libs "no static archive for$missing (make deps installs them with the -dev packages; PMUCONV_STATIC=no links shared)"
elif [ "$needed" = "libc.so.6 " ]; then
	ok static-libs
else
	ko static-libs "shared libraries besides libc: $needed"
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/pmuconv_startup.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$W"' EXIT
mkfifo "$W/in"
# heap_flags ENV: the VmFlags of pmuconv's [heap] areas once it waits on stdin
heap_flags() {
	exec 3<>"$W/in" # a writer, so pmuconv's open of the FIFO does not block
	env "$@" "$P" report - <"$W/in" >/dev/null 2>&1 3>&- &
	pid=$!
	i=0
	# wait (bounded) until it blocks in read(0, ...): syscall 0, fd 0x0
	while [ $i -lt 200 ] && ! grep -q '^0 0x0 ' "/proc/$pid/syscall" 2>/dev/null; do
		i=$((i + 1))
		sleep 0.05
	done
	# every [heap] area's flags, one line each (the break moved to a huge-page
	# boundary leaves the part below it an area of its own)
	awk '/\[heap\]/ { h = 1; next } /^[0-9a-f]+-[0-9a-f]+ / { h = 0 }
		h && /^VmFlags:/ { print }' "/proc/$pid/smaps" | tr '\n' '|'
	exec 3>&-
	wait "$pid" 2>/dev/null
	pid=
}
f=$(heap_flags X=1)
if [ ! -e /sys/kernel/mm/transparent_hugepage/enabled ]; then
	# madvise(MADV_HUGEPAGE) fails without THP in the kernel; pmuconv goes on
	echo "SKIP: pmuconv_startup/heap-hugepage-advised (this kernel has no transparent huge pages)"
else
	case $f in
	*" hg"*) ok heap-hugepage-advised ;;
	*) ko heap-hugepage-advised "heap VmFlags: '${f:-none found}'" ;;
	esac
fi
f=$(heap_flags PMUCONV_HEAP=plain)
case $f in
"") ko heap-plain "no [heap] in smaps" ;;
*" hg"*) ko heap-plain "PMUCONV_HEAP=plain but the heap is advised: '$f'" ;;
*) ok heap-plain ;;
esac
exit 0
