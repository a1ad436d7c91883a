// SPDX-License-Identifier: GPL-2.0
/*
 * demo: the workload `make demo` profiles. A small program with a few
 * recognisable hot functions so the flamegraph, report and page-size
 * histogram have something to show:
 *
 *   main -> run_demo -> checksum_blocks   CPU-bound hashing of a small cached buffer
 *                    -> stream_sum        sequential reads of a 32 MiB THP buffer
 *                    -> chase_pointers    random pointer chasing in a 16 MiB 4 KiB-page buffer
 *                    -> scan_table        strided reads of a 16 MiB hugetlb 2 MiB buffer
 *                                         (ordinary memory when no hugetlb pool exists)
 *                    -> sort_records      qsort() of small records (libc frames)
 *
 *   demo [-s SECONDS | -r ROUNDS] [-c CPU]      (default -s 3)
 *
 * The memory loops put their load first at the branch target (QEMU TCG
 * samples at translation-block starts; see PLATFORM.md) so data addresses
 * can be decoded from the sampled instruction.
 */
#include <getopt.h>
#include <linux/mman.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wl_common.h"

#define SZ_2M	     (2UL << 20)
#define STREAM_BYTES (32UL << 20)
#define CHASE_BYTES  (16UL << 20)
#define TABLE_BYTES  (16UL << 20)
#define BLOCK_BYTES  (16UL << 10)
#define NRECORDS     4096

struct record {
	uint32_t key;
	uint32_t payload[3];
};

static unsigned char block[BLOCK_BYTES];
static struct record records[NRECORDS];
static char *stream_buf, *chase_buf, *table_buf;

__attribute__((noinline)) uint64_t checksum_blocks(unsigned reps)
{
	WL_FRAME();
	uint64_t h = 1469598103934665603ULL;

	for (unsigned r = 0; r < reps; r++)
		for (size_t i = 0; i < BLOCK_BYTES; i++)
			h = (h ^ block[i]) * 1099511628211ULL;
	return h;
}

__attribute__((noinline)) uint64_t stream_sum(uint64_t n)
{
	WL_FRAME();
	uint64_t off = 0;

	return wl_seq_loads(stream_buf, (STREAM_BYTES - 1) & ~(uint64_t)7, n, &off, 64);
}

__attribute__((noinline)) uint64_t chase_pointers(uint64_t n)
{
	WL_FRAME();
	char *p = chase_buf;

	__asm__ volatile("1:\n\t"
			 "movq (%[p]), %[p]\n\t"
			 "decq %[n]\n\t"
			 "jnz 1b\n\t"
			 : [p] "+r"(p), [n] "+r"(n)
			 :
			 : "cc", "memory");
	return (uint64_t)(uintptr_t)p;
}

__attribute__((noinline)) uint64_t scan_table(uint64_t n)
{
	WL_FRAME();
	uint64_t off = 0;

	return wl_seq_loads(table_buf, (TABLE_BYTES - 1) & ~(uint64_t)7, n, &off, 4160);
}

static int record_cmp(const void *a, const void *b)
{
	WL_FRAME();
	const struct record *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

__attribute__((noinline)) uint64_t sort_records(unsigned seed)
{
	WL_FRAME();
	uint32_t s = seed | 1;

	for (int i = 0; i < NRECORDS; i++) {
		s = s * 1103515245u + 12345u;
		records[i].key = s;
	}
	qsort(records, NRECORDS, sizeof(records[0]), record_cmp);
	return records[0].key;
}

static void *map_anon(size_t len, int advice)
{
	char *p =
		mmap(NULL, len + SZ_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	p = (char *)(((uintptr_t)p + SZ_2M - 1) & ~(uintptr_t)(SZ_2M - 1));
	madvise(p, len, advice);
	return p;
}

__attribute__((noinline)) int setup_buffers(void)
{
	size_t slots = CHASE_BYTES / 64;
	uint64_t s = 88172645463325252ULL;
	size_t *perm;

	for (size_t i = 0; i < BLOCK_BYTES; i++)
		block[i] = (unsigned char)(i * 31);
	stream_buf = map_anon(STREAM_BYTES, MADV_HUGEPAGE);
	chase_buf = map_anon(CHASE_BYTES, MADV_NOHUGEPAGE);
	table_buf = mmap(NULL, TABLE_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
	if (table_buf == MAP_FAILED) {
		fprintf(stderr,
			"demo: no 2 MiB hugetlb pages (%s); scan_table uses ordinary memory\n",
			strerror(errno));
		table_buf = map_anon(TABLE_BYTES, MADV_NOHUGEPAGE);
	}
	if (!stream_buf || !chase_buf || !table_buf) {
		fprintf(stderr, "demo: out of memory mapping the buffers\n");
		return -1;
	}
	memset(stream_buf, 3, STREAM_BYTES);
	memset(table_buf, 5, TABLE_BYTES);

	/* One random cycle through all 64-byte slots of chase_buf. */
	perm = malloc(slots * sizeof(*perm));
	if (!perm) {
		fprintf(stderr, "demo: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < slots; i++)
		perm[i] = i;
	for (size_t i = slots - 1; i > 0; i--) {
		size_t j, t;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		j = s % (i + 1);
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < slots; i++)
		*(char **)(chase_buf + perm[i] * 64) = chase_buf + perm[(i + 1) % slots] * 64;
	chase_buf += perm[0] * 64;
	free(perm);
	return 0;
}

__attribute__((noinline)) void run_demo(unsigned long long rounds, double seconds)
{
	WL_FRAME();
	double t0 = wl_now();

	for (unsigned long long r = 0; !rounds || r < rounds; r++) {
		wl_sink += checksum_blocks(300);
		wl_sink += stream_sum(6000000);
		wl_sink += chase_pointers(90000);
		wl_sink += scan_table(180000);
		wl_sink += sort_records((unsigned)r);
		if (!rounds && wl_now() - t0 >= seconds)
			break;
	}
}

int main(int argc, char **argv)
{
	int cpu = -1, opt;
	unsigned long long rounds = 0;
	double seconds = 3, t0;

	TT_OPTS(o, TT_NUM('c', &cpu, "CPU"), TT_NUM('r', &rounds, "ROUNDS"));

	while ((opt = tt_opts_next(argc, argv, "c:r:s:h", NULL, o, "demo")) != -1) {
		switch (opt) {
		case 's':
			seconds = tt_seconds("demo", optarg);
			rounds = 0;
			break;
		case 'h':
			printf("usage: demo [-s SECONDS | -r ROUNDS] [-c CPU]   (default -s 3)\n");
			return 0;
		default:
			fprintf(stderr, "usage: demo [-s SECONDS | -r ROUNDS] [-c CPU]\n");
			return 2;
		}
	}
	if (wl_pin("demo", cpu) != 0 || setup_buffers() != 0)
		return 1;
	t0 = wl_now();
	run_demo(rounds, seconds);
	printf("demo: pid=%d ran %.2f s: checksum_blocks stream_sum chase_pointers scan_table "
	       "sort_records\n",
	       (int)getpid(), wl_now() - t0);
	return 0;
}
