#!/bin/sh
# native_demangle: build a PIE with g++ from prog.cc (C++ templates,
# namespaces, operators) and rust.c (C functions carrying Rust legacy and v0
# manglings as their symbol names, so no Rust toolchain is needed), then
# write spec.txt with sample addresses from `nm` (the mangled names, not
# demangled by nm) and mappings from `readelf -l`, and turn it into data.pmu
# with mkdata. Run by tests/suites/pmuconv_expected.sh.
set -e
. "$SRC_ROOT/tests/data/pmuconv/genlib.sh"
need g++ gcc nm readelf
D=$PWD
gcc -O1 -c -o rust.o rust.c
g++ -O1 -fPIE -pie -Wl,--build-id -o prog prog.cc rust.o

# link-time address of the one symbol whose mangled name matches $1 (a regex)
sym() {
	v=$(nm prog | awk -v s="$1" '$3 ~ s { print "0x" $1 }')
	[ "$(echo "$v" | wc -w)" = 1 ] || { echo "symbol /$1/ matched '$v'" >&2; exit 1; }
	echo "$v"
}
B=0x555555554000
main=$(sym '^main$')
plus=$(sym '^_ZN3geoplIiEENS_3VecIT_EES3_S3_$')
dot=$(sym '^_ZN3geo3dotIdEET_RKNS_3VecIS1_EES5_$')
acc=$(sym '^_ZN3geo6detail3AccpLEl$')
anon=$(sym 'hidden_helper')
rl=$(sym '^_ZN7mycrate5inner4work17h0123456789abcdefE$')
rv=$(sym '^_RNvXs_Cs1234_7mycrate')
{
	echo "header host=dmhost kernel=6.1.0-test cpus=1 flags=ustack start=0"
	echo "event cycles pmu 1000 cycles"
	echo "kallsyms kallsyms.txt"
	echo "process 10 1 prog $D/prog"
	maps prog $((B)) 10 "$D/prog" "$(bid prog)"
	echo "sample 0 10 10 0 100 1000 user prog u=$(a $B $plus 1),$(a $B $main 2) repeat=2"
	echo "sample 0 10 10 0 200 1000 user prog u=$(a $B $dot 1),$(a $B $main 2) repeat=3"
	echo "sample 0 10 10 0 300 1000 user prog u=$(a $B $acc 1),$(a $B $main 2) repeat=4"
	echo "sample 0 10 10 0 400 1000 user prog u=$(a $B $anon 1),$(a $B $main 2) repeat=5"
	echo "sample 0 10 10 0 500 1000 user prog u=$(a $B $rl 1),$(a $B $main 2) repeat=6"
	echo "sample 0 10 10 0 600 1000 user prog u=$(a $B $rv 1),$(a $B $main 2) repeat=7"
	echo "end 1000"
} >spec.txt
"$MKDATA" spec.txt data.pmu
