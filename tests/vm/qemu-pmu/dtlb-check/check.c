/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The emulated PMU's data TLB model (the series' tcg/sysemu/pmu_dtlb.c,
 * compiled on the host by tests/suites/qemu_dtlb_model.sh) against the
 * reference model of ref.c: the same answer (first-level hit, second-level
 * hit, walk) for every access of a pseudo-random stream of all three page
 * sizes over pools of pages from a handful (repeated pages, the model's
 * shortcuts) to far more than the second level holds (replacement), with
 * global and non-global translations, full and non-global flushes and
 * page flushes in between. Any difference in replacement order shows as a
 * different answer some accesses later.
 *
 *   check [ACCESSES]    exit 0: identical; 1: the first difference, printed
 */
#include "qemu/osdep.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "pmu_dtlb.h"
#include "ref.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000, counts[3] = {0};
	static const int shift[3] = {12, 21, 30};
	static const uint64_t pools[4] = {4, 64, 2048, 100000};
	X86DTLB *m = x86_dtlb_new(&x86_dtlb_skylake);
	struct ref_tlb *r = ref_new();

	for (long i = 0; i < n; i++) {
		uint64_t a = next(), b = next();
		int size = (a & 7) < 5 ? 0 : (a & 7) < 7 ? 1 : 2;
		uint64_t page = b % pools[(a >> 3) & 3] + ((a >> 8) & 1 ? 0x7f0000 : 0);
		uint64_t va = (page << shift[size]) + ((b >> 40) & ((1ull << shift[size]) - 1));
		bool global = (page * 2654435761u >> 7) & 1;
		int repeat = (a >> 50) & 1 ? 2 : 1;

		if ((a >> 20) % 100000 == 0) {
			x86_dtlb_flush(m, (a >> 40) & 1);
			ref_flush(r, (a >> 40) & 1);
			continue;
		}
		if ((a >> 20) % 1000 == 1) {
			x86_dtlb_flush_page(m, va);
			ref_flush_page(r, va);
			continue;
		}
		while (repeat--) {
			int want = ref_access(r, va, size, global);
			int got = x86_dtlb_access(m, va, (X86DTLBSize)size, global);

			if (got != want) {
				printf("access %ld: vaddr 0x%" PRIx64
				       " size %d global %d: model %d, reference %d\n",
				       i, va, size, global, got, want);
				return 1;
			}
			counts[got]++;
		}
	}
	printf("%ld steps identical (hits %ld, STLB hits %ld, walks %ld)\n", n, counts[0],
	       counts[1], counts[2]);
	return 0;
}
