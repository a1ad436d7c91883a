/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock-free single-producer/single-consumer byte ring, one per CPU.
 *
 * Producer: the CPU's NMI handler (and, with the one-CPU timer fallback, its
 * hrtimer interrupt, which an NMI can interrupt: the producer side is
 * nesting-safe). Consumer: read() in process context, one reader at a time
 * (the session's file serialises readers with a mutex outside this code).
 *
 * Nesting (as perf's ring buffer): space is reserved with a CPU-local
 * cmpxchg on reserve_head, so a producer that interrupts another producer on
 * the same CPU gets its own space after the interrupted one's; the committed
 * head is published only when the outermost open writer commits, so the
 * consumer never sees a reserved-but-unfilled record. Nothing is dropped
 * because of nesting.
 *
 * Records are struct pmuprof_record_header-framed, 8-byte aligned, and never
 * wrap: when a record does not fit before the end of the buffer, the
 * producer fills the rest with a PAD record (type RING_REC_PAD, not ABI,
 * never reaches user space) and starts at offset 0.
 *
 * Lost samples: a reservation that finds no room fails at once and counts
 * the loss; the next successful ring__reserve_sample() first emits a
 * PMUPROF_REC_LOST record carrying the count (if the LOST record and the
 * sample do not both fit, that sample is lost too). Exact accounting: while
 * no reservation is open on the ring's CPU,
 *   attempted == written + lost_total
 * and, once ring__flush_lost() has run after the last sample,
 *   sum of LOST records' counts == lost_total.
 *
 * The memory-ordering table and the barrier tags live in ring.c; docs/RING.md
 * describes the protocol.
 */
#ifndef PMUPROF_RING_H
#define PMUPROF_RING_H

#include "pmuprof/types.h"
#include "pmuprof/barrier.h"
#include "../../include/uapi/pmuprof.h"

#define RING_REC_PAD   0xffff /* internal filler; consumer skips it */
#define RING_ALIGN     8u     /* record alignment and size granule */
#define RING_LOST_SIZE ((u32)sizeof(struct pmuprof_lost))

struct ring_stats {
	u64 attempted;	   /* ring__reserve_sample() calls */
	u64 written;	   /* samples reserved (each is committed by its caller) */
	u64 lost_total;	   /* samples dropped (ring full, or LOST + sample did not fit) */
	u64 lost_records;  /* LOST records emitted */
	u64 other_dropped; /* ring__reserve() (non-sample) reservations that failed */
	u64 resyncs;	   /* consumer found a corrupt header and dropped the queue */
};

struct ring {
	/* producer-owned (written only on the ring's CPU, by nested contexts;
	 * updated with pp_local_* operations) */
	u64 head;		 /* committed bytes, published with release */
	u64 reserve_head;	 /* reserved bytes (>= head while a write is open) */
	u32 nest;		 /* open reservations on this CPU */
	u64 lost_pending;	 /* losses not yet reported by a LOST record */
	u64 wake_base;		 /* head when the last wake-up decision was reported */
	struct ring_stats stats; /* all fields producer-owned except resyncs */
	/* consumer-owned, on its own cache line: the reader's stores to tail
	 * must not keep stealing the line the producer updates on every sample */
	u64 tail pp_cacheline_aligned; /* consumed bytes, published with release */
	/* constant after init (read by both sides: own line too) */
	u8 *data pp_cacheline_aligned;
	u32 size; /* power of two */
	u32 mask;
	u32 cpu;
	u32 wakeup_bytes; /* ring__commit() returns true when queued crosses this */
};

/*
 * size must be a power of two in [PMUPROF_RING_MIN, PMUPROF_RING_MAX];
 * memory is the caller's (size bytes, 8-byte aligned). wakeup_bytes 0 means
 * size / 4; it must be <= size. Returns 0 or -EINVAL.
 */
int ring__init(struct ring *r, void *mem, u32 size, u32 cpu, u32 wakeup_bytes);
/* Empty the ring and zero the statistics. No producer or consumer may run. */
void ring__reset(struct ring *r);

/*
 * Producer. ring__reserve_sample() reserves `size` bytes (multiple of 8,
 * header included) for one sample and returns a pointer to fill, or NULL
 * when full (loss counted; do NOT commit a NULL). It emits a pending LOST
 * record first if there is room for both. `now_ns` timestamps that LOST
 * record. The caller fills the whole record, header included.
 * ring__commit() publishes it; returns true when the reader should be woken
 * (queued bytes crossed wakeup_bytes). Each successful reserve must be
 * paired with exactly one commit on the same CPU before the interrupted
 * context resumes (reservations nest like interrupts: last in, first out).
 */
void *ring__reserve_sample(struct ring *r, u32 size, u64 now_ns);
bool ring__commit(struct ring *r, void *rec);
/*
 * The same for a writer in NMI context, which no other writer of the ring
 * can interrupt. When no writer of this CPU's ring is open (the usual case)
 * they claim and publish without the nesting protocol (no nest count, no
 * cmpxchg, no re-check); under an open writer they are ring__reserve_sample
 * and ring__commit. Pair ring__reserve_sample_nmi with ring__commit_nmi
 * (ring__trim between them as usual). Same results and accounting. [NMI]
 */
static inline void *ring__reserve_sample_nmi(struct ring *r, u32 size, u64 now_ns);
static inline bool ring__commit_nmi(struct ring *r, void *rec);
/* ring__reserve_sample_nmi's cases other than the common one (ring.c). */
void *ring__reserve_sample_nmi_full(struct ring *r, u32 size, u64 now_ns);
/*
 * Shorten the open record at `rec` (reserved on this CPU, not committed,
 * `size` bytes) by its last `cut` bytes (a multiple of 8, less than size):
 * for a writer that reserves its largest size and learns the real one
 * while filling (a user stack written straight into the record). When
 * nothing was reserved after the record, reserve_head moves back over the
 * cut; when a nested writer reserved behind it, the cut becomes a PAD
 * record. The caller sets its header's size to size - cut. [NMI]
 */
void ring__trim(struct ring *r, void *rec, u32 size, u32 cut);
/* Reserve a non-sample record (THROTTLE, PERIOD): no LOST bookkeeping;
 * a failure counts in stats.other_dropped. */
void *ring__reserve(struct ring *r, u32 size);
/*
 * Emit the pending LOST record, if any, without a sample: call after the
 * last sample (session stop), on the ring's CPU or with its producers
 * stopped. Returns 1 if a LOST record was written (and published), 0 if
 * nothing was pending, -ENOSPC if it did not fit (still pending).
 */
int ring__flush_lost(struct ring *r, u64 now_ns);

/*
 * Consumer. ring__peek() returns the next committed record (never a PAD,
 * which it skips), or NULL when empty; the record stays valid until
 * ring__consume() releases it.
 */
const struct pmuprof_record_header *ring__peek(struct ring *r);
void ring__consume(struct ring *r, const struct pmuprof_record_header *rec);
/* Bytes committed and not yet consumed. Any context. */
u64 ring__queued(const struct ring *r);
/* Racy snapshot of the statistics (exact while the producer is quiet). */
void ring__stats(const struct ring *r, struct ring_stats *out);

#ifdef RING_TEST_HOOKS
/*
 * Host tests only (ring.c compiled with -DRING_TEST_HOOKS): the producer
 * calls ring_test_hook at each point where an NMI could interrupt it, so a
 * test can run a nested producer exactly there.
 */
enum ring_hook {
	RING_HOOK_ENTERED,	  /* nest raised, nothing read yet */
	RING_HOOK_LOST_READ,	  /* lost_pending read, before reserving */
	RING_HOOK_BEFORE_CMPXCHG, /* space computed, reserve_head not yet moved */
	RING_HOOK_RESERVED,	  /* space reserved, PAD/LOST not yet written */
	RING_HOOK_LOST_CLAIMED,	  /* lost_pending claimed, LOST not yet written */
	RING_HOOK_PUBLISH,	  /* outermost: reserve_head read, head not stored */
	RING_HOOK_PUBLISHED,	  /* head stored, nest still 1 */
	RING_HOOK_NEST_CLEARED,	  /* nest back to 0, before the re-check */
	RING_HOOK_TRIM,		  /* ring__trim: reserve_head read, not moved back */
	RING_HOOK__MAX,
	/* not a nesting point (nothing can write the ring inside an NMI
	 * writer): ring__reserve_sample_nmi took its fast path */
	RING_HOOK_FAST = RING_HOOK__MAX,
};
extern void (*ring_test_hook)(struct ring *r, enum ring_hook where);
#endif

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

#ifdef RING_TEST_HOOKS
#define RING_FAST_HOOK(r)                                                                          \
	do {                                                                                       \
		if (ring_test_hook)                                                                \
			ring_test_hook(r, RING_HOOK_FAST);                                         \
	} while (0)
#else
#define RING_FAST_HOOK(r)                                                                          \
	do {                                                                                       \
	} while (0)
#endif

/*
 * The NMI writer's common case, inline in its caller (issue 15: no call
 * per sample): no writer of this CPU's ring open, no LOST record pending,
 * a valid size that fits before the end of data[] and in the free space.
 * Claimed with a plain store (see ring__reserve_sample_nmi_full for why
 * that is safe); everything else goes to ring__reserve_sample_nmi_full.
 */
static __always_inline void *ring__reserve_sample_nmi(struct ring *r, u32 size, u64 now_ns)
{
	u64 old = pp_local_read(&r->reserve_head);
	u32 off = (u32)old & r->mask;

	if (unlikely(pp_local_read(&r->nest) || pp_local_read(&r->lost_pending) ||
		     size < sizeof(struct pmuprof_record_header) || (size & (RING_ALIGN - 1)) ||
		     size > r->size - off ||
		     old + size - pp_load_acquire(&r->tail) > r->size)) /* A, pairs with D */
		return ring__reserve_sample_nmi_full(r, size, now_ns);
	RING_FAST_HOOK(r);
	pp_local_add(&r->stats.attempted, 1);
	pp_local_write(&r->reserve_head, old + size);
	pp_local_add(&r->stats.written, 1);
	return r->data + off;
}

/* Publish what ring__reserve_sample_nmi reserved: on its fast path (nest
 * left 0) the NMI writer is the only one, so head = reserve_head with no
 * re-check; under an open writer, ring__commit. */
static __always_inline bool ring__commit_nmi(struct ring *r, void *rec)
{
	u64 h, base, tail;

	if (unlikely(pp_local_read(&r->nest)))
		return ring__commit(r, rec); /* reserved through the nesting protocol */
	h = pp_local_read(&r->reserve_head);
	pp_store_release(&r->head, h); /* B, pairs with C */
	base = r->wake_base;
	r->wake_base = h;
	tail = pp_local_read(&r->tail);
	if (base < tail)
		base = tail;
	return base - tail < r->wakeup_bytes && h - tail >= r->wakeup_bytes;
}

#endif /* PMUPROF_RING_H */
