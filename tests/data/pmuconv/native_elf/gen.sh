#!/bin/sh
# native_elf: build a PIE executable and a shared library with gcc, split the
# executable's symbols into a debug file (objcopy --only-keep-debug) and strip
# it (--strip-all, keeping a .gnu_debuglink), then write spec.txt with
# addresses taken from `nm` and mappings from `readelf -l`, the way the
# kernel would map them (PIE at 0x555555554000, the library at 0x7f1234500000),
# and turn it into data.pmu with mkdata. Run by tests/suites/pmuconv_expected.sh.
set -e
. "$SRC_ROOT/tests/data/pmuconv/genlib.sh"
need gcc objcopy nm readelf
D=$PWD
gcc -O1 -fPIC -shared -g -Wl,--build-id -o libshared.so shared.c
cp libshared.so libshared_nodbg.so
objcopy --strip-all libshared_nodbg.so
gcc -O1 -fPIE -pie -g -Wl,--build-id -o prog prog.c -L. -lshared -Wl,-rpath,"$D"
objcopy --only-keep-debug prog prog.debug
objcopy --strip-all --add-gnu-debuglink=prog.debug prog prog_stripped

# symbol values (link-time addresses) from the unstripped files
syms prog ew=exe_work em=main
syms libshared.so ls_=lib_static lh=lib_hot
EXE_BASE=0x555555554000
LIB_BASE=0x7f1234500000
{
	echo "header host=elfhost kernel=6.1.0-test cpus=2 flags=kstack,ustack start=0"
	echo "event cycles pmu 50000 cycles"
	echo "kallsyms kallsyms.txt"
	echo "process 10 1 prog $D/prog_stripped"
	maps prog_stripped $((EXE_BASE)) 10 "$D/prog_stripped" "$(bid prog)"
	maps libshared.so $((LIB_BASE)) 10 "$D/libshared.so" "$(bid libshared.so)"
	echo "process 20 1 prog2 $D/prog"
	maps prog $((EXE_BASE)) 20 "$D/prog" 0123456789abcdef0123456789abcdef01234567
	maps libshared_nodbg.so $((LIB_BASE)) 20 "$D/libshared_nodbg.so" "$(bid libshared.so)"
	# pid 10: stripped PIE, static function found through the debuglink
	echo "sample 0 10 10 0 100 50000 user prog u=$(a $EXE_BASE $ew 4),$(a $EXE_BASE $em 2) repeat=5"
	# pid 10: shared library, static function from its .symtab
	echo "sample 0 10 10 1 200 50000 user prog u=$(a $LIB_BASE $ls_ 4),$(a $LIB_BASE $lh 2),$(a $EXE_BASE $em 2) repeat=3"
	# pid 10: kernel + user mixed
	echo "sample 0 10 10 1 300 50000 kernel prog k=0xffffffff81004010,0xffffffff81003020 u=$(a $LIB_BASE $lh 1),$(a $EXE_BASE $em 2) repeat=2"
	# pid 20: unstripped binary but the recorded build-id differs (warning);
	# stripped library without debug info: lib_hot from .dynsym
	echo "sample 0 20 20 0 400 50000 user prog2 u=$(a $LIB_BASE $lh 1),$(a $EXE_BASE $ew 2),$(a $EXE_BASE $em 2)"
	echo "end 1000"
} > spec.txt
"$MKDATA" spec.txt data.pmu
