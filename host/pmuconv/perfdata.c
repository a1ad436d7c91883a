// SPDX-License-Identifier: MIT
/* The perf.data (PERFILE2) writer: header, attrs and ids, buffered records,
 * feature sections, temporary file renamed on success (perfdata.h). */
#include "perfdata.h"
#include "atomicfile.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

_Static_assert(sizeof(struct perf_event_attr) >= PD_ATTR_SIZE, "UAPI perf_event_attr too old");
_Static_assert(sizeof(struct perf_event_header) == 8, "perf_event_header");

#define PD_BUF_SIZE  (1u << 20)
#define PD_REC_MAX   (1u << 16) /* perf_event_header.size is a u16 */
#define PD_SID_BYTES 32u	/* TID + TIME + CPU + IDENTIFIER */
/* sample_id_all fields every attr carries */
#define PD_SID_TYPE (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

struct pd_blob {
	uint8_t *p;
	size_t len, cap;
};

struct pd_writer {
	struct pc_atomic f; /* the file, written under f.tmp until closed */
	char *path;
	uint32_t nr;
	struct pd_event *ev;
	struct perf_event_attr *attr;
	uint64_t sample_type;
	uint64_t data_off, off; /* data section start; file offset of buf[used] */
	uint8_t *buf;
	size_t used;
	int err;
	char msg[256];
	uint64_t samples, tmin, tmax;
	struct pd_blob bids; /* HEADER_BUILD_ID payload */
};

static void fail(struct pd_writer *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail(struct pd_writer *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w->err)
		return;
	w->err = err;
	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
}

static int write_all(struct pd_writer *w, const void *p, size_t len, uint64_t at)
{
	const uint8_t *c = p;

	while (len) {
		ssize_t n = pwrite(w->f.fd, c, len, (off_t)at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;
			fail(w, -e, "writing %s at offset %llu failed: %s", w->f.tmp,
			     (unsigned long long)at, strerror(e));
			return w->err;
		}
		c += n;
		len -= (size_t)n;
		at += (uint64_t)n;
	}
	return 0;
}

static int flush(struct pd_writer *w)
{
	int r;

	if (w->err || !w->used)
		return w->err;
	r = write_all(w, w->buf, w->used, w->off - w->used);
	w->used = 0;
	return r;
}

/* Room for a record of len bytes (header included) in the buffer. */
static uint8_t *reserve(struct pd_writer *w, size_t len)
{
	if (w->err)
		return NULL;
	if (w->used + len > PD_BUF_SIZE && flush(w))
		return NULL;
	uint8_t *p = w->buf + w->used;
	w->used += len;
	w->off += len;
	return p;
}

static inline uint8_t *put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
	return p + 8;
}

static inline uint8_t *put32x2(uint8_t *p, uint32_t a, uint32_t b)
{
	memcpy(p, &a, 4);
	memcpy(p + 4, &b, 4);
	return p + 8;
}

static inline uint8_t *put_hdr(uint8_t *p, uint32_t type, uint16_t misc, size_t size)
{
	struct perf_event_header h = {.type = type, .misc = misc, .size = (uint16_t)size};

	memcpy(p, &h, sizeof(h));
	return p + sizeof(h);
}

static uint64_t event_id(uint32_t event)
{
	return (uint64_t)event + 1;
}

