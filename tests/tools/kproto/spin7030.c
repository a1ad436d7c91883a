// SPDX-License-Identifier: GPL-2.0
/*
 * spin7030: hot_a() and hot_b() split the CPU time 70/30 by construction
 * (identical loop bodies, 7:3 iteration counts per round), like
 * tests/workloads/split7030.c, but each hot function is guaranteed its own
 * frame pointer: gcc 12 drops the frame of a leaf function even with
 * -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer, which hides main
 * from a frame-pointer walk (the leaf's caller is never on the rbp chain).
 * Taking __builtin_frame_address(0) makes gcc set up rbp.
 *
 *   spin7030 [SECONDS]        (default 3)
 * Prints "spin7030: pid=P rounds=R" at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define K 200000ull

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define SPIN(iters)                                                                                \
	do {                                                                                       \
		__asm__ volatile("" : : "r"(__builtin_frame_address(0)));                          \
		for (unsigned long long i = 0; i < (iters); i++) {                                 \
			x = x * 6364136223846793005ull + 1442695040888963407ull;                   \
			x ^= x >> 29;                                                              \
			__asm__ volatile("" : "+r"(x));                                            \
		}                                                                                  \
	} while (0)

__attribute__((noinline)) unsigned long long hot_a(unsigned long long iters)
{
	unsigned long long x = iters | 1;

	SPIN(iters);
	return x;
}

__attribute__((noinline)) unsigned long long hot_b(unsigned long long iters)
{
	unsigned long long x = iters | 1;

	SPIN(iters);
	return x;
}

volatile unsigned long long sink;

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3, t0 = now();
	unsigned long long rounds = 0;

	do {
		sink += hot_a(7 * K);
		sink += hot_b(3 * K);
		rounds++;
	} while (now() - t0 < secs);
	printf("spin7030: pid=%d rounds=%llu\n", (int)getpid(), rounds);
	return 0;
}
