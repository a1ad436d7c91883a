// SPDX-License-Identifier: MIT
/*
 * libpmufile writer: streams frames to disk through one fixed buffer.
 *
 * Memory is O(buffer) whatever the recording length: metadata frames are
 * serialized straight into the buffer, sample records are appended to an
 * open SAMPLES frame in the buffer, and a frame never spans a flush (the
 * frame's CRC is computed when it is closed, just before the buffer is
 * written). The first write error is sticky: every later call returns it
 * and close() reports it, so a full disk is never silently ignored.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/pmufile/pmufile.h"
#include "lib/pmufile/format.h"

#define WRITER_BUF_SIZE (1u << 20)
#define KALLSYMS_CHUNK	(256u << 10)
/* Room for any metadata frame: every field serializes to at most its
 * in-memory size plus a 4-byte length prefix, plus padding. */
#define META_SLACK 256u

struct pmufile_writer {
	int fd;
	char *path;
	uint8_t *buf;
	size_t len;	  /* bytes used in buf */
	uint64_t flushed; /* bytes already written to the file */
	int err;	  /* sticky negative errno, 0 if fine */
	char errmsg[512];
	uint32_t seq; /* next frame sequence number */
	/* the SAMPLES frame being filled, if any */
	bool in_samples;
	size_t samples_hdr; /* offset of its frame header in buf */
	uint32_t samples_nr;
	/* totals for the trailer */
	struct pmufile_counts n;
	uint64_t frames;
	uint32_t nr_events;
	bool has_stats;
	uint64_t stats_event_lost[PMUPROF_MAX_EVENTS];
	uint64_t kallsyms_off;
	bool no_fsync;
	/* PMUFILE_WRITE_PACK_UCOPY: each tid's latest stack copy, and room
	 * for one packed record */
	struct pmufile_ucopy_tab *ucopy;
	uint8_t *pbuf;
};

/* Serialization cursor over the writer's buffer. */
struct pcur {
	uint8_t *p;
	size_t off;
};

static void c_u32(struct pcur *c, uint32_t v)
{
	pf_put32(c->p + c->off, v);
	c->off += 4;
}

static void c_u64(struct pcur *c, uint64_t v)
{
	pf_put64(c->p + c->off, v);
	c->off += 8;
}

static void c_bytes(struct pcur *c, const void *b, uint32_t n)
{
	c_u32(c, n);
	memcpy(c->p + c->off, b, n);
	c->off += n;
}

/* A string field: length prefix + bytes, no NUL. At most cap-1 bytes so the
 * reader's fixed-size field always has room for the terminator. */
static void c_str(struct pcur *c, const char *s, size_t cap)
{
	c_bytes(c, s, (uint32_t)strnlen(s, cap - 1));
}

static int flush_buf(struct pmufile_writer *w)
{
	size_t done = 0;

	if (w->err)
		return w->err;
	while (done < w->len) {
		ssize_t n = write(w->fd, w->buf + done, w->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			w->err = -e;
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "pmufile: write to %s at offset %llu failed: %s%s; the file is "
				 "incomplete (free space or fix the device, then record again)",
				 w->path, (unsigned long long)(w->flushed + done), strerror(e),
				 n == 0 ? " (short write)" : "");
			w->flushed += done;
			w->len = 0;
			return w->err;
		}
		done += (size_t)n;
	}
	w->flushed += done;
	w->len = 0;
	return 0;
}

/* Fill in the 24-byte header of the frame at buf+hdr_off whose payload of
 * `size` bytes (already padded) follows it. */
static void seal_frame(struct pmufile_writer *w, size_t hdr_off, uint16_t type, uint32_t size)
{
	uint8_t *h = w->buf + hdr_off;

	pf_put32(h + 0, PMUFILE_SYNC);
	pf_put16(h + 4, type);
	pf_put16(h + 6, 0);
	pf_put32(h + 8, size);
	pf_put32(h + 12, w->seq++);
	pf_put32(h + 16, pmufile__crc32(0, h + PMUFILE_FRAME_HDR_SIZE, size));
	pf_put32(h + 20, pmufile__crc32(0, h, 20));
	w->frames++;
}

