#!/bin/sh
# Scenario: the test workloads run in the guest and pagesizes gets the page
# sizes it asks for (4K, 2M hugetlb, THP, 1G hugetlb) from the guest kernel.
# needs: bin:split7030 bin:syscall_heavy bin:demo bin:pagesizes
# timeout: 120

out=$RESULTS/split7030.txt
if pin 1 split7030 -r 3 >"$out" 2>&1 && grep -q 'cpu=1 rounds=3 ' "$out"; then
	pass_check split7030-pinned
else
	fail_check split7030-pinned "$(head -c 200 "$out")"
fi

out=$RESULTS/syscall_heavy.txt
if syscall_heavy -r 2 -n 500 >"$out" 2>&1 && grep -q 'getppid=1000 reads=1000' "$out"; then
	pass_check syscall_heavy
else
	fail_check syscall_heavy "$(head -c 200 "$out")"
fi

out=$RESULTS/demo.txt
if demo -r 1 >"$out" 2>&1 && grep -q '^demo: pid=' "$out" && ! grep -q 'no 2 MiB hugetlb' "$out"; then
	pass_check demo
else
	fail_check demo "$(head -c 200 "$out")"
fi

out=$RESULTS/pagesizes.txt
if pagesizes -x -r 3 -p rand 4k:50 2m:30 1g:20 thp:10 >"$out" 2>&1; then
	pass_check pagesizes-runs
else
	fail_check pagesizes-runs "exit $?: $(head -c 200 "$out")"
fi
for k in 4k 2m thp 1g; do
	line=$(grep "^buffer phase=end name=$k " "$out")
	case "$line" in
	*" actual=$k "*) pass_check "pagesizes-$k" ;;
	*) fail_check "pagesizes-$k" "got: $(echo "$line" | sed 's/.*actual=\([^ ]*\).*/actual=\1/')" ;;
	esac
done
exit 0
