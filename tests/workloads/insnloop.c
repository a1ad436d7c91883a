// SPDX-License-Identifier: GPL-2.0
/*
 * insnloop: loops whose retired-instruction and branch counts are known
 * exactly, for checking a PMU (the emulated one of tests/vm/qemu-pmu, or a
 * real one) against Linux perf.
 *
 *   insnloop loop N     N iterations of "add; sub; jnz": 3N instructions
 *                       and N branches retired at CPL 3, plus the program's
 *                       fixed start and exit
 *   insnloop rdpmc N    the same loop counted by perf_event_open
 *                       (instructions:u) and read both ways: read(2) and
 *                       user-mode RDPMC through the event's mmap page;
 *                       prints "rdpmc: read=R rdpmc=P loop=3N"
 *
 * Run the loop mode for two values of N: the difference of the counts must
 * be exactly 3 dN instructions and dN branches whatever the fixed part is.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wl_common.h"

#define INSNS_PER_ITER 3

/* not inlined: perf attributes the samples to "loop" */
__attribute__((noinline)) static void loop(unsigned long long n)
{
	if (!n)
		return;
	/* exactly three instructions per iteration, the last one a branch */
	__asm__ volatile("1:\n\t"
			 "add $1, %%rax\n\t"
			 "sub $1, %0\n\t"
			 "jnz 1b"
			 : "+r"(n)
			 :
			 : "rax", "cc");
}

static uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
}

/* The perf_event_mmap_page protocol (include/uapi/linux/perf_event.h). */
static int64_t mmap_read(volatile struct perf_event_mmap_page *pc)
{
	uint32_t seq, idx;
	int64_t count;

	do {
		seq = pc->lock;
		__sync_synchronize();
		idx = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			int64_t pmc = (int64_t)rdpmc(idx - 1);

			pmc <<= 64 - pc->pmc_width;
			pmc >>= 64 - pc->pmc_width;
			count += pmc;
		} else {
			return -1;
		}
		__sync_synchronize();
	} while (pc->lock != seq);
	return count;
}

static int do_rdpmc(unsigned long long n)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	long page = sysconf(_SC_PAGESIZE);
	void *pc;
	int64_t before, after;
	uint64_t r;
	int fd;

	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		perror("insnloop: perf_event_open(instructions:u)");
		return 1;
	}
	pc = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		perror("insnloop: mmap of the perf event");
		return 1;
	}
	before = mmap_read(pc);
	loop(n);
	after = mmap_read(pc);
	if (before < 0 || after < 0) {
		fprintf(stderr, "insnloop: user RDPMC not offered (cap_user_rdpmc=0)\n");
		return 1;
	}
	if (read(fd, &r, sizeof(r)) != sizeof(r)) {
		perror("insnloop: read of the perf event");
		return 1;
	}
	printf("rdpmc: read=%llu rdpmc=%lld loop=%llu\n", (unsigned long long)r,
	       (long long)(after - before), n * INSNS_PER_ITER);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long n;

	if (argc != 3) {
		fprintf(stderr, "usage: insnloop loop|rdpmc N\n");
		return 2;
	}
	n = tt_num("insnloop", "N", argv[2]);
	if (!strcmp(argv[1], "loop")) {
		loop(n);
		return 0;
	}
	if (!strcmp(argv[1], "rdpmc"))
		return do_rdpmc(n);
	fprintf(stderr, "insnloop: unknown mode '%s' (loop or rdpmc)\n", argv[1]);
	return 2;
}