static void close_samples(struct pmufile_writer *w)
{
	size_t payload;

	if (!w->in_samples)
		return;
	payload = w->len - w->samples_hdr - PMUFILE_FRAME_HDR_SIZE;
	pf_put32(w->buf + w->samples_hdr + PMUFILE_FRAME_HDR_SIZE, w->samples_nr);
	pf_put32(w->buf + w->samples_hdr + PMUFILE_FRAME_HDR_SIZE + 4, 0);
	seal_frame(w, w->samples_hdr, PMUFILE_FRAME_SAMPLES, (uint32_t)payload);
	w->in_samples = false;
}

/* Make room for a frame of up to `max_payload` bytes and position the
 * cursor at its payload; 0, or the sticky write error. */
static int begin_frame(struct pmufile_writer *w, size_t max_payload, struct pcur *c)
{
	if (w->err)
		return w->err;
	close_samples(w);
	if (WRITER_BUF_SIZE - w->len < PMUFILE_FRAME_HDR_SIZE + max_payload + 8) {
		int ret = flush_buf(w);

		if (ret)
			return ret;
	}
	c->p = w->buf + w->len + PMUFILE_FRAME_HDR_SIZE;
	c->off = 0;
	return 0;
}

static void end_frame(struct pmufile_writer *w, uint16_t type, struct pcur *c)
{
	size_t padded = pmufile__align8(c->off);

	memset(c->p + c->off, 0, padded - c->off);
	seal_frame(w, w->len, type, (uint32_t)padded);
	w->len += PMUFILE_FRAME_HDR_SIZE + padded;
}

static void put_header(struct pcur *c, const struct pmufile_header *h)
{
	c_u32(c, h->cpu_vendor);
	c_u32(c, h->cpu_family);
	c_u32(c, h->cpu_model);
	c_u32(c, h->cpu_stepping);
	c_u32(c, h->nr_cpus);
	c_u32(c, h->page_size);
	c_u32(c, h->config_flags);
	c_u32(c, h->stack_depth);
	c_u32(c, h->target);
	c_u32(c, (uint32_t)h->pid);
	c_u64(c, h->start_realtime_ns);
	c_u64(c, h->start_session_ns);
	c_str(c, h->kernel_release, sizeof(h->kernel_release));
	c_str(c, h->hostname, sizeof(h->hostname));
	c_str(c, h->cmdline, sizeof(h->cmdline));
	c_str(c, h->cpu_vendor_string, sizeof(h->cpu_vendor_string));
	c_str(c, h->cpu_model_name, sizeof(h->cpu_model_name));
	/* struct pmuprof_info as defined by the ABI header (all fields are
	 * naturally aligned little-endian integers and char arrays). */
	c_bytes(c, &h->info, sizeof(h->info));
}

struct pmufile_writer *pmufile_writer__open(const char *path, const struct pmufile_header *hdr,
					    char *err, size_t errlen)
{
	return pmufile_writer__open_flags(path, hdr, 0, err, errlen);
}

struct pmufile_writer *pmufile_writer__open_flags(const char *path,
						  const struct pmufile_header *hdr,
						  unsigned int flags, char *err, size_t errlen)
{
	struct pmufile_writer *w;
	struct pcur c;
	int e;

	if (!path || !hdr) {
		pmufile__set_err(err, errlen, "pmufile: writer__open needs a path and a header");
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		goto nomem;
	w->fd = -1;
	w->path = strdup(path);
	w->buf = malloc(WRITER_BUF_SIZE);
	if (!w->path || !w->buf)
		goto nomem_free;
	if (flags & PMUFILE_WRITE_PACK_UCOPY) {
		w->ucopy = pmufile__ucopy_tab_new();
		w->pbuf = malloc(PMUPROF_MAX_RECORD);
		if (!w->ucopy || !w->pbuf)
			goto nomem_free;
	}

	/* 0600: the file holds kernel addresses and command lines. */
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		e = errno;
		pmufile__set_err(err, errlen, "pmufile: cannot create %s: %s", path, strerror(e));
		goto fail;
	}

	memcpy(w->buf, PMUFILE_MAGIC, PMUFILE_MAGIC_LEN);
	pf_put32(w->buf + 8, PMUFILE_BYTE_ORDER);
	pf_put32(w->buf + 12, w->ucopy ? PMUFILE_VERSION : PMUFILE_VERSION_PLAIN);
	pf_put32(w->buf + 16, PMUFILE_PREAMBLE_SIZE);
	pf_put32(w->buf + 20, pmufile__crc32(0, w->buf, 20));
	w->len = PMUFILE_PREAMBLE_SIZE;

	begin_frame(w, sizeof(*hdr) + META_SLACK, &c);
	put_header(&c, hdr);
	end_frame(w, PMUFILE_FRAME_HEADER, &c);
	/* Write now so a read-only or full file system is reported at once. */
	if (flush_buf(w)) {
		e = -w->err;
		pmufile__set_err(err, errlen, "%s", w->errmsg);
		goto fail;
	}
	return w;

nomem_free:
	pmufile_writer__abort(w);
nomem:
	pmufile__set_err(err, errlen, "pmufile: out of memory opening %s", path);
	errno = ENOMEM;
	return NULL;
fail:
	pmufile_writer__abort(w);
	errno = e;
	return NULL;
}

