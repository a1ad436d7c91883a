/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types for the portable kernel-side code (kernel/pmu, kernel/nmi).
 * In the Linux module they come from <linux/types.h>; on the host (unit
 * tests, another kernel) from <stdint.h>. Nothing else may differ.
 */
#ifndef PMUPROF_TYPES_H
#define PMUPROF_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/compiler.h>
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
#ifndef likely
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef READ_ONCE
#define READ_ONCE(x)	 (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#endif
#endif

#define PP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PP_NSEC_PER_SEC	 1000000000ull

/* Inlined whatever the optimiser thinks: the NMI path's small helpers
 * (Linux defines it; the host build gets the same attribute). */
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
/* Never inlined: a body of its own, with its own (smaller) frame. */
#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif

/*
 * PP_NOINIT after a local: the compiler does not clear it on entry. Kernels
 * built with -ftrivial-auto-var-init=zero (CONFIG_INIT_STACK_ALL_ZERO,
 * Debian's and most distributions') clear every local, a large one with a
 * REP STOS. Only for large locals of the NMI path that are written before
 * every read (the handler cost: bench/RESULTS.md, issue 15).
 */
#if defined(__has_attribute)
#if __has_attribute(__uninitialized__)
#define PP_NOINIT __attribute__((__uninitialized__))
#endif
#endif
#ifndef PP_NOINIT
#define PP_NOINIT
#endif

#endif /* PMUPROF_TYPES_H */
