// SPDX-License-Identifier: MIT
/*
 * Packed user stack copies (lib/pmufile/ucopy.c, docs/FORMAT.md "Packed
 * stack copies"): a recording written packed reads back record for record
 * as the same recording written whole, in every reader mode; damage (a
 * frame skipped in salvage, corrupt runs, a missing reference) fails only
 * the samples concerned, each with a reason, never a crash.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pmufile/pmufile.h"
#include "lib/pmufile/format.h"
#include "check_main.h"
#include "tmpdir.h"

static char tmpdir[256];
static char err[1024];

static void setup(void)
{
	pp_tmpdir(tmpdir, sizeof(tmpdir), "test_ucopy");
}

static void teardown(void)
{
	pp_rm_tree(tmpdir);
}

static const char *tpath(const char *name)
{
	return pp_tmp_path(tmpdir, name);
}

#define SIZE	 1024u /* copy size of the test recordings */
#define NR_RECS	 700u
#define MAX_RECS (NR_RECS + 8)

/* A deterministic generator (no rand(): the same stream everywhere). */
static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* Each thread's "stack": a 4 KiB image whose upper part changes rarely;
 * a sample copies SIZE bytes from an sp that moves within it. */
struct thr {
	uint32_t tid;
	uint64_t top;	/* address just above the image */
	uint32_t depth; /* of the last sample's sp below top */
	uint8_t img[4096];
};

/* One sample of thread th at time t into buf: nu user frames, a copy of
 * SIZE bytes of which `valid` were read. Returns its size. */
static size_t put_copy(uint8_t *buf, struct thr *th, uint64_t t, uint32_t valid_cap)
{
	struct pmuprof_sample *s = (void *)buf;
	struct pmuprof_sample_ustack *u;
	uint32_t depth, valid;
	uint64_t sp;

	/* sp wanders by up to 64 bytes a sample (calls and returns), within
	 * [256, 3072] below the top; a few bytes just above it change */
	depth = th->depth ? th->depth : 1024;
	depth += 8 * (rnd() % 17) - 64;
	depth = depth < 256 ? 256 : depth > 3072 ? 3072 : depth;
	th->depth = depth;
	sp = th->top - depth;
	for (int i = 0; i < 6; i++)
		th->img[(4096 - depth) + rnd() % 128] = (uint8_t)rnd();
	memset(s, 0, sizeof(*s));
	s->hdr.type = PMUPROF_REC_SAMPLE;
	s->hdr.misc = PMUPROF_MISC_USER;
	s->time_ns = t;
	s->ip = 0x401000 + rnd() % 64;
	s->period = 1000;
	s->pid = 100;
	s->tid = th->tid;
	s->sample_flags = PMUPROF_SF_USTACK_COPY;
	s->nr_ustack = 2;
	((uint64_t *)(s + 1))[0] = s->ip;
	((uint64_t *)(s + 1))[1] = 0x402000;
	u = (void *)((uint8_t *)(s + 1) + 16);
	memset(u, 0, sizeof(*u));
	for (int i = 0; i < PMUPROF_NR_UREGS; i++)
		u->regs[i] = rnd();
	u->regs[PMUPROF_UREG_SP] = sp;
	u->size = SIZE;
	valid = depth < SIZE ? depth : SIZE; /* the copy stops at the image's top */
	u->valid = valid < valid_cap ? valid : valid_cap;
	memset(u + 1, 0, SIZE);
	memcpy(u + 1, th->img + (4096 - depth), u->valid);
	s->hdr.size = (uint32_t)(sizeof(*s) + 16 + sizeof(*u) + SIZE);
	return s->hdr.size;
}

/* The test recording's records, as read() would return them. */
struct recs {
	uint8_t *buf;
	size_t len;
	size_t off[MAX_RECS];
	size_t n;
};