int pmufile_writer__event(struct pmufile_writer *w, const struct pmufile_event *ev)
{
	struct pcur c;
	int ret;

	if (!ev || ev->index >= PMUPROF_MAX_EVENTS)
		return -EINVAL;
	ret = begin_frame(w, sizeof(*ev) + META_SLACK, &c);
	if (ret)
		return ret;
	c_u32(&c, ev->index);
	c_u32(&c, ev->source);
	c_u32(&c, ev->flags);
	c_u32(&c, 0);
	c_u64(&c, ev->config);
	c_u64(&c, ev->period);
	c_str(&c, ev->name, sizeof(ev->name));
	c_str(&c, ev->resolved, sizeof(ev->resolved));
	c_str(&c, ev->unit, sizeof(ev->unit));
	end_frame(w, PMUFILE_FRAME_EVENT, &c);
	if (ev->index + 1 > w->nr_events)
		w->nr_events = ev->index + 1;
	return 0;
}

int pmufile_writer__process(struct pmufile_writer *w, const struct pmufile_process *p)
{
	struct pcur c;
	int ret;

	if (!p || p->build_id_size > sizeof(p->build_id))
		return -EINVAL;
	ret = begin_frame(w, sizeof(*p) + META_SLACK, &c);
	if (ret)
		return ret;
	c_u32(&c, (uint32_t)p->pid);
	c_u32(&c, (uint32_t)p->ppid);
	c_u64(&c, p->time_ns);
	c_u32(&c, p->exited ? PMUFILE_PROC_EXITED : 0);
	c_bytes(&c, p->build_id, p->build_id_size);
	c_str(&c, p->comm, sizeof(p->comm));
	c_str(&c, p->exe, sizeof(p->exe));
	end_frame(w, PMUFILE_FRAME_PROCESS, &c);
	return 0;
}

int pmufile_writer__mmap(struct pmufile_writer *w, const struct pmufile_mmap *m)
{
	struct pcur c;
	int ret;

	if (!m || m->build_id_size > sizeof(m->build_id) || m->end < m->start)
		return -EINVAL;
	ret = begin_frame(w, sizeof(*m) + META_SLACK, &c);
	if (ret)
		return ret;
	c_u32(&c, (uint32_t)m->pid);
	c_u32(&c, m->prot);
	c_u64(&c, m->time_ns);
	c_u64(&c, m->start);
	c_u64(&c, m->end);
	c_u64(&c, m->pgoff);
	c_bytes(&c, m->build_id, m->build_id_size);
	c_str(&c, m->path, sizeof(m->path));
	end_frame(w, PMUFILE_FRAME_MMAP, &c);
	return 0;
}

int pmufile_writer__kallsyms(struct pmufile_writer *w, const char *text, size_t len)
{
	while (len) {
		size_t n = len < KALLSYMS_CHUNK ? len : KALLSYMS_CHUNK;
		struct pcur c;
		int ret = begin_frame(w, n + 16, &c);

		if (ret)
			return ret;
		c_u64(&c, w->kallsyms_off);
		c_bytes(&c, text, (uint32_t)n);
		end_frame(w, PMUFILE_FRAME_KALLSYMS, &c);
		w->kallsyms_off += n;
		text += n;
		len -= n;
	}
	return w->err;
}

