// SPDX-License-Identifier: GPL-2.0
/*
 * split7030: a CPU-bound workload whose time splits 70/30 between hot_a()
 * and hot_b() by construction: every round calls hot_a(7 * K) and
 * hot_b(3 * K), and both run the identical loop body, so the split follows
 * from iteration counts, not timers. Used by the sampling-accuracy tests
 * (expected: 70 +- 7 % hot_a, 30 +- 7 % hot_b; stacks main -> hot_X).
 *
 *   split7030 [-c CPU] [-r ROUNDS | -s SECONDS] [-k ITERS_PER_UNIT]
 *
 * -r runs exactly ROUNDS rounds; -s runs whole rounds until SECONDS have
 * passed (checked only between rounds, so the split stays exact). Prints one
 * parseable line at the end:
 *   split7030: pid=P cpu=C rounds=R iters_a=A iters_b=B seconds=S
 */
#include <getopt.h>
#include <unistd.h>

#include "wl_common.h"

/* One loop iteration of integer work; identical in both hot functions. */
#define SPIN_BODY(x) ((x) = (x)*6364136223846793005ULL + 1442695040888963407ULL, (x) ^= (x) >> 29)

/* hot_a and hot_b: the same loop in two functions for samples to tell apart */
#define DEFINE_HOT(name)                                                                           \
	__attribute__((noinline)) unsigned long long name(unsigned long long iters)                \
	{                                                                                          \
		WL_FRAME();                                                                        \
		unsigned long long x = iters | 1;                                                  \
                                                                                                   \
		for (unsigned long long i = 0; i < iters; i++) {                                   \
			SPIN_BODY(x);                                                              \
			__asm__ volatile("" : "+r"(x));                                            \
		}                                                                                  \
		return x;                                                                          \
	}
DEFINE_HOT(hot_a)
DEFINE_HOT(hot_b)

static void usage(FILE *f)
{
	fprintf(f, "usage: split7030 [-c CPU] [-r ROUNDS | -s SECONDS] [-k ITERS_PER_UNIT]\n"
		   "  hot_a does 7*K and hot_b 3*K iterations per round (default K=200000);\n"
		   "  default: -s 2\n");
}

int main(int argc, char **argv)
{
	struct wl_run run = {.prog = "split7030", .usage = usage, .cpu = -1, .seconds = 2};
	unsigned long long k = 200000;
	TT_OPTS(o, TT_NUM('k', &k, "ITERS_PER_UNIT"));

	if (wl_run_begin(&run, argc, argv, "c:r:s:k:h", o, &k) != 0)
		return 1;

	for (wl_start(&run); wl_more(&run); run.done++) {
		wl_sink += hot_a(7 * k);
		wl_sink += hot_b(3 * k);
	}
	printf("split7030: pid=%d cpu=%d rounds=%llu iters_a=%llu iters_b=%llu seconds=%.3f\n",
	       (int)getpid(), sched_getcpu(), run.done, run.done * 7 * k, run.done * 3 * k,
	       wl_now() - run.t0);
	return 0;
}
