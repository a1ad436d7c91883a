// SPDX-License-Identifier: MIT
/*
 * libpmufile unit tests: round trips of every frame type, trailer totals,
 * truncation at every frame boundary and inside frames, CRC damage and
 * salvage resync, version/magic/size errors, lookups, writer errors. Damage
 * is read by both the mapped and the STREAM reader, which must agree.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/pmufile/pmufile.h"
#include "lib/pmufile/format.h"
#include "check_main.h"
#include "tmpdir.h"

static char tmpdir[256];
static char errbuf[1024];

static void setup(void)
{
	pp_tmpdir(tmpdir, sizeof(tmpdir), "test_pmufile");
}

static void teardown(void)
{
	pp_rm_tree(tmpdir);
}

static const char *tpath(const char *name)
{
	return pp_tmp_path(tmpdir, name);
}

/* ---------------------------------------------------------------- */
/* Record builders                                                   */
/* ---------------------------------------------------------------- */
static size_t put_sample(uint8_t *buf, uint16_t event, uint32_t pid, uint64_t time, unsigned nk,
			 unsigned nu, bool addr)
{
	struct pmuprof_sample *s = (void *)buf;
	uint8_t *p = buf + sizeof(*s);

	memset(s, 0, sizeof(*s));
	s->hdr.type = PMUPROF_REC_SAMPLE;
	s->hdr.misc = PMUPROF_MISC_USER;
	s->time_ns = time;
	s->ip = 0x400000 + time;
	s->period = 1000 + event;
	s->pid = pid;
	s->tid = pid + 1;
	s->cpu = (uint32_t)(time % 4);
	s->event = event;
	s->source = PMUPROF_SOURCE_PMU;
	s->nr_kstack = (uint16_t)nk;
	s->nr_ustack = (uint16_t)nu;
	snprintf(s->comm, sizeof(s->comm), "proc%u", pid);
	if (addr) {
		struct pmuprof_sample_addr *a = (void *)p;

		s->sample_flags |= PMUPROF_SF_ADDR;
		memset(a, 0, sizeof(*a));
		a->data_addr = 0x7f0000001000 + time;
		a->data_page = PMUPROF_PAGE_2M;
		p += sizeof(*a);
	}
	for (unsigned i = 0; i < nk + nu; i++) {
		uint64_t v = (i < nk ? 0xffffffff81000000ull : 0x401000ull) + i * 16 + time;

		memcpy(p, &v, 8);
		p += 8;
	}
	s->hdr.size = (uint32_t)(p - buf);
	return s->hdr.size;
}

static size_t put_lost(uint8_t *buf, uint32_t cpu, uint64_t time, uint64_t n)
{
	struct pmuprof_lost *l = (void *)buf;

	memset(l, 0, sizeof(*l));
	l->hdr.type = PMUPROF_REC_LOST;
	l->hdr.size = sizeof(*l);
	l->cpu = cpu;
	l->time_ns = time;
	l->lost = n;
	return sizeof(*l);
}

static size_t put_throttle(uint8_t *buf, uint64_t time)
{
	struct pmuprof_throttle *t = (void *)buf;

	memset(t, 0, sizeof(*t));
	t->hdr.type = PMUPROF_REC_THROTTLE;
	t->hdr.size = sizeof(*t);
	t->time_ns = time;
	t->old_period = 1000;
	t->new_period = 2000;
	return sizeof(*t);
}

static void fill_header(struct pmufile_header *h)
{
	memset(h, 0, sizeof(*h));
	strcpy(h->kernel_release, "6.1.0-56-amd64");
	strcpy(h->hostname, "testhost");
	strcpy(h->cmdline, "pmuctl record -e cycles -g -- ./workload 1 2");
	h->cpu_vendor = PMUPROF_VENDOR_INTEL;
	h->cpu_family = 6;
	h->cpu_model = 0x55;
	h->cpu_stepping = 4;
	strcpy(h->cpu_vendor_string, "GenuineIntel");
	strcpy(h->cpu_model_name, "Intel(R) Xeon(R) Test CPU");
	h->nr_cpus = 4;
	h->page_size = 4096;
	h->start_realtime_ns = 1700000000123456789ull;
	h->start_session_ns = 555;
	h->config_flags = PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK;
	h->stack_depth = 64;
	h->target = PMUPROF_TARGET_PID;
	h->pid = 1234;
	h->info.size = sizeof(h->info);
	h->info.abi_version = PMUPROF_ABI_VERSION;
	h->info.nr_gp = 4;
	h->info.gp_width = 48;
	h->info.perf_capabilities = 0x4c3;
	strcpy(h->info.vendor_string, "GenuineIntel");
	h->info.paging_levels = 4;
}

static void fill_event(struct pmufile_event *e, uint32_t idx)
{
	memset(e, 0, sizeof(*e));
	e->index = idx;
	e->source = idx ? PMUPROF_SOURCE_NMI_IPI : PMUPROF_SOURCE_PMU;
	e->flags = idx ? 0 : PMUPROF_EVF_FREQ;
	e->config = idx ? 0 : 0x53003c;
	e->period = idx ? 1000000 : 4000;
	snprintf(e->name, sizeof(e->name), "%s", idx ? "cpu-clock" : "cycles:u");
	snprintf(e->resolved, sizeof(e->resolved), "%s", idx ? "" : "skl::UNHALTED_CORE_CYCLES:u");
	snprintf(e->unit, sizeof(e->unit), "%s", idx ? "ns" : "cycles");
}

static void fill_mmap(struct pmufile_mmap *m, int32_t pid, uint64_t start, uint64_t end,
		      uint64_t time, const char *path)
{
	memset(m, 0, sizeof(*m));
	m->pid = pid;
	m->prot = 5;
	m->time_ns = time;
	m->start = start;
	m->end = end;
	m->pgoff = 0x1000;
	snprintf(m->path, sizeof(m->path), "%s", path);
	m->build_id_size = 20;
	for (int i = 0; i < 20; i++)
		m->build_id[i] = (uint8_t)(i + start);
}

/* ---------------------------------------------------------------- */
/* A reference recording, remembered record by record                */
/* ---------------------------------------------------------------- */
struct ref {
	uint8_t *recs; /* all records written, in order */
	size_t len;
	uint64_t nrec, samples, lost, throttled;
	uint64_t ev_samples[PMUPROF_MAX_EVENTS];
	char *ksyms;
	size_t ksyms_len;
};

static void ref_free(struct ref *r)
{
	free(r->recs);
	free(r->ksyms);
	memset(r, 0, sizeof(*r));
}

/* Write `batches` batches of records (samples, LOST, THROTTLE), with
 * PROCESS/MMAP frames interleaved, and every other frame type once. */
