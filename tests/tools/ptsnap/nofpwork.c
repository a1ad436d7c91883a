// SPDX-License-Identifier: MIT
/*
 * nofpwork: the host workload of the DWARF-unwinding test (ptsnap), built
 * with -O2 -fomit-frame-pointer and linked against the system libc, so
 * neither it nor libc keeps frame pointers. Known call paths:
 *   main -> phase_a -> walk -> leaf       (a plain call chain)
 *   main -> sort_phase -> qsort -> ... -> cmp   (a comparator libc calls back)
 * Prints "ready" once main runs, then loops until killed, or for SECONDS
 * when given one (the VM scenario dwarf_unwind runs a static build of it).
 *
 *   nofpwork [SECONDS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t leaf(uint64_t x)
{
	for (int i = 0; i < 2000; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b97f4a7c15ull + (uint64_t)i;
	return x;
}

__attribute__((noinline)) static uint64_t walk(uint64_t x)
{
	uint64_t a = 0;

	for (int i = 0; i < 64; i++)
		a += leaf(x + (uint64_t)i);
	return a;
}

__attribute__((noinline)) static uint64_t phase_a(uint64_t x)
{
	uint64_t a = 0;

	for (int i = 0; i < 16; i++)
		a ^= walk(x * 3 + (uint64_t)i);
	return a;
}

/* hot comparator: most of sort_phase's time is spent here */
__attribute__((noinline)) static int cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb, h = a ^ b;

	for (int i = 0; i < 200; i++)
		h = (h ^ (h >> 5)) * 0xff51afd7ed558ccdull;
	sink = h;
	return a < b ? -1 : a > b;
}

__attribute__((noinline)) static void sort_phase(uint64_t *v, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = seed >> 11;
	}
	qsort(v, n, sizeof(*v), cmp);
	sink = v[0]; /* no tail call: sort_phase stays on the stack */
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static uint64_t v[2048];
	uint64_t x = 1;
	double end = argc > 1 ? now() + atof(argv[1]) : 0;

	printf("ready\n");
	fflush(stdout);
	while (!end || now() < end) {
		x += phase_a(x);
		sort_phase(v, sizeof(v) / sizeof(v[0]), x);
		sink = x;
	}
	printf("nofpwork: done\n");
	return 0;
}
