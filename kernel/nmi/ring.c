// SPDX-License-Identifier: GPL-2.0
/*
 * Lock-free per-CPU record ring (see ring.h for the API, docs/RING.md for
 * the protocol in prose).
 *
 * Positions (head, reserve_head, tail) are free-running u64 byte counts;
 * the offset in data[] is pos & mask. Invariant:
 *   tail <= head <= reserve_head <= tail + size
 *
 * Who writes what:
 *   reserve_head, nest, lost_pending, stats, wake_base, head
 *           the ring's CPU only (task/hardirq producer, NMI producer nested
 *           in it). Nested contexts are serialised by the CPU itself: an
 *           interrupt runs to completion before the interrupted code
 *           resumes, so a compiler barrier orders our accesses against it
 *           and a CPU-local cmpxchg is enough to claim space.
 *   tail    the consumer (one reader at a time), any CPU.
 *
 * Memory-ordering table (the tags appear at each barrier below):
 *
 *  tag side      operation                       orders                                 pairs
 *  --- --------  ------------------------------  -------------------------------------  -----
 *  A   producer  load-acquire tail (reserve)     consumer's reads of freed bytes happen  D
 *                                                 before our writes into them
 *  B   producer  store-release head (publish)    record/PAD/LOST bytes written before    C
 *                                                 the consumer can see head cover them
 *  C   consumer  load-acquire head (peek)        head read before the record bytes       B
 *  D   consumer  store-release tail (consume)    our reads of a record finish before     A
 *                                                 the producer may reuse its bytes
 *  E   producer  compiler barrier after nest++   a nested producer that sees our         F, G
 *                                                 reservation also sees nest > 0, so it
 *                                                 never publishes our unfilled record
 *  F   producer  compiler barrier before nest=0  head is stored before a nested          E
 *                                                 producer can become the outermost
 *  G   producer  compiler barrier after nest=0   reserve_head is re-read after nest      E
 *                                                 dropped: a nested producer that
 *                                                 reserved while nest was 1 is published
 *                                                 by this re-check
 *
 * A-D are smp_load_acquire/smp_store_release in Linux (plain MOVs plus a
 * compiler barrier on x86). E-G order a CPU against its own interrupts
 * and are compiler barriers only.
 */
#include "pmuprof/barrier.h"
#include "pmuprof/platform.h"
#include "ring.h"

#ifdef RING_TEST_HOOKS
void (*ring_test_hook)(struct ring *r, enum ring_hook where);
#define RING_HOOK(r, where)                                                                        \
	do {                                                                                       \
		if (ring_test_hook)                                                                \
			ring_test_hook(r, where);                                                  \
	} while (0)
#else
#define RING_HOOK(r, where)                                                                        \
	do {                                                                                       \
	} while (0)
#endif

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

int ring__init(struct ring *r, void *mem, u32 size, u32 cpu, u32 wakeup_bytes)
{
	if (!r || !mem)
		return -EINVAL;
	if (size < PMUPROF_RING_MIN || size > PMUPROF_RING_MAX || (size & (size - 1)))
		return -EINVAL;
	if ((uintptr_t)mem & (RING_ALIGN - 1))
		return -EINVAL;
	if (wakeup_bytes == 0)
		wakeup_bytes = size / 4;
	if (wakeup_bytes > size)
		return -EINVAL;

	memset(r, 0, sizeof(*r));
	r->data = mem;
	r->size = size;
	r->mask = size - 1;
	r->cpu = cpu;
	r->wakeup_bytes = wakeup_bytes;
	return 0;
}

void ring__reset(struct ring *r)
{
	r->head = 0;
	r->reserve_head = 0;
	r->nest = 0;
	r->lost_pending = 0;
	r->wake_base = 0;
	r->tail = 0;
	memset(&r->stats, 0, sizeof(r->stats));
}

/* Open a write on this CPU. The load/store pair needs no atomicity: a nested
 * producer that runs in between leaves nest as it found it. */
static __always_inline void ring_nest_enter(struct ring *r)
{
	pp_local_write(&r->nest, pp_local_read(&r->nest) + 1);
	pp_barrier(); /* E, pairs with F and G */
}