static void write_ref(const char *path, struct ref *ref, unsigned batches, unsigned per_batch,
		      size_t ksyms_len)
{
	struct pmufile_header h;
	struct pmufile_writer *w;
	struct pmufile_event ev;
	struct pmuprof_stats st;
	uint8_t *buf = malloc(per_batch * 4096 + 4096);
	uint64_t t = 1000;

	memset(ref, 0, sizeof(*ref));
	ref->recs = malloc((size_t)batches * (per_batch * 4096 + 4096));
	fill_header(&h);
	w = pmufile_writer__open(path, &h, errbuf, sizeof(errbuf));
	ck_assert_msg(w, "open: %s", errbuf);
	for (uint32_t i = 0; i < 2; i++) {
		fill_event(&ev, i);
		ck_assert_int_eq(pmufile_writer__event(w, &ev), 0);
	}
	ref->ksyms_len = ksyms_len;
	ref->ksyms = malloc(ksyms_len + 1);
	for (size_t i = 0; i < ksyms_len; i++)
		ref->ksyms[i] = (i % 41 == 40) ? '\n' : (char)('a' + i % 26);
	ck_assert_int_eq(pmufile_writer__kallsyms(w, ref->ksyms, ksyms_len / 2), 0);
	ck_assert_int_eq(
		pmufile_writer__kallsyms(w, ref->ksyms + ksyms_len / 2, ksyms_len - ksyms_len / 2),
		0);
	uint8_t kid[20];
	for (int i = 0; i < 20; i++)
		kid[i] = (uint8_t)(0xa0 + i);
	ck_assert_int_eq(pmufile_writer__kernel_build_id(w, kid, 20), 0);
	/* the [vdso] image: one page of a known pattern; empty and oversized
	 * images are refused */
	static uint8_t vdso[4096];
	for (size_t i = 0; i < sizeof(vdso); i++)
		vdso[i] = (uint8_t)(i * 7 + 3);
	ck_assert_int_eq(pmufile_writer__vdso(w, vdso, 0), -EINVAL);
	ck_assert_int_eq(pmufile_writer__vdso(w, vdso, (1u << 20) + 1), -EINVAL);
	ck_assert_int_eq(pmufile_writer__vdso(w, vdso, sizeof(vdso)), 0);

	for (unsigned b = 0; b < batches; b++) {
		struct pmufile_process p;
		struct pmufile_mmap m;
		size_t len = 0;

		memset(&p, 0, sizeof(p));
		p.pid = 100 + (int32_t)b;
		p.ppid = 1;
		p.time_ns = t;
		p.exited = b % 2;
		snprintf(p.comm, sizeof(p.comm), "proc%u", b);
		snprintf(p.exe, sizeof(p.exe), "/usr/bin/proc%u", b);
		p.build_id_size = 8;
		memset(p.build_id, 0x11 * (b % 15), 8);
		ck_assert_int_eq(pmufile_writer__process(w, &p), 0);
		fill_mmap(&m, p.pid, 0x400000, 0x401000 + b * 0x1000, t, "/usr/bin/x");
		ck_assert_int_eq(pmufile_writer__mmap(w, &m), 0);

		for (unsigned i = 0; i < per_batch; i++) {
			unsigned kind = (i + b) % 10;
			size_t n;

			if (kind == 7) {
				n = put_lost(buf + len, i % 4, t, 3 + i % 5);
				ref->lost += 3 + i % 5;
			} else if (kind == 8) {
				n = put_throttle(buf + len, t);
				ref->throttled++;
			} else {
				uint16_t e = (uint16_t)(i % 2);

				n = put_sample(buf + len, e, 100 + b, t, i % 7, i % 33, i % 3 == 0);
				ref->samples++;
				ref->ev_samples[e]++;
			}
			len += n;
			ref->nrec++;
			t += 10;
		}
		memcpy(ref->recs + ref->len, buf, len);
		ref->len += len;
		ck_assert_int_eq(pmufile_writer__records(w, buf, len), 0);
	}
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	st.nr_cpus = 4;
	st.cpus_ptr = 0xdeadbeef;
	st.state = PMUPROF_STATE_STOPPED;
	st.total.samples = ref->samples;
	st.event_lost[0] = 7;
	st.event_lost[1] = 9;
	ck_assert_int_eq(pmufile_writer__stats(w, &st), 0);
	ck_assert_uint_gt(pmufile_writer__bytes(w), 0);
	ck_assert_msg(pmufile_writer__close(w, 1700000001000000000ull, t, errbuf, sizeof(errbuf)) ==
			      0,
		      "close: %s", errbuf);
	free(buf);
}

struct walk {
	const struct ref *ref;
	size_t off;
	uint64_t n;
	bool mismatch;
};

static int cmp_cb(void *ctx, const struct pmuprof_record_header *rec)
{
	struct walk *wk = ctx;

	if (wk->off + rec->size > wk->ref->len ||
	    memcmp(wk->ref->recs + wk->off, rec, rec->size) != 0)
		wk->mismatch = true;
	wk->off += rec->size;
	wk->n++;
	return 0;
}

static int count_cb(void *ctx, const struct pmuprof_record_header *rec)
{
	(void)rec;
	(*(uint64_t *)ctx)++;
	return 0;
}

/* ---------------------------------------------------------------- */
START_TEST(test_crc32_vectors)
{
	/* CRC-32C check values (RFC 3720 family; "123456789" is the standard check) */
	static const struct {
		const char *in;
		uint32_t crc;
	} v[] = {
		{"123456789", 0xE3069283u},
		{"", 0},
		{"a", 0xC1D04330u},
		{"The quick brown fox jumps over the lazy dog", 0x22620404u},
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		ck_assert_uint_eq(pmufile__crc32(0, v[i].in, strlen(v[i].in)), v[i].crc);
		ck_assert_uint_eq(pmufile__crc32_soft(0, v[i].in, strlen(v[i].in)), v[i].crc);
	}
	/* chaining equals one pass, for every split point and odd lengths */
	const char *s = "The quick brown fox jumps over the lazy dog";
	size_t n = strlen(s);

	for (size_t k = 0; k <= n; k++) {
		ck_assert_uint_eq(pmufile__crc32(pmufile__crc32(0, s, k), s + k, n - k),
				  0x22620404u);
		ck_assert_uint_eq(pmufile__crc32_soft(pmufile__crc32_soft(0, s, k), s + k, n - k),
				  0x22620404u);
	}
	/* hardware and portable paths agree on every length/alignment */
	/* ... including the three-lane path (chunks of 768 bytes) and chaining
	 * from a non-zero CRC into it */
	static uint8_t buf[5000];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7 + (i >> 8));
	for (size_t off = 0; off < 9; off++)
		for (size_t len = 0; len + off <= sizeof(buf); len += (len < 800 ? 7 : 61)) {
			ck_assert_uint_eq(pmufile__crc32(0, buf + off, len),
					  pmufile__crc32_soft(0, buf + off, len));
			ck_assert_uint_eq(pmufile__crc32(0x12345678u, buf + off, len),
					  pmufile__crc32_soft(0x12345678u, buf + off, len));
		}
}
END_TEST

