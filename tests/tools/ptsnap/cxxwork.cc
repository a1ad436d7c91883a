// SPDX-License-Identifier: MIT
/*
 * cxxwork: the C++ workload of the DWARF tests (issue 18): templates and a
 * hot helper the compiler inlines, built with g++ -O2 -fomit-frame-pointer
 * -g. Known call paths (frames of inlined functions in brackets):
 *   main -> pmu::run<pmu::Mix>  -> [pmu::Mix::apply]  -> [pmu::hot_mix]
 *   main -> pmu::run<pmu::Fold> -> [pmu::Fold::apply] -> [pmu::hot_mix]
 *   main -> pmu::clock_phase -> clock_gettime (libc) -> the vDSO's
 * run<Mix> does about twice the work of run<Fold>. apply() and hot_mix()
 * are always_inline: they exist only in the DWARF debug info, as inlined
 * instances inside each run<> (no symbol of their own). clock_phase spends
 * its time in the vDSO, which a stack copy can only be unwound through
 * with the image of the [vdso] the recording holds.
 * Prints "ready" once main runs, then loops until killed, or for SECONDS
 * when given one. -c CALLS: clock_gettime calls per round (default 500; 0:
 * no clock_phase, no time in the vDSO or libc). Under TCG a vDSO call
 * costs far more than natively (500 take half the time there, 6 % here).
 *
 *   cxxwork [-c CALLS] [SECONDS]
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace pmu
{
static volatile uint64_t sink;

/* the hot helper */
__attribute__((always_inline)) static inline uint64_t hot_mix(uint64_t a, uint64_t x, int rounds)
{
	for (int i = 0; i < rounds; i++)
		a = (a ^ (x >> 7)) * 0x9e3779b97f4a7c15ull + (uint64_t)i;
	return a;
}

struct Mix {
	__attribute__((always_inline)) static inline uint64_t apply(uint64_t a, uint64_t x)
	{
		return hot_mix(a, x, 2000);
	}
};

struct Fold {
	__attribute__((always_inline)) static inline uint64_t apply(uint64_t a, uint64_t x)
	{
		return hot_mix(a ^ 0x55, x + 1, 1000);
	}
};

template <typename Op> __attribute__((noinline)) uint64_t run(uint64_t x)
{
	uint64_t a = x;

	for (int i = 0; i < 64; i++)
		a = Op::apply(a, x + (uint64_t)i);
	sink = a; /* no tail call */
	return a;
}
/* the vDSO: clock_gettime without a system call */
__attribute__((noinline)) uint64_t clock_phase(int calls)
{
	struct timespec t;
	uint64_t a = 0;

	for (int i = 0; i < calls; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		a += (uint64_t)t.tv_nsec;
	}
	sink = a; /* no tail call */
	return a;
}
} // namespace pmu

static double now()
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	uint64_t x = 1;
	int calls = 500;
	if (argc > 2 && !strcmp(argv[1], "-c")) {
		calls = atoi(argv[2]);
		argc -= 2;
		argv += 2;
	}
	double end = argc > 1 ? now() + atof(argv[1]) : 0;

	printf("ready\n");
	fflush(stdout);
	while (!end || now() < end) {
		x += pmu::run<pmu::Mix>(x);
		x += pmu::run<pmu::Fold>(x);
		if (calls > 0)
			x += pmu::clock_phase(calls);
		pmu::sink = x;
	}
	printf("cxxwork: done\n");
	return 0;
}