/* sample_id_all trailer, in sample_type order: TID, TIME, CPU, IDENTIFIER. */
static uint8_t *put_sid(uint8_t *p, const struct pd_sid *id)
{
	p = put32x2(p, id->pid, id->tid);
	p = put64(p, id->time);
	p = put32x2(p, id->cpu, 0);
	return put64(p, event_id(id->event));
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static int blob_add(struct pd_blob *b, const void *p, size_t len)
{
	if (pc_grow((void **)&b->p, &b->cap, b->len + len, 1))
		return -ENOMEM;
	if (p)
		memcpy(b->p + b->len, p, len);
	else
		memset(b->p + b->len, 0, len);
	b->len += len;
	return 0;
}

static int blob_u32(struct pd_blob *b, uint32_t v)
{
	return blob_add(b, &v, sizeof(v));
}

static int blob_u64(struct pd_blob *b, uint64_t v)
{
	return blob_add(b, &v, sizeof(v));
}

/* struct perf_header_string: u32 len, then the text NUL-padded to len. */
static int blob_str(struct pd_blob *b, const char *s)
{
	size_t n = strlen(s ? s : ""),
	       len = (n + 1 + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;

	if (blob_u32(b, (uint32_t)len) || blob_add(b, s, n) || blob_add(b, NULL, len - n))
		return -ENOMEM;
	return 0;
}

struct pd_writer *pd_writer__open(const char *path, const struct pd_event *ev, uint32_t nr,
				  uint64_t sample_type, char *err, size_t errlen)
{
	struct pd_writer *w = calloc(1, sizeof(*w));
	int e = ENOMEM;

	if (!w) {
		snprintf(err, errlen, "%s: out of memory", path);
		errno = ENOMEM;
		return NULL;
	}
	w->f.fd = -1;
	if (!nr || !(w->buf = malloc(PD_BUF_SIZE)) || !(w->path = strdup(path)) ||
	    !(w->ev = calloc(nr, sizeof(*w->ev))) || !(w->attr = calloc(nr, sizeof(*w->attr)))) {
		e = nr ? ENOMEM : EINVAL;
		snprintf(err, errlen, "%s: %s", path, nr ? "out of memory" : "no events to write");
		goto out;
	}
	if ((e = -pc_atomic__open(&w->f, w->path, 0600))) {
		snprintf(err, errlen, "cannot create %s (a temporary file beside it first): %s",
			 path, strerror(e));
		goto out;
	}
	w->nr = nr;
	w->sample_type = sample_type | PD_SID_TYPE;
	w->tmin = UINT64_MAX;
	memcpy(w->ev, ev, nr * sizeof(*ev));
	for (uint32_t i = 0; i < nr; i++) {
		struct perf_event_attr *a = &w->attr[i];
		a->type = ev[i].type;
		a->size = PD_ATTR_SIZE;
		a->config = ev[i].config;
		a->sample_period = ev[i].period; /* sample_freq shares it */
		a->freq = ev[i].freq;
		a->sample_type = w->sample_type;
		a->exclude_user = ev[i].exclude_user;
		a->exclude_kernel = ev[i].exclude_kernel;
		a->precise_ip = ev[i].precise_ip & 3;
		a->sample_id_all = 1;
		if (i == 0) { /* the tracking event, as perf record makes the first one */
			a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
			a->build_id = 1;
		}
	}
	/* header placeholder (written last), attrs with their ids sections, ids */
	uint64_t attr_off = PD_HEADER_SIZE, ids_off = attr_off + (uint64_t)nr * (PD_ATTR_SIZE + 16);
	uint8_t *p = w->buf;
	memset(p, 0, PD_HEADER_SIZE);
	p += PD_HEADER_SIZE;
	for (uint32_t i = 0; i < nr; i++) {
		memcpy(p, &w->attr[i], PD_ATTR_SIZE);
		p = put64(p + PD_ATTR_SIZE, ids_off + 8ull * i);
		p = put64(p, 8);
	}
	for (uint32_t i = 0; i < nr; i++)
		p = put64(p, event_id(i));
	w->used = (size_t)(p - w->buf);
	w->off = w->data_off = w->used;
	if (flush(w)) {
		e = -w->err;
		snprintf(err, errlen, "%s", w->msg);
		goto out;
	}
	return w;
out:
	pd_writer__abort(w);
	errno = e;
	return NULL;
}

int pd_writer__sample(struct pd_writer *w, const struct pd_sample *s)
{
	uint64_t t = w->sample_type;
	size_t nk = s->nr_kstack, nu = s->nr_ustack;
	size_t nchain = (nk ? nk + 1 : 0) + (nu ? nu + 1 : 0);
	size_t len = 8 + 8 * 7 + 8 * nchain; /* header id ip tid time cpu period nr */
	uint8_t *p;

	len += (t & PERF_SAMPLE_ADDR ? 8 : 0) + (t & PERF_SAMPLE_PHYS_ADDR ? 8 : 0) +
	       (t & PERF_SAMPLE_DATA_PAGE_SIZE ? 8 : 0) + (t & PERF_SAMPLE_CODE_PAGE_SIZE ? 8 : 0);
	if (len >= PD_REC_MAX || s->event >= w->nr) {
		fail(w, -E2BIG, "sample of %zu frames does not fit a perf record", nk + nu);
		return w->err;
	}
	if (!(p = reserve(w, len)))
		return w->err;
	p = put_hdr(p, PERF_RECORD_SAMPLE, s->misc, len);
	p = put64(p, event_id(s->event)); /* IDENTIFIER */
	p = put64(p, s->ip);
	p = put32x2(p, s->pid, s->tid);
	p = put64(p, s->time);
	if (t & PERF_SAMPLE_ADDR)
		p = put64(p, s->addr);
	p = put32x2(p, s->cpu, 0);
	p = put64(p, s->period);
	p = put64(p, nchain);
	if (nk) {
		p = put64(p, PERF_CONTEXT_KERNEL);
		memcpy(p, s->kstack, nk * 8);
		p += nk * 8;
	}
	if (nu) {
		p = put64(p, PERF_CONTEXT_USER);
		memcpy(p, s->ustack, nu * 8);
		p += nu * 8;
	}
	if (t & PERF_SAMPLE_PHYS_ADDR)
		p = put64(p, s->phys_addr);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		p = put64(p, s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		put64(p, s->code_page_size);
	w->samples++;
	if (s->time < w->tmin)
		w->tmin = s->time;
	if (s->time > w->tmax)
		w->tmax = s->time;
	return 0;
}

/* A record of fixed part `fixed` bytes (after the header), a NUL-padded
 * string, then the sample_id trailer. Returns where the fixed part goes. */
static uint8_t *rec_with_str(struct pd_writer *w, uint32_t type, uint16_t misc, size_t fixed,
			     const char *s, const struct pd_sid *id)
{
	size_t n = strlen(s), sl = align8(n + 1), len = 8 + fixed + sl + PD_SID_BYTES;
	uint8_t *p;

	if (len >= PD_REC_MAX) {
		fail(w, -E2BIG, "name too long for a perf record: %.60s...", s);
		return NULL;
	}
	if (!(p = reserve(w, len)))
		return NULL;
	put_hdr(p, type, misc, len);
	memcpy(p + 8 + fixed, s, n);
	memset(p + 8 + fixed + n, 0, sl - n);
	put_sid(p + 8 + fixed + sl, id);
	return p + 8;
}

int pd_writer__comm(struct pd_writer *w, const struct pd_sid *id, const char *comm, bool exec)
{
	uint8_t *p = rec_with_str(w, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0, 8,
				  comm, id);

	if (p)
		put32x2(p, id->pid, id->tid);
	return w->err;
}

int pd_writer__fork(struct pd_writer *w, const struct pd_sid *id, uint32_t ppid)
{
	size_t len = 8 + 24 + PD_SID_BYTES;
	uint8_t *p = reserve(w, len);

	if (!p)
		return w->err;
	p = put_hdr(p, PERF_RECORD_FORK, 0, len);
	p = put32x2(p, id->pid, ppid);
	p = put32x2(p, id->tid, ppid);
	p = put64(p, id->time);
	put_sid(p, id);
	return 0;
}

int pd_writer__mmap2(struct pd_writer *w, const struct pd_sid *id, uint64_t start, uint64_t len,
		     uint64_t pgoff, uint32_t prot, const char *path, const uint8_t *bid,
		     uint32_t bid_len)
{
	uint16_t misc = PERF_RECORD_MISC_USER | (bid_len ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0) |
			(prot & PROT_EXEC ? 0 : PERF_RECORD_MISC_MMAP_DATA);
	uint8_t *p = rec_with_str(w, PERF_RECORD_MMAP2, misc, 8 + 24 + 24 + 8, path, id);

	if (!p)
		return w->err;
	p = put32x2(p, id->pid, id->tid);
	p = put64(p, start);
	p = put64(p, len);
	p = put64(p, pgoff);
	memset(p, 0, 24); /* maj, min, ino, ino_generation | build-id */
	if (bid_len) {
		p[0] = (uint8_t)(bid_len > PD_BUILD_ID_SIZE ? PD_BUILD_ID_SIZE : bid_len);
		memcpy(p + 4, bid, p[0]);
	}
	p += 24;
	put32x2(p, prot, 0x02 /* MAP_PRIVATE */);
	return 0;
}

int pd_writer__kernel_mmap(struct pd_writer *w, const struct pd_sid *id, uint64_t start,
			   uint64_t len, uint64_t pgoff, const char *name)
{
	uint8_t *p = rec_with_str(w, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, 8 + 24, name, id);

	if (!p)
		return w->err;
	p = put32x2(p, (uint32_t)PD_KERNEL_PID, 0);
	p = put64(p, start);
	p = put64(p, len);
	put64(p, pgoff);
	return 0;
}

static int lost_rec(struct pd_writer *w, uint32_t type, const struct pd_sid *id, uint64_t lost)
{
	size_t len = 8 + (type == PERF_RECORD_LOST ? 16 : 8) + PD_SID_BYTES;
	uint8_t *p = reserve(w, len);

	if (!p)
		return w->err;
	p = put_hdr(p, type, 0, len);
	if (type == PERF_RECORD_LOST)
		p = put64(p, event_id(id->event));
	p = put64(p, lost);
	put_sid(p, id);
	return 0;
}

int pd_writer__lost(struct pd_writer *w, const struct pd_sid *id, uint64_t lost)
{
	return lost_rec(w, PERF_RECORD_LOST, id, lost);
}

int pd_writer__lost_samples(struct pd_writer *w, const struct pd_sid *id, uint64_t lost)
{
	return lost_rec(w, PERF_RECORD_LOST_SAMPLES, id, lost);
}

int pd_writer__build_id(struct pd_writer *w, int32_t pid, bool kernel, const uint8_t *bid,
			uint32_t len, const char *path)
{
	/* struct perf_record_header_build_id: header, pid, build_id[24] (20
	 * bytes, size byte, 3 reserved), filename padded to PD_NAME_ALIGN */
	size_t n = strlen(path), fl = (n + 1 + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;
	size_t size = 8 + 4 + 24 + fl;
	uint8_t fixed[36] = {0};
	uint16_t misc =
		(kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) | PD_MISC_BUILD_ID_SIZE;

	if (w->err)
		return w->err;
	if (len > PD_BUILD_ID_SIZE)
		len = PD_BUILD_ID_SIZE;
	if (size >= PD_REC_MAX)
		return 0; /* a path perf could not take either: no build-id for it */
	put_hdr(fixed, 0, misc, size);
	memcpy(fixed + 8, &pid, 4);
	memcpy(fixed + 12, bid, len);
	fixed[12 + PD_BUILD_ID_SIZE] = (uint8_t)len;
	if (blob_add(&w->bids, fixed, sizeof(fixed)) || blob_add(&w->bids, path, n) ||
	    blob_add(&w->bids, NULL, fl - n))
		fail(w, -ENOMEM, "out of memory");
	return w->err;
}

uint64_t pd_writer__samples(const struct pd_writer *w)
{
	return w->samples;
}

const char *pd_writer__error(const struct pd_writer *w)
{
	return w->msg;
}

/* One feature's payload into b; returns 0 or -ENOMEM. */
static int feature(struct pd_writer *w, const struct pd_meta *m, int f, struct pd_blob *b)
{
	int r = 0;

	switch (f) {
	case PD_FEAT_BUILD_ID:
		return blob_add(b, w->bids.p, w->bids.len);
	case PD_FEAT_HOSTNAME:
		return blob_str(b, m->hostname);
	case PD_FEAT_OSRELEASE:
		return blob_str(b, m->osrelease);
	case PD_FEAT_VERSION:
		return blob_str(b, m->version);
	case PD_FEAT_ARCH:
		return blob_str(b, m->arch);
	case PD_FEAT_NRCPUS:
		return blob_u32(b, m->nr_cpus_avail) || blob_u32(b, m->nr_cpus_online) ? -ENOMEM
										       : 0;
	case PD_FEAT_CMDLINE:
		return blob_u32(b, 1) || blob_str(b, m->cmdline) ? -ENOMEM : 0;
	case PD_FEAT_EVENT_DESC:
		r = blob_u32(b, w->nr) || blob_u32(b, PD_ATTR_SIZE);
		for (uint32_t i = 0; i < w->nr && !r; i++)
			r = blob_add(b, &w->attr[i], PD_ATTR_SIZE) || blob_u32(b, 1) ||
			    blob_str(b, w->ev[i].name) || blob_u64(b, event_id(i));
		return r ? -ENOMEM : 0;
	case PD_FEAT_SAMPLE_TIME:
		return blob_u64(b, w->samples ? w->tmin : 0) ||
				       blob_u64(b, w->samples ? w->tmax : 0)
			       ? -ENOMEM
			       : 0;
	}
	return 0;
}

int pd_writer__close(struct pd_writer *w, const struct pd_meta *m, char *err, size_t errlen)
{
	static const int feats[] = {PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME,	  PD_FEAT_OSRELEASE,
				    PD_FEAT_VERSION,  PD_FEAT_ARCH,	  PD_FEAT_NRCPUS,
				    PD_FEAT_CMDLINE,  PD_FEAT_EVENT_DESC, PD_FEAT_SAMPLE_TIME};
	struct pd_blob tab = {0}, pay = {0};
	uint64_t bits[PD_FEAT__MAX / 64] = {0};
	uint64_t data_end;
	int r;

	flush(w);
	data_end = w->off;
	/* the section table (offset, size per feature, ascending bit order),
	 * then the payloads */
	uint64_t pay_off = data_end + PC_ARRAY_SIZE(feats) * 16;
	for (size_t i = 0; i < PC_ARRAY_SIZE(feats) && !w->err; i++) {
		size_t before = pay.len;
		if (feature(w, m, feats[i], &pay) || blob_u64(&tab, pay_off + before) ||
		    blob_u64(&tab, pay.len - before))
			fail(w, -ENOMEM, "out of memory");
		bits[feats[i] / 64] |= 1ull << (feats[i] % 64);
	}
	if (!w->err)
		write_all(w, tab.p, tab.len, data_end);
	if (!w->err)
		write_all(w, pay.p, pay.len, pay_off);
	if (!w->err) {
		uint8_t h[PD_HEADER_SIZE], *p = h;
		memcpy(p, PD_MAGIC, 8);
		p = put64(p + 8, PD_HEADER_SIZE);
		p = put64(p, PD_ATTR_SIZE + 16);
		p = put64(p, PD_HEADER_SIZE); /* attrs */
		p = put64(p, (uint64_t)w->nr * (PD_ATTR_SIZE + 16));
		p = put64(p, w->data_off); /* data */
		p = put64(p, data_end - w->data_off);
		p = put64(p, 0); /* event_types: unused */
		p = put64(p, 0);
		for (size_t i = 0; i < PC_ARRAY_SIZE(bits); i++)
			p = put64(p, bits[i]);
		write_all(w, h, sizeof(h), 0);
	}
	free(tab.p);
	free(pay.p);
	if (!w->err) {
		int e = close(w->f.fd) ? errno : 0;
		w->f.fd = -1;
		if (e)
			fail(w, -e, "closing %s failed: %s", w->f.tmp, strerror(e));
		else if ((e = pc_atomic__rename(&w->f)))
			fail(w, e, "cannot rename %s to %s: %s", w->f.tmp, w->path, strerror(-e));
	}
	if ((r = w->err))
		snprintf(err, errlen, "%s", w->msg);
	pd_writer__abort(w);
	return r;
}

void pd_writer__abort(struct pd_writer *w)
{
	if (!w)
		return;
	pc_atomic__discard(&w->f);
	free(w->path);
	free(w->buf);
	free(w->ev);
	free(w->attr);
	free(w->bids.p);
	free(w);
}
