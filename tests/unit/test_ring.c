// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the lock-free per-CPU ring (kernel/nmi/ring.c), built with
 * -DRING_TEST_HOOKS so nested producers can be injected at every point where
 * an NMI could interrupt a producer.
 *
 *  - single-threaded semantics: init validation, exact fit, wrap with PAD,
 *    full, lost accounting, LOST records (contents, not fitting, flush),
 *    peek/consume order, queued bytes, wake-up watermark;
 *  - deterministic nesting: a nested producer runs at each hook point, up to
 *    three levels deep, with and without pending losses and PAD;
 *  - concurrent stress: a producer thread interrupted by two timer signals
 *    whose handlers also produce (SIGUSR2 may interrupt the SIGUSR1 handler:
 *    three nesting levels), and a consumer thread draining concurrently.
 *    Bounded by a record count (RING_STRESS_RECORDS, default 150000).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/nmi/ring.h"
#include "check_main.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define KB	 1024u
#define RSIZE	 (16 * KB)
#define POISON	 0xaa
#define TEST_CPU 7

/* ------------------------------------------------------------------ */
/* Test records: header, producer id, sequence, payload, checksum.     */
/* ------------------------------------------------------------------ */
struct trec {
	struct pmuprof_record_header hdr;
	u32 producer;
	u32 nwords; /* payload words; a checksum word follows them */
	u64 seq;
	u64 w[];
};
#define TREC_MIN ((u32)sizeof(struct trec) + 8)

static u64 mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void trec_fill(void *p, u32 size, u32 producer, u64 seq)
{
	struct trec *t = p;
	u32 i, n = (size - (u32)sizeof(*t)) / 8 - 1;
	u64 c;

	t->hdr.type = PMUPROF_REC_SAMPLE;
	t->hdr.misc = 0;
	t->hdr.size = size;
	t->producer = producer;
	t->nwords = n;
	t->seq = seq;
	c = mix(seq ^ ((u64)producer << 56) ^ size);
	for (i = 0; i < n; i++) {
		/* volatile: word by word, so a signal can land mid-fill */
		((volatile u64 *)t->w)[i] = mix(seq * 1000003u + i + producer);
		c = mix(c ^ t->w[i]);
	}
	t->w[n] = c;
}

/* 0 if intact, else a reason. */
static const char *trec_check(const struct pmuprof_record_header *h)
{
	const struct trec *t = (const void *)h;
	u32 i, n;
	u64 c;

	if (h->type != PMUPROF_REC_SAMPLE)
		return "type";
	if (h->size < TREC_MIN || h->size % 8)
		return "size";
	n = (h->size - (u32)sizeof(*t)) / 8 - 1;
	if (t->nwords != n)
		return "nwords";
	c = mix(t->seq ^ ((u64)t->producer << 56) ^ h->size);
	for (i = 0; i < n; i++) {
		if (t->w[i] != mix(t->seq * 1000003u + i + t->producer))
			return "payload";
		c = mix(c ^ t->w[i]);
	}
	return t->w[n] == c ? NULL : "checksum";
}

static u8 *mem;
static struct ring R;

static void setup(void)
{
	mem = aligned_alloc(4096, RSIZE);
	ck_assert_ptr_nonnull(mem);
	memset(mem, POISON, RSIZE);
	ck_assert_int_eq(ring__init(&R, mem, RSIZE, TEST_CPU, 4 * KB), 0);
	ring_test_hook = NULL;
}

static void teardown(void)
{
	ring_test_hook = NULL;
	free(mem);
	mem = NULL;
}

static u64 next_seq;

/* Reserve, fill and commit one sample; returns its pointer or NULL. */
static void *put(struct ring *r, u32 size, bool *wake)
{
	void *p = ring__reserve_sample(r, size, 1000 + next_seq);
	bool w;

	if (!p)
		return NULL;
	trec_fill(p, size, 0, next_seq++);
	w = ring__commit(r, p);
	if (wake)
		*wake = w;
	return p;
}

static void assert_accounting(const struct ring *r)
{
	struct ring_stats s;

	ring__stats(r, &s);
	ck_assert_uint_eq(s.attempted, s.written + s.lost_total);
	ck_assert_uint_eq(s.resyncs, 0);
}

/* Drain everything; checks samples; returns count of samples, adds LOST
 * counts to *lost_sum and LOST records to *lost_recs (either may be NULL). */
