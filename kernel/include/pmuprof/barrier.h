/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Portable memory-ordering and CPU-local atomic helpers for kernel/nmi and
 * kernel/pmu. Only this header knows which kernel it is built for.
 *
 *  pp_barrier()              compiler barrier. Orders this CPU's accesses
 *                            against code that interrupts it (NMI, hardirq,
 *                            a signal handler on the host): an interrupt
 *                            sees program order on its own CPU.
 *  pp_load_acquire(p)        load; later accesses stay after it (other CPUs)
 *  pp_store_release(p, v)    store; earlier accesses stay before it
 *  pp_local_read(p)          single-copy-atomic load (READ_ONCE), also
 *                            for racy statistics reads from other CPUs
 *  pp_local_write(p, v)      single-copy-atomic store (WRITE_ONCE)
 *  pp_local_cmpxchg(p, o, n) compare-and-exchange atomic against interrupts
 *                            on THIS CPU only (no bus lock in the kernel);
 *                            returns the old value
 *  pp_local_xchg(p, v)       exchange, atomic against this CPU's interrupts
 *  pp_local_add(p, v)        *p += v, atomic against this CPU's interrupts
 *  pp_cacheline_aligned      attribute: start a field on its own cache line
 *
 * The pp_local_* helpers operate on naturally aligned u64 objects that only
 * one CPU writes (its task, hardirq and NMI contexts nesting on each other).
 * Other CPUs may read them with READ_ONCE() for statistics.
 *
 * Linux: smp_load_acquire/smp_store_release/barrier, cmpxchg_local and
 * local_add (x86: CMPXCHG/ADD without LOCK, single instructions, so
 * NMI-atomic). Host (unit tests,
 * benchmarks): GCC __atomic builtins; the "local" operations are relaxed
 * atomic RMWs, which are single instructions and therefore atomic against a
 * signal handler on the same thread, the host's stand-in for an NMI.
 */
#ifndef PMUPROF_BARRIER_H
#define PMUPROF_BARRIER_H

#include "pmuprof/types.h"

#ifdef __KERNEL__
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <asm/barrier.h>
#include <linux/cache.h>
#include <linux/build_bug.h>
#include <asm/local.h>

/* Separate data written by different CPUs (producer vs consumer fields). */
#define pp_cacheline_aligned ____cacheline_aligned_in_smp

#define pp_barrier()		  barrier()
#define pp_load_acquire(p)	  smp_load_acquire(p)
#define pp_store_release(p, v)	  smp_store_release(p, v)
#define pp_local_read(p)	  READ_ONCE(*(p))
#define pp_local_write(p, v)	  WRITE_ONCE(*(p), v)
#define pp_local_cmpxchg(p, o, n) cmpxchg_local(p, o, n)
/* xchg() is a full barrier (x86: implicitly LOCKed); used on slow paths only. */
#define pp_local_xchg(p, v) xchg(p, v)

static __always_inline void pp_local_add(u64 *p, u64 v)
{
	/* local_t is a long: same size and alignment as the u64 counters.
	 * x86: one ADD without LOCK, so an NMI cannot split it. */
	BUILD_BUG_ON(sizeof(local_t) != sizeof(u64));
	local_add((long)v, (local_t *)p);
}

#else /* host */

#define pp_cacheline_aligned __attribute__((__aligned__(64)))

#define pp_barrier()	       __atomic_signal_fence(__ATOMIC_SEQ_CST)
#define pp_load_acquire(p)     __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define pp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define pp_local_read(p)       __atomic_load_n(p, __ATOMIC_RELAXED)
#define pp_local_write(p, v)   __atomic_store_n(p, v, __ATOMIC_RELAXED)
#define pp_local_cmpxchg(p, o, n)                                                                  \
	({                                                                                         \
		__typeof__(*(p)) __pp_old = (o);                                                   \
		__atomic_compare_exchange_n(p, &__pp_old, n, false, __ATOMIC_RELAXED,              \
					    __ATOMIC_RELAXED);                                     \
		__pp_old;                                                                          \
	})
#define pp_local_xchg(p, v) __atomic_exchange_n(p, v, __ATOMIC_RELAXED)

static inline __attribute__((always_inline)) void pp_local_add(u64 *p, u64 v)
{
	__atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

#endif /* __KERNEL__ */

#endif /* PMUPROF_BARRIER_H */
