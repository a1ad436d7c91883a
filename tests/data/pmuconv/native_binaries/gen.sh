#!/bin/sh
# native_binaries: a stripped executable whose symbols are in a debug file
# (.debug/prog.debug, by .gnu_debuglink), a shared library that gen.sh
# strips without keeping a debug file, a recorded binary that is not on this host, and
# user stacks whose frame-pointer walk ran into [stack] and unmapped
# addresses. Sample addresses come from `nm` on the unstripped library
# (lib_inner is static: only .symtab names it), mappings from `readelf -l`.
# Run by tests/suites/pmuconv_expected.sh.
set -e
. "$SRC_ROOT/tests/data/pmuconv/genlib.sh"
need gcc objcopy nm readelf
D=$PWD
gcc -O1 -fPIC -shared -Wl,--build-id -o libstripped.so lib.c
syms libstripped.so inner=lib_inner api=lib_api
objcopy --strip-all libstripped.so
gcc -O1 -fPIE -pie -Wl,--build-id -o prog prog.c -L. -lstripped -Wl,-rpath,"$D"
syms prog work=work main=main
# the executable's symbols only in a debug file, found through .gnu_debuglink
objcopy --only-keep-debug prog prog.debug
objcopy --strip-all --add-gnu-debuglink=prog.debug prog
mkdir .debug && mv prog.debug .debug/
E=0x555555554000
L=0x7f1234500000
S=0x7ffd00000000
{
	echo "header host=binhost kernel=6.1.0-test cpus=1 flags=ustack start=0"
	echo "event cycles pmu 1000 cycles"
	echo "kallsyms kallsyms.txt"
	echo "process 10 1 prog $D/prog"
	maps prog $((E)) 10 "$D/prog" "$(bid prog)"
	maps libstripped.so $((L)) 10 "$D/libstripped.so" "$(bid libstripped.so)"
	echo "mmap 10 $S 0x7ffd00021000 0 [stack]"
	# the same path, recorded with another build-id (a rebuilt binary)
	echo "process 30 1 prog $D/prog"
	maps prog $((E)) 30 "$D/prog" 0123456789abcdef0123456789abcdef01234567
	echo "sample 0 30 30 0 150 1000 user prog u=$(a $E $work 1) repeat=1"
	echo "process 20 1 ghost /opt/gone/ghost"
	echo "mmap 20 0x400000 0x402000 0 /opt/gone/ghost c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"
	# exported and static functions of the stripped library
	echo "sample 0 10 10 0 100 1000 user prog u=$(a $L $api 1),$(a $E $main 2) repeat=2"
	echo "sample 0 10 10 0 110 1000 user prog u=$(a $L $inner 1),$(a $L $api 4),$(a $E $main 2) repeat=3"
	# a good chain, then walks that left the code: [stack] and unmapped
	echo "sample 0 10 10 0 200 1000 user prog u=$(a $E $work 1),$(a $E $main 2) repeat=4"
	echo "sample 0 10 10 0 210 1000 user prog u=$(a $E $work 1),$(a $S 0x1f00 0),$(a $E $main 2) repeat=2"
	echo "sample 0 10 10 0 220 1000 user prog u=$(a $L $inner 1),0x10,0x7f00 repeat=1"
	# a binary recorded on another machine
	echo "sample 0 20 20 0 300 1000 user ghost u=0x400120,0x400200 repeat=3"
	echo "end 1000"
} >spec.txt
"$MKDATA" spec.txt data.pmu