/*
 * Close a write. Only the outermost writer (nest == 1) publishes, and it
 * publishes everything reserved so far, its nested writers' records included.
 * Returns whether the published bytes crossed the wake-up watermark; with
 * report == false (a failed reservation, whose caller cannot pass the answer
 * on) wake_base is left alone so the next reported publish still sees the
 * crossing.
 */
static __always_inline bool ring_end(struct ring *r, bool report)
{
	u32 nest = pp_local_read(&r->nest);
	bool wake = false;
	u64 h, base, tail;

	if (nest > 1) {
		pp_local_write(&r->nest, nest - 1);
		return false;
	}
	for (;;) {
		h = pp_local_read(&r->reserve_head);
		RING_HOOK(r, RING_HOOK_PUBLISH);
		pp_store_release(&r->head, h); /* B, pairs with C */
		RING_HOOK(r, RING_HOOK_PUBLISHED);
		if (report) {
			/* nest is still 1: no nested writer publishes until the
			 * barrier below, so wake_base cannot move under us. */
			base = r->wake_base;
			r->wake_base = h;
			tail = pp_local_read(&r->tail);
			if (base < tail)
				base = tail;
			if (base - tail < r->wakeup_bytes && h - tail >= r->wakeup_bytes)
				wake = true;
		}
		pp_barrier(); /* F, pairs with E */
		pp_local_write(&r->nest, 0);
		pp_barrier(); /* G, pairs with E */
		RING_HOOK(r, RING_HOOK_NEST_CLEARED);
		if (likely(pp_local_read(&r->reserve_head) == h))
			return wake;
		/* A nested writer reserved after we read reserve_head and saw
		 * nest == 1, so it left publishing to us: publish again. */
		pp_local_write(&r->nest, 1);
		pp_barrier(); /* E, pairs with F and G */
	}
}

/* A PAD record of `size` bytes at ph (the reader skips it). */
static __always_inline void ring_write_pad(struct pmuprof_record_header *ph, u32 size)
{
	ph->type = RING_REC_PAD;
	ph->misc = 0;
	ph->size = size;
}

/*
 * Claim `size` contiguous bytes (size a multiple of RING_ALIGN). When they
 * do not fit before the end of data[], the rest of the buffer is claimed too
 * and filled with a PAD record. Returns false when the ring is full.
 * *pos is the position of the claimed block.
 */
static __always_inline bool ring_claim(struct ring *r, u64 size, u64 *pos)
{
	u64 old, cur, tail, pad;

	old = pp_local_read(&r->reserve_head);
	for (;;) {
		tail = pp_load_acquire(&r->tail); /* A, pairs with D */
		pad = r->size - (old & r->mask);
		if (likely(size <= pad))
			pad = 0;
		if (unlikely(old + pad + size - tail > r->size))
			return false;
		RING_HOOK(r, RING_HOOK_BEFORE_CMPXCHG);
		/* Local cmpxchg: an NMI on this CPU may have reserved since we
		 * read reserve_head; then retry after its record. */
		cur = pp_local_cmpxchg(&r->reserve_head, old, old + pad + size);
		if (likely(cur == old))
			break;
		old = cur;
	}
	RING_HOOK(r, RING_HOOK_RESERVED);
	if (unlikely(pad))
		ring_write_pad((struct pmuprof_record_header *)(r->data + (old & r->mask)),
			       (u32)pad);
	*pos = old + pad;
	return true;
}

static __always_inline bool ring_size_ok(u32 size)
{
	return size >= sizeof(struct pmuprof_record_header) && !(size & (RING_ALIGN - 1));
}

/* Fill the LOST slot at pos with whatever is still pending (claimed
 * atomically: a nested writer may have reported it meanwhile, then the slot
 * becomes a PAD). Returns the count written. */
