// SPDX-License-Identifier: GPL-2.0
/*
 * tlbrand: random loads over one buffer of a chosen page size, for the data
 * TLB tests of the emulated PMU (issue 16, emu_pmu_dtlb).
 *
 *   tlbrand [-c CPU] [-m SPAN_MB] [-n LOADS] [-f ROUNDS] 4k|thp|2m|1g
 *
 * Maps the buffer (4k: anonymous, MADV_NOHUGEPAGE; thp: anonymous, 2 MiB
 * aligned, MADV_HUGEPAGE; 2m/1g: hugetlb MAP_HUGE_2MB/MAP_HUGE_1GB), writes
 * every 4 KiB of its first SPAN_MB MiB (default 32) to fault it in. Then, in
 * each of ROUNDS rounds (default 1), it changes the buffer's protection with
 * mprotect(2) (read-only, then read-write, ...): the kernel invalidates the
 * buffer's translations, so each round starts with none of them in the TLB;
 * the round then does its share of the loads.
 * LOADS (default 1000000) 8-byte loads in all at random 64-byte-aligned
 * offsets of the span (an LCG; SPAN_MB a power of two), in rand_loads, a
 * loop whose only memory access is that load and starts with it.
 * Output (stdout, one line):
 *   tlbrand: kind=K span=BYTES loads=N kernelpagesize_kb=N anonhuge_kb=N
 *            rounds=R start=0x... sum=S seconds=S
 * (seconds: the rounds' wall time, mprotect calls included)
 * kernelpagesize_kb/anonhuge_kb are what the kernel gave (/proc/self/smaps).
 * Exit 3 (with a message) when the kernel cannot give the page size asked
 * for, 2 on bad arguments.
 */
#include <getopt.h>
#include <linux/mman.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wl_common.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: tlbrand [-c CPU] [-m SPAN_MB] [-n LOADS] [-f ROUNDS] 4k|thp|2m|1g\n");
	exit(2);
}

