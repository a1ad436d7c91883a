/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock-free single-producer/single-consumer byte ring, one per CPU.
 *
 * Producer: the CPU's NMI handler (and, with the one-CPU timer fallback, its
 * hrtimer interrupt, which an NMI can interrupt: the producer side is
 * nesting-safe). Consumer: read() in process context, one reader at a time
 * (the session's file serialises readers with a mutex outside this code).
 *
 * Records are struct pmuprof_record_header-framed, 8-byte aligned, and never
 * wrap: when a record does not fit before the end of the buffer, the
 * producer fills the rest with a PAD record (type RING_REC_PAD, not ABI,
 * never reaches user space) and starts at offset 0.
 *
 * Lost samples: a reservation that finds no room fails at once and counts
 * the loss; the next successful ring__reserve_sample() first emits a
 * PMUPROF_REC_LOST record carrying the count. Exact accounting holds:
 *   attempted == written + lost_total   at all times (see struct ring_stats).
 *
 * The memory-ordering table and the barrier tags live in ring.c.
 */
#ifndef PMUPROF_RING_H
#define PMUPROF_RING_H

#include "pmuprof/types.h"
#include "../../include/uapi/pmuprof.h"

#define RING_REC_PAD 0xffff /* internal filler; consumer skips it */

struct ring_stats {
	u64 attempted;	 /* ring__reserve_sample() calls */
	u64 written;	 /* samples committed */
	u64 lost_total;	 /* samples dropped (full or nested beyond support) */
	u64 lost_records; /* LOST records emitted */
};

struct ring {
	/* producer-owned (written by the producer CPU only) */
	u64 head;	  /* committed bytes, published with release */
	u64 reserve_head; /* reserved bytes (>= head while a write is open) */
	u32 nest;	  /* open reservations on this CPU */
	u64 lost_pending; /* losses not yet reported by a LOST record */
	struct ring_stats stats;
	/* consumer-owned */
	u64 tail;	  /* consumed bytes, published with release */
	/* constant after init */
	u8 *data;
	u32 size;	  /* power of two */
	u32 mask;
	u32 cpu;
	u32 wakeup_bytes; /* ring__commit() returns true when queued >= this */
};

/* size must be a power of two >= PMUPROF_RING_MIN; memory is the caller's. */
int ring__init(struct ring *r, void *mem, u32 size, u32 cpu, u32 wakeup_bytes);
void ring__reset(struct ring *r);

/*
 * Producer. ring__reserve_sample() reserves `size` bytes (multiple of 8,
 * header included) for one sample and returns a pointer to fill, or NULL
 * when full (loss counted). It emits a pending LOST record first if there
 * is room for both. `now_ns` timestamps that LOST record.
 * ring__commit() publishes it; returns true when the reader should be woken
 * (queued bytes crossed wakeup_bytes). Each reserve must be paired with
 * exactly one commit on the same CPU before the interrupted context resumes.
 */
void *ring__reserve_sample(struct ring *r, u32 size, u64 now_ns);
bool ring__commit(struct ring *r, void *rec);
/* Reserve a non-sample record (THROTTLE, PERIOD): no LOST bookkeeping. */
void *ring__reserve(struct ring *r, u32 size);

/*
 * Consumer. ring__peek() returns the next committed record (never a PAD,
 * which it skips), or NULL when empty; the record stays valid until
 * ring__consume() releases it.
 */
const struct pmuprof_record_header *ring__peek(struct ring *r);
void ring__consume(struct ring *r, const struct pmuprof_record_header *rec);
/* Bytes committed and not yet consumed. */
u64 ring__queued(const struct ring *r);

#endif /* PMUPROF_RING_H */