/* A frame of TYPE whose payload is the LEN bytes at DATA, length-prefixed. */
static int bytes_frame(struct pmufile_writer *w, uint16_t type, const void *data, size_t len)
{
	struct pcur c;
	int ret = begin_frame(w, len + 8, &c);

	if (ret)
		return ret;
	c_bytes(&c, data, (uint32_t)len);
	end_frame(w, type, &c);
	return 0;
}

int pmufile_writer__kernel_build_id(struct pmufile_writer *w, const uint8_t *id, size_t len)
{
	if (!id || len > 20)
		return -EINVAL;
	return bytes_frame(w, PMUFILE_FRAME_KBUILDID, id, len);
}

int pmufile_writer__vdso(struct pmufile_writer *w, const void *image, size_t len)
{
	if (!image || !len || len > PMUFILE_MAX_VDSO)
		return -EINVAL;
	return bytes_frame(w, PMUFILE_FRAME_VDSO, image, len);
}

int pmufile_writer__numa(struct pmufile_writer *w, const struct pmufile_numa *n)
{
	struct pcur c;
	size_t size;
	int ret;

	if (!n || pmufile__numa_check(n))
		return -EINVAL;
	size = pmufile__numa_size(n);
	ret = begin_frame(w, size, &c);
	if (ret)
		return ret;
	pmufile__numa_encode(n, c.p);
	c.off = size;
	end_frame(w, PMUFILE_FRAME_NUMA, &c);
	return 0;
}

int pmufile_writer__stats(struct pmufile_writer *w, const struct pmuprof_stats *st)
{
	struct pmuprof_stats copy;
	struct pcur c;
	int ret;

	if (!st)
		return -EINVAL;
	ret = begin_frame(w, sizeof(*st) + 8, &c);
	if (ret)
		return ret;
	copy = *st;
	copy.cpus_ptr = 0; /* a pointer of the recording process: meaningless here */
	c_bytes(&c, &copy, sizeof(copy));
	end_frame(w, PMUFILE_FRAME_STATS, &c);
	w->has_stats = true;
	memcpy(w->stats_event_lost, st->event_lost, sizeof(w->stats_event_lost));
	return 0;
}

/* Open a SAMPLES frame with room for a record of `size` bytes, closing and
 * flushing the current one if it has none; 0 or the sticky write error. */
static int samples_room(struct pmufile_writer *w, size_t size)
{
	int ret;

	if (w->in_samples && size <= WRITER_BUF_SIZE - w->len)
		return 0;
	close_samples(w);
	if (WRITER_BUF_SIZE - w->len < PMUFILE_FRAME_HDR_SIZE + PMUFILE_SAMPLES_SUBHDR + size) {
		ret = flush_buf(w);
		if (ret)
			return ret;
	}
	w->in_samples = true;
	w->samples_hdr = w->len;
	w->samples_nr = 0;
	w->len += PMUFILE_FRAME_HDR_SIZE + PMUFILE_SAMPLES_SUBHDR;
	return 0;
}

/* writer__records with PMUFILE_WRITE_PACK_UCOPY: record by record, each
 * stack copy packed against its tid's previous one (ucopy.c). */
static int records_packed(struct pmufile_writer *w, const uint8_t *p, size_t len)
{
	for (size_t off = 0; off < len;) {
		const struct pmuprof_record_header *r = (const void *)(p + off);
		size_t n = pmufile__ucopy_pack(w->ucopy, r, w->pbuf);
		const void *src = n ? (const void *)w->pbuf : (const void *)r;
		size_t size = n ? n : r->size;
		int ret = samples_room(w, size);

		if (ret)
			return ret;
		pmufile__count_record(&w->n, r);
		w->samples_nr++;
		memcpy(w->buf + w->len, src, size);
		w->len += size;
		off += r->size;
	}
	return 0;
}