START_TEST(test_round_trip)
{
	const char *path = tpath("rt.pmu");
	struct ref ref;
	struct pmufile *f;
	struct pmufile_header h;
	struct walk wk = {0};

	write_ref(path, &ref, 3, 50, 1000);
	f = pmufile__open(path, 0, errbuf, sizeof(errbuf));
	ck_assert_msg(f, "open: %s", errbuf);
	fill_header(&h);
	ck_assert_uint_eq(f->version, PMUFILE_VERSION_PLAIN);
	ck_assert_int_eq(memcmp(&f->hdr, &h, sizeof(h)), 0);
	ck_assert_str_eq(f->hdr.cmdline, "pmuctl record -e cycles -g -- ./workload 1 2");
	ck_assert_uint_eq(f->hdr.info.perf_capabilities, 0x4c3);

	ck_assert_uint_eq(f->nr_events, 2);
	for (uint32_t i = 0; i < 2; i++) {
		struct pmufile_event ev;

		fill_event(&ev, i);
		ck_assert_int_eq(memcmp(pmufile__event(f, i), &ev, sizeof(ev)), 0);
	}
	ck_assert_ptr_null(pmufile__event(f, 2));
	ck_assert_ptr_null(pmufile__event(f, 1000));

	ck_assert_uint_eq(f->nr_processes, 3);
	const struct pmufile_process *p = pmufile__find_process(f, 101);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p->comm, "proc1");
	ck_assert_str_eq(p->exe, "/usr/bin/proc1");
	ck_assert(p->exited);
	ck_assert_uint_eq(p->build_id_size, 8);
	ck_assert_uint_eq(p->build_id[7], 0x11);
	ck_assert(!pmufile__find_process(f, 100)->exited);
	ck_assert_ptr_null(pmufile__find_process(f, 99));

	ck_assert_uint_eq(f->nr_mmaps, 3);
	ck_assert_str_eq(f->mmaps[2].path, "/usr/bin/x");
	ck_assert_uint_eq(f->mmaps[2].end, 0x403000);
	ck_assert_uint_eq(f->mmaps[2].build_id_size, 20);

	ck_assert_uint_eq(f->kallsyms_len, 1000);
	ck_assert_int_eq(memcmp(f->kallsyms, ref.ksyms, 1000), 0);
	ck_assert_int_eq(f->kallsyms[1000], '\0');
	ck_assert_uint_eq(f->kernel_build_id_size, 20);
	ck_assert_uint_eq(f->kernel_build_id[19], 0xa0 + 19);
	ck_assert_uint_eq(f->vdso_len, 4096);
	ck_assert_ptr_nonnull(f->vdso);
	ck_assert_uint_eq(f->vdso[0], 3);
	ck_assert_uint_eq(f->vdso[4095], (uint8_t)(4095 * 7 + 3));

	ck_assert(f->has_stats);
	ck_assert_uint_eq(f->stats.cpus_ptr, 0); /* pointers are not kept */
	ck_assert_uint_eq(f->stats.total.samples, ref.samples);
	ck_assert_uint_eq(f->stats.state, PMUPROF_STATE_STOPPED);

	ck_assert(f->has_trailer);
	ck_assert_uint_eq(f->trailer.samples, ref.samples);
	ck_assert_uint_eq(f->trailer.lost, ref.lost);
	ck_assert_uint_eq(f->trailer.throttled, ref.throttled);
	ck_assert_uint_eq(f->trailer.records, ref.nrec);
	ck_assert_uint_eq(f->trailer.nr_events, 2);
	ck_assert_uint_eq(f->trailer.event_samples[0], ref.ev_samples[0]);
	ck_assert_uint_eq(f->trailer.event_samples[1], ref.ev_samples[1]);
	ck_assert_uint_eq(f->trailer.event_lost[0], 7);
	ck_assert_uint_eq(f->trailer.event_lost[1], 9);
	ck_assert_uint_eq(f->trailer.end_realtime_ns, 1700000001000000000ull);
	ck_assert_uint_eq(f->damage_offset, 0);
	ck_assert_str_eq(f->damage, "");

	wk.ref = &ref;
	ck_assert_int_eq(pmufile__for_each_record(f, cmp_cb, &wk, errbuf, sizeof(errbuf)), 0);
	ck_assert(!wk.mismatch);
	ck_assert_uint_eq(wk.n, ref.nrec);
	ck_assert_uint_eq(wk.off, ref.len);
	pmufile__close(f);

	/* STREAM: the same records, twice (the second walk reads them again) */
	f = pmufile__open(path, PMUFILE_OPEN_STREAM, errbuf, sizeof(errbuf));
	ck_assert_msg(f, "open: %s", errbuf);
	for (int pass = 0; pass < 2; pass++) {
		memset(&wk, 0, sizeof(wk));
		wk.ref = &ref;
		ck_assert_int_eq(pmufile__for_each_record(f, cmp_cb, &wk, errbuf, sizeof(errbuf)),
				 0);
		ck_assert(!wk.mismatch);
		ck_assert_uint_eq(wk.n, ref.nrec);
		ck_assert_uint_eq(wk.off, ref.len);
	}
	pmufile__close(f);
	ref_free(&ref);
}
END_TEST

/* Records spanning many 1 MiB buffers, big kallsyms split into chunks. */
START_TEST(test_round_trip_large)
{
	const char *path = tpath("big.pmu");
	struct ref ref;
	struct pmufile *f;
	struct walk wk = {0};

	write_ref(path, &ref, 40, 2000, 3u << 20);
	for (int stream = 0; stream < 2; stream++) {
		f = pmufile__open(path, stream ? PMUFILE_OPEN_STREAM : 0, errbuf, sizeof(errbuf));
		ck_assert_msg(f, "open: %s", errbuf);
		ck_assert_uint_gt(f->trailer.frames, 40 * 2 + 10);
		ck_assert_uint_eq(f->kallsyms_len, 3u << 20);
		ck_assert_int_eq(memcmp(f->kallsyms, ref.ksyms, 3u << 20), 0);
		memset(&wk, 0, sizeof(wk));
		wk.ref = &ref;
		ck_assert_int_eq(pmufile__for_each_record(f, cmp_cb, &wk, errbuf, sizeof(errbuf)),
				 0);
		ck_assert(!wk.mismatch);
		ck_assert_uint_eq(wk.n, ref.nrec);
		ck_assert_uint_eq(f->trailer.samples, ref.samples);
		pmufile__close(f);
	}
	ref_free(&ref);
}
END_TEST

static int stop_cb(void *ctx, const struct pmuprof_record_header *rec)
{
	(void)rec;
	return ++(*(int *)ctx) == 5 ? 42 : 0;
}

