#!/bin/sh
# perf.data round trip fixture (tests/suites/perfdata.sh): build prog.c (PIE,
# with a build-id) and write spec.txt for mkdata: two events, samples in
# twelve user functions (addresses from nm, mappings from readelf -l at a
# PIE base) and in kernel and module functions (kallsyms.txt), each with its
# own count so the top 10 has no ties; data addresses on 4K, 2M and 1G pages
# and a few samples without a data address; two LOST records (7 + 4).
# Usage: gen.sh OUTDIR MKDATA   (writes OUTDIR/prog, OUTDIR/spec.txt, OUTDIR/data.pmu)
set -e
SRC=$(cd "$(dirname "$0")" && pwd)
D=$1
MKDATA=$2
cd "$D"
gcc -O1 -fPIE -pie -g -Wl,--build-id -o prog "$SRC/prog.c"
cp "$SRC/kallsyms.txt" kallsyms.txt
sym() { nm prog | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
BID=$(readelf -n prog | awk '/Build ID/ { print $3 }')
BASE=0x555555554000
maps() {
	readelf -lW prog | awk '$1 == "LOAD" { print $2, $3, $6 }' |
		while read -r off va memsz; do
			start=$((BASE + va - va % 4096))
			end=$((BASE + va + memsz))
			end=$((end + (4096 - end % 4096) % 4096))
			printf 'mmap %d 0x%x 0x%x 0x%x %s %s\n' "$1" $start $end $((off - off % 4096)) "$D/prog" "$BID"
		done
}
a() { printf '0x%x' $((BASE + $(sym "$1") + $2)); }
MAIN=$(a main 9)
t=1000
{
	echo "header host=pdhost kernel=6.1.0-pd cpus=2 flags=kstack,ustack,data_addr,code_page start=1000"
	echo "event cycles pmu 100000 cycles"
	echo "event cpu-clock nmi-ipi 250000 ns"
	echo "kallsyms kallsyms.txt"
	echo "process 10 1 prog $D/prog"
	maps 10
	# FUNC REPEAT PAGE(1 4K, 2 2M, 3 1G, - none)
	while read -r fn n pg; do
		t=$((t + 100))
		if [ "$pg" = - ]; then
			ad=addr=0:0:1:1
		else
			ad=addr=$(printf '%x' $((0x7f0000000000 + pg * 0x40000000))):$pg:1:0
		fi
		echo "sample 0 10 10 $((n % 2)) $t 100000 user prog u=$(a "$fn" 4),$MAIN $ad repeat=$n"
		echo "sample 1 10 11 $((n % 2)) $t 250000 user prog u=$(a "$fn" 6),$MAIN repeat=$(( (n * 7) % 13 + 1 ))"
	done <<-LIST
		alpha_work 40 1
		bravo_work 35 2
		charlie_work 31 3
		delta_work 27 1
		echo_work 23 2
		foxtrot_work 20 -
		golf_work 17 1
		hotel_work 14 3
		india_work 11 2
		juliet_work 8 1
		kilo_work 5 -
		lima_work 2 1
	LIST
	echo "sample 0 10 10 1 5000 100000 kernel prog k=0xffffffff81004010,0xffffffff81003020,0xffffffff81002008,0xffffffff81001030 u=$(a alpha_work 4),$MAIN addr=ffff888000001000:1:2:0 repeat=25"
	echo "sample 0 10 10 0 5100 100000 kernel prog k=0xffffffffc0010010,0xffffffff81004100 u=$(a bravo_work 4),$MAIN addr=ffff888000002000:1:2:0 repeat=9"
	echo "sample 0 10 10 0 5200 100000 kernel prog k=0xffffffff81003010,0xffffffff81002008 u=$(a bravo_work 4),$MAIN addr=0:0:2:1 repeat=3"
	echo "lost 0 5300 7"
	echo "lost 1 5400 4"
	echo "end 9000"
} >spec.txt
"$MKDATA" spec.txt data.pmu
