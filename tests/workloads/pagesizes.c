// SPDX-License-Identifier: GPL-2.0
/*
 * pagesizes: a workload with known truth for the page-size tests (issue 6).
 * Maps one buffer per requested kind and touches them in the proportions
 * given on the command line:
 *   4k   anonymous memory with MADV_NOHUGEPAGE          -> touch_4k()
 *   2m   hugetlb, MAP_HUGETLB | MAP_HUGE_2MB             -> touch_2m()
 *   thp  anonymous, 2 MiB aligned, MADV_HUGEPAGE         -> touch_thp()
 *   1g   hugetlb, MAP_HUGETLB | MAP_HUGE_1GB             -> touch_1g()
 *   heap malloc(SPAN): glibc's own mmap'd block, as a program gets it (no
 *        madvise: the system's THP setting decides; with -H the program
 *        asks: madvise(MADV_HUGEPAGE) on its 2 MiB-aligned part, as
 *        `pmuconv pagesize` advises)                      -> touch_heap()
 *   small a 16 KiB static array (the program's .bss)     -> touch_small()
 *
 *   pagesizes [-c CPU] [-r ROUNDS | -s SECONDS] [-p seq|rand] [-m SPAN_MB]
 *             [-u ACCESSES_PER_UNIT] [-x] [-H] KIND:WEIGHT...
 *   e.g. pagesizes -s 5 -p rand 4k:50 2m:30 1g:20
 *
 * Each round performs WEIGHT * U loads on each buffer (deterministic counts),
 * within the first SPAN_MB MiB of it: "seq" walks with a 64-byte stride,
 * "rand" uses an LCG. Every hot loop is written so that its load is the first
 * instruction at the loop's branch target (QEMU TCG takes interrupts only at
 * translation-block starts, so that is where samples land; see PLATFORM.md).
 *
 * If a hugetlb mapping fails the buffer falls back to ordinary memory with a
 * warning (-x: exit 3 instead); "actual=" always says what the kernel gave,
 * read from /proc/self/smaps. Output (stdout, one line each, key=value):
 *   buffer phase=setup|end name=K requested=K actual=4k|thp|mixed|2m|1g
 *          start=0x... end=0x... span=BYTES kernelpagesize_kb=N mmupagesize_kb=N
 *          anonhuge_kb=N rss_kb=N weight=W accesses=N loop_ns=N function=touch_K
 *   pagesizes: pid=P cpu=C rounds=R pattern=seq|rand seconds=S total_accesses=N
 * [start, end) is exactly the range the loads fall in. loop_ns is the wall
 * time spent inside touch_K (a time-based sampler's truth: under QEMU TCG an
 * access to a 4K page can cost several times one to a huge page).
 */
#include <getopt.h>
#include <linux/mman.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wl_common.h"

#define SMALL_SPAN (16u << 10)

enum kind { K_4K, K_2M, K_THP, K_1G, K_HEAP, K_SMALL, K_NR };

static const char *const kind_name[K_NR] = {"4k", "2m", "thp", "1g", "heap", "small"};

/* the small kind's array: in .bss, 4 pages */
static char small_array[SMALL_SPAN] __attribute__((aligned(4096)));
static int heap_madvise; /* -H */

struct buffer {
	int used;
	unsigned weight;
	char *map;   /* what mmap returned */
	size_t mlen; /* its length */
	char *base;  /* start of the touched range */
	size_t span; /* length of the touched range (power of two) */
	uint64_t accesses;
	uint64_t loop_ns; /* wall time inside touch_K() */
	uint64_t state;	  /* LCG state (rand) or offset (seq) */
	int fellback;
};

static struct buffer bufs[K_NR];
static int pattern_rand;

WL_DEFINE_TOUCH(4k, &bufs[K_4K], pattern_rand)
WL_DEFINE_TOUCH(2m, &bufs[K_2M], pattern_rand)
WL_DEFINE_TOUCH(thp, &bufs[K_THP], pattern_rand)
WL_DEFINE_TOUCH(1g, &bufs[K_1G], pattern_rand)
WL_DEFINE_TOUCH(heap, &bufs[K_HEAP], pattern_rand)
WL_DEFINE_TOUCH(small, &bufs[K_SMALL], pattern_rand)

static uint64_t (*const touch_fn[K_NR])(uint64_t) = {touch_4k, touch_2m,   touch_thp,
						     touch_1g, touch_heap, touch_small};