static u64 drain(struct ring *r, u64 *lost_sum, u64 *lost_recs)
{
	const struct pmuprof_record_header *h;
	u64 n = 0;

	while ((h = ring__peek(r))) {
		if (h->type == PMUPROF_REC_LOST) {
			const struct pmuprof_lost *l = (const void *)h;

			ck_assert_uint_eq(h->size, RING_LOST_SIZE);
			ck_assert_uint_eq(l->cpu, r->cpu);
			ck_assert_uint_gt(l->lost, 0);
			if (lost_sum)
				*lost_sum += l->lost;
			if (lost_recs)
				(*lost_recs)++;
		} else {
			const char *why = trec_check(h);

			ck_assert_msg(!why, "corrupt record: %s", why);
			n++;
		}
		ring__consume(r, h);
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Single-threaded semantics                                            */
/* ------------------------------------------------------------------ */

START_TEST(test_init_validation)
{
	struct ring r;
	static const u32 bad_sizes[] = {
		0,
		8,
		PMUPROF_RING_MIN / 2,
		PMUPROF_RING_MIN + 8,
		24 * KB,
		3 * PMUPROF_RING_MIN,
		PMUPROF_RING_MAX * 2,
		0x80000000u,
		0xffffffffu,
	};
	unsigned int i;

	for (i = 0; i < PP_ARRAY_SIZE(bad_sizes); i++)
		ck_assert_msg(ring__init(&r, mem, bad_sizes[i], 0, 0) == -EINVAL,
			      "size %u accepted", bad_sizes[i]);
	ck_assert_int_eq(ring__init(NULL, mem, RSIZE, 0, 0), -EINVAL);
	ck_assert_int_eq(ring__init(&r, NULL, RSIZE, 0, 0), -EINVAL);
	ck_assert_int_eq(ring__init(&r, mem + 4, RSIZE, 0, 0), -EINVAL);
	ck_assert_int_eq(ring__init(&r, mem, RSIZE, 0, RSIZE + 1), -EINVAL);

	ck_assert_int_eq(ring__init(&r, mem, RSIZE, 5, 0), 0);
	ck_assert_uint_eq(r.size, RSIZE);
	ck_assert_uint_eq(r.mask, RSIZE - 1);
	ck_assert_uint_eq(r.cpu, 5);
	ck_assert_uint_eq(r.wakeup_bytes, RSIZE / 4);
	ck_assert_uint_eq(ring__queued(&r), 0);
	ck_assert_ptr_null(ring__peek(&r));
	ck_assert_int_eq(ring__init(&r, mem, RSIZE, 0, RSIZE), 0);
	/* largest size is accepted (memory is not touched by init) */
	ck_assert_int_eq(ring__init(&r, mem, PMUPROF_RING_MAX, 0, 0), 0);
}
END_TEST

/* ring__trim: the cut goes back to the ring when nothing follows the
 * record; behind a nested record it becomes a PAD the consumer skips. */
START_TEST(test_trim)
{
	const struct pmuprof_record_header *h;
	void *a, *b;

	a = ring__reserve_sample(&R, 256, 0);
	ck_assert_ptr_eq(a, mem);
	ring__trim(&R, a, 256, 192);
	trec_fill(a, 64, 0, 1);
	ring__commit(&R, a);
	ck_assert_uint_eq(R.reserve_head, 64);
	ck_assert_uint_eq(ring__queued(&R), 64);
	b = put(&R, 128, NULL);
	ck_assert_ptr_eq(b, mem + 64); /* right behind the trimmed record */

	/* nested: b reserved behind a before a is trimmed */
	a = ring__reserve_sample(&R, 256, 0);
	ck_assert_ptr_eq(a, mem + 192);
	b = ring__reserve_sample(&R, 64, 0);
	ck_assert_ptr_eq(b, mem + 448);
	trec_fill(b, 64, 1, 2);
	ring__commit(&R, b);
	ring__trim(&R, a, 256, 128);
	trec_fill(a, 128, 0, 3);
	ring__commit(&R, a);
	ck_assert_uint_eq(R.reserve_head, 512);
	ck_assert_uint_eq(R.head, 512);
	h = (const void *)(mem + 320);
	ck_assert_uint_eq(h->type, RING_REC_PAD);
	ck_assert_uint_eq(h->size, 128);

	/* nothing to do: no cut, a cut not a multiple of 8, the whole record */
	a = ring__reserve_sample(&R, 64, 0);
	ring__trim(&R, a, 64, 0);
	ring__trim(&R, a, 64, 12);
	ring__trim(&R, a, 64, 64);
	ck_assert_uint_eq(R.reserve_head, 576);
	trec_fill(a, 64, 0, 4);
	ring__commit(&R, a);
	/* records in order, PAD skipped: 64, 128, 128 (a), 64 (b), 64 */
	ck_assert_uint_eq(drain(&R, NULL, NULL), 5);
	assert_accounting(&R);
}
END_TEST

START_TEST(test_exact_fit)
{
	void *p[RSIZE / KB];
	unsigned int i;

	for (i = 0; i < RSIZE / KB; i++) {
		p[i] = put(&R, KB, NULL);
		ck_assert_ptr_eq(p[i], mem + i * KB);
	}
	ck_assert_uint_eq(ring__queued(&R), RSIZE);
	ck_assert_ptr_null(ring__reserve_sample(&R, 8, 0)); /* not even 8 bytes */
	ck_assert_uint_eq(R.stats.lost_total, 1);
	ck_assert_uint_eq(drain(&R, NULL, NULL), RSIZE / KB);

	/* 15 KiB in, then a 1 KiB record ends exactly at the end: no PAD */
	ring__reset(&R);
	for (i = 0; i < 15; i++)
		ck_assert_ptr_nonnull(put(&R, KB, NULL));
	ck_assert_uint_eq(drain(&R, NULL, NULL), 15);
	ck_assert_ptr_eq(put(&R, KB, NULL), mem + 15 * KB);
	ck_assert_uint_eq(ring__queued(&R), KB);
	ck_assert_ptr_eq(put(&R, KB, NULL), mem);
	ck_assert_uint_eq(ring__queued(&R), 2 * KB);
	ck_assert_uint_eq(drain(&R, NULL, NULL), 2);
	assert_accounting(&R);
}
END_TEST

START_TEST(test_wrap_with_pad)
{
	const struct pmuprof_record_header *pad, *h;

	ck_assert_ptr_nonnull(put(&R, RSIZE - 24, NULL));
	ck_assert_uint_eq(drain(&R, NULL, NULL), 1);
	/* 24 bytes left before the end: a 64-byte record goes to offset 0 */
	ck_assert_ptr_eq(put(&R, 64, NULL), mem);
	pad = (const void *)(mem + RSIZE - 24);
	ck_assert_uint_eq(pad->type, RING_REC_PAD);
	ck_assert_uint_eq(pad->size, 24);
	ck_assert_uint_eq(ring__queued(&R), 24 + 64);
	h = ring__peek(&R); /* skips the PAD */
	ck_assert_ptr_eq(h, mem);
	ck_assert_uint_eq(ring__queued(&R), 64);
	ring__consume(&R, h);
	ck_assert_uint_eq(ring__queued(&R), 0);
	ck_assert_ptr_null(ring__peek(&R));

	/* The PAD counts against free space: A [0,8K) B [8K,16K-24), A consumed.
	 * 8K needs 24 + 8K = exactly the free space; 8K + 8 does not fit. */
	ring__reset(&R);
	ck_assert_ptr_nonnull(put(&R, 8 * KB, NULL));
	ck_assert_ptr_nonnull(put(&R, 8 * KB - 24, NULL));
	h = ring__peek(&R);
	ring__consume(&R, h);
	ck_assert_ptr_null(ring__reserve(&R, 8 * KB + 8)); /* no LOST pending */
	ck_assert_ptr_eq(put(&R, 8 * KB, NULL), mem);
	ck_assert_uint_eq(ring__queued(&R), RSIZE);
	ck_assert_uint_eq(drain(&R, NULL, NULL), 2);
	assert_accounting(&R);
}
END_TEST

START_TEST(test_full_and_lost_accounting)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		ck_assert_ptr_nonnull(put(&R, 1000, NULL));
	for (i = 0; i < 5; i++) {
		ck_assert_ptr_null(ring__reserve_sample(&R, 1000, 0));
		assert_accounting(&R);
	}
	ck_assert_uint_eq(R.stats.attempted, 21);
	ck_assert_uint_eq(R.stats.written, 16);
	ck_assert_uint_eq(R.stats.lost_total, 5);
	ck_assert_uint_eq(R.lost_pending, 5);
	ck_assert_uint_eq(R.stats.lost_records, 0);
	ck_assert_uint_eq(ring__queued(&R), 16000);
	/* failing reservations do not move anything */
	ck_assert_uint_eq(R.reserve_head, 16000);
	ck_assert_uint_eq(R.head, 16000);
	ck_assert_uint_eq(R.nest, 0);
	/* a smaller sample that fits with its LOST record succeeds */
	ck_assert_ptr_nonnull(put(&R, 320, NULL));
	ck_assert_uint_eq(R.stats.lost_records, 1);
	ck_assert_uint_eq(R.lost_pending, 0);
	assert_accounting(&R);
}
END_TEST

START_TEST(test_lost_record_contents)
{
	const struct pmuprof_record_header *h;
	const struct pmuprof_lost *l;
	unsigned int i;
	u8 *p;

	for (i = 0; i < RSIZE / 512; i++)
		ck_assert_ptr_nonnull(put(&R, 512, NULL));
	for (i = 0; i < 3; i++)
		ck_assert_ptr_null(ring__reserve_sample(&R, 512, 0));
	for (i = 0; i < 2; i++) {
		h = ring__peek(&R);
		ring__consume(&R, h);
	}
	/* at offset 0: LOST (32) then the sample */
	p = ring__reserve_sample(&R, 512, 12345);
	ck_assert_ptr_eq(p, mem + RING_LOST_SIZE);
	trec_fill(p, 512, 0, 99);
	ring__commit(&R, p);
	ck_assert_ptr_nonnull(put(&R, 480, NULL)); /* no second LOST */

	for (i = 0; i < RSIZE / 512 - 2; i++) {
		h = ring__peek(&R);
		ck_assert_uint_eq(h->type, PMUPROF_REC_SAMPLE);
		ring__consume(&R, h);
	}
	h = ring__peek(&R);
	ck_assert_ptr_eq(h, mem);
	l = (const void *)h;
	ck_assert_uint_eq(h->type, PMUPROF_REC_LOST);
	ck_assert_uint_eq(h->misc, 0);
	ck_assert_uint_eq(h->size, sizeof(struct pmuprof_lost));
	ck_assert_uint_eq(l->cpu, TEST_CPU);
	ck_assert_uint_eq(l->__pad0, 0);
	ck_assert_uint_eq(l->time_ns, 12345);
	ck_assert_uint_eq(l->lost, 3);
	ring__consume(&R, h);
	h = ring__peek(&R);
	ck_assert_ptr_null(trec_check(h));
	ck_assert_uint_eq(((const struct trec *)h)->seq, 99);
	ring__consume(&R, h);
	h = ring__peek(&R);
	ck_assert_uint_eq(h->type, PMUPROF_REC_SAMPLE);
	ck_assert_uint_eq(h->size, 480);
	ring__consume(&R, h);
	ck_assert_ptr_null(ring__peek(&R));

	ck_assert_uint_eq(R.stats.lost_records, 1);
	ck_assert_uint_eq(R.stats.lost_total, 3);
	ck_assert_uint_eq(R.stats.written, RSIZE / 512 + 2);
	assert_accounting(&R);
}
END_TEST

START_TEST(test_lost_record_does_not_fit)
{
	const struct pmuprof_record_header *h;
	u64 lost_sum = 0, lost_recs = 0;
	unsigned int i;

	for (i = 0; i < RSIZE / 512; i++)
		ck_assert_ptr_nonnull(put(&R, 512, NULL));
	ck_assert_ptr_null(ring__reserve_sample(&R, 512, 0));
	h = ring__peek(&R);
	ring__consume(&R, h);
	/* 512 bytes free: the sample alone would fit, LOST + sample do not */
	ck_assert_ptr_null(ring__reserve_sample(&R, 512, 0));
	ck_assert_uint_eq(R.stats.lost_total, 2);
	ck_assert_uint_eq(ring__queued(&R), RSIZE - 512);
	ck_assert_uint_eq(R.reserve_head, RSIZE);
	/* 480 + 32 fits exactly */
	ck_assert_ptr_eq(put(&R, 480, NULL), mem + RING_LOST_SIZE);
	ck_assert_uint_eq(ring__queued(&R), RSIZE);
	ck_assert_uint_eq(drain(&R, &lost_sum, &lost_recs), RSIZE / 512);
	ck_assert_uint_eq(lost_sum, 2);
	ck_assert_uint_eq(lost_recs, 1);
	assert_accounting(&R);
}
END_TEST

START_TEST(test_flush_lost)
{
	u64 lost_sum = 0, lost_recs = 0;
	const struct pmuprof_record_header *h;
	unsigned int i;

	ck_assert_int_eq(ring__flush_lost(&R, 1), 0); /* nothing pending */
	ck_assert_uint_eq(ring__queued(&R), 0);
	for (i = 0; i < RSIZE / 512; i++)
		ck_assert_ptr_nonnull(put(&R, 512, NULL));
	ck_assert_ptr_null(ring__reserve_sample(&R, 64, 0));
	ck_assert_ptr_null(ring__reserve_sample(&R, 64, 0));
	ck_assert_int_eq(ring__flush_lost(&R, 77), -ENOSPC);
	ck_assert_uint_eq(R.lost_pending, 2);
	h = ring__peek(&R);
	ring__consume(&R, h);
	ck_assert_int_eq(ring__flush_lost(&R, 77), 1);
	ck_assert_int_eq(ring__flush_lost(&R, 78), 0);
	ck_assert_uint_eq(drain(&R, &lost_sum, &lost_recs), RSIZE / 512 - 1);
	ck_assert_uint_eq(lost_sum, 2);
	ck_assert_uint_eq(lost_sum, R.stats.lost_total);
	ck_assert_uint_eq(lost_recs, R.stats.lost_records);
	ck_assert_uint_eq(R.lost_pending, 0);
	assert_accounting(&R);
}
END_TEST

START_TEST(test_peek_consume_order)
{
	const struct pmuprof_record_header *h;
	u64 expect = 0, lost_sum = 0, lost_recs = 0, got = 0, attempts = 0, fails = 0;
	u64 wraps = R.head;
	unsigned int i, j;

	for (i = 0; i < 20000; i++) {
		u32 size = TREC_MIN + 8 * (u32)(mix(i) % 250);
		u64 seq = next_seq;

		attempts++;
		if (!put(&R, size, NULL))
			fails++;
		else
			ck_assert_uint_eq(seq + 1, next_seq);
		/* consume at a varying rate, sometimes not at all */
		for (j = 0; j < (mix(i + 77) % 2); j++) {
			h = ring__peek(&R);
			if (!h)
				break;
			if (h->type == PMUPROF_REC_LOST) {
				lost_sum += ((const struct pmuprof_lost *)h)->lost;
				lost_recs++;
			} else {
				const struct trec *t = (const void *)h;

				ck_assert_ptr_null(trec_check(h));
				ck_assert_uint_ge(t->seq, expect); /* in order, gaps = losses */
				expect = t->seq + 1;
				got++;
			}
			/* a pointer that is not the peeked record is ignored */
			ring__consume(&R, (const void *)(mem + ((R.tail + 8) & R.mask)));
			ck_assert_ptr_eq(ring__peek(&R), h);
			ring__consume(&R, h);
		}
		ck_assert_uint_le(ring__queued(&R), RSIZE);
	}
	ring__flush_lost(&R, 0);
	while ((h = ring__peek(&R))) {
		if (h->type == PMUPROF_REC_LOST) {
			lost_sum += ((const struct pmuprof_lost *)h)->lost;
			lost_recs++;
		} else {
			ck_assert_ptr_null(trec_check(h));
			ck_assert_uint_ge(((const struct trec *)h)->seq, expect);
			expect = ((const struct trec *)h)->seq + 1;
			got++;
		}
		ring__consume(&R, h);
	}
	ck_assert_uint_gt(R.head - wraps, 4 * RSIZE); /* wrapped several times */
	ck_assert_uint_gt(fails, 0);
	ck_assert_uint_eq(R.stats.attempted, attempts);
	ck_assert_uint_eq(R.stats.lost_total, fails);
	ck_assert_uint_eq(got, attempts - fails);
	ck_assert_uint_eq(R.stats.written, got);
	ck_assert_uint_eq(lost_sum, fails);
	ck_assert_uint_eq(lost_recs, R.stats.lost_records);
	assert_accounting(&R);
}
END_TEST

START_TEST(test_queued_bytes)
{
	const struct pmuprof_record_header *h;
	struct pmuprof_record_header *w;

	ck_assert_uint_eq(ring__queued(&R), 0);
	put(&R, 4 * KB, NULL);
	ck_assert_uint_eq(ring__queued(&R), 4 * KB);
	put(&R, 12 * KB - 40, NULL);
	ck_assert_uint_eq(ring__queued(&R), 16 * KB - 40);
	/* an open (uncommitted) reservation is not queued */
	w = ring__reserve(&R, 8);
	ck_assert_ptr_nonnull(w);
	ck_assert_uint_eq(ring__queued(&R), 16 * KB - 40);
	w->type = PMUPROF_REC_THROTTLE; /* a bare 8-byte header */
	w->misc = 0;
	w->size = 8;
	ring__commit(&R, w);
	ck_assert_uint_eq(ring__queued(&R), 16 * KB - 32);
	ring__consume(&R, ring__peek(&R));
	ck_assert_uint_eq(ring__queued(&R), 12 * KB - 32);
	/* 32 bytes at the end become PAD: queued until the consumer skips it */
	put(&R, 64, NULL);
	ck_assert_uint_eq(ring__queued(&R), 12 * KB + 64);
	ring__consume(&R, ring__peek(&R));
	h = ring__peek(&R);
	ck_assert_uint_eq(h->type, PMUPROF_REC_THROTTLE);
	ring__consume(&R, h);
	ck_assert_uint_eq(ring__queued(&R), 32 + 64);
	h = ring__peek(&R);
	ck_assert_ptr_eq(h, mem);
	ck_assert_uint_eq(ring__queued(&R), 64);
	ring__consume(&R, h);
	ck_assert_uint_eq(ring__queued(&R), 0);
}
END_TEST

START_TEST(test_watermark)
{
	bool wake;
	unsigned int i;

	/* wakeup_bytes = 4 KiB: the 8th 512-byte record crosses it */
	for (i = 1; i <= 12; i++) {
		ck_assert_ptr_nonnull(put(&R, 512, &wake));
		ck_assert_msg(wake == (i == 8), "record %u wake=%d", i, wake);
	}
	/* back below the mark, then crossing again wakes again */
	for (i = 0; i < 8; i++)
		ring__consume(&R, ring__peek(&R));
	ck_assert_uint_eq(ring__queued(&R), 2 * KB);
	for (i = 1; i <= 5; i++) {
		ck_assert_ptr_nonnull(put(&R, 512, &wake));
		ck_assert_msg(wake == (i == 4), "again: record %u wake=%d", i, wake);
	}
	/* a reservation jumping from below to far above wakes once */
	drain(&R, NULL, NULL);
	ck_assert_ptr_nonnull(put(&R, 8 * KB, &wake));
	ck_assert(wake);
	ck_assert_ptr_nonnull(put(&R, 64, &wake));
	ck_assert(!wake);
}
END_TEST

START_TEST(test_reserve_other_and_bad_sizes)
{
	struct pmuprof_throttle *t;
	unsigned int i;

	t = ring__reserve(&R, sizeof(*t));
	ck_assert_ptr_nonnull(t);
	memset(t, 0, sizeof(*t));
	t->hdr.type = PMUPROF_REC_THROTTLE;
	t->hdr.size = sizeof(*t);
	ring__commit(&R, t);
	ck_assert_uint_eq(R.stats.attempted, 0); /* not a sample */

	/* invalid sample sizes are refused and counted as lost samples */
	ck_assert_ptr_null(ring__reserve_sample(&R, 0, 0));
	ck_assert_ptr_null(ring__reserve_sample(&R, 4, 0));
	ck_assert_ptr_null(ring__reserve_sample(&R, 100, 0));
	ck_assert_ptr_null(ring__reserve_sample(&R, RSIZE + 8, 0));
	ck_assert_ptr_null(ring__reserve_sample(&R, 0xfffffff8u, 0));
	ck_assert_uint_eq(R.stats.lost_total, 5);
	assert_accounting(&R);
	ck_assert_ptr_null(ring__reserve(&R, 12));
	ck_assert_uint_eq(R.stats.other_dropped, 1);

	/* a full ring refuses non-samples too, without LOST bookkeeping */
	for (i = 0; put(&R, 1024, NULL); i++)
		;
	ck_assert_uint_eq(R.lost_pending, 1); /* the first put reported 5 */
	ck_assert_uint_eq(R.stats.lost_records, 1);
	ck_assert_ptr_null(ring__reserve(&R, 2 * KB));
	ck_assert_uint_eq(R.stats.other_dropped, 2);
	ck_assert_uint_eq(R.lost_pending, 1);
	ck_assert_uint_eq(R.stats.lost_total, 6);
	assert_accounting(&R);
	/* non-sample records never carry a pending LOST */
	ring__consume(&R, ring__peek(&R));
	t = ring__reserve(&R, sizeof(*t));
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(R.lost_pending, 1);
	t->hdr.type = PMUPROF_REC_THROTTLE;
	t->hdr.size = sizeof(*t);
	ring__commit(&R, t);
}
END_TEST

START_TEST(test_reset)
{
	unsigned int i;

	for (i = 0; i < 40; i++)
		put(&R, 1024, NULL);
	ring__reset(&R);
	ck_assert_uint_eq(ring__queued(&R), 0);
	ck_assert_ptr_null(ring__peek(&R));
	ck_assert_uint_eq(R.stats.attempted, 0);
	ck_assert_uint_eq(R.stats.lost_total, 0);
	ck_assert_uint_eq(R.lost_pending, 0);
	ck_assert_ptr_eq(put(&R, 64, NULL), mem);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Deterministic nesting through the test hooks                        */
/* ------------------------------------------------------------------ */

#define NEST_MAX_DEPTH 3
/* ------------------------------------------------------------------ */
/* The NMI writer's fast path (ring__reserve_sample_nmi / ring__commit_nmi) */

static unsigned int hook_count[RING_HOOK__MAX + 1];

static void count_hook(struct ring *r, enum ring_hook where)
{
	(void)r;
	hook_count[where]++;
}

/* With no writer open, the NMI API takes the fast path and leaves the ring
 * exactly as the nesting protocol would: same positions, PADs, LOST
 * records, statistics, wake-ups, byte for byte, over wraps, a full ring
 * and losses. */
START_TEST(test_nmi_fast_matches_slow)
{
	u8 *mem2 = aligned_alloc(4096, RSIZE);
	struct ring R2;
	struct ring_stats s1, s2;
	const struct pmuprof_record_header *h;
	unsigned int fast_calls = 0;

	ck_assert_ptr_nonnull(mem2);
	memset(mem2, POISON, RSIZE);
	ck_assert_int_eq(ring__init(&R2, mem2, RSIZE, TEST_CPU, 4 * KB), 0);
	memset(hook_count, 0, sizeof(hook_count));
	for (u32 i = 0; i < 3000; i++) {
		u32 size = TREC_MIN + 8 * ((i * 37) % 300);
		u32 cut = (i % 5 == 0 && size > TREC_MIN) ? 8 : 0;
		void *p1, *p2;
		bool w1, w2;

		if (i % 97 == 5)
			size = 12; /* not a multiple of 8: refused, counted lost */
		ring_test_hook = NULL;
		p1 = ring__reserve_sample(&R, size, 7000 + i);
		ring_test_hook = count_hook;
		p2 = ring__reserve_sample_nmi(&R2, size, 7000 + i);
		fast_calls++;
		ring_test_hook = NULL;
		ck_assert_int_eq(p1 == NULL, p2 == NULL);
		if (p1) {
			ck_assert_uint_eq((u8 *)p1 - mem, (u8 *)p2 - mem2);
			if (cut) { /* trimmed, as capture trims user stacks */
				ring__trim(&R, p1, size, cut);
				ring__trim(&R2, p2, size, cut);
			}
			trec_fill(p1, size - cut, 0, i);
			trec_fill(p2, size - cut, 0, i);
			w1 = ring__commit(&R, p1);
			ring_test_hook = count_hook;
			w2 = ring__commit_nmi(&R2, p2);
			ring_test_hook = NULL;
			ck_assert_int_eq(w1, w2);
		}
		ck_assert_uint_eq(R.head, R2.head);
		ck_assert_uint_eq(R.reserve_head, R2.reserve_head);
		ck_assert_uint_eq(R.lost_pending, R2.lost_pending);
		ck_assert_uint_eq(R.wake_base, R2.wake_base);
		ck_assert_uint_eq(R2.nest, 0);
		/* the reader falls behind and catches up in bursts */
		if (i % 41 == 40 || i % 43 == 0) {
			while ((h = ring__peek(&R)) && (i % 43 || (u8 *)h - mem < (long)RSIZE / 2))
				ring__consume(&R, h);
			while ((h = ring__peek(&R2)) && R2.tail < R.tail)
				ring__consume(&R2, h);
			ck_assert_uint_eq(R.tail, R2.tail);
		}
	}
	ck_assert_int_eq(memcmp(mem, mem2, RSIZE), 0);
	ring__stats(&R, &s1);
	ring__stats(&R2, &s2);
	ck_assert_int_eq(memcmp(&s1, &s2, sizeof(s1)), 0);
	ck_assert_uint_gt(s1.lost_total, 0); /* the sequence did fill the ring */
	ck_assert_uint_gt(s1.lost_records, 0);
	assert_accounting(&R2);
	/* every NMI call took the fast path, none the nesting protocol */
	ck_assert_uint_eq(hook_count[RING_HOOK_FAST], fast_calls);
	ck_assert_uint_eq(hook_count[RING_HOOK_ENTERED], 0);
	ck_assert_uint_eq(hook_count[RING_HOOK_BEFORE_CMPXCHG], 0);
	ck_assert_uint_eq(hook_count[RING_HOOK_PUBLISH], 0);
	free(mem2);
}
END_TEST

/* An NMI writer under an open writer (here a task/hardirq one that has
 * reserved and not filled its record) takes the nesting protocol: its
 * commit publishes nothing, the open writer's commit publishes both. With
 * the fast path there, its commit would publish the unfilled record. */
START_TEST(test_nmi_nested_takes_slow_path)
{
	void *outer, *nmi;
	bool w;

	memset(hook_count, 0, sizeof(hook_count));
	outer = ring__reserve_sample(&R, 256, 1);
	ck_assert_ptr_nonnull(outer);
	ring_test_hook = count_hook;
	nmi = ring__reserve_sample_nmi(&R, 128, 2);
	ck_assert_ptr_nonnull(nmi);
	ck_assert_uint_eq(hook_count[RING_HOOK_FAST], 0);
	ck_assert_uint_eq(hook_count[RING_HOOK_ENTERED], 1);
	ck_assert_uint_eq(R.nest, 2);
	trec_fill(nmi, 128, 1, 0);
	w = ring__commit_nmi(&R, nmi);
	ring_test_hook = NULL;
	ck_assert(!w);
	ck_assert_uint_eq(R.nest, 1);
	ck_assert_uint_eq(R.head, 0); /* nothing published over the open record */
	ck_assert_ptr_null(ring__peek(&R));
	trec_fill(outer, 256, 0, 0);
	ring__commit(&R, outer);
	ck_assert_uint_eq(R.nest, 0);
	ck_assert_uint_eq(drain(&R, NULL, NULL), 2);
	/* no writer open any more: the next NMI writer takes the fast path */
	ring_test_hook = count_hook;
	nmi = ring__reserve_sample_nmi(&R, 64, 3);
	ck_assert_ptr_nonnull(nmi);
	trec_fill(nmi, 64, 1, 1);
	ring__commit_nmi(&R, nmi);
	ring_test_hook = NULL;
	ck_assert_uint_eq(hook_count[RING_HOOK_FAST], 1);
	ck_assert_uint_eq(drain(&R, NULL, NULL), 1);
	assert_accounting(&R);
}
END_TEST

static struct {
	enum ring_hook where;
	int max_depth; /* producers on the CPU at once, outermost included */
	int depth;     /* producers currently inside */
	int fired[NEST_MAX_DEPTH];
	u32 size;
	u64 seq[NEST_MAX_DEPTH];
	u64 attempts, fails;
	u64 outer_pos; /* position of the outer record (0 if not known yet) */
	bool outer_open;
	/* records seen by the consumer, in order */
	u32 log_producer[64];
	u64 log_seq[64];
	unsigned int nlog;
	u64 lost_sum, lost_recs;
} nt;

static void nt_drain(struct ring *r)
{
	const struct pmuprof_record_header *h;

	while ((h = ring__peek(r))) {
		if (h->type == PMUPROF_REC_LOST) {
			nt.lost_sum += ((const struct pmuprof_lost *)h)->lost;
			nt.lost_recs++;
		} else {
			const char *why = trec_check(h);

			/* an unfilled record would be POISON here */
			ck_assert_msg(!why, "hook %d: visible record corrupt (%s)", nt.where, why);
			ck_assert_uint_lt(nt.nlog, PP_ARRAY_SIZE(nt.log_seq));
			nt.log_producer[nt.nlog] = ((const struct trec *)h)->producer;
			nt.log_seq[nt.nlog++] = ((const struct trec *)h)->seq;
		}
		ring__consume(r, h);
	}
}

static void nt_produce(struct ring *r, int level)
{
	u32 size = nt.size + 8 * (u32)level;
	void *p;

	nt.attempts++;
	/* reserved 16 bytes too large and trimmed, as capture does with user
	 * stacks: a producer nested behind the record turns the cut into a
	 * PAD (RING_HOOK_TRIM), otherwise reserve_head moves back */
	/* The outer producer is a task/hardirq writer; the nested ones are
	 * "NMIs", on the NMI writer's API, which must take the nesting
	 * protocol under an open writer (an unfilled outer record published
	 * by them would show as POISON in nt_drain). */
	if (level)
		p = ring__reserve_sample_nmi(r, size + 16, 500 + (u64)level);
	else
		p = ring__reserve_sample(r, size + 16, 500 + (u64)level);
	if (!p) {
		nt.fails++;
		return;
	}
	ring__trim(r, p, size + 16, 16);
	trec_fill(p, size, (u32)level, nt.seq[level]++);
	if (level)
		ring__commit_nmi(r, p);
	else
		ring__commit(r, p);
}

static void nt_hook(struct ring *r, enum ring_hook where)
{
	int level = nt.depth;

	if (where != nt.where || level >= nt.max_depth || nt.fired[level - 1])
		return;
	nt.fired[level - 1]++;
	nt.depth++;
	nt_produce(r, level); /* the "NMI" */
	nt.depth--;
	/* Whatever the consumer sees now must be complete: the interrupted
	 * producers' records are reserved but not filled (POISON). */
	nt_drain(r);
	/* nest is as the interrupted producer left it: in its publish phase it
	 * is the outermost (1, or 0 once cleared), else `level` are inside */
	if (where == RING_HOOK_NEST_CLEARED)
		ck_assert_uint_eq(r->nest, 0);
	else if (where == RING_HOOK_PUBLISH || where == RING_HOOK_PUBLISHED)
		ck_assert_uint_eq(r->nest, 1);
	else
		ck_assert_uint_eq(r->nest, (u32)level);
}

START_TEST(test_nesting_at_hook)
{
	int variant = _i / RING_HOOK__MAX;
	bool near_end = variant & 1, lost = variant & 2, deep = variant & 4;
	struct ring_stats s;
	unsigned int i, outer_idx = ~0u;
	void *p;

	memset(&nt, 0, sizeof(nt));
	nt.where = (enum ring_hook)(_i % RING_HOOK__MAX);
	nt.max_depth = deep ? 3 : 2;
	nt.size = 200;
	if (near_end) {
		/* leave 40 bytes before the end: every level needs a PAD or
		 * goes after one */
		p = ring__reserve_sample(&R, RSIZE - 40, 0);
		ck_assert_ptr_nonnull(p);
		trec_fill(p, RSIZE - 40, 9, 0);
		ring__commit(&R, p);
		nt_drain(&R);
		nt.nlog = 0;
		nt.attempts++;
	}
	if (lost) {
		while ((p = ring__reserve_sample(&R, 1024, 0))) {
			trec_fill(p, 1024, 9, 0);
			ring__commit(&R, p);
			nt.attempts++;
		}
		nt.attempts++;
		nt.fails++;
		for (i = 0; i < 2; i++) {
			ck_assert_ptr_null(ring__reserve_sample(&R, 1024, 0));
			nt.attempts++;
			nt.fails++;
		}
		nt_drain(&R);
		nt.nlog = 0;
		ck_assert_uint_eq(R.lost_pending, 3);
	}
	ck_assert_uint_eq(ring__queued(&R), 0);
	memset(mem, POISON, RSIZE);

	nt.depth = 1;
	ring_test_hook = nt_hook;
	nt_produce(&R, 0); /* the outer producer (hardirq) */
	ring_test_hook = NULL;
	nt.depth = 0;

	if (nt.where == RING_HOOK_LOST_CLAIMED && !lost)
		ck_assert_int_eq(nt.fired[0], 0); /* only reached with losses */
	else
		ck_assert_msg(nt.fired[0] == 1, "hook %d never reached", nt.where);
	/* depth 2 is unreachable where the hooked producer is not the
	 * outermost's nested one: LOST_CLAIMED (the outer took the losses),
	 * PUBLISH/PUBLISHED (a producer nested there never publishes) and
	 * NEST_CLEARED (no writer open there: the NMI writer takes its fast
	 * path, inside which nothing can nest) */
	if (deep && nt.where != RING_HOOK_LOST_CLAIMED && nt.where != RING_HOOK_PUBLISH &&
	    nt.where != RING_HOOK_PUBLISHED && nt.where != RING_HOOK_NEST_CLEARED)
		ck_assert_msg(nt.fired[1] == 1, "hook %d not reached at depth 2", nt.where);

	nt_drain(&R);
	ck_assert_int_eq(ring__flush_lost(&R, 1), 0); /* all losses reported */
	ck_assert_uint_eq(ring__queued(&R), 0);
	ck_assert_uint_eq(R.head, R.reserve_head);
	ck_assert_uint_eq(R.nest, 0);
	ck_assert_uint_eq(nt.fails, lost ? 3 : 0);
	ring__stats(&R, &s);
	ck_assert_uint_eq(s.attempted, nt.attempts);
	ck_assert_uint_eq(s.lost_total, nt.fails);
	ck_assert_uint_eq(s.written, nt.attempts - nt.fails);
	ck_assert_uint_eq(nt.lost_sum, s.lost_total);
	ck_assert_uint_eq(nt.lost_recs, s.lost_records);
	ck_assert_uint_eq(nt.lost_recs, lost ? 1 : 0);
	ck_assert_uint_eq(s.resyncs, 0);

	/* every producer's record arrived exactly once */
	ck_assert_uint_eq(nt.nlog, (unsigned int)(1 + nt.fired[0] + nt.fired[1]));
	for (i = 0; i < nt.nlog; i++)
		if (nt.log_producer[i] == 0)
			outer_idx = i;
	ck_assert_uint_ne(outer_idx, ~0u);
	/* order: a producer nested before the outer one claimed space comes
	 * first, one nested after it comes after */
	if (nt.fired[0]) {
		bool nested_first = nt.where <= RING_HOOK_BEFORE_CMPXCHG;

		ck_assert_uint_eq(outer_idx, nested_first ? nt.nlog - 1 : 0);
	}
}
END_TEST

/* The outer reservation fails, but the nested one it published crossed the
 * watermark: the next commit must still report the crossing. */
static void wm_hook(struct ring *r, enum ring_hook where)
{
	void *p;

	if (where != RING_HOOK_ENTERED || nt.depth)
		return;
	nt.depth = 1;
	p = ring__reserve_sample(r, 512, 0);
	ck_assert_ptr_nonnull(p);
	trec_fill(p, 512, 1, 0);
	ck_assert(!ring__commit(r, p)); /* nested: the outer one publishes */
	ck_assert_uint_eq(ring__queued(r), 4 * KB - 256);
}

START_TEST(test_watermark_after_failed_outer)
{
	bool wake;
	unsigned int i;

	for (i = 0; i < 7; i++) {
		ck_assert_ptr_nonnull(put(&R, 512, &wake));
		ck_assert(!wake);
	}
	ck_assert_ptr_nonnull(put(&R, 256, &wake));
	ck_assert(!wake);
	memset(&nt, 0, sizeof(nt));
	ring_test_hook = wm_hook;
	ck_assert_ptr_null(ring__reserve_sample(&R, RSIZE, 0)); /* never fits */
	ring_test_hook = NULL;
	ck_assert_uint_eq(ring__queued(&R), 4 * KB + 256); /* published anyway */
	ck_assert_ptr_nonnull(put(&R, 64, &wake));
	ck_assert(wake);
	ck_assert_ptr_nonnull(put(&R, 64, &wake));
	ck_assert(!wake);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Concurrent stress: signal-handler producers + consumer thread        */
/* ------------------------------------------------------------------ */

#define NPROD	3 /* 0: thread ("hardirq"), 1: SIGUSR1, 2: SIGUSR2 ("NMI") */
#define SR_SIZE (256 * KB)
#ifndef STRESS_WORK
#define STRESS_WORK 100
#endif
#ifndef STRESS_SIG1_NS
#define STRESS_SIG1_NS 25000
#define STRESS_SIG2_NS 37000
#endif

static struct ring SR;
static u8 *smem;
/* written only by the producer thread and its signal handlers */
static u64 prod_attempted[NPROD], prod_lost[NPROD];
static volatile sig_atomic_t in_ring, prod_depth;
static u64 interrupted_in_ring, depth3;
/* producer -> consumer */
static u64 main_progress; /* __atomic */
static int producer_done; /* __atomic */
/* consumer results */
static u64 c_recv[NPROD], c_last_seq[NPROD], c_lost_sum, c_lost_recs, c_bad, c_order, c_pauses;
static char c_why[128];

static u32 stress_size(int id, u64 seq)
{
	return TREC_MIN + 8 * (u32)(mix(seq * 3 + (u64)id) % 100);
}

static void stress_produce(int id)
{
	u64 seq = prod_attempted[id]++;
	u32 size = stress_size(id, seq);
	void *p;

	if (id == 0)
		in_ring = 1;
	p = ring__reserve_sample(&SR, size, seq);
	if (!p) {
		prod_lost[id]++;
	} else {
		trec_fill(p, size, (u32)id, seq);
		ring__commit(&SR, p);
	}
	if (id == 0)
		in_ring = 0;
}

static void stress_handler(int sig)
{
	int id = sig == SIGUSR1 ? 1 : 2;

	if (in_ring)
		interrupted_in_ring++;
	prod_depth++;
	if (prod_depth == 2)
		depth3++; /* SIGUSR2 inside the SIGUSR1 handler inside the thread */
	stress_produce(id);
	prod_depth--;
}

static void *consumer_thread(void *arg)
{
	const struct pmuprof_record_header *h;
	u64 consumed = 0, resume_at;
	int done;

	(void)arg;
	for (;;) {
		done = __atomic_load_n(&producer_done, __ATOMIC_ACQUIRE);
		h = ring__peek(&SR);
		if (!h) {
			if (done)
				break;
			sched_yield();
			continue;
		}
		if (h->type == PMUPROF_REC_LOST) {
			const struct pmuprof_lost *l = (const void *)h;

			if (h->size != RING_LOST_SIZE || l->cpu != SR.cpu || !l->lost) {
				if (!c_bad++)
					snprintf(c_why, sizeof(c_why), "bad LOST record");
			}
			c_lost_sum += l->lost;
			c_lost_recs++;
		} else {
			const struct trec *t = (const void *)h;
			const char *why = trec_check(h);

			if (why || t->producer >= NPROD) {
				if (!c_bad++)
					snprintf(c_why, sizeof(c_why), "record at %llu: %s",
						 (unsigned long long)SR.tail,
						 why ? why : "producer");
			} else {
				if (c_recv[t->producer] && t->seq <= c_last_seq[t->producer])
					c_order++;
				c_last_seq[t->producer] = t->seq;
				c_recv[t->producer]++;
			}
		}
		ring__consume(&SR, h);
		/* Every 20000 records (first after 1000), stop reading until the
		 * thread producer has made 10000 more attempts of >= 32 bytes:
		 * more than the ring holds, so losses are certain, not timing
		 * luck (if the producer ends first, it outran us anyway). */
		if (++consumed % 20000 == 1000) {
			c_pauses++;
			resume_at = __atomic_load_n(&main_progress, __ATOMIC_RELAXED);
			if (resume_at < ~0ull - 10000)
				resume_at += 10000;
			while (__atomic_load_n(&main_progress, __ATOMIC_RELAXED) < resume_at)
				sched_yield();
		}
	}
	return NULL;
}

struct producer_args {
	u64 records;
	u64 invariant_fail;
};

static void *producer_thread(void *arg)
{
	struct producer_args *pa = arg;
	struct sigevent sev;
	struct itimerspec its;
	timer_t timers[2];
	sigset_t set, old;
	struct ring_stats s;
	u64 i, total;
	volatile u64 spin = 0;
	int k;

	/* Two high-rate timers aimed at this thread: SIGUSR1 (the timer
	 * interrupt producer) and SIGUSR2 (the NMI, can interrupt SIGUSR1). */
	for (k = 0; k < 2; k++) {
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = k ? SIGUSR2 : SIGUSR1;
		sev.sigev_notify_thread_id = gettid();
		ck_assert_int_eq(timer_create(CLOCK_MONOTONIC, &sev, &timers[k]), 0);
		memset(&its, 0, sizeof(its));
		its.it_value.tv_nsec = k ? STRESS_SIG2_NS : STRESS_SIG1_NS;
		its.it_interval.tv_nsec = k ? STRESS_SIG2_NS : STRESS_SIG1_NS;
		ck_assert_int_eq(timer_settime(timers[k], 0, &its, NULL), 0);
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);

	for (i = 0; i < pa->records; i++) {
		/* the rest of an NMI handler's work (stack walk): keeps the
		 * producer from outrunning the reader all the time */
		for (k = 0; k < STRESS_WORK; k++)
			spin = mix(spin + (u64)k);
		stress_produce(0);
		__atomic_store_n(&main_progress, i + 1, __ATOMIC_RELAXED);
		if (i % 256 == 0) {
			/* quiescent point (no handler can run): exact accounting */
			pthread_sigmask(SIG_BLOCK, &set, &old);
			ring__stats(&SR, &s);
			total = prod_attempted[0] + prod_attempted[1] + prod_attempted[2];
			if (s.attempted != s.written + s.lost_total || s.attempted != total)
				pa->invariant_fail++;
			pthread_sigmask(SIG_SETMASK, &old, NULL);
		}
	}
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	for (k = 0; k < 2; k++)
		timer_delete(timers[k]);
	/* release a pausing consumer: the flush below may need it to drain */
	__atomic_store_n(&main_progress, ~0ull, __ATOMIC_RELAXED);
	/* final LOST record; wait for the consumer to make room if needed */
	while (ring__flush_lost(&SR, 0) == -ENOSPC)
		sched_yield();
	__atomic_store_n(&producer_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

START_TEST(test_concurrent_stress)
{
	struct producer_args pa = {.records = 150000};
	const char *env = getenv("RING_STRESS_RECORDS");
	struct sigaction sa;
	pthread_t prod, cons;
	struct ring_stats s;
	sigset_t set;
	u64 att = 0, lost = 0, recv = 0;
	int i;

	if (env && atoll(env) > 0)
		pa.records = (u64)atoll(env);
	smem = aligned_alloc(4096, SR_SIZE);
	ck_assert_ptr_nonnull(smem);
	ck_assert_int_eq(ring__init(&SR, smem, SR_SIZE, 3, 0), 0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stress_handler;
	sigemptyset(&sa.sa_mask); /* SIGUSR1 handler: SIGUSR2 may interrupt it */
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	sigaddset(&sa.sa_mask, SIGUSR1); /* SIGUSR2 handler: nothing interrupts it */
	ck_assert_int_eq(sigaction(SIGUSR2, &sa, NULL), 0);
	/* only the producer thread takes the signals */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	ck_assert_int_eq(pthread_create(&cons, NULL, consumer_thread, NULL), 0);
	ck_assert_int_eq(pthread_create(&prod, NULL, producer_thread, &pa), 0);
	pthread_join(prod, NULL);
	pthread_join(cons, NULL);

	ring__stats(&SR, &s);
	for (i = 0; i < NPROD; i++) {
		att += prod_attempted[i];
		lost += prod_lost[i];
		recv += c_recv[i];
		ck_assert_msg(c_recv[i] == prod_attempted[i] - prod_lost[i],
			      "producer %d: received %llu, attempted %llu, lost %llu", i,
			      (unsigned long long)c_recv[i], (unsigned long long)prod_attempted[i],
			      (unsigned long long)prod_lost[i]);
	}
	fprintf(stderr,
		"ring stress: attempted %llu (thread %llu, sig1 %llu, sig2 %llu) written %llu "
		"lost %llu in %llu LOST records; signals inside ring code %llu, 3-deep %llu, "
		"consumer pauses %llu\n",
		(unsigned long long)s.attempted, (unsigned long long)prod_attempted[0],
		(unsigned long long)prod_attempted[1], (unsigned long long)prod_attempted[2],
		(unsigned long long)s.written, (unsigned long long)s.lost_total,
		(unsigned long long)s.lost_records, (unsigned long long)interrupted_in_ring,
		(unsigned long long)depth3, (unsigned long long)c_pauses);

	ck_assert_msg(c_bad == 0, "%llu corrupt records, first: %s", (unsigned long long)c_bad,
		      c_why);
	ck_assert_uint_eq(c_order, 0);
	ck_assert_uint_eq(s.resyncs, 0);
	ck_assert_uint_eq(pa.invariant_fail, 0);
	ck_assert_uint_eq(prod_attempted[0], pa.records);
	ck_assert_uint_eq(s.attempted, att);
	ck_assert_uint_eq(s.written, recv);
	ck_assert_uint_eq(s.lost_total, lost);
	ck_assert_uint_eq(s.attempted, s.written + s.lost_total);
	ck_assert_uint_eq(c_lost_sum, s.lost_total);
	ck_assert_uint_eq(c_lost_recs, s.lost_records);
	ck_assert_uint_eq(SR.lost_pending, 0);
	ck_assert_uint_gt(s.lost_total, 0);			     /* see the consumer's pauses */
	ck_assert_uint_gt(prod_attempted[1] + prod_attempted[2], 0); /* nesting happened */
	free(smem);
}
END_TEST

static Suite *ring_suite(void)
{
	Suite *s = suite_create("ring");
	TCase *tc = tcase_create("semantics");
	TCase *tn = tcase_create("nesting");
	TCase *ts = tcase_create("stress");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_init_validation);
	tcase_add_test(tc, test_exact_fit);
	tcase_add_test(tc, test_trim);
	tcase_add_test(tc, test_wrap_with_pad);
	tcase_add_test(tc, test_full_and_lost_accounting);
	tcase_add_test(tc, test_lost_record_contents);
	tcase_add_test(tc, test_lost_record_does_not_fit);
	tcase_add_test(tc, test_flush_lost);
	tcase_add_test(tc, test_peek_consume_order);
	tcase_add_test(tc, test_queued_bytes);
	tcase_add_test(tc, test_watermark);
	tcase_add_test(tc, test_reserve_other_and_bad_sizes);
	tcase_add_test(tc, test_reset);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(tn, setup, teardown);
	tcase_add_loop_test(tn, test_nesting_at_hook, 0, RING_HOOK__MAX * 8);
	tcase_add_test(tn, test_nmi_fast_matches_slow);
	tcase_add_test(tn, test_nmi_nested_takes_slow_path);
	tcase_add_test(tn, test_watermark_after_failed_outer);
	suite_add_tcase(s, tn);

	tcase_set_timeout(ts, 60);
	tcase_add_test(ts, test_concurrent_stress);
	suite_add_tcase(s, ts);
	return s;
}

int main(void)
{
	return pp_check_run(ring_suite());
}