START_TEST(test_for_each_stops)
{
	struct ref ref;
	struct pmufile *f;
	int n = 0;

	write_ref(tpath("s.pmu"), &ref, 1, 20, 10);
	f = pmufile__open(tpath("s.pmu"), 0, errbuf, sizeof(errbuf));
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(pmufile__for_each_record(f, stop_cb, &n, errbuf, sizeof(errbuf)), 42);
	ck_assert_int_eq(n, 5);
	pmufile__close(f);
	ref_free(&ref);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Raw file helpers for damage tests                                 */
/* ---------------------------------------------------------------- */
struct rawfile {
	uint8_t *data;
	size_t size;
};

static struct rawfile slurp(const char *path)
{
	struct rawfile r = {0};
	struct stat st;
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	r.size = (size_t)st.st_size;
	r.data = malloc(r.size + 1);
	ck_assert_int_eq(read(fd, r.data, r.size), (ssize_t)r.size);
	close(fd);
	return r;
}

static void spit(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
}

struct fr {
	size_t off, size;
	uint16_t type;
	uint32_t nrec;
};

/* Independent walk of the frame list (trusting the file, which is valid). */
static size_t frames_of(const struct rawfile *r, struct fr *out, size_t max)
{
	size_t off = PMUFILE_PREAMBLE_SIZE, n = 0;

	while (off < r->size && n < max) {
		out[n].off = off;
		out[n].type = pf_get16(r->data + off + 4);
		out[n].size = pf_get32(r->data + off + 8);
		out[n].nrec =
			out[n].type == PMUFILE_FRAME_SAMPLES ? pf_get32(r->data + off + 24) : 0;
		off += 24 + out[n].size;
		n++;
	}
	ck_assert_uint_eq(off, r->size);
	return n;
}

/* Records of SAMPLES frames that end at or before byte len of the intact
 * file r (an independent walk of its frames and records): what salvage must
 * deliver from r cut to len bytes. *samples gets the SAMPLE records among
 * them (may be NULL). */
static uint64_t complete_records(const struct rawfile *r, size_t len, uint64_t *samples)
{
	size_t off = PMUFILE_PREAMBLE_SIZE;
	uint64_t n = 0, ns = 0;

	while (off < r->size) {
		size_t size = pf_get32(r->data + off + 8), end = off + 24 + size;

		if (pf_get16(r->data + off + 4) == PMUFILE_FRAME_SAMPLES) {
			size_t pos = off + 24 + PMUFILE_SAMPLES_SUBHDR;

			while (pos < end) {
				uint32_t rsize = pf_get32(r->data + pos + 4);

				if (pos + rsize > len)
					break;
				n++;
				ns += pf_get16(r->data + pos) == PMUPROF_REC_SAMPLE;
				pos += rsize;
			}
		}
		off = end;
	}
	if (samples)
		*samples = ns;
	return n;
}

/* The first SAMPLES frame after the fifth frame (one with frames on both
 * sides), 0 if none; *total = records in all frames. */
static size_t mid_samples_frame(const struct fr *fr, size_t nf, uint64_t *total)
{
	size_t v = 0;

	for (size_t i = 0; i < nf; i++) {
		*total += fr[i].nrec;
		if (fr[i].type == PMUFILE_FRAME_SAMPLES && i > 4 && !v)
			v = i;
	}
	return v;
}

/* Recompute the CRCs of the frame at off after a test edited it. */
static void reseal(uint8_t *d, size_t off)
{
	uint32_t size = pf_get32(d + off + 8);

	pf_put32(d + off + 16, pmufile__crc32(0, d + off + 24, size));
	pf_put32(d + off + 20, pmufile__crc32(0, d + off, 20));
}

/* Digest of the records a walk delivers: count, and FNV-1a of their bytes
 * in delivery order. */
struct digest {
	uint64_t n, h;
};

static int digest_cb(void *ctx, const struct pmuprof_record_header *rec)
{
	struct digest *d = ctx;
	const uint8_t *p = (const uint8_t *)rec;

	if (!d->n)
		d->h = 0xcbf29ce484222325ull;
	for (uint32_t i = 0; i < rec->size; i++)
		d->h = (d->h ^ p[i]) * 0x100000001b3ull;
	d->n++;
	return 0;
}

/* Salvage read in both reader modes (mapped, and STREAM): the same records
 * in the same order, the same damage report. Returns the count and the
 * mapped reader, open. */
static uint64_t salvage_count(const char *path, struct pmufile **fp)
{
	struct digest d[2] = {{0}};
	struct pmufile *f[2];

	for (int m = 0; m < 2; m++) {
		f[m] = pmufile__open(path, PMUFILE_OPEN_SALVAGE | (m ? PMUFILE_OPEN_STREAM : 0),
				     errbuf, sizeof(errbuf));
		ck_assert_msg(f[m], "salvage open (stream %d) failed: %s", m, errbuf);
		ck_assert_int_eq(
			pmufile__for_each_record(f[m], digest_cb, &d[m], errbuf, sizeof(errbuf)),
			0);
	}
	ck_assert_uint_eq(d[0].n, d[1].n);
	ck_assert_uint_eq(d[0].h, d[1].h);
	ck_assert_str_eq(f[0]->damage, f[1]->damage);
	ck_assert_uint_eq(f[0]->damage_offset, f[1]->damage_offset);
	ck_assert_uint_eq(f[0]->frames_skipped, f[1]->frames_skipped);
	ck_assert_int_eq(f[0]->has_trailer, f[1]->has_trailer);
	pmufile__close(f[1]);
	*fp = f[0];
	return d[0].n;
}

static int nop_cb(void *ctx, const struct pmuprof_record_header *rec)
{
	(void)ctx;
	(void)rec;
	return 0;
}

/* A strict reader must refuse the file: at open with VERIFY, and at open
 * or in the first record walk without it; the message must name needle.
 * STREAM must fail the same way, with the same message. */
static void expect_strict_error(const char *path, const char *needle)
{
	static const unsigned int modes[] = {
		PMUFILE_OPEN_VERIFY,
		0,
		PMUFILE_OPEN_VERIFY | PMUFILE_OPEN_STREAM,
		PMUFILE_OPEN_STREAM,
	};
	char first[2][sizeof(errbuf)];

	for (int m = 0; m < 4; m++) {
		struct pmufile *f;
		int ret;

		errbuf[0] = 0;
		f = pmufile__open(path, modes[m], errbuf, sizeof(errbuf));
		if (f) {
			ck_assert_msg(!(modes[m] & PMUFILE_OPEN_VERIFY),
				      "VERIFY open of a damaged file succeeded (%s)", needle);
			ret = pmufile__for_each_record(f, nop_cb, NULL, errbuf, sizeof(errbuf));
			pmufile__close(f);
			ck_assert_msg(ret == -EBADMSG,
				      "strict walk of a damaged file returned %d (%s)", ret,
				      needle);
		}
		ck_assert_msg(strstr(errbuf, needle), "error \"%s\" lacks \"%s\"", errbuf, needle);
		if (m < 2)
			memcpy(first[m], errbuf, sizeof(errbuf));
		else
			ck_assert_str_eq(errbuf, first[m - 2]);
	}
}

START_TEST(test_truncation_everywhere)
{
	const char *path = tpath("t.pmu"), *cut = tpath("cut.pmu");
	struct ref ref;
	struct rawfile raw;
	struct fr fr[64];
	size_t nf;

	write_ref(path, &ref, 2, 12, 300);
	raw = slurp(path);
	nf = frames_of(&raw, fr, 64);
	ck_assert_uint_gt(nf, 8);
	/* every 8-byte boundary, plus odd offsets around each frame boundary */
	for (size_t len = 0; len < raw.size; len++) {
		bool boundary = false;
		uint64_t want = 0, got;
		size_t complete = 0;
		struct pmufile *f;
		char off_txt[64];

		for (size_t i = 0; i < nf; i++) {
			if (fr[i].off + 24 + fr[i].size <= len)
				complete = i + 1;
			if (len + 1 >= fr[i].off && len <= fr[i].off + 1)
				boundary = true;
		}
		if (len % 8 && !boundary)
			continue;
		want = complete_records(&raw, len, NULL);
		spit(cut, raw.data, len);
		if (len == 0) {
			expect_strict_error(cut, "empty");
			continue;
		}
		if (len < PMUFILE_PREAMBLE_SIZE) {
			expect_strict_error(cut, len < 8 ? "not a pmuprof" : "truncated");
			continue;
		}
		/* strict: an error naming an offset */
		expect_strict_error(cut, "offset");
		snprintf(off_txt, sizeof(off_txt), "%zu", complete == nf ? 0 : len);
		/* salvage: every complete record before the cut is reported, also
		 * those of a SAMPLES frame the cut falls in */
		got = salvage_count(cut, &f);
		ck_assert_msg(got == want, "cut at %zu: salvage got %llu records, want %llu", len,
			      (unsigned long long)got, (unsigned long long)want);
		ck_assert(!f->has_trailer);
		ck_assert_str_ne(f->damage, "");
		ck_assert_uint_le(f->damage_offset, len);
		if (complete >= 1) /* the header frame survived */
			ck_assert_str_eq(f->hdr.hostname, "testhost");
		pmufile__close(f);
	}
	free(raw.data);
	ref_free(&ref);
}
END_TEST

/*
 * A real recording (tests/data/pmufile/real-syscall-heavy.pmu: pmuctl record
 * -e cpu-clock -g -- syscall_heavy -s 1 in the pmuctl_record_cmd VM scenario,
 * 601 samples with kernel and user stacks, KALLSYMS frames written on demand
 * among the SAMPLES frames) cut at every frame boundary (and one byte either
 * side), inside every frame header and SAMPLES sub-header, and at 16 points
 * inside every payload: salvage must deliver exactly the complete records
 * before the cut (independent walk of the intact file), and the samples
 * among them.
 */
START_TEST(test_real_recording_cut_everywhere)
{
	const char *fixture = PMUPROF_SRC_ROOT "/tests/data/pmufile/real-syscall-heavy.pmu";
	const char *cut = tpath("cut.pmu");
	struct rawfile raw = slurp(fixture);
	struct fr fr[512];
	size_t nf = frames_of(&raw, fr, 512), cuts = 0;
	uint64_t samples;
	struct pmufile *f;

	ck_assert_uint_lt(nf, 512);
	/* the whole file: strict, and what pmuctl's summary said */
	f = pmufile__open(fixture, PMUFILE_OPEN_VERIFY, errbuf, sizeof(errbuf));
	ck_assert_msg(f, "%s", errbuf);
	ck_assert_uint_eq(f->trailer.samples, 601);
	pmufile__close(f);
	ck_assert_uint_eq(complete_records(&raw, raw.size, &samples), 601);
	/* the case: cut at 87 % (85434 of 98200 bytes): 525 samples */
	ck_assert_uint_eq(complete_records(&raw, raw.size * 87 / 100, &samples), 525);

	for (size_t i = 0; i < nf; i++) {
		size_t at[24], n = 0;

		at[n++] = fr[i].off - 1;
		at[n++] = fr[i].off;
		at[n++] = fr[i].off + 1;
		at[n++] = fr[i].off + 12;		   /* inside the frame header */
		at[n++] = fr[i].off + 24 + 4;		   /* inside a SAMPLES sub-header */
		at[n++] = fr[i].off + 24 + fr[i].size - 1; /* one byte short */
		for (size_t k = 1; k <= 16; k++)
			at[n++] = fr[i].off + 24 + fr[i].size * k / 17;
		for (size_t j = 0; j < n; j++) {
			uint64_t want, want_samples, got;

			if (at[j] <= PMUFILE_PREAMBLE_SIZE || at[j] >= raw.size)
				continue;
			want = complete_records(&raw, at[j], &want_samples);
			spit(cut, raw.data, at[j]);
			got = salvage_count(cut, &f);
			ck_assert_msg(got == want,
				      "cut at %zu (frame %zu): salvage got %llu records, want %llu",
				      at[j], i, (unsigned long long)got, (unsigned long long)want);
			ck_assert(!f->has_trailer);
			ck_assert_str_ne(f->damage, "");
			pmufile__close(f);
			cuts++;
		}
	}
	ck_assert_uint_gt(cuts, 1000);
	free(raw.data);
}
END_TEST

/* The duration (docs/FORMAT.md "Duration"): START to STOP from the STATS
 * frame; pmuctl printed "recorded 1.10 s" for the real recording, whose file
 * was open 1.40 s (what pmuconv report used to print). */
START_TEST(test_duration_definition)
{
	const char *fixture = PMUPROF_SRC_ROOT "/tests/data/pmufile/real-syscall-heavy.pmu";
	struct pmufile *f = pmufile__open(fixture, 0, errbuf, sizeof(errbuf));
	uint64_t ns;

	ck_assert_msg(f, "%s", errbuf);
	ck_assert(f->has_stats);
	ck_assert(pmufile__duration_ns(f, &ns));
	ck_assert_uint_eq(ns, f->stats.stop_ns - f->stats.start_ns);
	ck_assert_uint_eq(ns, pmufile__session_duration_ns(&f->stats));
	ck_assert_msg(ns >= 1095000000 && ns < 1105000000, "duration %llu ns",
		      (unsigned long long)ns);
	ck_assert_uint_gt(f->trailer.end_session_ns - f->hdr.start_session_ns, 1395000000);
	/* no STATS frame: the file's own clock */
	f->has_stats = false;
	ck_assert(pmufile__duration_ns(f, &ns));
	ck_assert_uint_eq(ns, f->trailer.end_session_ns - f->hdr.start_session_ns);
	/* nothing known */
	f->has_trailer = false;
	ck_assert(!pmufile__duration_ns(f, &ns));
	ck_assert_uint_eq(ns, 0);
	ck_assert_uint_eq(pmufile__session_duration_ns(NULL), 0);
	pmufile__close(f);
}
END_TEST

START_TEST(test_flipped_byte_in_samples)
{
	const char *path = tpath("f.pmu"), *bad = tpath("bad.pmu");
	struct ref ref;
	struct rawfile raw;
	struct fr fr[64];
	size_t nf, victim = 0;
	uint64_t total = 0, got;
	struct pmufile *f;
	char want[128];

	write_ref(path, &ref, 3, 30, 100);
	raw = slurp(path);
	nf = frames_of(&raw, fr, 64);
	victim = mid_samples_frame(fr, nf, &total);
	ck_assert_uint_gt(victim, 0);
	raw.data[fr[victim].off + 24 + fr[victim].size / 2] ^= 0x10;
	spit(bad, raw.data, raw.size);

	snprintf(want, sizeof(want), "SAMPLES frame at offset %zu", fr[victim].off);
	expect_strict_error(bad, want);
	expect_strict_error(bad, "payload CRC");

	got = salvage_count(bad, &f);
	ck_assert_uint_eq(got, total - fr[victim].nrec);
	ck_assert_uint_eq(f->damage_offset, fr[victim].off);
	ck_assert_uint_eq(f->frames_skipped, 1);
	ck_assert_ptr_nonnull(strstr(f->damage, "payload CRC"));
	ck_assert(f->has_trailer); /* resynced to the frames after the damage */
	ck_assert_uint_eq(f->nr_processes, 3);
	pmufile__close(f);

	/* damage the sync word of a frame: resync skips to the one after */
	raw.data[fr[victim].off + 24 + fr[victim].size / 2] ^= 0x10;
	raw.data[fr[victim].off] ^= 0xff;
	spit(bad, raw.data, raw.size);
	expect_strict_error(bad, "expected a frame sync word");
	got = salvage_count(bad, &f);
	ck_assert_uint_eq(got, total - fr[victim].nrec);
	ck_assert_uint_eq(f->frames_skipped, 1);
	pmufile__close(f);
	free(raw.data);
	ref_free(&ref);
}
END_TEST

START_TEST(test_missing_frame_detected)
{
	const char *path = tpath("m.pmu"), *bad = tpath("bad.pmu");
	struct ref ref;
	struct rawfile raw;
	struct fr fr[64];
	size_t nf, v = 0;
	struct pmufile *f;

	write_ref(path, &ref, 3, 30, 100);
	raw = slurp(path);
	nf = frames_of(&raw, fr, 64);
	for (size_t i = 3; i < nf && !v; i++)
		if (fr[i].type == PMUFILE_FRAME_SAMPLES)
			v = i;
	/* cut a whole, valid frame out: sequence numbers and trailer notice */
	memmove(raw.data + fr[v].off, raw.data + fr[v].off + 24 + fr[v].size,
		raw.size - (fr[v].off + 24 + fr[v].size));
	spit(bad, raw.data, raw.size - 24 - fr[v].size);
	expect_strict_error(bad, "frames are missing");
	salvage_count(bad, &f);
	ck_assert_uint_eq(f->frames_skipped, 1);
	ck_assert(f->has_trailer);
	ck_assert_ptr_nonnull(strstr(f->damage, "TRAILER says"));
	pmufile__close(f);
	free(raw.data);
	ref_free(&ref);
}
END_TEST

static void write_small(const char *path)
{
	struct ref ref;

	write_ref(path, &ref, 1, 10, 50);
	ref_free(&ref);
}

START_TEST(test_unknown_version)
{
	const char *path = tpath("v.pmu");
	struct rawfile raw;
	struct pmufile *f;

	write_small(path);
	raw = slurp(path);
	pf_put32(raw.data + 12, 7);
	spit(path, raw.data, raw.size);
	f = pmufile__open(path, PMUFILE_OPEN_SALVAGE, errbuf, sizeof(errbuf));
	ck_assert_ptr_null(f);
	ck_assert_int_eq(errno, EPROTONOSUPPORT);
	ck_assert_ptr_nonnull(strstr(
		errbuf,
		"file format version 7 is newer than this pmuconv supports (2); upgrade pmuconv"));
	pf_put32(raw.data + 12, 0);
	spit(path, raw.data, raw.size);
	expect_strict_error(path, "version 0");
	free(raw.data);
}
END_TEST

START_TEST(test_big_endian_rejected)
{
	const char *path = tpath("be.pmu");
	struct rawfile raw;

	write_small(path);
	raw = slurp(path);
	pf_put32(raw.data + 8, PMUFILE_BYTE_ORDER_SWAPPED);
	spit(path, raw.data, raw.size);
	expect_strict_error(path, "big-endian");
	ck_assert_int_eq(errno, EPROTONOSUPPORT);
	free(raw.data);
}
END_TEST

START_TEST(test_wrong_magic_and_empty)
{
	const char *path = tpath("w.pmu");

	spit(path, "ELF\x7f whatever this is not", 26);
	expect_strict_error(path, "not a pmuprof data file: expected magic");
	expect_strict_error(path, "offset 0");
	spit(path, "", 0);
	expect_strict_error(path, "file is empty");
	ck_assert_ptr_null(pmufile__open(path, PMUFILE_OPEN_SALVAGE, errbuf, sizeof(errbuf)));
	spit(path, "PMUPROF\0\4\3\2\1", 12);
	expect_strict_error(path, "truncated");
	ck_assert_ptr_null(pmufile__open(tpath("does-not-exist"), 0, errbuf, sizeof(errbuf)));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(pmufile__open(tmpdir, 0, errbuf, sizeof(errbuf)));
	ck_assert_ptr_nonnull(strstr(errbuf, "not a regular file"));
}
END_TEST

START_TEST(test_impossible_sizes)
{
	const char *path = tpath("i.pmu"), *bad = tpath("bad.pmu");
	struct rawfile raw;
	struct fr fr[64];
	size_t nf, s = 0, m = 0, tr = 0;
	uint8_t *d;

	write_small(path);
	raw = slurp(path);
	nf = frames_of(&raw, fr, 64);
	for (size_t i = 0; i < nf; i++) {
		if (fr[i].type == PMUFILE_FRAME_SAMPLES && !s)
			s = i;
		if (fr[i].type == PMUFILE_FRAME_MMAP && !m)
			m = i;
		if (fr[i].type == PMUFILE_FRAME_TRAILER)
			tr = i;
	}
	ck_assert(s && m && tr);
	d = malloc(raw.size);

	/* frame payload size of 4 GiB - 8, header CRC made valid */
	memcpy(d, raw.data, raw.size);
	pf_put32(d + fr[s].off + 8, 0xfffffff8u);
	pf_put32(d + fr[s].off + 20, pmufile__crc32(0, d + fr[s].off, 20));
	spit(bad, d, raw.size);
	expect_strict_error(bad, "impossible payload size of 4294967288 bytes");

	/* frame size just past the end of the file */
	memcpy(d, raw.data, raw.size);
	pf_put32(d + fr[s].off + 8, (uint32_t)(raw.size - fr[s].off));
	pf_put32(d + fr[s].off + 20, pmufile__crc32(0, d + fr[s].off, 20));
	spit(bad, d, raw.size);
	expect_strict_error(bad, "but the file ends");

	/* one field of a frame's payload changed, the frame's CRCs made valid */
	enum { F_SAMPLES, F_MMAP, F_TRAILER };
	const size_t frame_of[] = {s, m, tr};
	const struct {
		const char *what;
		int frame, bits;
		uint32_t at;
		uint64_t value;
		const char *err;
	} pokes[] = {
		{"a record of size 0 inside a SAMPLES frame (CRC valid)", F_SAMPLES, 32, 24 + 8 + 4,
		 0, "record 0 at offset"},
		{"a record larger than its frame", F_SAMPLES, 32, 24 + 8 + 4, 1u << 30,
		 "at most the"},
		{"wrong record count in the SAMPLES sub-header", F_SAMPLES, 32, 24, fr[s].nrec + 1,
		 "its header says"},
		{"MMAP build-id length of 3 billion bytes", F_MMAP, 32, 24 + 40, 3000000000u,
		 "'build_id' at offset"},
		{"MMAP path length beyond the payload", F_MMAP, 32, 24 + 44 + 20, 4000,
		 "'path' at offset"},
		{"trailer claiming 100000 events", F_TRAILER, 32, 24 + 56, 100000,
		 "TRAILER frame at offset"},
		{"trailer totals that disagree with the file", F_TRAILER, 64, 24 + 16, 999999,
		 "TRAILER says"},
	};
	for (size_t i = 0; i < sizeof(pokes) / sizeof(pokes[0]); i++) {
		size_t off = fr[frame_of[pokes[i].frame]].off;

		memcpy(d, raw.data, raw.size);
		if (pokes[i].bits == 32)
			pf_put32(d + off + pokes[i].at, (uint32_t)pokes[i].value);
		else
			pf_put64(d + off + pokes[i].at, pokes[i].value);
		reseal(d, off);
		spit(bad, d, raw.size);
		expect_strict_error(bad, pokes[i].err); /* pokes[i].what */
	}

	/* salvage survives every one of the above without reading out of bounds */
	struct pmufile *f;
	salvage_count(bad, &f);
	ck_assert_ptr_nonnull(strstr(f->damage, "TRAILER says"));
	pmufile__close(f);
	free(d);
	free(raw.data);
}
END_TEST

START_TEST(test_find_mmap)
{
	const char *path = tpath("mm.pmu");
	struct pmufile_header h;
	struct pmufile_writer *w;
	struct pmufile_mmap m;
	struct pmufile *f;
	const struct pmufile_mmap *r;

	fill_header(&h);
	w = pmufile_writer__open(path, &h, errbuf, sizeof(errbuf));
	ck_assert_ptr_nonnull(w);
	/* pid 10: a big early mapping overlapping later small ones */
	fill_mmap(&m, 10, 0x1000, 0x100000, 100, "/big");
	pmufile_writer__mmap(w, &m);
	fill_mmap(&m, 10, 0x2000, 0x3000, 200, "/small-t200");
	pmufile_writer__mmap(w, &m);
	fill_mmap(&m, 10, 0x2000, 0x3000, 500, "/small-t500");
	pmufile_writer__mmap(w, &m);
	fill_mmap(&m, 10, 0x200000, 0x300000, 300, "/high");
	pmufile_writer__mmap(w, &m);
	fill_mmap(&m, 11, 0x2000, 0x3000, 50, "/other-pid");
	pmufile_writer__mmap(w, &m);
	fill_mmap(&m, 9, 0x0, 0x10000000, 50, "/pid9");
	pmufile_writer__mmap(w, &m);
	ck_assert_int_eq(pmufile_writer__close(w, 0, 0, errbuf, sizeof(errbuf)), 0);

	f = pmufile__open(path, 0, errbuf, sizeof(errbuf));
	ck_assert_msg(f, "%s", errbuf);
	ck_assert_uint_eq(f->nr_mmaps, 6);
	/* sorted by (pid, start, time) */
	ck_assert_int_eq(f->mmaps[0].pid, 9);
	ck_assert_str_eq(f->mmaps[2].path, "/small-t200");

	/* latest captured at or before t */
	ck_assert_str_eq(pmufile__find_mmap(f, 10, 0x2800, 600)->path, "/small-t500");
	ck_assert_str_eq(pmufile__find_mmap(f, 10, 0x2800, 500)->path, "/small-t500");
	ck_assert_str_eq(pmufile__find_mmap(f, 10, 0x2800, 499)->path, "/small-t200");
	ck_assert_str_eq(pmufile__find_mmap(f, 10, 0x2800, 150)->path, "/big");
	/* none at or before t: the earliest after */
	ck_assert_str_eq(pmufile__find_mmap(f, 10, 0x2800, 10)->path, "/big");
	ck_assert_str_eq(pmufile__find_mmap(f, 10, 0x250000, 0)->path, "/high");
	/* only the big one covers 0x5000 */
	ck_assert_str_eq(pmufile__find_mmap(f, 10, 0x5000, 1000)->path, "/big");
	/* end is exclusive, start inclusive */
	ck_assert_str_eq(pmufile__find_mmap(f, 10, 0x200000, 1000)->path, "/high");
	ck_assert_ptr_null(pmufile__find_mmap(f, 10, 0x300000, 1000));
	ck_assert_ptr_null(pmufile__find_mmap(f, 10, 0x100000, 1000));
	ck_assert_ptr_null(pmufile__find_mmap(f, 10, 0x500, 1000));
	/* pid selection */
	r = pmufile__find_mmap(f, 11, 0x2800, 1000);
	ck_assert_str_eq(r->path, "/other-pid");
	ck_assert_ptr_null(pmufile__find_mmap(f, 11, 0x5000, 1000));
	ck_assert_str_eq(pmufile__find_mmap(f, 9, 0x5000, 0)->path, "/pid9");
	ck_assert_ptr_null(pmufile__find_mmap(f, 12, 0x2800, 1000));
	ck_assert_ptr_null(pmufile__find_mmap(f, 8, 0x2800, 1000));
	pmufile__close(f);
}
END_TEST

START_TEST(test_sample_view)
{
	uint64_t buf[1024];
	struct pmuprof_sample *s = (void *)buf;
	struct pmufile_sample_view v;
	size_t n;

	n = put_sample((uint8_t *)buf, 1, 5, 77, 3, 4, true);
	ck_assert_uint_eq(n, sizeof(*s) + sizeof(struct pmuprof_sample_addr) + 7 * 8);
	ck_assert_int_eq(pmufile__sample_view(&s->hdr, &v), 0);
	ck_assert_ptr_eq(v.s, s);
	ck_assert_ptr_nonnull(v.addr);
	ck_assert_uint_eq(v.addr->data_page, PMUPROF_PAGE_2M);
	ck_assert_uint_eq(v.kstack[0], 0xffffffff81000000ull + 77);
	ck_assert_uint_eq(v.ustack[0], 0x401000ull + 3 * 16 + 77);
	ck_assert_uint_eq(v.ustack[3], 0x401000ull + 6 * 16 + 77);

	n = put_sample((uint8_t *)buf, 1, 5, 77, 2, 0, false);
	ck_assert_int_eq(pmufile__sample_view(&s->hdr, &v), 0);
	ck_assert_ptr_null(v.addr);

	/* inconsistent: more frames claimed than the size holds */
	s->nr_kstack = 3;
	ck_assert_int_eq(pmufile__sample_view(&s->hdr, &v), -EBADMSG);
	s->nr_kstack = 1;
	ck_assert_int_eq(pmufile__sample_view(&s->hdr, &v), -EBADMSG);
	s->nr_kstack = 2;
	s->sample_flags |= PMUPROF_SF_ADDR; /* address claimed but absent */
	ck_assert_int_eq(pmufile__sample_view(&s->hdr, &v), -EBADMSG);
	s->sample_flags = 0;
	s->nr_kstack = 0xffff; /* overflow must not wrap */
	s->nr_ustack = 0xffff;
	ck_assert_int_eq(pmufile__sample_view(&s->hdr, &v), -EBADMSG);
	s->hdr.size = 16; /* shorter than a sample */
	ck_assert_int_eq(pmufile__sample_view(&s->hdr, &v), -EBADMSG);
	put_lost((uint8_t *)buf, 0, 0, 1);
	ck_assert_int_eq(pmufile__sample_view(&s->hdr, &v), -EBADMSG);
}
END_TEST

START_TEST(test_writer_rejects_partial_records)
{
	uint8_t buf[4096];
	struct pmufile_header h;
	struct pmufile_writer *w;
	size_t n;
	struct pmufile *f;

	fill_header(&h);
	w = pmufile_writer__open(tpath("p.pmu"), &h, errbuf, sizeof(errbuf));
	ck_assert_ptr_nonnull(w);
	n = put_sample(buf, 0, 1, 1, 2, 2, false);
	ck_assert_int_eq(pmufile_writer__records(w, buf, n - 8), -EINVAL);
	ck_assert_ptr_nonnull(strstr(pmufile_writer__error(w), "not a whole record"));
	((struct pmuprof_record_header *)buf)->size = 12;
	ck_assert_int_eq(pmufile_writer__records(w, buf, 16), -EINVAL);
	/* not sticky: a good buffer still goes through */
	n = put_sample(buf, 0, 1, 1, 2, 2, false);
	ck_assert_int_eq(pmufile_writer__records(w, buf, n), 0);
	ck_assert_int_eq(pmufile_writer__flush(w), 0);
	ck_assert_int_eq(pmufile_writer__close(w, 0, 0, errbuf, sizeof(errbuf)), 0);
	f = pmufile__open(tpath("p.pmu"), 0, errbuf, sizeof(errbuf));
	ck_assert_msg(f, "%s", errbuf);
	ck_assert_uint_eq(f->trailer.samples, 1);
	ck_assert_uint_eq(f->trailer.records, 1);
	ck_assert(!f->has_stats);
	pmufile__close(f);
}
END_TEST

START_TEST(test_writer_enospc)
{
	struct pmufile_header h;
	struct pmufile_writer *w;

	if (access("/dev/full", W_OK) != 0)
		return; /* no /dev/full in this sandbox */
	fill_header(&h);
	w = pmufile_writer__open("/dev/full", &h, errbuf, sizeof(errbuf));
	ck_assert_ptr_null(w);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_ptr_nonnull(strstr(errbuf, "No space left on device"));
	ck_assert_ptr_nonnull(strstr(errbuf, "offset 0"));
}
END_TEST

/* RLIMIT_FSIZE makes write() short, then fail with EFBIG: the error must
 * stick and be reported by close. */
START_TEST(test_writer_sticky_error)
{
	struct rlimit rl = {.rlim_cur = 300000, .rlim_max = RLIM_INFINITY};
	struct pmufile_header h;
	struct pmufile_writer *w;
	uint8_t buf[8192];
	size_t n = 0;
	int ret = 0, first = 0, calls = 0;

	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	fill_header(&h);
	w = pmufile_writer__open(tpath("limit.pmu"), &h, errbuf, sizeof(errbuf));
	ck_assert_ptr_nonnull(w);
	while (n + 400 < sizeof(buf))
		n += put_sample(buf + n, 0, 1, n, 5, 30, false);
	for (calls = 0; calls < 1000 && !first; calls++)
		first = pmufile_writer__records(w, buf, n);
	ck_assert_int_eq(first, -EFBIG);
	/* sticky: every later call fails the same way */
	ck_assert_int_eq(pmufile_writer__records(w, buf, n), -EFBIG);
	ck_assert_int_eq(pmufile_writer__flush(w), -EFBIG);
	ck_assert_ptr_nonnull(strstr(pmufile_writer__error(w), "offset 300000"));
	ret = pmufile_writer__close(w, 0, 0, errbuf, sizeof(errbuf));
	ck_assert_int_eq(ret, -EFBIG);
	ck_assert_ptr_nonnull(strstr(errbuf, "File too large"));
	ck_assert_ptr_nonnull(strstr(errbuf, "limit.pmu"));
}
END_TEST

START_TEST(test_abort_leaves_salvageable_file)
{
	struct pmufile_header h;
	struct pmufile_writer *w;
	uint8_t buf[4096];
	size_t n;
	struct pmufile *f;
	uint64_t cnt = 0;

	fill_header(&h);
	w = pmufile_writer__open(tpath("a.pmu"), &h, errbuf, sizeof(errbuf));
	ck_assert_ptr_nonnull(w);
	n = put_sample(buf, 0, 1, 1, 2, 2, false);
	n += put_lost(buf + n, 1, 2, 5);
	ck_assert_int_eq(pmufile_writer__records(w, buf, n), 0);
	pmufile_writer__abort(w);
	pmufile_writer__abort(NULL);
	expect_strict_error(tpath("a.pmu"), "without a TRAILER");
	f = pmufile__open(tpath("a.pmu"), PMUFILE_OPEN_SALVAGE, errbuf, sizeof(errbuf));
	ck_assert_ptr_nonnull(f);
	ck_assert(!f->has_trailer);
	ck_assert_int_eq(pmufile__for_each_record(f, count_cb, &cnt, errbuf, sizeof(errbuf)), 0);
	ck_assert_uint_eq(cnt, 2);
	pmufile__close(f);
	pmufile__close(NULL);
}
END_TEST

/* VERIFY reports SAMPLES damage at open; NO_CRC misses a flipped bit inside
 * a record but still catches a damaged record size. */
START_TEST(test_verify_and_no_crc_modes)
{
	const char *path = tpath("vm.pmu"), *bad = tpath("bad.pmu");
	struct ref ref;
	struct rawfile raw;
	struct fr fr[64];
	size_t nf, v = 0;
	uint64_t total = 0, n = 0;
	struct pmufile *f;
	size_t rec0;

	write_ref(path, &ref, 2, 20, 100);
	raw = slurp(path);
	nf = frames_of(&raw, fr, 64);
	for (size_t i = 0; i < nf; i++) {
		total += fr[i].nrec;
		if (fr[i].type == PMUFILE_FRAME_SAMPLES && !v)
			v = i;
	}
	/* flip a bit of the first record's time_ns: sizes stay valid */
	rec0 = fr[v].off + 24 + 8;
	raw.data[rec0 + 8] ^= 1;
	spit(bad, raw.data, raw.size);

	f = pmufile__open(bad, PMUFILE_OPEN_SALVAGE | PMUFILE_OPEN_VERIFY, errbuf, sizeof(errbuf));
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->damage_offset, fr[v].off); /* known before any walk */
	ck_assert_uint_eq(f->frames_skipped, 1);
	ck_assert_int_eq(pmufile__for_each_record(f, count_cb, &n, errbuf, sizeof(errbuf)), 0);
	ck_assert_uint_eq(n, total - fr[v].nrec);
	pmufile__close(f);

	f = pmufile__open(bad, PMUFILE_OPEN_NO_CRC, errbuf, sizeof(errbuf));
	ck_assert_ptr_nonnull(f);
	n = 0;
	ck_assert_int_eq(pmufile__for_each_record(f, count_cb, &n, errbuf, sizeof(errbuf)), 0);
	ck_assert_uint_eq(n, total);
	ck_assert_str_eq(f->damage, "");
	pmufile__close(f);

	/* a record size made impossible is caught even without the CRC */
	raw.data[rec0 + 8] ^= 1;
	pf_put32(raw.data + rec0 + 4, 12);
	spit(bad, raw.data, raw.size);
	f = pmufile__open(bad, PMUFILE_OPEN_NO_CRC, errbuf, sizeof(errbuf));
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(pmufile__for_each_record(f, count_cb, &n, errbuf, sizeof(errbuf)),
			 -EBADMSG);
	ck_assert_ptr_nonnull(strstr(errbuf, "record 0 at offset"));
	pmufile__close(f);
	free(raw.data);
	ref_free(&ref);
}
END_TEST