static u64 ring_write_lost(struct ring *r, u64 pos, u64 now_ns)
{
	struct pmuprof_lost *l = (struct pmuprof_lost *)(r->data + (pos & r->mask));
	u64 n = pp_local_xchg(&r->lost_pending, 0);

	RING_HOOK(r, RING_HOOK_LOST_CLAIMED);
	if (unlikely(!n)) {
		ring_write_pad(&l->hdr, RING_LOST_SIZE);
		return 0;
	}
	l->hdr.type = PMUPROF_REC_LOST;
	l->hdr.misc = 0;
	l->hdr.size = RING_LOST_SIZE;
	l->cpu = r->cpu;
	l->__pad0 = 0;
	l->time_ns = now_ns;
	l->lost = n;
	pp_local_add(&r->stats.lost_records, 1);
	return n;
}
PP_NOKPROBE(ring_write_lost); /* out of line, called by the NMI writer */

/* A reserved sample at pos: the pending LOST record first when there is
 * room for one (extra), then the sample's bytes, counted as written. */
static __always_inline void *ring_place_sample(struct ring *r, u64 pos, u64 extra, u64 now_ns)
{
	if (unlikely(extra)) {
		ring_write_lost(r, pos, now_ns);
		pos += extra;
	}
	pp_local_add(&r->stats.written, 1);
	return r->data + (pos & r->mask);
}

void *ring__reserve_sample(struct ring *r, u32 size, u64 now_ns)
{
	u64 pos, extra;

	pp_local_add(&r->stats.attempted, 1);
	ring_nest_enter(r);
	RING_HOOK(r, RING_HOOK_ENTERED);
	extra = pp_local_read(&r->lost_pending) ? RING_LOST_SIZE : 0;
	RING_HOOK(r, RING_HOOK_LOST_READ);
	if (unlikely(!ring_size_ok(size) || !ring_claim(r, extra + size, &pos))) {
		/* Count it lost before closing: lost_total and lost_pending
		 * move together, so LOST records add up to lost_total. */
		pp_local_add(&r->stats.lost_total, 1);
		pp_local_add(&r->lost_pending, 1);
		ring_end(r, false);
		return NULL;
	}
	return ring_place_sample(r, pos, extra, now_ns);
}
PP_NOKPROBE(ring__reserve_sample);

/*
 * The NMI writer's fast path (issue 15). Nothing on this CPU can write the
 * ring while an NMI handler runs (NMIs do not nest: the kernel defers one
 * that arrives inside another). So when no writer was open when the NMI
 * came (nest == 0, the usual case) the NMI writer is the only one until it
 * commits: it claims with a plain store, leaves nest at 0, and its commit
 * publishes without the re-check loop. An NMI that interrupted an open
 * writer (nest > 0) takes the nesting protocol (ring__reserve_sample),
 * whose commit leaves publishing to that writer. nest tells the commit
 * which path the reserve took: the fast one leaves it 0, the slow one >= 1.
 * ring.h has the common case inline (ring__reserve_sample_nmi,
 * ring__commit_nmi); this is the rest: a writer open, a LOST record
 * pending, a PAD needed, the ring full or a bad size.
 */
void *ring__reserve_sample_nmi_full(struct ring *r, u32 size, u64 now_ns)
{
	u64 old, tail, pad, extra, pos;

	if (unlikely(pp_local_read(&r->nest)))
		return ring__reserve_sample(r, size, now_ns);
	RING_HOOK(r, RING_HOOK_FAST);
	pp_local_add(&r->stats.attempted, 1);
	extra = pp_local_read(&r->lost_pending) ? RING_LOST_SIZE : 0;
	old = pp_local_read(&r->reserve_head);
	tail = pp_load_acquire(&r->tail); /* A, pairs with D */
	pad = r->size - (old & r->mask);
	if (likely(extra + size <= pad))
		pad = 0;
	if (unlikely(!ring_size_ok(size) || old + pad + extra + size - tail > r->size)) {
		pp_local_add(&r->stats.lost_total, 1);
		pp_local_add(&r->lost_pending, 1);
		return NULL;
	}
	pp_local_write(&r->reserve_head, old + pad + extra + size);
	if (unlikely(pad))
		ring_write_pad((struct pmuprof_record_header *)(r->data + (old & r->mask)),
			       (u32)pad);
	pos = old + pad;
	return ring_place_sample(r, pos, extra, now_ns);
}
PP_NOKPROBE(ring__reserve_sample_nmi_full);