static int map_buffer(enum kind k, size_t span, int strict)
{
	struct buffer *b = &bufs[k];
	int prot = PROT_READ | PROT_WRITE, fl = MAP_PRIVATE | MAP_ANONYMOUS;
	void *p = MAP_FAILED;

	b->span = span;
	switch (k) {
	case K_SMALL:
		b->span = SMALL_SPAN;
		b->map = b->base = small_array;
		b->mlen = SMALL_SPAN;
		memset(b->base, 1, b->span);
		b->state = pattern_rand ? 0x9e3779b97f4a7c15ULL + (uint64_t)k : 0;
		return 0;
	case K_HEAP:
		b->map = b->base = malloc(span);
		b->mlen = span;
		if (!b->map) {
			fprintf(stderr, "pagesizes: malloc of %zu bytes failed\n", span);
			return -1;
		}
		if (heap_madvise) {
			uintptr_t lo = ((uintptr_t)b->base + SZ_2M - 1) & ~(uintptr_t)(SZ_2M - 1);
			uintptr_t hi = ((uintptr_t)b->base + span) & ~(uintptr_t)(SZ_2M - 1);
			if (hi > lo && madvise((void *)lo, hi - lo, MADV_HUGEPAGE) != 0)
				fprintf(stderr, "pagesizes: warning: madvise(MADV_HUGEPAGE): %s\n",
					strerror(errno));
		}
		memset(b->base, 1, span);
		b->state = pattern_rand ? 0x9e3779b97f4a7c15ULL + (uint64_t)k : 0;
		return 0;
	case K_2M:
		b->mlen = (span + SZ_2M - 1) & ~(SZ_2M - 1);
		p = mmap(NULL, b->mlen, prot, fl | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
		break;
	case K_1G:
		if (span > SZ_1G)
			b->span = span = SZ_1G;
		b->mlen = SZ_1G;
		p = mmap(NULL, b->mlen, prot, fl | MAP_HUGETLB | MAP_HUGE_1GB, -1, 0);
		break;
	default:
		break;
	}
	if ((k == K_2M || k == K_1G) && p == MAP_FAILED) {
		fprintf(stderr,
			"pagesizes: warning: hugetlb mmap for %s failed (%s); is the pool reserved "
			"(hugepagesz=%s hugepages=N)?%s\n",
			kind_name[k], strerror(errno), k == K_1G ? "1G" : "2M",
			strict ? "" : " Falling back to ordinary pages.");
		if (strict)
			return -1;
		b->fellback = 1;
	}
	if (p == MAP_FAILED) {
		/* 4k, thp, or a fallback: ordinary anonymous memory, 2 MiB aligned */
		b->mlen = span + SZ_2M;
		p = mmap(NULL, b->mlen, prot, fl, -1, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "pagesizes: mmap of %zu bytes failed: %s\n", b->mlen,
				strerror(errno));
			return -1;
		}
		b->map = p;
		b->base = (char *)(((uintptr_t)p + SZ_2M - 1) & ~(uintptr_t)(SZ_2M - 1));
		if (madvise(b->base, span, k == K_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) != 0 &&
		    k == K_THP)
			fprintf(stderr, "pagesizes: warning: madvise(MADV_HUGEPAGE): %s\n",
				strerror(errno));
	} else {
		b->map = p;
		b->base = p;
	}
	memset(b->base, 1, span); /* fault everything in before the timed part */
	b->state = pattern_rand ? 0x9e3779b97f4a7c15ULL + (uint64_t)k : 0;
	return 0;
}

struct smaps_info {
	unsigned long kps_kb, mmu_kb, anonhuge_kb, rss_kb;
};

static int smaps_lookup(uintptr_t addr, struct smaps_info *si)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, found = 0;

	memset(si, 0, sizeof(*si));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long s, e, v;

		if (sscanf(line, "%lx-%lx ", &s, &e) == 2 && strchr(line, ' ') &&
		    strchr(line, '-') < strchr(line, ' ')) {
			if (in)
				break;
			in = addr >= s && addr < e;
			found |= in;
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, "KernelPageSize: %lu kB", &v) == 1)
			si->kps_kb = v;
		else if (sscanf(line, "MMUPageSize: %lu kB", &v) == 1)
			si->mmu_kb = v;
		else if (sscanf(line, "AnonHugePages: %lu kB", &v) == 1)
			si->anonhuge_kb = v;
		else if (sscanf(line, "Rss: %lu kB", &v) == 1)
			si->rss_kb = v;
	}
	fclose(f);
	return found ? 0 : -1;
}

static const char *actual_kind(const struct smaps_info *si, size_t span)
{
	unsigned long span_kb = span >> 10;

	if (si->kps_kb == (SZ_1G >> 10))
		return "1g";
	if (si->kps_kb == (SZ_2M >> 10))
		return "2m";
	if (si->kps_kb != 4)
		return "unknown";
	if (si->anonhuge_kb && si->anonhuge_kb * 10 >= span_kb * 9)
		return "thp";
	if (si->anonhuge_kb)
		return "mixed";
	return "4k";
}

