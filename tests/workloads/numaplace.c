// SPDX-License-Identifier: GPL-2.0
/*
 * numaplace: a workload with known NUMA placement for the data-node tests
 * (issue 20). Maps one buffer per KIND@NODE:WEIGHT argument, binds it to NODE
 * before first touch (mbind(2) MPOL_BIND, raw syscall: the guest binaries are
 * static and libnuma is not needed for this), and touches the buffers from one
 * thread pinned to CPU -c in the proportions given:
 *   4k   anonymous memory with MADV_NOHUGEPAGE
 *   thp  anonymous, 2 MiB aligned, MADV_HUGEPAGE (a transparent huge page)
 *   1g   anonymous MAP_HUGETLB | MAP_HUGE_1GB: one page of the boot-time
 *        hugetlbfs pool (the pool must have a free 1 GiB page on NODE)
 *
 *   numaplace [-c CPU] [-s SECONDS] [-m SPAN_MB] [-u ACCESSES_PER_UNIT]
 *             KIND@NODE:WEIGHT...
 *   e.g. numaplace -c 0 -s 6 -m 1 4k@0:40 thp@1:30 4k@1:20 thp@0:10
 *
 * The truth is checked here, after the buffers are faulted in and before the
 * timed part, from two independent sources: move_pages(2) (nodes = NULL:
 * where each 4 KiB page of the touched range is) and /proc/self/numa_maps (the
 * buffer's VMA: "bind:NODE" and pages only on NODE, "N<node>=<pages>"); and
 * the page size from /proc/self/smaps (AnonHugePages for THP, KernelPageSize
 * for hugetlbfs). A buffer that is not
 * where it was asked makes the program exit 4 before the timed part: the
 * setup failed, not the profiler.
 *
 * Each round performs WEIGHT * U loads on each buffer (deterministic
 * counts), sequentially with a 64-byte stride over its first SPAN_MB MiB;
 * the loop's load is the first instruction at the branch target (QEMU TCG
 * takes interrupts at translation-block starts; see PLATFORM.md), one
 * function per buffer (touch_0 ... touch_7). Output (stdout, key=value):
 *   buffer name=bI kind=4k|thp|1g node=N start=0x... end=0x... span=BYTES
 *          weight=W move_pages=N numa_maps=N anonhuge_kb=K page_kb=P accesses=A
 *          loop_ns=T function=touch_I      (phase=setup, then phase=end)
 *   numaplace: pid=P cpu=C rounds=R seconds=S total_accesses=N
 * [start, end) is exactly the range the loads fall in.
 */
#include <getopt.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tests/tools/common.h"
#include "wl_common.h"

#define MAX_BUFS   8
#define MPOL_BIND_ 2 /* <linux/mempolicy.h> MPOL_BIND */

enum kind { KIND_4K, KIND_THP, KIND_1G };
static const char *const kind_name[] = {"4k", "thp", "1g"};

struct buffer {
	enum kind kind;
	int node;
	unsigned weight;
	char *base;	/* start of the bound, faulted-in region (2 MiB aligned) */
	size_t len;	/* its length */
	size_t span;	/* the touched range [base, base + span) */
	uint64_t state; /* sequential offset */
	uint64_t accesses, loop_ns;
	int mp_node, nm_node;		    /* node found by move_pages / numa_maps, -1 mixed */
	unsigned long anonhuge_kb, page_kb; /* smaps AnonHugePages, KernelPageSize */
};

static struct buffer bufs[MAX_BUFS];
static int nbufs;

WL_DEFINE_TOUCH(0, &bufs[0], 0)
WL_DEFINE_TOUCH(1, &bufs[1], 0)
WL_DEFINE_TOUCH(2, &bufs[2], 0)
WL_DEFINE_TOUCH(3, &bufs[3], 0)
WL_DEFINE_TOUCH(4, &bufs[4], 0)
WL_DEFINE_TOUCH(5, &bufs[5], 0)
WL_DEFINE_TOUCH(6, &bufs[6], 0)
WL_DEFINE_TOUCH(7, &bufs[7], 0)

static uint64_t (*const touch_fn[MAX_BUFS])(uint64_t) = {touch_0, touch_1, touch_2, touch_3,
							 touch_4, touch_5, touch_6, touch_7};

