/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the test workloads in tests/workloads: CPU
 * pinning, a monotonic clock, number parsing. Header-only so that each
 * workload stays a single static binary built from one .c file.
 */
#ifndef PMUPROF_WL_COMMON_H
#define PMUPROF_WL_COMMON_H

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Parse a non-negative number (decimal or 0x); exits with a message on junk. */
static inline unsigned long long wl_num(const char *prog, const char *what, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-') {
		fprintf(stderr, "%s: %s must be a non-negative number, not '%s'\n", prog, what, s);
		exit(2);
	}
	return v;
}

static inline double wl_seconds(const char *prog, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < 0) {
		fprintf(stderr, "%s: seconds must be a non-negative number, not '%s'\n", prog, s);
		exit(2);
	}
	return v;
}

#endif