static void make_recs(struct recs *r)
{
	static struct thr th[3];
	uint64_t t = 1000;

	rng = 88172645463325252ull;
	r->buf = malloc(MAX_RECS * (sizeof(struct pmuprof_sample) + 16 +
				    sizeof(struct pmuprof_sample_ustack) + SIZE));
	ck_assert_ptr_nonnull(r->buf);
	r->len = r->n = 0;
	for (int i = 0; i < 3; i++) {
		th[i].tid = 101 + (uint32_t)i;
		th[i].top = 0x7ffd00000000ull + 0x100000ull * (uint64_t)i;
		for (size_t k = 0; k < sizeof(th[i].img); k++)
			th[i].img[k] = (uint8_t)rnd();
	}
	for (unsigned i = 0; i < NR_RECS; i++) {
		struct thr *x = &th[i % 7 == 0 ? 2 : i % 2]; /* interleaved, one rarely */
		uint32_t cap = i % 50 == 7 ? 0 : i % 50 == 9 ? 100 : SIZE; /* cut copies too */

		r->off[r->n++] = r->len;
		if (i % 97 == 5) { /* a LOST record among them */
			struct pmuprof_lost *l = (void *)(r->buf + r->len);

			memset(l, 0, sizeof(*l));
			l->hdr.type = PMUPROF_REC_LOST;
			l->hdr.size = sizeof(*l);
			l->lost = 3;
			l->time_ns = t;
			r->len += sizeof(*l);
			continue;
		}
		r->len += put_copy(r->buf + r->len, x, t += 1000, cap);
	}
}

/* Write recs to path (packed or not), in three batches with a PROCESS
 * frame between them, so the samples span three SAMPLES frames. */
static void write_recs(const char *path, const struct recs *r, unsigned int flags)
{
	struct pmufile_header h = {0};
	struct pmufile_process p = {.pid = 100, .ppid = 1};
	struct pmufile_writer *w;
	size_t cut1 = r->off[r->n / 3], cut2 = r->off[2 * r->n / 3];

	h.config_flags = PMUPROF_CF_USTACK_COPY;
	snprintf(h.hostname, sizeof(h.hostname), "t");
	snprintf(p.comm, sizeof(p.comm), "work");
	w = pmufile_writer__open_flags(path, &h, flags, err, sizeof(err));
	ck_assert_msg(w, "%s", err);
	pmufile_writer__no_fsync(w);
	ck_assert_int_eq(pmufile_writer__records(w, r->buf, cut1), 0);
	ck_assert_int_eq(pmufile_writer__process(w, &p), 0);
	ck_assert_int_eq(pmufile_writer__records(w, r->buf + cut1, cut2 - cut1), 0);
	ck_assert_int_eq(pmufile_writer__process(w, &p), 0);
	ck_assert_int_eq(pmufile_writer__records(w, r->buf + cut2, r->len - cut2), 0);
	ck_assert_int_eq(pmufile_writer__close(w, 1, 2, err, sizeof(err)), 0);
}

/* What a walk delivered: every record's bytes, concatenated. */
struct got {
	uint8_t *buf;
	size_t len, cap, n;
	uint64_t unresolved; /* copies delivered with PMUFILE_USTACK_UNRESOLVED */
};

static int collect(void *ctx, const struct pmuprof_record_header *rec)
{
	struct got *g = ctx;
	struct pmufile_sample_view v;

	if (g->len + rec->size > g->cap) {
		g->cap = 2 * (g->cap + rec->size);
		g->buf = realloc(g->buf, g->cap);
		ck_assert_ptr_nonnull(g->buf);
	}
	memcpy(g->buf + g->len, rec, rec->size);
	g->len += rec->size;
	g->n++;
	if (rec->type == PMUPROF_REC_SAMPLE) {
		/* every delivered sample views as read() gave it: no packed form */
		ck_assert_int_eq(pmufile__sample_view(rec, &v), 0);
		ck_assert(!(v.ucopy->flags & PMUFILE_USTACK_PACKED));
		if (v.ucopy->flags & PMUFILE_USTACK_UNRESOLVED) {
			ck_assert_uint_eq(v.ucopy->valid, 0);
			g->unresolved++;
		}
	}
	return 0;
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fclose(f);
	return n;
}