void *ring__reserve(struct ring *r, u32 size)
{
	u64 pos;

	ring_nest_enter(r);
	if (unlikely(!ring_size_ok(size) || !ring_claim(r, size, &pos))) {
		pp_local_add(&r->stats.other_dropped, 1);
		ring_end(r, false);
		return NULL;
	}
	return r->data + (pos & r->mask);
}
PP_NOKPROBE(ring__reserve);

void ring__trim(struct ring *r, void *rec, u32 size, u32 cut)
{
	u8 *end = (u8 *)rec + size;
	u64 old;

	if (!cut || cut >= size || (cut & (RING_ALIGN - 1)))
		return;
	/* Nothing reserved behind the record: reserve_head's offset is the
	 * record's end. (Reservations behind an open record stay below the
	 * ring's size, so they cannot bring the offset round to it.) A local
	 * cmpxchg: a nested writer that reserves in between makes it fail. */
	old = pp_local_read(&r->reserve_head);
	RING_HOOK(r, RING_HOOK_TRIM);
	if (((u32)old & r->mask) == ((u32)(end - r->data) & r->mask) &&
	    pp_local_cmpxchg(&r->reserve_head, old, old - cut) == old)
		return;
	ring_write_pad((struct pmuprof_record_header *)(end - cut), cut);
}
PP_NOKPROBE(ring__trim);

bool ring__commit(struct ring *r, void *rec)
{
	(void)rec; /* the outermost commit publishes every open record */
	return ring_end(r, true);
}
PP_NOKPROBE(ring__commit);

int ring__flush_lost(struct ring *r, u64 now_ns)
{
	u64 pos, n;

	ring_nest_enter(r);
	if (!pp_local_read(&r->lost_pending)) {
		ring_end(r, false);
		return 0;
	}
	if (!ring_claim(r, RING_LOST_SIZE, &pos)) {
		ring_end(r, false);
		return -ENOSPC;
	}
	n = ring_write_lost(r, pos, now_ns);
	ring_end(r, true);
	return n ? 1 : 0;
}

const struct pmuprof_record_header *ring__peek(struct ring *r)
{
	const struct pmuprof_record_header *hdr;
	u64 t = r->tail;		   /* ours: only the consumer writes tail */
	u64 h = pp_load_acquire(&r->head); /* C, pairs with B */
	u32 off, sz;

	while (t != h) {
		off = (u32)t & r->mask;
		hdr = (const struct pmuprof_record_header *)(r->data + off);
		sz = hdr->size;
		if (unlikely(sz < sizeof(*hdr) || (sz & (RING_ALIGN - 1)) || sz > r->size - off ||
			     sz > h - t)) {
			/* Cannot happen unless memory was corrupted: drop what
			 * is queued rather than walk garbage. */
			pp_local_add(&r->stats.resyncs, 1);
			pp_store_release(&r->tail, h); /* D, pairs with A */
			return NULL;
		}
		if (likely(hdr->type != RING_REC_PAD))
			return hdr;
		t += sz;
		pp_store_release(&r->tail, t); /* D, pairs with A */
	}
	return NULL;
}

void ring__consume(struct ring *r, const struct pmuprof_record_header *rec)
{
	u64 t = r->tail;

	/* Only the record ring__peek() returned may be consumed. */
	if (unlikely((const u8 *)rec != r->data + ((u32)t & r->mask)))
		return;
	pp_store_release(&r->tail, t + rec->size); /* D, pairs with A */
}

u64 ring__queued(const struct ring *r)
{
	/* tail first: tail never passes head, so the difference cannot go
	 * negative even when both move while we read. */
	u64 t = pp_load_acquire(&r->tail);

	return pp_local_read(&r->head) - t;
}

void ring__stats(const struct ring *r, struct ring_stats *out)
{
	out->attempted = pp_local_read(&r->stats.attempted);
	out->written = pp_local_read(&r->stats.written);
	out->lost_total = pp_local_read(&r->stats.lost_total);
	out->lost_records = pp_local_read(&r->stats.lost_records);
	out->other_dropped = pp_local_read(&r->stats.other_dropped);
	out->resyncs = pp_local_read(&r->stats.resyncs);
}
