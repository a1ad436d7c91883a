// SPDX-License-Identifier: GPL-2.0
/*
 * tlbrand: random loads over buffers of chosen page sizes, for the data TLB
 * tests of the emulated PMU (issue 16, emu_pmu_dtlb, emu_pmu_tlbcount).
 *
 *   tlbrand [-c CPU] [-m SPAN_MB] [-n LOADS] [-f ROUNDS] [-F DIR] KIND[:WEIGHT]...
 *   KIND: 4k|thp|2m|1g, each at most once; WEIGHT (default 1): its share
 *
 * -F DIR: the 2m and 1g buffers are the files DIR/2m/tlbrand and
 * DIR/1g/tlbrand, mapped shared, on hugetlbfs mounts with pagesize=2M and
 * 1G there: the kernel zeroes their huge pages on the first run only (under
 * TCG, with memory events on, zeroing 1 GiB takes far longer than the loads).
 *
 * Maps one buffer per KIND (4k: anonymous, MADV_NOHUGEPAGE; thp: anonymous,
 * 2 MiB aligned, MADV_HUGEPAGE; 2m/1g: hugetlb MAP_HUGE_2MB/MAP_HUGE_1GB),
 * writes every 4 KiB of its first SPAN_MB MiB (default 32) to fault it in.
 * Then, in each of ROUNDS rounds (default 1), it changes every buffer's
 * protection with mprotect(2) (read-only, then read-write, ...): the kernel
 * invalidates the buffers' translations, so each round starts with none of
 * them in the TLB; the round then does its share of the loads, buffer after
 * buffer in command-line order. A 4k buffer is flushed in the first round
 * only: rewriting its 8192 PTEs each round would cost more than the loads,
 * and its translations miss the STLB most of the time anyway (0.81 walks a
 * load over 32 MiB).
 * LOADS (default 1000000) 8-byte loads in all, WEIGHT/(sum of weights) of
 * them on each buffer (exactly: the integer split is printed), at random
 * 64-byte-aligned offsets of the span (one LCG; SPAN_MB a power of two), in
 * rand_loads, a loop whose only memory access is that load and starts with it.
 * Output (stdout, one line per buffer):
 *   tlbrand: kind=K span=BYTES loads=N kernelpagesize_kb=N anonhuge_kb=N
 *            rounds=R start=0x... sum=S seconds=S
 * (loads: that buffer's; seconds: all rounds' wall time, mprotect calls
 * included) kernelpagesize_kb/anonhuge_kb are what the kernel gave
 * (/proc/self/smaps).
 * Exit 3 (with a message) when the kernel cannot give the page size asked
 * for, 2 on bad arguments.
 */
#include <fcntl.h>
#include <getopt.h>
#include <linux/mman.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wl_common.h"