START_TEST(test_packed_reads_as_plain)
{
	static const unsigned int modes[] = {0, PMUFILE_OPEN_STREAM, PMUFILE_OPEN_VERIFY,
					     PMUFILE_OPEN_SALVAGE | PMUFILE_OPEN_STREAM};
	struct recs r;
	long plain, packed;

	make_recs(&r);
	write_recs(tpath("plain.pmu"), &r, 0);
	write_recs(tpath("packed.pmu"), &r, PMUFILE_WRITE_PACK_UCOPY);
	plain = file_size(tpath("plain.pmu"));
	packed = file_size(tpath("packed.pmu"));
	/* most of every copy repeats the thread's previous one */
	ck_assert_msg(packed * 3 < plain, "packed %ld bytes, plain %ld", packed, plain);
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct pmufile *f = pmufile__open(tpath("packed.pmu"), modes[m], err, sizeof(err));
		struct got g = {0};

		ck_assert_msg(f, "%s", err);
		ck_assert_uint_eq(f->version, 2);
		/* two walks: the second rebuilds from the start again */
		for (int pass = 0; pass < 2; pass++) {
			g.len = g.n = 0;
			ck_assert_int_eq(pmufile__for_each_record(f, collect, &g, err, sizeof(err)),
					 0);
			ck_assert_uint_eq(g.n, r.n);
			ck_assert_uint_eq(g.len, r.len);
			ck_assert(memcmp(g.buf, r.buf, r.len) == 0);
			ck_assert_uint_eq(f->ucopy_unresolved, 0);
			ck_assert_uint_eq(g.unresolved, 0);
		}
		ck_assert_uint_eq(f->trailer.samples, r.n - 8);
		pmufile__close(f);
		free(g.buf);
	}
	/* without the flag the writer writes version 1, as before */
	{
		struct pmufile *f = pmufile__open(tpath("plain.pmu"), 0, err, sizeof(err));

		ck_assert_msg(f, "%s", err);
		ck_assert_uint_eq(f->version, 1);
		pmufile__close(f);
	}
	free(r.buf);
}
END_TEST

/* Pack and unpack through the table API directly: the same records. */
START_TEST(test_pack_unpack_api)
{
	struct pmufile_ucopy_tab *a = pmufile__ucopy_tab_new(), *b = pmufile__ucopy_tab_new();
	uint8_t *p = malloc(PMUPROF_MAX_RECORD);
	const struct pmuprof_record_header *q;
	size_t packed = 0, whole = 0, stored_whole = 0;
	struct recs r;

	make_recs(&r);
	for (size_t i = 0; i < r.n; i++) {
		const struct pmuprof_record_header *h = (const void *)(r.buf + r.off[i]);
		size_t n = pmufile__ucopy_pack(a, h, p);

		if (h->type != PMUPROF_REC_SAMPLE) {
			ck_assert_uint_eq(n, 0);
			continue;
		}
		if (!n) { /* stored whole: the reader notes it */
			stored_whole++;
			ck_assert(!pmufile__ucopy_is_packed(h));
			pmufile__ucopy_note(b, h);
			continue;
		}
		ck_assert_uint_lt(n, h->size);
		ck_assert_uint_eq(n % 8, 0);
		ck_assert(pmufile__ucopy_is_packed((const void *)p));
		packed += n;
		whole += h->size;
		ck_assert_ptr_null(pmufile__ucopy_unpack(b, (const void *)p, &q));
		ck_assert_uint_eq(q->size, h->size);
		ck_assert(memcmp(q, h, h->size) == 0);
	}
	/* only copies without a reference (each thread's first, every 256th)
	 * whose every byte is valid are stored whole: packing would add 32 */
	ck_assert_uint_le(stored_whole, 3 * (NR_RECS / 256 + 1));
	ck_assert_uint_gt(whole, 3 * packed);
	pmufile__ucopy_tab_free(a);
	pmufile__ucopy_tab_free(b);
	free(p);
	free(r.buf);
}
END_TEST

/* A reader that missed copies (one packed record skipped) fails the
 * dependent copies of that thread with a reason, and recovers at the
 * thread's next copy stored without a reference. */
