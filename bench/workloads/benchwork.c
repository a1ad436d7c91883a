// SPDX-License-Identifier: GPL-2.0
/*
 * benchwork: the CPU-bound workload of the profiler benchmarks (bench/).
 *
 *   benchwork [-c CPU] [-d DEPTH] [-r ROUNDS | -s SECONDS] [-k ITERS] [-y SYSCALLS]
 *
 * Each round descends DEPTH frames (recursive descend(), frame pointers kept,
 * so a profiler's user stack walk has DEPTH + 3 frames to follow: main,
 * run_round, descend x DEPTH, spin_leaf) and runs ITERS iterations of integer
 * work in the leaf. With -y N the leaf also makes N getppid() + N 4 KiB reads
 * of /dev/zero per round, so a part of the samples land in the kernel with a
 * kernel stack on top of the deep user stack (handler-cost runs).
 *
 * -r runs a fixed amount of work (the slowdown measurement: profiled and
 * unprofiled runs do exactly the same work); -s runs whole rounds until
 * SECONDS have passed (load generator). Prints one line at the end:
 *   benchwork: pid=P cpu=C depth=D rounds=R iters=I seconds=S
 * "seconds" is the workload's own wall time from its first to its last round
 * (CLOCK_MONOTONIC), excluding process start-up and the profiler's own
 * set-up and tear-down.
 *
 * -M TAG writes "BENCH-PHASE begin TAG" and "BENCH-PHASE end TAG" lines to
 * /dev/console just outside that window, so the host can measure the
 * emulator over exactly the timed work (bench/tools/qemu_threads.sh).
 */
#include <fcntl.h>
#include <getopt.h>
#include <unistd.h>

#include "tests/workloads/wl_common.h"

#define MAX_DEPTH 512

static unsigned long long opt_iters = 100000, opt_sys;
static int zero_fd = -1;
static const char *opt_mark;
static char zbuf[4096];

/* Integer work; the asm keeps the compiler from folding the loop. */
__attribute__((noinline)) static unsigned long long spin_leaf(unsigned long long seed)
{
	WL_FRAME();
	unsigned long long x = seed | 1;

	for (unsigned long long i = 0; i < opt_iters; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		x ^= x >> 29;
		__asm__ volatile("" : "+r"(x));
	}
	for (unsigned long long i = 0; i < opt_sys; i++) {
		x += (unsigned long long)getppid();
		if (zero_fd >= 0 && read(zero_fd, zbuf, sizeof(zbuf)) > 0)
			x += (unsigned char)zbuf[x & 4095];
	}
	return x;
}

/* -M: one marker line on the console (best effort: no console, no line). */
static void mark(const char *what)
{
	char line[256];
	int fd, n;

	if (!opt_mark)
		return;
	fd = open("/dev/console", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "BENCH-PHASE %s %s\n", what, opt_mark);
	if (n > 0 && n < (int)sizeof(line) && write(fd, line, (size_t)n) < 0)
		perror("benchwork: /dev/console");
	close(fd);
}

/* One frame per level; the volatile local keeps each frame real. */
__attribute__((noinline)) static unsigned long long descend(unsigned int depth,
							    unsigned long long seed)
{
	volatile unsigned long long keep = seed;

	if (depth == 0)
		return spin_leaf(keep);
	return descend(depth - 1, keep + depth) + keep;
}

__attribute__((noinline)) static unsigned long long run_round(unsigned int depth,
							      unsigned long long r)
{
	return descend(depth, r);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: benchwork [-c CPU] [-d DEPTH] [-r ROUNDS | -s SECONDS] [-k ITERS] "
		"[-y SYSCALLS] [-M TAG]\n"
		"  each round: DEPTH nested calls (default 24), ITERS loop iterations in the\n"
		"  leaf (default 100000), SYSCALLS getppid()+read(/dev/zero) pairs (default 0);\n"
		"  -M TAG: BENCH-PHASE begin/end TAG lines on /dev/console around the timed work;\n"
		"  default: -s 2\n");
}

int main(int argc, char **argv)
{
	struct wl_run run = {.prog = "benchwork", .usage = usage, .cpu = -1, .seconds = 2};
	unsigned int depth = 24;
	double t;
	TT_OPTS(o, TT_NUM('d', &depth, "DEPTH"), TT_NUM('k', &opt_iters, "ITERS"),
		TT_NUM('y', &opt_sys, "SYSCALLS"), TT_STR('M', &opt_mark));

	wl_run_parse(&run, argc, argv, "c:d:r:s:k:y:M:h", o);
	if (optind != argc || depth > MAX_DEPTH) {
		if (depth > MAX_DEPTH)
			fprintf(stderr, "benchwork: DEPTH %u is more than %d\n", depth, MAX_DEPTH);
		wl_usage_error(&run);
	}
	if (wl_pin("benchwork", run.cpu) != 0)
		return 1;
	if (opt_sys) {
		zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
		if (zero_fd < 0) {
			perror("benchwork: /dev/zero");
			return 1;
		}
	}

	mark("begin");
	for (wl_start(&run); wl_more(&run); run.done++)
		wl_sink += run_round(depth, run.done);
	t = wl_now() - run.t0;
	mark("end");
	printf("benchwork: pid=%d cpu=%d depth=%u rounds=%llu iters=%llu seconds=%.4f\n",
	       (int)getpid(), sched_getcpu(), depth, run.done, run.done * opt_iters, t);
	return 0;
}