static int map_buffer(struct buffer *b, size_t span)
{
	unsigned long mask[2] = {0, 0};
	char *p;

	b->span = span;
	/* a huge page is 2 MiB (1 GiB) whatever the touched span; 4k buffers
	 * bind what they touch */
	b->len = b->kind == KIND_1G    ? SZ_1G
		 : b->kind == KIND_THP ? (span + SZ_2M - 1) & ~(SZ_2M - 1)
				       : span;
	if (b->kind == KIND_1G) {
		p = mmap(NULL, b->len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_1GB, -1, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr,
				"numaplace: mmap of a 1 GiB hugetlbfs page failed: %s (boot with "
				"hugepagesz=1G hugepages=1)\n",
				strerror(errno));
			return -1;
		}
		b->base = p;
	} else {
		p = mmap(NULL, b->len + SZ_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "numaplace: mmap of %zu bytes failed: %s\n", b->len + SZ_2M,
				strerror(errno));
			return -1;
		}
		b->base = (char *)(((uintptr_t)p + SZ_2M - 1) & ~(uintptr_t)(SZ_2M - 1));
		if (madvise(b->base, b->len,
			    b->kind == KIND_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE)) {
			fprintf(stderr, "numaplace: madvise(%s): %s\n",
				b->kind == KIND_THP ? "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE",
				strerror(errno));
			return -1;
		}
	}
	if (b->node < 0 || b->node >= 128) {
		fprintf(stderr, "numaplace: node %d out of range\n", b->node);
		return -1;
	}
	mask[b->node / 64] = 1UL << (b->node % 64);
	if (syscall(SYS_mbind, b->base, b->len, MPOL_BIND_, mask, 128UL, 0U) != 0) {
		fprintf(stderr, "numaplace: mbind(node %d): %s (is there such a node?)\n", b->node,
			strerror(errno));
		return -1;
	}
	/* first touch: allocates on the bound node (a 1 GiB page at its first
	 * byte: no need to write the whole of it) */
	memset(b->base, 1, b->kind == KIND_1G ? span : b->len);
	return 0;
}

/* move_pages(2) with nodes = NULL: the node of every 4 KiB page of the
 * touched range; the common node, or -1 if they differ or a query fails. */
static int move_pages_node(const struct buffer *b)
{
	size_t n = b->span / 4096;
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));
	int node = -2;

	if (!pages || !status)
		return -1;
	for (size_t i = 0; i < n; i++)
		pages[i] = b->base + i * 4096;
	if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0) != 0) {
		fprintf(stderr, "numaplace: move_pages: %s\n", strerror(errno));
		node = -1;
	}
	for (size_t i = 0; i < n && node != -1; i++) {
		if (status[i] < 0 || (node >= 0 && status[i] != node))
			node = -1;
		else
			node = status[i];
	}
	free(pages);
	free(status);
	return node < 0 ? -1 : node;
}

/* The buffer's VMA in /proc/self/numa_maps: the one node holding its pages
 * ("N<node>=<pages>", and "bind:<node>"), or -1. */
static int numa_maps_node(const struct buffer *b)
{
	FILE *f = fopen("/proc/self/numa_maps", "r");
	char line[1024];
	int node = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start = strtoul(line, NULL, 16);
		char want[32], *t;
		int seen = 0, nodes = 0;

		if (start != (uintptr_t)b->base)
			continue;
		snprintf(want, sizeof(want), " bind:%d", b->node);
		if (!strstr(line, want))
			break;
		for (t = strstr(line, " N"); t; t = strstr(t + 1, " N")) {
			int nd;
			unsigned long pages;

			if (sscanf(t, " N%d=%lu", &nd, &pages) == 2 && pages) {
				nodes++;
				seen = nd;
			}
		}
		if (nodes == 1)
			node = seen;
		break;
	}
	fclose(f);
	return node;
}

/* A "FIELD: N kB" line of the buffer's VMA in /proc/self/smaps, 0 if none. */
static unsigned long smaps_kb(const struct buffer *b, const char *field)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512], fmt[64];
	int in = 0;
	unsigned long v = 0;

	if (!f)
		return 0;
	snprintf(fmt, sizeof(fmt), "%s: %%lu kB", field);
	while (fgets(line, sizeof(line), f)) {
		unsigned long s, e;

		if (sscanf(line, "%lx-%lx ", &s, &e) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			if (in)
				break;
			in = (uintptr_t)b->base >= s && (uintptr_t)b->base < e;
			continue;
		}
		if (in && sscanf(line, fmt, &v) == 1)
			break;
	}
	fclose(f);
	return in ? v : 0;
}