static void print_buffers(const char *phase)
{
	for (int k = 0; k < K_NR; k++) {
		struct buffer *b = &bufs[k];
		struct smaps_info si;

		if (!b->used)
			continue;
		/* the heap buffer's middle: with -H, madvise splits its mapping
		 * and the unaligned head stays on 4K pages */
		uintptr_t at = (uintptr_t)b->base + (k == K_HEAP ? b->span / 2 : 0);
		if (smaps_lookup(at, &si) != 0)
			fprintf(stderr,
				"pagesizes: warning: %s buffer not found in /proc/self/smaps\n",
				kind_name[k]);
		printf("buffer phase=%s name=%s requested=%s actual=%s start=%#lx end=%#lx "
		       "span=%zu "
		       "kernelpagesize_kb=%lu mmupagesize_kb=%lu anonhuge_kb=%lu rss_kb=%lu "
		       "weight=%u accesses=%llu loop_ns=%llu function=touch_%s%s\n",
		       phase, kind_name[k], kind_name[k], actual_kind(&si, b->span),
		       (unsigned long)(uintptr_t)b->base,
		       (unsigned long)(uintptr_t)b->base + b->span, b->span, si.kps_kb, si.mmu_kb,
		       si.anonhuge_kb, si.rss_kb, b->weight, (unsigned long long)b->accesses,
		       (unsigned long long)b->loop_ns, kind_name[k],
		       b->fellback ? " fallback=1" : "");
	}
	fflush(stdout);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: pagesizes [-c CPU] [-r ROUNDS | -s SECONDS] [-p seq|rand] [-m SPAN_MB]\n"
		   "                 [-u ACCESSES_PER_UNIT] [-x] [-H] KIND:WEIGHT...\n"
		   "  KIND: 4k, 2m (hugetlb), thp, 1g (hugetlb), heap (malloc), small (16 KiB\n"
		   "  static array); e.g. 4k:50 2m:30 1g:20\n"
		   "  defaults: -s 2 -p seq -m 16 -u 2000; -x: fail instead of falling back;\n"
		   "  -H: madvise(MADV_HUGEPAGE) the heap buffer's 2 MiB-aligned part\n");
}

int main(int argc, char **argv)
{
	struct wl_run run = {.prog = "pagesizes", .usage = usage, .cpu = -1, .seconds = 2};
	unsigned long long unit = 2000, span_mb = 16, total = 0;
	int opt, strict = 0;
	double t;
	size_t span;

	TT_OPTS(o, TT_NUM('m', &span_mb, "SPAN_MB"), TT_NUM('u', &unit, "ACCESSES_PER_UNIT"),
		TT_SET('x', &strict), TT_SET('H', &heap_madvise));

	while ((opt = wl_run_parse(&run, argc, argv, "c:r:s:p:m:u:xHh", o)) != -1) {
		/* -p, the one option left */
		if (strcmp(optarg, "seq") && strcmp(optarg, "rand")) {
			fprintf(stderr, "pagesizes: -p takes seq or rand, not '%s'\n", optarg);
			return 2;
		}
		pattern_rand = !strcmp(optarg, "rand");
	}
	if (span_mb == 0 || (span_mb & (span_mb - 1)) || span_mb > 1024 || unit == 0) {
		fprintf(stderr,
			"pagesizes: -m must be a power of two between 1 and 1024, -u > 0\n");
		return 2;
	}
	span = (size_t)span_mb << 20;
	if (optind == argc)
		wl_usage_error(&run);
	for (int i = optind; i < argc; i++) {
		char *colon = strchr(argv[i], ':');
		int k;

		for (k = 0; k < K_NR; k++)
			if (colon && (size_t)(colon - argv[i]) == strlen(kind_name[k]) &&
			    !strncmp(argv[i], kind_name[k], strlen(kind_name[k])))
				break;
		if (k == K_NR) {
			fprintf(stderr,
				"pagesizes: '%s' is not KIND:WEIGHT with KIND 4k, 2m, thp, 1g, "
				"heap or small\n",
				argv[i]);
			return 2;
		}
		if (bufs[k].used) {
			fprintf(stderr, "pagesizes: %s given twice\n", kind_name[k]);
			return 2;
		}
		bufs[k].used = 1;
		bufs[k].weight = (unsigned)tt_num("pagesizes", "WEIGHT", colon + 1);
	}
	if (wl_pin("pagesizes", run.cpu) != 0)
		return 1;
	for (int k = 0; k < K_NR; k++)
		if (bufs[k].used && map_buffer(k, span, strict) != 0)
			return 3;
	print_buffers("setup");

	for (wl_start(&run); wl_more(&run); run.done++) {
		for (int k = 0; k < K_NR; k++) {
			uint64_t n = (uint64_t)bufs[k].weight * unit;
			double tk;

			if (!bufs[k].used || !n)
				continue;
			tk = wl_now();
			wl_sink += touch_fn[k](n);
			bufs[k].loop_ns += (uint64_t)((wl_now() - tk) * 1e9);
			bufs[k].accesses += n;
			total += n;
		}
	}
	t = wl_now() - run.t0;
	print_buffers("end");
	printf("pagesizes: pid=%d cpu=%d rounds=%llu pattern=%s seconds=%.3f total_accesses=%llu\n",
	       (int)getpid(), sched_getcpu(), run.done, pattern_rand ? "rand" : "seq", t, total);
	return 0;
}