START_TEST(test_missing_reference)
{
	struct pmufile_ucopy_tab *a = pmufile__ucopy_tab_new(), *b = pmufile__ucopy_tab_new();
	uint8_t *p = malloc(PMUPROF_MAX_RECORD);
	const struct pmuprof_record_header *q;
	static struct thr th = {.tid = 7, .top = 0x7fff00000000ull};
	unsigned failed = 0, first_ok_after = 0;

	rng = 88172645463325252ull;
	for (size_t k = 0; k < sizeof(th.img); k++)
		th.img[k] = (uint8_t)rnd();
	for (unsigned i = 0; i < 600; i++) {
		uint8_t rec[sizeof(struct pmuprof_sample) + 16 +
			    sizeof(struct pmuprof_sample_ustack) + SIZE]
			__attribute__((aligned(8)));
		const char *why;

		put_copy(rec, &th, 1000 + i, SIZE);
		ck_assert_uint_gt(pmufile__ucopy_pack(a, (void *)rec, p), 0);
		if (i == 10)
			continue; /* the reader never sees copy 10 */
		why = pmufile__ucopy_unpack(b, (void *)p, &q);
		if (i < 10 || first_ok_after) {
			ck_assert_msg(!why, "copy %u: %s", i, why);
			ck_assert(memcmp(q, rec, sizeof(rec)) == 0);
			continue;
		}
		if (!why) { /* the thread's next copy without a reference */
			first_ok_after = i;
			ck_assert(memcmp(q, rec, sizeof(rec)) == 0);
			continue;
		}
		failed++;
		ck_assert_ptr_nonnull(
			strstr(why, i == 11 ? "a frame skipped" : "could not be rebuilt either"));
		{
			const struct pmuprof_sample_ustack *u =
				(const void *)((const uint8_t *)q + sizeof(struct pmuprof_sample) +
					       16);

			ck_assert_uint_eq(q->size, sizeof(rec));
			ck_assert_uint_eq(u->valid, 0);
			ck_assert(u->flags & PMUFILE_USTACK_UNRESOLVED);
			ck_assert(!(u->flags & PMUFILE_USTACK_PACKED));
		}
	}
	/* copies 11.. fail until the chain restarts (every 256th is whole) */
	ck_assert_uint_gt(failed, 0);
	ck_assert_uint_le(failed, 256);
	ck_assert_uint_eq(first_ok_after, 11 + failed);
	pmufile__ucopy_tab_free(a);
	pmufile__ucopy_tab_free(b);
	free(p);
}
END_TEST

/* Corrupt packed records: each a per-sample failure with a reason. */
START_TEST(test_corrupt_packed_records)
{
	struct pmufile_ucopy_tab *a = pmufile__ucopy_tab_new();
	uint8_t *p = malloc(PMUPROF_MAX_RECORD);
	const struct pmuprof_record_header *q;
	uint8_t *bad = malloc(PMUPROF_MAX_RECORD);
	static struct thr th = {.tid = 9, .top = 0x7ffe00000000ull};
	uint8_t rec[sizeof(struct pmuprof_sample) + 16 + sizeof(struct pmuprof_sample_ustack) +
		    SIZE] __attribute__((aligned(8)));
	const size_t pk_off =
		sizeof(struct pmuprof_sample) + 16 + sizeof(struct pmuprof_sample_ustack);
	struct {
		const char *what;
		size_t at; /* byte offset in the packed record (from pk_off) */
		uint32_t value;
		const char *expect;
	} cases[] = {
		{"nr_runs huge", 16, 0x10000000u, "do not fit"},
		{"first run's new bytes past valid", 24, 0xfffffff0u, "beyond the copy's"},
		{"first run repeats too much", 28, 0x7ffffff0u, "outside the copy's"},
		{"reference flag cleared", 20, 0, "outside the copy's"},
		{"reference time changed", 0, 12345, "refers to its copy of time 12345"},
	};
	size_t n;

	rng = 88172645463325252ull;
	for (size_t k = 0; k < sizeof(th.img); k++)
		th.img[k] = (uint8_t)rnd();
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct pmufile_ucopy_tab *b = pmufile__ucopy_tab_new();
		const char *why;

		pmufile__ucopy_tab_reset(a);
		/* a first copy (no reference), then a second that refers to it */
		put_copy(rec, &th, 1, SIZE);
		n = pmufile__ucopy_pack(a, (void *)rec, p);
		if (n) /* else stored whole (all of it valid): the reader notes it */
			ck_assert_ptr_null(pmufile__ucopy_unpack(b, (void *)p, &q));
		else
			pmufile__ucopy_note(b, (void *)rec);
		put_copy(rec, &th, 2, SIZE);
		n = pmufile__ucopy_pack(a, (void *)rec, p);
		ck_assert_uint_gt(n, pk_off + 32);
		memcpy(bad, p, n);
		pf_put32(bad + pk_off + cases[c].at, cases[c].value);
		why = pmufile__ucopy_unpack(b, (void *)bad, &q);
		ck_assert_msg(why && strstr(why, cases[c].expect), "%s: got %s", cases[c].what,
			      why ? why : "no failure");
		ck_assert_uint_eq(q->size, sizeof(rec));
		pmufile__ucopy_tab_free(b);
	}
	/* the record cut after its stack-copy header: too short for the packed part */
	{
		struct pmufile_ucopy_tab *b = pmufile__ucopy_tab_new();

		memcpy(bad, p, pk_off + 8);
		((struct pmuprof_record_header *)bad)->size = (uint32_t)(pk_off + 8);
		ck_assert_ptr_nonnull(
			strstr(pmufile__ucopy_unpack(b, (void *)bad, &q), "shorter than its"));
		/* fixed parts that do not fit: nothing delivered (size 0) */
		((struct pmuprof_record_header *)bad)->size = sizeof(struct pmuprof_sample) + 8;
		ck_assert_ptr_nonnull(pmufile__ucopy_unpack(b, (void *)bad, &q));
		ck_assert_ptr_null(q);
		pmufile__ucopy_tab_free(b);
	}
	pmufile__ucopy_tab_free(a);
	free(p);
	free(bad);
}
END_TEST