/* A record whose size field is impossible, in the middle of a SAMPLES frame
 * whose CRC was recomputed (so only the record walk notices): the records
 * before it are delivered, the rest of its frame is not, and the mapped and
 * STREAM readers agree on all of it (salvage_count and expect_strict_error
 * compare them). */
START_TEST(test_bad_record_mid_frame)
{
	const char *path = tpath("r.pmu"), *bad = tpath("bad.pmu");
	struct ref ref;
	struct rawfile raw;
	struct fr fr[64];
	size_t nf, v = 0, at;
	uint64_t total = 0, got, before = 0;
	struct pmufile *f;
	char want[128];

	write_ref(path, &ref, 3, 40, 100);
	raw = slurp(path);
	nf = frames_of(&raw, fr, 64);
	v = mid_samples_frame(fr, nf, &total);
	ck_assert_uint_gt(v, 0);
	ck_assert_uint_gt(fr[v].nrec, 4);
	/* the record in the middle of frame v */
	at = fr[v].off + 24 + 8;
	for (uint32_t r = 0; r < fr[v].nrec / 2; r++) {
		at += pf_get32(raw.data + at + 4);
		before++;
	}
	pf_put32(raw.data + at + 4, 12); /* not a multiple of 8 */
	reseal(raw.data, fr[v].off);
	spit(bad, raw.data, raw.size);

	snprintf(want, sizeof(want), "record %llu at offset %zu", (unsigned long long)before, at);
	expect_strict_error(bad, want);
	got = salvage_count(bad, &f);
	ck_assert_uint_eq(got, total - fr[v].nrec + before);
	ck_assert_uint_eq(f->damage_offset, fr[v].off);
	ck_assert_uint_eq(f->frames_skipped, 1);
	pmufile__close(f);
	free(raw.data);
	ref_free(&ref);
}
END_TEST

