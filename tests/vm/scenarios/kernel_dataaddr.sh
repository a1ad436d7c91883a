#!/bin/sh
# Scenario: the module's capture path carries data addresses (decode of the
# sampled instruction, issue 6) into the records: sampling the pagesizes
# workload with DATA_ADDR|CODE_PAGE|PHYS_ADDR gives well-formed samples with
# the address part, exact accounting, and decoded addresses on 4K, 2M and
# 1G pages. (The accuracy of the shares is the data-address scenarios' job.)
# needs: module bin:ppclient bin:pagesizes
# timeout: 240

load_module
out=$RESULTS/record.txt
check_out record-accounting "$out" 'CHECK FAILED' \
	ppclient record -s clock -P 500000 -g -U -A -Y -o "$RESULTS/addr.bin" -- \
	taskset -c 1 pagesizes -s 4 -p rand 4k:40 2m:30 1g:30
line=$(grep '^record: addr=' "$out")
log "$line"
get() { echo "$line" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
[ "$(get addr_ok)" -gt 100 ] 2>/dev/null && pass_check addresses-decoded ||
	fail_check addresses-decoded "${line:-no samples with an address part}"
for p in 4k 2m 1g; do
	[ "$(get page_$p)" -gt 0 ] 2>/dev/null && pass_check "page-$p-seen" ||
		fail_check "page-$p-seen" "$line"
done
unload_module
exit 0
