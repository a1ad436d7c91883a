/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the test workloads in tests/workloads (and
 * bench/workloads): CPU pinning, a monotonic clock, the round loop and its
 * options, random and sequential loads; numbers and options parse with
 * tests/tools/opts.h. Header-only so that each workload stays a single
 * static binary built from one .c file.
 */
#ifndef PMUPROF_WL_COMMON_H
#define PMUPROF_WL_COMMON_H

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "tests/tools/opts.h"

#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif
#ifndef MAP_HUGE_1GB
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)
#endif
#define SZ_2M (2UL << 20)
#define SZ_1G (1UL << 30)

/*
 * Put at the top of every hot leaf function: GCC 12 drops the frame-pointer
 * setup of leaf functions that use no stack even with -fno-omit-frame-pointer
 * -mno-omit-leaf-frame-pointer, and a frame-pointer walk from such a function
 * skips its caller (main -> hot_a would show as __libc_start_call_main ->
 * hot_a). Taking the frame address forces "push %rbp; mov %rsp,%rbp".
 */
#define WL_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))

/* Keeps a value alive without letting the compiler drop the work. */
static volatile unsigned long wl_sink;

static inline double wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Pin the calling thread to one CPU; returns 0 or -errno (with a message). */
static inline int wl_pin(const char *prog, int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		int err = errno;

		fprintf(stderr, "%s: cannot pin to cpu %d: %s (is that CPU online?)\n", prog, cpu,
			strerror(err));
		return -err;
	}
	return 0;
}

/*
 * The round loop of the timed workloads: -c CPU, -r ROUNDS (a fixed count)
 * or -s SECONDS (rounds until that much time has passed; at least one).
 * The loop body stays in the caller's frame, so profiled stacks read
 * main -> hot function:
 *	for (wl_start(&run); wl_more(&run); run.done++) { one round }
 */
struct wl_run {
	const char *prog;
	void (*usage)(FILE *f);
	int cpu;
	unsigned long long rounds, done;
	double seconds, t0;
};

/* Usage on stderr, exit 2. */
static inline void wl_usage_error(const struct wl_run *r)
{
	r->usage(stderr);
	exit(2);
}

/*
 * getopt's OPT/ARG if it is -c, -r, -s, -h (usage on stdout, exit 0) or an
 * unknown option (wl_usage_error): 1 when handled, else 0.
 */
static inline int wl_run_opt(struct wl_run *r, int opt, const char *arg)
{
	switch (opt) {
	case 'h':
		r->usage(stdout);
		exit(0);
	case '?':
		wl_usage_error(r);
		return 1;
	case 'c':
		r->cpu = (int)tt_num(r->prog, "CPU", arg);
		return 1;
	case 'r':
		r->rounds = tt_num(r->prog, "ROUNDS", arg);
		r->seconds = 0;
		return 1;
	case 's':
		r->seconds = tt_seconds(r->prog, arg);
		r->rounds = 0;
		return 1;
	}
	return 0;
}

/* Options through table T (tests/tools/opts.h) and wl_run_opt, SHORTOPTS
 * naming them all: the first option neither holds, or -1 at the end. */
static inline int wl_run_parse(struct wl_run *r, int argc, char **argv, const char *shortopts,
			       const struct tt_opt *t)
{
	int opt;

	while ((opt = tt_opts_next(argc, argv, shortopts, NULL, t, r->prog)) != -1)
		if (!wl_run_opt(r, opt, optarg))
			return opt;
	return -1;
}

/*
 * The start of a workload taking options only: wl_run_parse (every option
 * in T or the round options), then no operands and *count non-zero, else
 * wl_usage_error; then pinned to -c CPU. 0, or -1 when it cannot pin.
 */
static inline int wl_run_begin(struct wl_run *r, int argc, char **argv, const char *shortopts,
			       const struct tt_opt *t, const unsigned long long *count)
{
	wl_run_parse(r, argc, argv, shortopts, t);
	if (optind != argc || *count == 0)
		wl_usage_error(r);
	return wl_pin(r->prog, r->cpu) != 0 ? -1 : 0;
}

static inline void wl_start(struct wl_run *r)
{
	r->done = 0;
	r->t0 = wl_now();
}

static inline int wl_more(const struct wl_run *r)
{
	if (r->rounds)
		return r->done < r->rounds;
	return r->done == 0 || wl_now() - r->t0 < r->seconds;
}

/*
 * N dependent loads at pseudo-random 64-byte-aligned offsets (& MASK) of
 * BASE, the next offset from an LCG state (*STATE, updated): one TLB
 * lookup per load that the prefetchers cannot guess. Inlined into the
 * caller, which is the function the samples name.
 */
static inline __attribute__((always_inline)) uint64_t wl_rand_loads(const char *base, uint64_t mask,
								    uint64_t n, uint64_t *state)
{
	uint64_t sum = 0, s = *state, o = (s >> 17) & mask;
	uint64_t mul = 6364136223846793005ULL, inc = 1442695040888963407ULL;

	__asm__ volatile("1:\n\t"
			 "addq (%[base],%[o]), %[sum]\n\t"
			 "imulq %[mul], %[s]\n\t"
			 "addq %[inc], %[s]\n\t"
			 "movq %[s], %[o]\n\t"
			 "shrq $17, %[o]\n\t"
			 "andq %[mask], %[o]\n\t"
			 "decq %[n]\n\t"
			 "jnz 1b\n\t"
			 : [sum] "+r"(sum), [o] "+r"(o), [n] "+r"(n), [s] "+r"(s)
			 : [base] "r"(base), [mask] "r"(mask), [mul] "r"(mul), [inc] "r"(inc)
			 : "cc", "memory");
	*state = s;
	return sum;
}

/*
 * N loads walking BASE sequentially, STRIDE bytes apart (a constant),
 * wrapping at MASK; the offset is *OFF (updated). The load (add from memory)
 * sits at the branch target "1:", the first instruction of a TCG block, so a
 * sampled IP is the load itself. n must be non-zero.
 */
static inline __attribute__((always_inline)) uint64_t
wl_seq_loads(const char *base, uint64_t mask, uint64_t n, uint64_t *off, uint64_t stride)
{
	uint64_t sum = 0, o = *off;

	__asm__ volatile("1:\n\t"
			 "addq (%[base],%[o]), %[sum]\n\t"
			 "addq %[stride], %[o]\n\t"
			 "andq %[mask], %[o]\n\t"
			 "decq %[n]\n\t"
			 "jnz 1b\n\t"
			 : [sum] "+r"(sum), [o] "+r"(o), [n] "+r"(n)
			 : [base] "r"(base), [mask] "r"(mask), [stride] "i"(stride)
			 : "cc", "memory");
	*off = o;
	return sum;
}

/*
 * Defines touch_NAME(n): n loads over the buffer *BUF (a struct buffer with
 * base, span and state), at random (wl_rand_loads) while RAND is true, else
 * sequential (wl_seq_loads, 64 bytes apart), within the span 8-byte aligned. One noinline
 * function per buffer, so samples name the buffer they touched.
 */
#define WL_DEFINE_TOUCH(name, BUF, RAND)                                                           \
	__attribute__((noinline)) uint64_t touch_##name(uint64_t n)                                \
	{                                                                                          \
		struct buffer *b = (BUF);                                                          \
		WL_FRAME();                                                                        \
		uint64_t mask = (b->span - 1) & ~(uint64_t)7;                                      \
		if (RAND)                                                                          \
			return wl_rand_loads(b->base, mask, n, &b->state);                         \
		return wl_seq_loads(b->base, mask, n, &b->state, 64);                              \
	}

#endif