/* Salvage of a packed file whose middle SAMPLES frame is damaged: the
 * frame is skipped, the next frame's copies that referred into it are
 * counted as not rebuilt (with the reason), the rest read as written. */
START_TEST(test_salvage_skipped_frame)
{
	struct recs r;
	FILE *fp;
	long size;
	uint8_t *d;
	size_t off = PMUFILE_PREAMBLE_SIZE;
	int samples_frames = 0;
	struct pmufile *f;
	struct got g = {0};

	make_recs(&r);
	write_recs(tpath("packed.pmu"), &r, PMUFILE_WRITE_PACK_UCOPY);
	size = file_size(tpath("packed.pmu"));
	d = malloc((size_t)size);
	fp = fopen(tpath("packed.pmu"), "rb");
	ck_assert_uint_eq(fread(d, 1, (size_t)size, fp), (size_t)size);
	fclose(fp);
	/* flip a payload byte of the second SAMPLES frame */
	while (off < (size_t)size) {
		if (pf_get16(d + off + 4) == PMUFILE_FRAME_SAMPLES && ++samples_frames == 2) {
			d[off + PMUFILE_FRAME_HDR_SIZE + 100] ^= 0xff;
			break;
		}
		off += PMUFILE_FRAME_HDR_SIZE + pf_get32(d + off + 8);
	}
	ck_assert_int_eq(samples_frames, 2);
	fp = fopen(tpath("bad.pmu"), "wb");
	fwrite(d, 1, (size_t)size, fp);
	fclose(fp);
	f = pmufile__open(tpath("bad.pmu"), PMUFILE_OPEN_SALVAGE | PMUFILE_OPEN_STREAM, err,
			  sizeof(err));
	ck_assert_msg(f, "%s", err);
	ck_assert_int_eq(pmufile__for_each_record(f, collect, &g, err, sizeof(err)), 0);
	ck_assert_uint_eq(f->frames_skipped, 1);
	ck_assert_uint_gt(f->ucopy_unresolved, 0);
	ck_assert_uint_eq(g.unresolved, f->ucopy_unresolved);
	ck_assert_ptr_nonnull(strstr(f->ucopy_error, "a frame skipped"));
	ck_assert_ptr_nonnull(strstr(f->ucopy_error, "record at offset"));
	/* the first frame's records read exactly as written */
	ck_assert(memcmp(g.buf, r.buf, r.off[r.n / 3]) == 0);
	pmufile__close(f);
	free(g.buf);
	free(d);
	free(r.buf);
}
END_TEST

static Suite *ucopy_suite(void)
{
	Suite *s = suite_create("ucopy");

	pp_tcase(s, "core", setup, teardown,
		 PP_TESTS(test_packed_reads_as_plain, test_pack_unpack_api, test_missing_reference,
			  test_corrupt_packed_records, test_salvage_skipped_frame));
	return s;
}

int main(void)
{
	return pp_check_run(ucopy_suite());
}