/* KernelPageSize and AnonHugePages (kB) of the mapping holding addr. */
static int smaps_of(uintptr_t addr, unsigned long *kps_kb, unsigned long *anonhuge_kb)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, found = 0;

	*kps_kb = *anonhuge_kb = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long s, e, v;
		char c;

		if (sscanf(line, "%lx-%lx %c", &s, &e, &c) == 3) {
			if (in)
				break;
			in = addr >= s && addr < e;
			found |= in;
		} else if (in && sscanf(line, "KernelPageSize: %lu kB", &v) == 1) {
			*kps_kb = v;
		} else if (in && sscanf(line, "AnonHugePages: %lu kB", &v) == 1) {
			*anonhuge_kb = v;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

/*
 * The measured loop: one load per iteration, everything else in registers,
 * and the load is the first instruction at the loop's branch target (QEMU
 * TCG takes interrupts at block starts, so a sample's decoded data address
 * is that of the load, in this buffer).
 */
static __attribute__((noinline)) uint64_t rand_loads(const char *base, uint64_t mask, uint64_t n,
						     uint64_t *state)
{
	WL_FRAME();
	if (!n)
		return 0;
	return wl_rand_loads(base, mask, n, state);
}

int main(int argc, char **argv)
{
	unsigned long span_mb = 32, kps_kb, anonhuge_kb;
	unsigned long long loads = 1000000, rounds = 1;
	uint64_t state = 0x9e3779b97f4a7c15ULL;
	int cpu = -1, opt;
	size_t span, mlen, prot_len;
	const char *kind;
	char *map, *base;
	double t0;

	while ((opt = getopt(argc, argv, "c:f:m:n:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = (int)wl_num("tlbrand", "CPU", optarg);
			break;
		case 'f':
			rounds = wl_num("tlbrand", "ROUNDS", optarg);
			if (!rounds) {
				fprintf(stderr, "tlbrand: ROUNDS must be at least 1\n");
				return 2;
			}
			break;
		case 'm':
			span_mb = wl_num("tlbrand", "SPAN_MB", optarg);
			break;
		case 'n':
			loads = wl_num("tlbrand", "LOADS", optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	kind = argv[optind];
	span = span_mb << 20;
	if (span_mb == 0 || span_mb > 1024 || (span_mb & (span_mb - 1))) {
		fprintf(stderr, "tlbrand: SPAN_MB must be a power of two up to 1024, not %lu\n",
			span_mb);
		return 2;
	}
	if (wl_pin("tlbrand", cpu) != 0)
		return 1;

	if (!strcmp(kind, "4k") || !strcmp(kind, "thp")) {
		mlen = span + SZ_2M;
		map = mmap(NULL, mlen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map == MAP_FAILED) {
			perror("tlbrand: mmap");
			return 1;
		}
		base = (char *)(((uintptr_t)map + SZ_2M - 1) & ~(SZ_2M - 1));
		prot_len = span;
		if (madvise(base, span, kind[0] == '4' ? MADV_NOHUGEPAGE : MADV_HUGEPAGE) != 0) {
			perror("tlbrand: madvise");
			return 3;
		}
	} else if (!strcmp(kind, "2m") || !strcmp(kind, "1g")) {
		int huge = kind[0] == '2' ? MAP_HUGE_2MB : MAP_HUGE_1GB;
		size_t unit = kind[0] == '2' ? SZ_2M : SZ_1G;

		mlen = (span + unit - 1) & ~(unit - 1);
		map = mmap(NULL, mlen, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | huge, -1, 0);
		if (map == MAP_FAILED) {
			fprintf(stderr,
				"tlbrand: cannot map %zu bytes of %s hugetlb pages (%s): reserve "
				"them "
				"first (hugepagesz=%s hugepages=N on the kernel command line or "
				"/sys/kernel/mm/hugepages)\n",
				mlen, kind, strerror(errno), kind[0] == '2' ? "2M" : "1G");
			return 3;
		}
		base = map;
		prot_len = mlen; /* a hugetlb mapping changes as a whole */
	} else {
		fprintf(stderr, "tlbrand: unknown page kind '%s' (4k, thp, 2m or 1g)\n", kind);
		return 2;
	}

	for (size_t off = 0; off < span; off += 4096)
		base[off] = 1;
	if (smaps_of((uintptr_t)base, &kps_kb, &anonhuge_kb) != 0) {
		fprintf(stderr, "tlbrand: the buffer is not in /proc/self/smaps\n");
		return 1;
	}
	if ((!strcmp(kind, "thp") && anonhuge_kb * 1024 < span) ||
	    (!strcmp(kind, "2m") && kps_kb != 2048) || (!strcmp(kind, "1g") && kps_kb != 1048576)) {
		fprintf(stderr,
			"tlbrand: asked for %s pages, the kernel gave KernelPageSize %lu kB, "
			"AnonHugePages %lu kB\n",
			kind, kps_kb, anonhuge_kb);
		return 3;
	}
	/*
	 * Each round drops the buffer's translations from the TLB (the kernel
	 * flushes them when the protection changes), then does its share of
	 * the loads.
	 */
	t0 = wl_now();
	for (unsigned long long r = 0; r < rounds; r++) {
		if (mprotect(base, prot_len, r & 1 ? PROT_READ | PROT_WRITE : PROT_READ) != 0) {
			perror("tlbrand: mprotect");
			return 1;
		}
		wl_sink += rand_loads(base, (span - 1) & ~(uint64_t)63,
				      loads / rounds + (r < loads % rounds), &state);
	}
	t0 = wl_now() - t0;
	printf("tlbrand: kind=%s span=%zu loads=%llu kernelpagesize_kb=%lu anonhuge_kb=%lu "
	       "rounds=%llu start=%p sum=%lu seconds=%.3f\n",
	       kind, span, loads, kps_kb, anonhuge_kb, rounds, (void *)base, wl_sink, t0);
	munmap(map, mlen);
	return 0;
}