/* STREAM reads SAMPLES frames when they are walked: a file cut short after
 * the open is a read error with errno and offset, not damage. */
START_TEST(test_stream_file_shrinks)
{
	const char *path = tpath("sh.pmu");
	struct ref ref;
	struct pmufile *f;
	uint64_t n = 0;
	struct stat st;
	int ret;

	write_ref(path, &ref, 3, 40, 100);
	ck_assert_int_eq(stat(path, &st), 0);
	f = pmufile__open(path, PMUFILE_OPEN_STREAM, errbuf, sizeof(errbuf));
	ck_assert_msg(f, "open: %s", errbuf);
	ck_assert_int_eq(truncate(path, st.st_size / 4), 0);
	ret = pmufile__for_each_record(f, count_cb, &n, errbuf, sizeof(errbuf));
	ck_assert_int_eq(ret, -EIO);
	ck_assert_ptr_nonnull(strstr(errbuf, "shorter than when it was opened"));
	ck_assert_ptr_nonnull(strstr(errbuf, "at offset"));
	ck_assert_str_eq(f->damage, "");
	pmufile__close(f);
	ref_free(&ref);
}
END_TEST

/* A frame type from a newer writer is skipped by its size. */
START_TEST(test_unknown_frame_type_skipped)
{
	const char *path = tpath("u.pmu"), *out = tpath("u2.pmu");
	struct ref ref;
	struct rawfile raw;
	struct fr fr[64];
	size_t nf, at;
	uint8_t *d;
	struct pmufile *f;
	uint64_t n = 0;

	write_ref(path, &ref, 1, 10, 50);
	raw = slurp(path);
	nf = frames_of(&raw, fr, 64);
	/* insert a 16-byte frame of type 200 after the HEADER frame, then
	 * renumber the frames after it and fix the trailer's frame count */
	at = fr[1].off;
	d = calloc(1, raw.size + 40);
	memcpy(d, raw.data, at);
	pf_put32(d + at, PMUFILE_SYNC);
	pf_put16(d + at + 4, 200);
	pf_put32(d + at + 8, 16);
	pf_put32(d + at + 12, 1);
	memcpy(d + at + 24, "future frame....", 16);
	reseal(d, at);
	memcpy(d + at + 40, raw.data + at, raw.size - at);
	for (size_t i = 1; i < nf; i++) {
		size_t o = fr[i].off + 40;

		pf_put32(d + o + 12, (uint32_t)i + 1);
		if (fr[i].type == PMUFILE_FRAME_TRAILER)
			pf_put64(d + o + 24 + 48, nf);
		reseal(d, o);
	}
	spit(out, d, raw.size + 40);
	f = pmufile__open(out, PMUFILE_OPEN_VERIFY, errbuf, sizeof(errbuf));
	ck_assert_msg(f, "%s", errbuf);
	ck_assert_int_eq(pmufile__for_each_record(f, count_cb, &n, errbuf, sizeof(errbuf)), 0);
	ck_assert_uint_eq(n, ref.nrec);
	pmufile__close(f);
	free(d);
	free(raw.data);
	ref_free(&ref);
}
END_TEST

static Suite *pmufile_suite(void)
{
	Suite *s = suite_create("pmufile");
	TCase *tc = pp_tcase(s, "core", setup, teardown,
			     PP_TESTS(test_crc32_vectors, test_round_trip, test_round_trip_large,
				      test_for_each_stops, test_truncation_everywhere,
				      test_real_recording_cut_everywhere, test_duration_definition,
				      test_flipped_byte_in_samples, test_missing_frame_detected,
				      test_unknown_version, test_big_endian_rejected,
				      test_wrong_magic_and_empty, test_impossible_sizes,
				      test_find_mmap, test_sample_view,
				      test_writer_rejects_partial_records, test_writer_enospc,
				      test_writer_sticky_error, test_abort_leaves_salvageable_file,
				      test_verify_and_no_crc_modes, test_unknown_frame_type_skipped,
				      test_bad_record_mid_frame, test_stream_file_shrinks));
	tcase_set_timeout(tc, 120);
	return s;
}

int main(void)
{
	return pp_check_run(pmufile_suite());
}