int pmufile_writer__records(struct pmufile_writer *w, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t off;

	if (w->err)
		return w->err;
	/* Validate first so a bad buffer leaves the file untouched. */
	for (off = 0; off < len;) {
		const struct pmuprof_record_header *r = (const void *)(p + off);

		if (pmufile__check_record(r, len - off, 0)) {
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "pmufile: record at byte %zu of a %zu-byte read buffer is not a "
				 "whole record (type %u, size %u); nothing was written",
				 off, len, len - off >= sizeof(*r) ? r->type : 0,
				 len - off >= sizeof(*r) ? r->size : 0);
			return -EINVAL;
		}
		off += r->size;
	}
	if (w->ucopy)
		return records_packed(w, p, len);
	for (off = 0; off < len;) {
		const struct pmuprof_record_header *r = (const void *)(p + off);
		size_t run = 0;

		/* Copy the longest run of records that fits in the open frame. */
		if (!w->in_samples) {
			int ret = samples_room(w, r->size);

			if (ret)
				return ret;
		}
		while (off + run < len) {
			const struct pmuprof_record_header *q = (const void *)(p + off + run);

			if (q->size > WRITER_BUF_SIZE - w->len - run)
				break;
			pmufile__count_record(&w->n, q);
			w->samples_nr++;
			run += q->size;
		}
		memcpy(w->buf + w->len, p + off, run);
		w->len += run;
		off += run;
		if (off < len) {
			int ret;

			close_samples(w);
			ret = flush_buf(w);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int pmufile_writer__flush(struct pmufile_writer *w)
{
	if (w->err)
		return w->err;
	close_samples(w);
	return flush_buf(w);
}

void pmufile_writer__no_fsync(struct pmufile_writer *w)
{
	w->no_fsync = true;
}

const char *pmufile_writer__error(const struct pmufile_writer *w)
{
	return w->errmsg;
}

uint64_t pmufile_writer__bytes(const struct pmufile_writer *w)
{
	return w->flushed + w->len;
}

static int write_trailer(struct pmufile_writer *w, uint64_t end_realtime_ns,
			 uint64_t end_session_ns)
{
	struct pcur c;
	int ret = begin_frame(w, 128 + 16 * PMUPROF_MAX_EVENTS, &c);

	if (ret)
		return ret;
	c_u64(&c, end_realtime_ns);
	c_u64(&c, end_session_ns);
	c_u64(&c, w->n.samples);
	c_u64(&c, w->n.lost);
	c_u64(&c, w->n.throttled);
	c_u64(&c, w->n.records);
	c_u64(&c, w->frames); /* frames before this one */
	c_u32(&c, w->nr_events);
	c_u32(&c, PMUPROF_MAX_EVENTS); /* slots in each array below */
	for (int i = 0; i < PMUPROF_MAX_EVENTS; i++)
		c_u64(&c, w->n.event_samples[i]);
	for (int i = 0; i < PMUPROF_MAX_EVENTS; i++)
		c_u64(&c, w->has_stats ? w->stats_event_lost[i] : 0);
	c_u32(&c, w->has_stats ? PMUFILE_TRAILER_LOST_FROM_STATS : 0);
	end_frame(w, PMUFILE_FRAME_TRAILER, &c);
	return flush_buf(w);
}

int pmufile_writer__close(struct pmufile_writer *w, uint64_t end_realtime_ns,
			  uint64_t end_session_ns, char *err, size_t errlen)
{
	int ret;

	if (!w) {
		pmufile__set_err(err, errlen, "pmufile: close of a writer that was never opened");
		return -EINVAL;
	}
	ret = write_trailer(w, end_realtime_ns, end_session_ns);
	if (!ret && !w->no_fsync && fsync(w->fd) < 0 && errno != EINVAL && errno != EROFS) {
		ret = -errno;
		snprintf(w->errmsg, sizeof(w->errmsg),
			 "pmufile: fsync of %s failed: %s; the data may not be on disk", w->path,
			 strerror(errno));
	}
	if (close(w->fd) < 0 && !ret) {
		ret = -errno;
		snprintf(w->errmsg, sizeof(w->errmsg), "pmufile: close of %s failed: %s", w->path,
			 strerror(errno));
	}
	w->fd = -1;
	if (ret)
		pmufile__set_err(err, errlen, "%s", w->errmsg);
	pmufile_writer__abort(w);
	return ret;
}

void pmufile_writer__abort(struct pmufile_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0) {
		/* Best effort: complete frames already buffered are worth
		 * keeping for a salvage read; no trailer is written. */
		if (!w->err) {
			close_samples(w);
			flush_buf(w);
		}
		close(w->fd);
	}
	free(w->buf);
	free(w->path);
	pmufile__ucopy_tab_free(w->ucopy);
	free(w->pbuf);
	free(w);
}