static void print_buffers(const char *phase)
{
	for (int i = 0; i < nbufs; i++) {
		const struct buffer *b = &bufs[i];

		printf("buffer phase=%s name=b%d kind=%s node=%d start=%#lx end=%#lx span=%zu "
		       "weight=%u move_pages=%d numa_maps=%d anonhuge_kb=%lu page_kb=%lu "
		       "accesses=%llu "
		       "loop_ns=%llu function=touch_%d\n",
		       phase, i, kind_name[b->kind], b->node, (unsigned long)(uintptr_t)b->base,
		       (unsigned long)(uintptr_t)b->base + b->span, b->span, b->weight, b->mp_node,
		       b->nm_node, b->anonhuge_kb, b->page_kb, (unsigned long long)b->accesses,
		       (unsigned long long)b->loop_ns, i);
	}
	fflush(stdout);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: numaplace [-c CPU] [-s SECONDS] [-m SPAN_MB] [-u ACCESSES_PER_UNIT]\n"
		   "                 KIND@NODE:WEIGHT...\n"
		   "  KIND: 4k, thp or 1g; e.g. 4k@0:40 thp@1:30 4k@1:20 thp@0:10 (at most 8)\n"
		   "  defaults: -s 2 -m 1 -u 2000; exit 4 if a buffer is not where asked\n");
}

int main(int argc, char **argv)
{
	int cpu = -1, opt, bad = 0;
	unsigned long long unit = 2000, span_mb = 1, done = 0, total = 0;
	double seconds = 2, t0, t;

	TT_OPTS(o, TT_NUM('c', &cpu, "CPU"), TT_SECS('s', &seconds),
		TT_NUM('m', &span_mb, "SPAN_MB"), TT_NUM('u', &unit, "ACCESSES_PER_UNIT"));

	opt = tt_opts_next(argc, argv, "c:s:m:u:h", NULL, o, "numaplace");
	if (opt != -1) /* -h, or an option it does not know */
		return tt_usage(opt, usage);
	if (span_mb == 0 || (span_mb & (span_mb - 1)) || span_mb > 256 || unit == 0 ||
	    optind == argc || argc - optind > MAX_BUFS) {
		usage(stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		struct buffer *b = &bufs[nbufs++];
		char kind[8];
		int node;
		unsigned w;

		if (sscanf(argv[i], "%7[a-z0-9]@%d:%u", kind, &node, &w) != 3 ||
		    (strcmp(kind, "4k") && strcmp(kind, "thp") && strcmp(kind, "1g"))) {
			fprintf(stderr,
				"numaplace: '%s' is not KIND@NODE:WEIGHT (KIND 4k, thp or 1g)\n",
				argv[i]);
			return 2;
		}
		b->kind = !strcmp(kind, "thp") ? KIND_THP : !strcmp(kind, "1g") ? KIND_1G : KIND_4K;
		b->node = node;
		b->weight = w;
	}
	if (wl_pin("numaplace", cpu) != 0)
		return 1;
	for (int i = 0; i < nbufs; i++)
		if (map_buffer(&bufs[i], (size_t)span_mb << 20) != 0)
			return 3;
	for (int i = 0; i < nbufs; i++) {
		struct buffer *b = &bufs[i];

		b->mp_node = move_pages_node(b);
		b->nm_node = numa_maps_node(b);
		b->anonhuge_kb = smaps_kb(b, "AnonHugePages");
		b->page_kb = smaps_kb(b, "KernelPageSize");
		if (b->mp_node != b->node || b->nm_node != b->node)
			bad = 1;
		else if (b->kind == KIND_1G    ? b->page_kb != SZ_1G >> 10
			 : b->kind == KIND_THP ? b->anonhuge_kb < b->len >> 10
					       : b->anonhuge_kb != 0)
			bad = 1;
	}
	print_buffers("setup");
	if (bad) {
		fprintf(stderr, "numaplace: a buffer is not on the node or page size asked for "
				"(see the buffer lines): setup failed\n");
		return 4;
	}

	t0 = wl_now();
	for (;;) {
		for (int i = 0; i < nbufs; i++) {
			uint64_t n = (uint64_t)bufs[i].weight * unit;
			double tk;

			if (!n)
				continue;
			tk = wl_now();
			wl_sink += touch_fn[i](n);
			bufs[i].loop_ns += (uint64_t)((wl_now() - tk) * 1e9);
			bufs[i].accesses += n;
			total += n;
		}
		done++;
		if (wl_now() - t0 >= seconds)
			break;
	}
	t = wl_now() - t0;
	print_buffers("end");
	printf("numaplace: pid=%d cpu=%d rounds=%llu seconds=%.3f total_accesses=%llu\n",
	       (int)getpid(), sched_getcpu(), done, t, total);
	return 0;
}