static void usage(void)
{
	fprintf(stderr, "usage: tlbrand [-c CPU] [-m SPAN_MB] [-n LOADS] [-f ROUNDS] "
			"KIND[:WEIGHT]...\n"
			"  KIND: 4k, thp, 2m or 1g (each at most once)\n");
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

struct buf {
	const char *kind;
	unsigned long long weight, loads;
	char *map, *base;
	size_t mlen, prot_len;
	unsigned long kps_kb, anonhuge_kb;
};

/* Map and fault in the first span bytes of one buffer of b->kind; 0, 2 (bad
 * kind), 3 (the kernel cannot give that page size) or 1, with a message. */
static int map_buf(struct buf *b, size_t span, const char *dir)
{
	const char *kind = b->kind;

	if (!strcmp(kind, "4k") || !strcmp(kind, "thp")) {
		b->mlen = span + SZ_2M;
		b->map = mmap(NULL, b->mlen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			      -1, 0);
		if (b->map == MAP_FAILED) {
			perror("tlbrand: mmap");
			return 1;
		}
		b->base = (char *)(((uintptr_t)b->map + SZ_2M - 1) & ~(SZ_2M - 1));
		b->prot_len = span;
		if (madvise(b->base, span, kind[0] == '4' ? MADV_NOHUGEPAGE : MADV_HUGEPAGE) != 0) {
			perror("tlbrand: madvise");
			return 3;
		}
	} else if (!strcmp(kind, "2m") || !strcmp(kind, "1g")) {
		int huge = kind[0] == '2' ? MAP_HUGE_2MB : MAP_HUGE_1GB;
		size_t unit = kind[0] == '2' ? SZ_2M : SZ_1G;

		b->mlen = (span + unit - 1) & ~(unit - 1);
		if (dir) {
			char path[4096];
			int fd;

			snprintf(path, sizeof(path), "%s/%s/tlbrand", dir, kind);
			fd = open(path, O_RDWR | O_CREAT, 0600);
			if (fd < 0 || ftruncate(fd, (off_t)b->mlen) != 0) {
				fprintf(stderr,
					"tlbrand: %s: %s (-F wants a hugetlbfs mount with "
					"pagesize=%s at %s/%s)\n",
					path, strerror(errno), kind[0] == '2' ? "2M" : "1G", dir,
					kind);
				return 3;
			}
			b->map = mmap(NULL, b->mlen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			close(fd);
		} else {
			b->map = mmap(NULL, b->mlen, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | huge, -1, 0);
		}
		if (b->map == MAP_FAILED) {
			fprintf(stderr,
				"tlbrand: cannot map %zu bytes of %s hugetlb pages (%s): reserve "
				"them "
				"first (hugepagesz=%s hugepages=N on the kernel command line or "
				"/sys/kernel/mm/hugepages)\n",
				b->mlen, kind, strerror(errno), kind[0] == '2' ? "2M" : "1G");
			return 3;
		}
		b->base = b->map;
		b->prot_len = b->mlen; /* a hugetlb mapping changes as a whole */
	} else {
		fprintf(stderr, "tlbrand: unknown page kind '%s' (4k, thp, 2m or 1g)\n", kind);
		return 2;
	}

	for (size_t off = 0; off < span; off += 4096)
		b->base[off] = 1;
	if (smaps_of((uintptr_t)b->base, &b->kps_kb, &b->anonhuge_kb) != 0) {
		fprintf(stderr, "tlbrand: the %s buffer is not in /proc/self/smaps\n", kind);
		return 1;
	}
	if ((!strcmp(kind, "thp") && b->anonhuge_kb * 1024 < span) ||
	    (!strcmp(kind, "2m") && b->kps_kb != 2048) ||
	    (!strcmp(kind, "1g") && b->kps_kb != 1048576)) {
		fprintf(stderr,
			"tlbrand: asked for %s pages, the kernel gave KernelPageSize %lu kB, "
			"AnonHugePages %lu kB\n",
			kind, b->kps_kb, b->anonhuge_kb);
		return 3;
	}
	return 0;
}

#define MAX_BUFS 4

int main(int argc, char **argv)
{
	unsigned long span_mb = 32;
	unsigned long long loads = 1000000, rounds = 1, wsum = 0, given = 0;
	uint64_t state = 0x9e3779b97f4a7c15ULL;
	struct buf bufs[MAX_BUFS] = {{0}};
	int cpu = -1, opt, nb = 0, rc;
	const char *dir = NULL;
	size_t span;
	double t0;

	TT_OPTS(o, TT_STR('F', &dir), TT_NUM('c', &cpu, "CPU"), TT_NUM('m', &span_mb, "SPAN_MB"),
		TT_NUM('n', &loads, "LOADS"));

	while ((opt = tt_opts_next(argc, argv, "c:f:F:m:n:", NULL, o, "tlbrand")) != -1) {
		if (opt != 'f')
			usage();
		rounds = tt_num("tlbrand", "ROUNDS", optarg);
		if (!rounds) {
			fprintf(stderr, "tlbrand: ROUNDS must be at least 1\n");
			return 2;
		}
	}
	if (optind >= argc || argc - optind > MAX_BUFS)
		usage();
	for (int i = optind; i < argc; i++, nb++) {
		char *colon = strchr(argv[i], ':');

		bufs[nb].kind = argv[i];
		bufs[nb].weight = 1;
		if (colon) {
			*colon = '\0';
			bufs[nb].weight = tt_num("tlbrand", "WEIGHT", colon + 1);
			if (!bufs[nb].weight) {
				fprintf(stderr, "tlbrand: WEIGHT of %s must be at least 1\n",
					argv[i]);
				return 2;
			}
		}
		for (int j = 0; j < nb; j++)
			if (!strcmp(bufs[j].kind, bufs[nb].kind)) {
				fprintf(stderr, "tlbrand: %s given twice (one buffer per kind)\n",
					bufs[nb].kind);
				return 2;
			}
		wsum += bufs[nb].weight;
	}
	span = span_mb << 20;
	if (span_mb == 0 || span_mb > 1024 || (span_mb & (span_mb - 1))) {
		fprintf(stderr, "tlbrand: SPAN_MB must be a power of two up to 1024, not %lu\n",
			span_mb);
		return 2;
	}
	if (wl_pin("tlbrand", cpu) != 0)
		return 1;
	for (int i = 0; i < nb; i++) {
		if ((rc = map_buf(&bufs[i], span, dir)) != 0)
			return rc;
		/* the loads split by weight; the last buffer takes the remainder */
		bufs[i].loads = i == nb - 1 ? loads - given : loads * bufs[i].weight / wsum;
		given += bufs[i].loads;
	}
	/*
	 * Each round drops the buffers' translations from the TLB (the kernel
	 * flushes them when the protection changes), then does its share of
	 * the loads on each buffer in turn.
	 */
	t0 = wl_now();
	for (unsigned long long r = 0; r < rounds; r++) {
		for (int i = 0; i < nb; i++)
			if ((r == 0 || strcmp(bufs[i].kind, "4k")) &&
			    mprotect(bufs[i].base, bufs[i].prot_len,
				     r & 1 ? PROT_READ | PROT_WRITE : PROT_READ) != 0) {
				perror("tlbrand: mprotect");
				return 1;
			}
		for (int i = 0; i < nb; i++)
			wl_sink += rand_loads(bufs[i].base, (span - 1) & ~(uint64_t)63,
					      bufs[i].loads / rounds + (r < bufs[i].loads % rounds),
					      &state);
	}
	t0 = wl_now() - t0;
	for (int i = 0; i < nb; i++) {
		printf("tlbrand: kind=%s span=%zu loads=%llu kernelpagesize_kb=%lu "
		       "anonhuge_kb=%lu rounds=%llu start=%p sum=%lu seconds=%.3f\n",
		       bufs[i].kind, span, bufs[i].loads, bufs[i].kps_kb, bufs[i].anonhuge_kb,
		       rounds, (void *)bufs[i].base, wl_sink, t0);
		munmap(bufs[i].map, bufs[i].mlen);
	}
	return 0;
}
