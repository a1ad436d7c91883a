// SPDX-License-Identifier: MIT
/*
 * libpmufile reader: maps the file, validates every frame on open (sync
 * word, header CRC, size bounds, payload CRC, sequence number, contents),
 * parses the metadata into arrays, and remembers where the SAMPLES frames
 * are so that records can be iterated in place with no copy and no
 * per-record allocation.
 *
 * With PMUFILE_OPEN_STREAM the file also stays open and each SAMPLES
 * frame's payload is read (pread) into one reusable buffer when the frame
 * is walked, instead of being used from the mapping (frame_payload()).
 *
 * Strict mode (default): the first defect fails the open with a message
 * naming the file offset and what was expected. Salvage mode: a damaged
 * stretch is skipped by scanning (8-byte steps, frames are 8-aligned) for
 * the next position holding a valid sync word, header CRC and payload CRC;
 * the first damage is described in f->damage and the number of frames lost
 * (from the sequence numbers) in f->frames_skipped. A SAMPLES frame the file
 * ends inside (a recording killed or stopped by a full disk) gives up its
 * complete records: its CRC cannot be checked, so each record's size is
 * (pmufile__check_record), and the cut record and what follows are dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/pmufile/pmufile.h"
#include "lib/pmufile/format.h"

enum sframe_state {
	SF_UNCHECKED, /* header valid; payload not yet verified */
	SF_GOOD,      /* payload CRC and every record checked, counted */
	SF_BAD,	      /* damaged: skipped (salvage) or an error (strict) */
};

struct sframe {
	uint64_t off;  /* file offset of the frame header */
	uint32_t size; /* payload bytes */
	uint32_t seq;
	enum sframe_state state;
	bool partial; /* cut by the end of the file: no CRC, no record count */
};

/* A frame that passed validation in pass 1. */
struct vframe {
	uint64_t off; /* of the frame header */
	uint32_t size;
	uint32_t seq;
	uint16_t type;
	bool partial; /* SAMPLES frame cut by the end of the file (salvage) */
};

struct reader {
	const uint8_t *map;
	size_t size;
	char *path;
	unsigned int flags;
	struct vframe *frames;
	size_t nr_frames, cap_frames;
	struct sframe *sframes;
	size_t nr_sframes;
	uint64_t *mmap_maxend;
	char *kallsyms;
	uint8_t *vdso;			    /* the first VDSO frame's image */
	int event_slot[PMUPROF_MAX_EVENTS]; /* index -> f->events[] slot, -1 none */
	/* counted while validating, compared with the trailer */
	uint64_t samples, lost, records, throttled;
	size_t nr_processes, nr_mmaps;
	uint64_t kallsyms_len;
	uint32_t trailer_flags;
	uint32_t trailer_seq;
	uint64_t trailer_off;
	size_t nr_unchecked;   /* SAMPLES frames not yet verified */
	size_t nr_frames_seen; /* valid frames found on open */
	bool totals_checked;
	/* PMUFILE_OPEN_STREAM: the file stays open, SAMPLES payloads are read
	 * into sbuf (sized for the largest SAMPLES frame) */
	int fd;
	uint8_t *sbuf;
	size_t sbuf_size;
	char bad_msg[512]; /* why the first SF_BAD frame is bad (strict reports it) */
	/* version 2: each tid's latest stack copy (packed copies refer to
	 * it; rebuilt records are delivered from there) */
	struct pmufile_ucopy_tab *ucopy;
};

/* ------------------------------------------------------------------ */
/* Bounds-checked payload cursor                                       */
/* ------------------------------------------------------------------ */
struct rcur {
	const uint8_t *p;
	size_t len, off;
	uint64_t base; /* file offset of p[0] */
	const char *frame;
	char *why;
	size_t whylen;
	bool bad;
};

static bool need(struct rcur *c, size_t n, const char *field)
{
	if (c->bad)
		return false;
	if (c->len - c->off < n) {
		pmufile__set_err(c->why, c->whylen,
				 "%s frame: field '%s' at offset %" PRIu64
				 " needs %zu bytes but the payload "
				 "ends after %zu",
				 c->frame, field, c->base + c->off, n, c->len - c->off);
		c->bad = true;
		return false;
	}
	return true;
}

/* The next N (4 or 8) bytes as a little-endian number; 0 past the end. */
static uint64_t rnum(struct rcur *c, size_t n, const char *field)
{
	uint64_t v;

	if (!need(c, n, field))
		return 0;
	v = n == 4 ? pf_get32(c->p + c->off) : pf_get64(c->p + c->off);
	c->off += n;
	return v;
}

static uint32_t r32(struct rcur *c, const char *field)
{
	return (uint32_t)rnum(c, 4, field);
}

static uint64_t r64(struct rcur *c, const char *field)
{
	return rnum(c, 8, field);
}

/* Length-prefixed bytes into dst[cap]; returns the length (0 on error). */
static uint32_t rbytes(struct rcur *c, void *dst, size_t cap, const char *field)
{
	uint64_t at = c->base + c->off;
	uint32_t n = r32(c, field);

	if (c->bad)
		return 0;
	if (n > cap) {
		pmufile__set_err(c->why, c->whylen,
				 "%s frame: field '%s' at offset %" PRIu64
				 " is %u bytes long; at most %zu "
				 "expected",
				 c->frame, field, at, n, cap);
		c->bad = true;
		return 0;
	}
	if (!need(c, n, field))
		return 0;
	if (dst)
		memcpy(dst, c->p + c->off, n);
	c->off += n;
	return n;
}

static void rstr(struct rcur *c, char *dst, size_t cap, const char *field)
{
	uint32_t n = rbytes(c, dst, cap - 1, field);

	if (dst)
		dst[n] = '\0';
}

/* ------------------------------------------------------------------ */
/* Frame contents                                                      */
/* ------------------------------------------------------------------ */
static void parse_header(struct rcur *c, struct pmufile_header *h)
{
	uint32_t n;

	memset(h, 0, sizeof(*h));
	h->cpu_vendor = r32(c, "cpu_vendor");
	h->cpu_family = r32(c, "cpu_family");
	h->cpu_model = r32(c, "cpu_model");
	h->cpu_stepping = r32(c, "cpu_stepping");
	h->nr_cpus = r32(c, "nr_cpus");
	h->page_size = r32(c, "page_size");
	h->config_flags = r32(c, "config_flags");
	h->stack_depth = r32(c, "stack_depth");
	h->target = r32(c, "target");
	h->pid = (int32_t)r32(c, "pid");
	h->start_realtime_ns = r64(c, "start_realtime_ns");
	h->start_session_ns = r64(c, "start_session_ns");
	rstr(c, h->kernel_release, sizeof(h->kernel_release), "kernel_release");
	rstr(c, h->hostname, sizeof(h->hostname), "hostname");
	rstr(c, h->cmdline, sizeof(h->cmdline), "cmdline");
	rstr(c, h->cpu_vendor_string, sizeof(h->cpu_vendor_string), "cpu_vendor_string");
	rstr(c, h->cpu_model_name, sizeof(h->cpu_model_name), "cpu_model_name");
	/* struct pmuprof_info: a newer (longer) one is cut to what we know, an
	 * older (shorter) one reads as zero beyond its end. */
	n = r32(c, "info.size");
	if (!c->bad && n > PMUFILE_MAX_BLOB) {
		pmufile__set_err(c->why, c->whylen,
				 "HEADER frame: info size %u at offset %" PRIu64
				 ", expected at most %u",
				 n, c->base + c->off - 4, PMUFILE_MAX_BLOB);
		c->bad = true;
	}
	if (!need(c, n, "info"))
		return;
	memcpy(&h->info, c->p + c->off, n < sizeof(h->info) ? n : sizeof(h->info));
	c->off += n;
}

static void parse_event(struct rcur *c, struct pmufile_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->index = r32(c, "index");
	ev->source = r32(c, "source");
	ev->flags = r32(c, "flags");
	r32(c, "reserved");
	ev->config = r64(c, "config");
	ev->period = r64(c, "period");
	rstr(c, ev->name, sizeof(ev->name), "name");
	rstr(c, ev->resolved, sizeof(ev->resolved), "resolved");
	rstr(c, ev->unit, sizeof(ev->unit), "unit");
	if (!c->bad && ev->index >= PMUPROF_MAX_EVENTS) {
		pmufile__set_err(c->why, c->whylen,
				 "EVENT frame at offset %" PRIu64
				 ": event index %u, expected below %d",
				 c->base, ev->index, PMUPROF_MAX_EVENTS);
		c->bad = true;
	}
}

static void parse_process(struct rcur *c, struct pmufile_process *p)
{
	memset(p, 0, sizeof(*p));
	p->pid = (int32_t)r32(c, "pid");
	p->ppid = (int32_t)r32(c, "ppid");
	p->time_ns = r64(c, "time_ns");
	p->exited = r32(c, "flags") & PMUFILE_PROC_EXITED;
	p->build_id_size = rbytes(c, p->build_id, sizeof(p->build_id), "build_id");
	rstr(c, p->comm, sizeof(p->comm), "comm");
	rstr(c, p->exe, sizeof(p->exe), "exe");
}

static void parse_mmap(struct rcur *c, struct pmufile_mmap *m)
{
	memset(m, 0, sizeof(*m));
	m->pid = (int32_t)r32(c, "pid");
	m->prot = r32(c, "prot");
	m->time_ns = r64(c, "time_ns");
	m->start = r64(c, "start");
	m->end = r64(c, "end");
	m->pgoff = r64(c, "pgoff");
	m->build_id_size = rbytes(c, m->build_id, sizeof(m->build_id), "build_id");
	rstr(c, m->path, sizeof(m->path), "path");
	if (!c->bad && m->end < m->start) {
		pmufile__set_err(c->why, c->whylen,
				 "MMAP frame at offset %" PRIu64 ": end 0x%" PRIx64
				 " is below start 0x%" PRIx64 ", expected start <= end",
				 c->base, m->end, m->start);
		c->bad = true;
	}
}

static void parse_trailer(struct rcur *c, struct pmufile_trailer *t, uint32_t *flags)
{
	uint32_t slots;

	memset(t, 0, sizeof(*t));
	t->end_realtime_ns = r64(c, "end_realtime_ns");
	t->end_session_ns = r64(c, "end_session_ns");
	t->samples = r64(c, "samples");
	t->lost = r64(c, "lost");
	t->throttled = r64(c, "throttled");
	t->records = r64(c, "records");
	t->frames = r64(c, "frames");
	t->nr_events = r32(c, "nr_events");
	slots = r32(c, "event slots");
	if (!c->bad && (slots > 4096 || t->nr_events > PMUPROF_MAX_EVENTS)) {
		pmufile__set_err(c->why, c->whylen,
				 "TRAILER frame at offset %" PRIu64
				 ": %u events in %u slots, expected at "
				 "most %d",
				 c->base, t->nr_events, slots, PMUPROF_MAX_EVENTS);
		c->bad = true;
		return;
	}
	for (uint32_t i = 0; i < slots && !c->bad; i++) {
		uint64_t v = r64(c, "event_samples");

		if (i < PMUPROF_MAX_EVENTS)
			t->event_samples[i] = v;
	}
	for (uint32_t i = 0; i < slots && !c->bad; i++) {
		uint64_t v = r64(c, "event_lost");

		if (i < PMUPROF_MAX_EVENTS)
			t->event_lost[i] = v;
	}
	*flags = r32(c, "flags");
}

/* ------------------------------------------------------------------ */
/* Frame validation                                                    */
/* ------------------------------------------------------------------ */
struct fhdr {
	uint16_t type;
	uint32_t size, seq;
};

enum fcheck {
	FRAME_OK,
	FRAME_TRUNCATED, /* the file ends inside it */
	FRAME_BAD,
};

/* payload: the frame's fh->size payload bytes (in the mapping or a copy). */
static bool payload_crc_ok(const struct reader *r, uint64_t off, const struct fhdr *fh,
			   const uint8_t *payload, char *why, size_t whylen)
{
	uint32_t crc = pmufile__crc32(0, payload, fh->size);
	uint32_t v = pf_get32(r->map + off + 16);

	if (v == crc)
		return true;
	pmufile__set_err(why, whylen,
			 "%s frame at offset %" PRIu64 " (sequence %u): payload CRC is 0x%08x, "
			 "expected 0x%08x; bytes %" PRIu64 "..%" PRIu64 " are damaged",
			 pmufile__frame_name(fh->type), off, fh->seq, crc, v,
			 off + PMUFILE_FRAME_HDR_SIZE, off + PMUFILE_FRAME_HDR_SIZE + fh->size);
	return false;
}

/* Check the frame at off: header, bounds and (if `payload`) the payload
 * CRC. why gets the reason. */
static enum fcheck check_frame(const struct reader *r, uint64_t off, struct fhdr *fh, char *why,
			       size_t whylen, bool payload)
{
	const uint8_t *h = r->map + off;
	uint64_t left = r->size - off;
	uint32_t v, crc;

	if (left < PMUFILE_FRAME_HDR_SIZE) {
		pmufile__set_err(why, whylen,
				 "file ends %" PRIu64
				 " bytes into the frame header at offset %" PRIu64
				 " (expected %u bytes): truncated",
				 left, off, PMUFILE_FRAME_HDR_SIZE);
		return FRAME_TRUNCATED;
	}
	v = pf_get32(h);
	if (v != PMUFILE_SYNC) {
		pmufile__set_err(why, whylen,
				 "expected a frame sync word 0x%08x at offset %" PRIu64
				 ", found 0x%08x",
				 PMUFILE_SYNC, off, v);
		return FRAME_BAD;
	}
	crc = pmufile__crc32(0, h, 20);
	v = pf_get32(h + 20);
	if (v != crc) {
		pmufile__set_err(why, whylen,
				 "frame header at offset %" PRIu64
				 " is damaged: header CRC 0x%08x, "
				 "expected 0x%08x",
				 off, v, crc);
		return FRAME_BAD;
	}
	fh->type = pf_get16(h + 4);
	fh->size = pf_get32(h + 8);
	fh->seq = pf_get32(h + 12);
	if (fh->size > PMUFILE_MAX_FRAME || fh->size % PMUFILE_FRAME_ALIGN) {
		pmufile__set_err(why, whylen,
				 "%s frame at offset %" PRIu64
				 " declares an impossible payload size of %u "
				 "bytes (expected a multiple of %u, at most %u)",
				 pmufile__frame_name(fh->type), off, fh->size, PMUFILE_FRAME_ALIGN,
				 PMUFILE_MAX_FRAME);
		return FRAME_BAD;
	}
	if (fh->size > left - PMUFILE_FRAME_HDR_SIZE) {
		pmufile__set_err(why, whylen,
				 "%s frame at offset %" PRIu64
				 " (sequence %u) declares %u payload bytes "
				 "but the file ends after %" PRIu64 ": truncated",
				 pmufile__frame_name(fh->type), off, fh->seq, fh->size,
				 left - PMUFILE_FRAME_HDR_SIZE);
		return FRAME_TRUNCATED;
	}
	if (payload && !payload_crc_ok(r, off, fh, h + PMUFILE_FRAME_HDR_SIZE, why, whylen))
		return FRAME_BAD;
	return FRAME_OK;
}

/* Validate a frame's contents (pass 1); counts into r. */
static bool check_contents(struct pmufile *f, struct reader *r, uint64_t off, const struct fhdr *fh,
			   char *why, size_t whylen)
{
	struct rcur c = {
		.p = r->map + off + PMUFILE_FRAME_HDR_SIZE,
		.len = fh->size,
		.base = off + PMUFILE_FRAME_HDR_SIZE,
		.frame = pmufile__frame_name(fh->type),
		.why = why,
		.whylen = whylen,
	};
	union {
		struct pmufile_header h;
		struct pmufile_event ev;
		struct pmufile_process p;
		struct pmufile_mmap m;
		struct pmufile_trailer t;
	} tmp;

	switch (fh->type) {
	case PMUFILE_FRAME_HEADER:
		parse_header(&c, &tmp.h);
		break;
	case PMUFILE_FRAME_EVENT:
		parse_event(&c, &tmp.ev);
		break;
	case PMUFILE_FRAME_SAMPLES:
		/* records are checked when iterated (or by VERIFY after open) */
		if (fh->size < PMUFILE_SAMPLES_SUBHDR) {
			pmufile__set_err(why, whylen,
					 "SAMPLES frame at offset %" PRIu64
					 " has %u payload bytes, expected "
					 "at least %u",
					 off, fh->size, PMUFILE_SAMPLES_SUBHDR);
			return false;
		}
		break;
	case PMUFILE_FRAME_PROCESS:
		parse_process(&c, &tmp.p);
		if (!c.bad && ++r->nr_processes > PMUFILE_MAX_PROCESSES) {
			pmufile__set_err(why, whylen,
					 "PROCESS frame at offset %" PRIu64
					 ": more than %u processes; "
					 "expected fewer (file damaged or hostile)",
					 off, PMUFILE_MAX_PROCESSES);
			return false;
		}
		break;
	case PMUFILE_FRAME_MMAP:
		parse_mmap(&c, &tmp.m);
		if (!c.bad && ++r->nr_mmaps > PMUFILE_MAX_MMAPS) {
			pmufile__set_err(why, whylen,
					 "MMAP frame at offset %" PRIu64
					 ": more than %u memory maps; "
					 "expected fewer (file damaged or hostile)",
					 off, PMUFILE_MAX_MMAPS);
			return false;
		}
		break;
	case PMUFILE_FRAME_KALLSYMS: {
		uint64_t at = r64(&c, "snapshot offset");
		uint32_t n = rbytes(&c, NULL, PMUFILE_MAX_FRAME, "text");

		if (c.bad)
			return false;
		if (at != r->kallsyms_len && !(r->flags & PMUFILE_OPEN_SALVAGE)) {
			pmufile__set_err(why, whylen,
					 "KALLSYMS frame at offset %" PRIu64
					 " continues the snapshot at byte "
					 "%" PRIu64 "; expected byte %" PRIu64
					 " (a chunk is missing)",
					 off, at, r->kallsyms_len);
			return false;
		}
		r->kallsyms_len += n;
		if (r->kallsyms_len > PMUFILE_MAX_KALLSYMS) {
			pmufile__set_err(why, whylen,
					 "KALLSYMS frame at offset %" PRIu64
					 ": snapshot exceeds %u bytes",
					 off, PMUFILE_MAX_KALLSYMS);
			return false;
		}
		break;
	}
	case PMUFILE_FRAME_KBUILDID:
		rbytes(&c, f->kernel_build_id, sizeof(f->kernel_build_id), "build_id");
		break;
	case PMUFILE_FRAME_STATS:
		rbytes(&c, NULL, PMUFILE_MAX_BLOB, "stats");
		break;
	case PMUFILE_FRAME_VDSO:
		rbytes(&c, NULL, PMUFILE_MAX_VDSO, "image");
		break;
	case PMUFILE_FRAME_TRAILER:
		parse_trailer(&c, &tmp.t, &r->trailer_flags);
		break;
	case PMUFILE_FRAME_NUMA: {
		struct pmufile_numa n;
		char nwhy[256];

		if (pmufile__numa_decode(c.p, c.len, &n, nwhy, sizeof(nwhy))) {
			pmufile__set_err(why, whylen, "NUMA frame at offset %" PRIu64 ": %s", off,
					 nwhy);
			return false;
		}
		pmufile__numa_free(&n);
		break;
	}
	default:
		break; /* a newer frame type: skipped */
	}
	return !c.bad;
}

static int add_vframe(struct reader *r, uint64_t off, const struct fhdr *fh, bool partial)
{
	if (r->nr_frames == r->cap_frames) {
		size_t cap = r->cap_frames ? r->cap_frames * 2 : 256;
		struct vframe *n = realloc(r->frames, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		r->frames = n;
		r->cap_frames = cap;
	}
	r->frames[r->nr_frames++] = (struct vframe){
		.off = off, .size = fh->size, .seq = fh->seq, .type = fh->type, .partial = partial};
	return 0;
}

/*
 * Salvage: the SAMPLES frame at off, whose intact header declares more
 * payload than the file holds. Its complete records are as the writer wrote
 * them (a cut loses the end, it does not change the beginning), but there is
 * no CRC to prove it: each record must pass pmufile__check_record, and the
 * first one that does not (the cut one) ends the frame. Returns the payload
 * bytes to use (sub-header + complete records) in *len and their number in
 * *nrec; false if not even the sub-header is there.
 */
static bool cut_samples_frame(const struct reader *r, uint64_t off, uint32_t *len, uint32_t *nrec)
{
	uint64_t avail = r->size - off - PMUFILE_FRAME_HDR_SIZE;
	const uint8_t *payload = r->map + off + PMUFILE_FRAME_HDR_SIZE;
	uint64_t pos = PMUFILE_SAMPLES_SUBHDR;
	uint32_t n = 0;

	if (avail < PMUFILE_SAMPLES_SUBHDR)
		return false;
	while (pos < avail) {
		const struct pmuprof_record_header *h = (const void *)(payload + pos);

		if (pmufile__check_record(h, (size_t)(avail - pos), 0))
			break;
		pos += h->size;
		n++;
	}
	*len = (uint32_t)pos;
	*nrec = n;
	return true;
}

/* Salvage: the next offset after `from` holding a fully valid frame. */
static bool resync(const struct reader *r, uint64_t from, uint64_t *next)
{
	char why[8];
	struct fhdr fh;

	for (uint64_t off = (from + 8) & ~(uint64_t)7; off + PMUFILE_FRAME_HDR_SIZE <= r->size;
	     off += 8) {
		if (pf_get32(r->map + off) != PMUFILE_SYNC)
			continue;
		if (check_frame(r, off, &fh, why, sizeof(why), true) == FRAME_OK) {
			*next = off;
			return true;
		}
	}
	return false;
}

static void note_damage(struct pmufile *f, uint64_t off, const char *why)
{
	if (f->damage[0])
		return;
	f->damage_offset = off;
	pmufile__set_err(f->damage, sizeof(f->damage), "%s", why);
}

/* Pass 1: validate every frame. 0, or -EBADMSG/-ENOMEM with err set. */
static int walk_frames(struct pmufile *f, struct reader *r, uint64_t start, char *err,
		       size_t errlen)
{
	bool salvage = r->flags & PMUFILE_OPEN_SALVAGE;
	uint64_t off = start;
	uint32_t expect_seq = 0;
	bool have_trailer = false;
	char why[512];

	while (off < r->size) {
		struct fhdr fh;
		/* SAMPLES payloads are CRC-checked lazily, while iterated */
		bool payload = r->size - off < PMUFILE_FRAME_HDR_SIZE ||
			       pf_get16(r->map + off + 4) != PMUFILE_FRAME_SAMPLES;
		enum fcheck st = check_frame(r, off, &fh, why, sizeof(why), payload);
		uint64_t next;

		if (st == FRAME_OK && have_trailer) {
			snprintf(why, sizeof(why),
				 "%s frame at offset %" PRIu64 " follows the TRAILER; expected the "
				 "file to end there",
				 pmufile__frame_name(fh.type), off);
			st = FRAME_BAD;
		}
		if (st == FRAME_OK && fh.seq != expect_seq && !salvage) {
			snprintf(why, sizeof(why),
				 "%s frame at offset %" PRIu64
				 " has sequence number %u, expected %u "
				 "(%s)",
				 pmufile__frame_name(fh.type), off, fh.seq, expect_seq,
				 fh.seq > expect_seq ? "frames are missing"
						     : "frames out of order");
			st = FRAME_BAD;
		}
		if (st == FRAME_OK && expect_seq == 0 && fh.seq == 0 &&
		    fh.type != PMUFILE_FRAME_HEADER) {
			snprintf(why, sizeof(why),
				 "expected a HEADER frame first, found %s at offset %" PRIu64,
				 pmufile__frame_name(fh.type), off);
			st = FRAME_BAD;
		}
		if (st == FRAME_OK && !check_contents(f, r, off, &fh, why, sizeof(why)))
			st = FRAME_BAD;
		if (st == FRAME_OK) {
			if (fh.seq > expect_seq)
				f->frames_skipped += fh.seq - expect_seq;
			expect_seq = fh.seq + 1;
			if (add_vframe(r, off, &fh, false)) {
				pmufile__set_err(err, errlen, "pmufile: %s: out of memory",
						 r->path);
				return -ENOMEM;
			}
			if (fh.type == PMUFILE_FRAME_TRAILER) {
				have_trailer = true;
				r->trailer_seq = fh.seq;
				r->trailer_off = off;
			}
			off += PMUFILE_FRAME_HDR_SIZE + fh.size;
			continue;
		}
		if (!salvage) {
			pmufile__set_err(err, errlen, "pmufile: %s: %s%s", r->path, why,
					 st == FRAME_TRUNCATED
						 ? " (the recording was cut short; "
						   "--salvage reads what precedes it)"
						 : " (--salvage skips damaged frames)");
			return -EBADMSG;
		}
		if (st == FRAME_TRUNCATED && r->size - off >= PMUFILE_FRAME_HDR_SIZE &&
		    fh.type == PMUFILE_FRAME_SAMPLES && r->nr_frames && !have_trailer) {
			uint32_t len, nrec;

			if (cut_samples_frame(r, off, &len, &nrec)) {
				size_t w = strlen(why);

				snprintf(why + w, sizeof(why) - w,
					 "; its first %u of %u records are complete and used", nrec,
					 pf_get32(r->map + off + PMUFILE_FRAME_HDR_SIZE));
				note_damage(f, off, why);
				fh.size = len;
				if (fh.seq > expect_seq)
					f->frames_skipped += fh.seq - expect_seq;
				if (add_vframe(r, off, &fh, true)) {
					pmufile__set_err(err, errlen, "pmufile: %s: out of memory",
							 r->path);
					return -ENOMEM;
				}
				break; /* the file ends inside this frame */
			}
		}
		note_damage(f, off, why);
		if (!resync(r, off, &next)) {
			f->frames_skipped++;
			break;
		}
		off = next;
	}
	if (!have_trailer) {
		snprintf(why, sizeof(why),
			 "file ends at offset %zu without a TRAILER frame (expected one after %zu "
			 "complete frames): the recording was cut short",
			 r->size, r->nr_frames);
		if (!salvage) {
			pmufile__set_err(err, errlen,
					 "pmufile: %s: %s; --salvage reads the complete frames",
					 r->path, why);
			return -EBADMSG;
		}
		note_damage(f, r->size, why);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Pass 2: fill struct pmufile                                         */
/* ------------------------------------------------------------------ */
/* qsort order of two numbers: -1, 0 or 1 */
#define ORDER(a, b) (((a) > (b)) - ((a) < (b)))

static int cmp_process(const void *a, const void *b)
{
	const struct pmufile_process *x = a, *y = b;

	return x->pid != y->pid ? ORDER(x->pid, y->pid) : ORDER(x->time_ns, y->time_ns);
}

static int cmp_mmap(const void *a, const void *b)
{
	const struct pmufile_mmap *x = a, *y = b;

	if (x->pid != y->pid)
		return ORDER(x->pid, y->pid);
	return x->start != y->start ? ORDER(x->start, y->start) : ORDER(x->time_ns, y->time_ns);
}

static int cmp_event(const void *a, const void *b)
{
	const struct pmufile_event *x = a, *y = b;

	return ORDER(x->index, y->index);
}

static int fill(struct pmufile *f, struct reader *r, char *err, size_t errlen)
{
	size_t nsf = 0, kpos = 0;
	char why[512];

	for (size_t i = 0; i < r->nr_frames; i++)
		nsf += r->frames[i].type == PMUFILE_FRAME_SAMPLES;
	r->sframes = calloc(nsf ? nsf : 1, sizeof(*r->sframes));
	f->processes = calloc(r->nr_processes ? r->nr_processes : 1, sizeof(*f->processes));
	f->mmaps = calloc(r->nr_mmaps ? r->nr_mmaps : 1, sizeof(*f->mmaps));
	r->mmap_maxend = calloc(r->nr_mmaps ? r->nr_mmaps : 1, sizeof(*r->mmap_maxend));
	r->kallsyms = malloc(r->kallsyms_len + 1);
	if (!r->sframes || !f->processes || !f->mmaps || !r->mmap_maxend || !r->kallsyms) {
		pmufile__set_err(
			err, errlen,
			"pmufile: %s: out of memory for %zu processes, %zu memory maps and %" PRIu64
			" bytes of kernel symbols",
			r->path, r->nr_processes, r->nr_mmaps, r->kallsyms_len);
		return -ENOMEM;
	}

	for (size_t i = 0; i < r->nr_frames; i++) {
		const struct vframe *vf = &r->frames[i];
		struct rcur c = {
			.p = r->map + vf->off + PMUFILE_FRAME_HDR_SIZE,
			.len = vf->size,
			.base = vf->off + PMUFILE_FRAME_HDR_SIZE,
			.frame = pmufile__frame_name(vf->type),
			.why = why,
			.whylen = sizeof(why),
		};

		switch (vf->type) {
		case PMUFILE_FRAME_HEADER:
			parse_header(&c, &f->hdr);
			break;
		case PMUFILE_FRAME_EVENT: {
			struct pmufile_event ev;

			parse_event(&c, &ev);
			if (r->event_slot[ev.index] >= 0) {
				/* the same index again: the later frame wins */
				f->events[r->event_slot[ev.index]] = ev;
			} else {
				r->event_slot[ev.index] = (int)f->nr_events;
				f->events[f->nr_events++] = ev;
			}
			break;
		}
		case PMUFILE_FRAME_SAMPLES:
			r->sframes[r->nr_sframes].off = vf->off;
			r->sframes[r->nr_sframes].size = vf->size;
			r->sframes[r->nr_sframes].seq = vf->seq;
			r->sframes[r->nr_sframes].state = SF_UNCHECKED;
			r->sframes[r->nr_sframes].partial = vf->partial;
			r->nr_sframes++;
			r->nr_unchecked++;
			break;
		case PMUFILE_FRAME_PROCESS:
			parse_process(&c, &f->processes[f->nr_processes++]);
			break;
		case PMUFILE_FRAME_MMAP:
			parse_mmap(&c, &f->mmaps[f->nr_mmaps++]);
			break;
		case PMUFILE_FRAME_KALLSYMS: {
			uint32_t n;

			r64(&c, "snapshot offset");
			n = rbytes(&c, r->kallsyms + kpos, r->kallsyms_len - kpos, "text");
			kpos += n;
			break;
		}
		case PMUFILE_FRAME_KBUILDID:
			f->kernel_build_id_size = rbytes(&c, f->kernel_build_id,
							 sizeof(f->kernel_build_id), "build_id");
			break;
		case PMUFILE_FRAME_STATS: {
			uint32_t n = r32(&c, "stats.size");
			size_t take = n < sizeof(f->stats) ? n : sizeof(f->stats);

			memset(&f->stats, 0, sizeof(f->stats));
			memcpy(&f->stats, c.p + c.off, take);
			f->has_stats = true;
			break;
		}
		case PMUFILE_FRAME_TRAILER:
			parse_trailer(&c, &f->trailer, &r->trailer_flags);
			f->has_trailer = true;
			break;
		case PMUFILE_FRAME_VDSO: {
			uint32_t n = r32(&c, "image.size");

			if (r->vdso || !n || n > PMUFILE_MAX_VDSO || n > vf->size - 4)
				break; /* one image; the first valid one (checked on open) */
			r->vdso = malloc(n);
			if (!r->vdso) {
				pmufile__set_err(err, errlen,
						 "pmufile: %s: out of memory for the vDSO image",
						 r->path);
				return -ENOMEM;
			}
			memcpy(r->vdso, c.p + c.off, n);
			f->vdso = r->vdso;
			f->vdso_len = n;
			break;
		}
		case PMUFILE_FRAME_NUMA: /* checked in pass 1; the last one wins */
			pmufile__numa_free(&f->numa);
			f->has_numa = !pmufile__numa_decode(c.p, c.len, &f->numa, why, sizeof(why));
			break;
		default:
			break;
		}
	}
	r->kallsyms[kpos] = '\0';
	f->kallsyms = r->kallsyms;
	f->kallsyms_len = kpos;
	/* Events sorted by index; rebuild the index map after sorting. */
	qsort(f->events, f->nr_events, sizeof(f->events[0]), cmp_event);
	for (uint32_t i = 0; i < f->nr_events; i++)
		r->event_slot[f->events[i].index] = (int)i;
	qsort(f->processes, f->nr_processes, sizeof(*f->processes), cmp_process);
	qsort(f->mmaps, f->nr_mmaps, sizeof(*f->mmaps), cmp_mmap);
	/* maxend[i]: the highest end of any mapping of the same pid at or
	 * before i; lets find_mmap stop scanning backwards early. */
	for (size_t i = 0; i < f->nr_mmaps; i++) {
		uint64_t e = f->mmaps[i].end;

		if (i && f->mmaps[i - 1].pid == f->mmaps[i].pid && r->mmap_maxend[i - 1] > e)
			e = r->mmap_maxend[i - 1];
		r->mmap_maxend[i] = e;
	}
	return 0;
}

/* Compare what the file holds with what its trailer promises. */
static int check_totals(struct pmufile *f, struct reader *r, char *err, size_t errlen)
{
	const struct pmufile_trailer *t = &f->trailer;
	char why[512];

	if (!f->has_trailer || r->totals_checked || r->nr_unchecked)
		return 0;
	r->totals_checked = true;
	if (t->frames != r->trailer_seq || t->frames != r->nr_frames_seen - 1 ||
	    t->samples != r->samples || t->records != r->records || t->lost != r->lost) {
		snprintf(why, sizeof(why),
			 "TRAILER says %" PRIu64 " frames, %" PRIu64 " records, %" PRIu64
			 " samples, %" PRIu64 " lost; the file holds %zu frames, %" PRIu64
			 " records, %" PRIu64 " samples, %" PRIu64 " lost",
			 t->frames, t->records, t->samples, t->lost, r->nr_frames_seen - 1,
			 r->records, r->samples, r->lost);
		if (!(r->flags & PMUFILE_OPEN_SALVAGE)) {
			pmufile__set_err(err, errlen,
					 "pmufile: %s: %s (file damaged; --salvage reads it)",
					 r->path, why);
			return -EBADMSG;
		}
		note_damage(f, r->trailer_off, why);
	}
	return 0;
}

static int check_preamble(struct pmufile *f, struct reader *r, char *err, size_t errlen,
			  uint64_t *start)
{
	const uint8_t *p = r->map;
	uint32_t bo, ver, psize, crc;

	if (r->size == 0) {
		pmufile__set_err(
			err, errlen,
			"pmufile: %s: file is empty (0 bytes); expected a pmuprof data file "
			"starting with the %u-byte preamble (did the recording fail to start?)",
			r->path, PMUFILE_PREAMBLE_SIZE);
		return -EBADMSG;
	}
	if (r->size < PMUFILE_MAGIC_LEN || memcmp(p, PMUFILE_MAGIC, PMUFILE_MAGIC_LEN)) {
		char seen[3 * PMUFILE_MAGIC_LEN + 1] = "";

		for (size_t i = 0; i < PMUFILE_MAGIC_LEN && i < r->size; i++)
			snprintf(seen + 3 * i, 4, "%02x ", p[i]);
		pmufile__set_err(
			err, errlen,
			"pmufile: %s: not a pmuprof data file: expected magic \"PMUPROF\\0\" at "
			"offset 0, found %s",
			r->path, seen[0] ? seen : "end of file");
		return -EBADMSG;
	}
	if (r->size < PMUFILE_PREAMBLE_SIZE) {
		pmufile__set_err(
			err, errlen,
			"pmufile: %s: file is %zu bytes, expected at least the %u-byte preamble: "
			"truncated",
			r->path, r->size, PMUFILE_PREAMBLE_SIZE);
		return -EBADMSG;
	}
	bo = pf_get32(p + 8);
	if (bo == PMUFILE_BYTE_ORDER_SWAPPED) {
		pmufile__set_err(
			err, errlen,
			"pmufile: %s: file is big-endian (byte-order marker at offset 8 reads "
			"0x%08x); pmuprof files are little-endian and this one cannot be read",
			r->path, bo);
		return -EPROTONOSUPPORT;
	}
	if (bo != PMUFILE_BYTE_ORDER) {
		pmufile__set_err(
			err, errlen,
			"pmufile: %s: byte-order marker at offset 8 is 0x%08x, expected 0x%08x",
			r->path, bo, PMUFILE_BYTE_ORDER);
		return -EBADMSG;
	}
	ver = pf_get32(p + 12);
	f->version = ver;
	if (ver > PMUFILE_VERSION) {
		pmufile__set_err(
			err, errlen,
			"pmufile: %s: file format version %u is newer than this pmuconv supports "
			"(%u); upgrade pmuconv",
			r->path, ver, PMUFILE_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (ver == 0) {
		pmufile__set_err(
			err, errlen,
			"pmufile: %s: file format version 0 at offset 12 is invalid, expected "
			"1..%u",
			r->path, PMUFILE_VERSION);
		return -EBADMSG;
	}
	psize = pf_get32(p + 16);
	crc = pmufile__crc32(0, p, 20);
	if (pf_get32(p + 20) != crc || psize < PMUFILE_PREAMBLE_SIZE || psize % 8 ||
	    psize > r->size) {
		char why[256];

		snprintf(why, sizeof(why),
			 "preamble is damaged: CRC 0x%08x (expected 0x%08x), size %u (expected "
			 "%u)",
			 pf_get32(p + 20), crc, psize, PMUFILE_PREAMBLE_SIZE);
		if (!(r->flags & PMUFILE_OPEN_SALVAGE)) {
			pmufile__set_err(err, errlen, "pmufile: %s: %s", r->path, why);
			return -EBADMSG;
		}
		note_damage(f, 0, why);
		psize = PMUFILE_PREAMBLE_SIZE;
	}
	*start = psize;
	return 0;
}

static int walk_frame(struct pmufile *f, struct reader *r, struct sframe *sf, pmufile_record_fn fn,
		      void *ctx, char *err, size_t errlen);

struct pmufile *pmufile__open(const char *path, unsigned int flags, char *err, size_t errlen)
{
	struct pmufile *f;
	struct reader *r;
	struct stat st;
	uint64_t start;
	int fd, ret;

	f = calloc(1, sizeof(*f));
	r = calloc(1, sizeof(*r));
	if (!f || !r) {
		free(f);
		free(r);
		pmufile__set_err(err, errlen, "pmufile: out of memory opening %s", path);
		errno = ENOMEM;
		return NULL;
	}
	f->priv = r;
	f->kallsyms = "";
	r->flags = flags;
	r->fd = -1;
	for (int i = 0; i < PMUPROF_MAX_EVENTS; i++)
		r->event_slot[i] = -1;
	r->path = strdup(path ? path : "");
	if (!r->path) {
		ret = -ENOMEM;
		pmufile__set_err(err, errlen, "pmufile: out of memory opening %s", path);
		goto fail;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		pmufile__set_err(err, errlen, "pmufile: cannot open %s: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		ret = fstat(fd, &st) < 0 ? -errno : -EINVAL;
		pmufile__set_err(err, errlen, "pmufile: %s: not a regular file", path);
		close(fd);
		goto fail;
	}
	r->size = (size_t)st.st_size;
	if (r->size) {
		void *m = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (m == MAP_FAILED) {
			ret = -errno;
			pmufile__set_err(err, errlen, "pmufile: cannot map %s (%zu bytes): %s",
					 path, r->size, strerror(errno));
			close(fd);
			goto fail;
		}
		r->map = m;
		madvise(m, r->size, MADV_SEQUENTIAL);
	}
	if (flags & PMUFILE_OPEN_STREAM) {
		r->fd = fd;
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	} else {
		close(fd);
	}

	ret = check_preamble(f, r, err, errlen, &start);
	if (ret)
		goto fail;
	ret = walk_frames(f, r, start, err, errlen);
	if (ret)
		goto fail;
	ret = fill(f, r, err, errlen);
	if (ret)
		goto fail;
	r->nr_frames_seen = r->nr_frames;
	if (flags & PMUFILE_OPEN_VERIFY) {
		for (size_t i = 0; i < r->nr_sframes; i++) {
			ret = walk_frame(f, r, &r->sframes[i], NULL, NULL, err, errlen);
			if (ret)
				goto fail;
		}
	}
	ret = check_totals(f, r, err, errlen);
	if (ret)
		goto fail;
	free(r->frames); /* only needed while opening */
	r->frames = NULL;
	return f;
fail:
	pmufile__close(f);
	errno = -ret;
	return NULL;
}

void pmufile__close(struct pmufile *f)
{
	struct reader *r;

	if (!f)
		return;
	r = f->priv;
	if (r) {
		if (r->map)
			munmap((void *)r->map, r->size);
		if (r->fd >= 0)
			close(r->fd);
		free(r->sbuf);
		pmufile__ucopy_tab_free(r->ucopy);
		free(r->frames);
		free(r->sframes);
		free(r->mmap_maxend);
		free(r->kallsyms);
		free(r->vdso);
		free(r->path);
		free(r);
	}
	free(f->processes);
	free(f->mmaps);
	pmufile__numa_free(&f->numa);
	free(f);
}

/* ------------------------------------------------------------------ */
/* Iteration and lookups                                               */
/* ------------------------------------------------------------------ */
/* A SAMPLES frame turned out damaged: mark it, and either fail (strict)
 * or note the damage and go on (salvage). */
static int frame_bad(struct pmufile *f, struct reader *r, struct sframe *sf, const char *why,
		     char *err, size_t errlen)
{
	if (sf->state == SF_UNCHECKED)
		r->nr_unchecked--;
	if (sf->state != SF_BAD) {
		sf->state = SF_BAD;
		if (!r->bad_msg[0])
			pmufile__set_err(r->bad_msg, sizeof(r->bad_msg), "%s", why);
		if (r->flags & PMUFILE_OPEN_SALVAGE) {
			note_damage(f, sf->off, why);
			f->frames_skipped++;
		}
	}
	if (r->flags & PMUFILE_OPEN_SALVAGE)
		return 0;
	pmufile__set_err(err, errlen, "pmufile: %s: %s (--salvage skips damaged frames)", r->path,
			 why);
	return -EBADMSG;
}

/*
 * The payload of a SAMPLES frame: in place in the mapping, or (STREAM) read
 * into the reader's buffer. Reading is one sequential copy out of the page
 * cache into a frame-sized buffer, where the CRC pass and then the record
 * pass find it in the CPU cache. Through the mapping, the kernel must map
 * every page of the file (a fault per 16 pages or so, more when the page
 * cache is fragmented, and the unmapping at close) and the CRC pass waits
 * on DRAM: for a 3 GB file in the page cache, copy and CRC took 0.26-0.3
 * CPU-s here, faults and CRC 0.33-0.43. NULL on a read error (-errno
 * in *ret, err filled): the file shrank or the disk failed, not damage.
 */
static const uint8_t *frame_payload(struct reader *r, const struct sframe *sf, int *ret, char *err,
				    size_t errlen)
{
	uint64_t at = sf->off + PMUFILE_FRAME_HDR_SIZE;
	size_t done = 0;

	if (r->fd < 0)
		return r->map + at;
	if (r->sbuf_size < sf->size) {
		size_t want = 0;

		for (size_t i = 0; i < r->nr_sframes; i++)
			if (r->sframes[i].size > want)
				want = r->sframes[i].size;
		free(r->sbuf);
		r->sbuf_size = 0;
		r->sbuf = malloc(want ? want : 1);
		if (!r->sbuf) {
			*ret = -ENOMEM;
			pmufile__set_err(err, errlen, "pmufile: %s: out of memory (%zu bytes)",
					 r->path, want);
			return NULL;
		}
		r->sbuf_size = want;
	}
	while (done < sf->size) {
		ssize_t n = pread(r->fd, r->sbuf + done, sf->size - done, (off_t)(at + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			*ret = n < 0 ? -errno : -EIO;
			pmufile__set_err(err, errlen,
					 "pmufile: %s: reading %u bytes at offset %" PRIu64 ": %s",
					 r->path, sf->size, at,
					 n < 0 ? strerror(errno)
					       : "the file is shorter than when "
						 "it was opened");
			return NULL;
		}
		done += (size_t)n;
	}
	return r->sbuf;
}

/*
 * Deliver the records of one SAMPLES frame to fn (NULL: only verify). The
 * first visit checks the payload CRC (unless NO_CRC), bounds-checks every
 * record and counts it for the trailer comparison; records are read in
 * place (or from the STREAM buffer), nothing is allocated per record.
 * Returns fn's non-zero value, -EBADMSG (strict, damaged), a read error
 * (STREAM), or 0.
 */
static int walk_frame(struct pmufile *f, struct reader *r, struct sframe *sf, pmufile_record_fn fn,
		      void *ctx, char *err, size_t errlen)
{
	bool first = sf->state == SF_UNCHECKED;
	struct pmufile_counts cnt = {0};
	uint32_t n = 0;
	char why[512];
	int ret = 0;

	if (sf->state == SF_BAD)
		return frame_bad(f, r, sf, r->bad_msg, err, errlen);

	const uint8_t *payload = frame_payload(r, sf, &ret, err, errlen);
	if (!payload)
		return ret;
	const uint8_t *p = payload + PMUFILE_SAMPLES_SUBHDR;
	const uint8_t *end = payload + sf->size;
	/* file offset of payload[0], for messages */
	const uint64_t base = sf->off + PMUFILE_FRAME_HDR_SIZE;

	if (first && !sf->partial && !(r->flags & PMUFILE_OPEN_NO_CRC)) {
		struct fhdr fh = {.type = PMUFILE_FRAME_SAMPLES, .size = sf->size, .seq = sf->seq};

		if (!payload_crc_ok(r, sf->off, &fh, payload, why, sizeof(why)))
			return frame_bad(f, r, sf, why, err, errlen);
	}
	while (p < end) {
		const struct pmuprof_record_header *h = (const void *)p;
		size_t left = (size_t)(end - p);

		if (first) {
			if (pmufile__check_record(h, left, 0)) {
				bool hdr = left >= sizeof(*h);

				pmufile__set_err(
					why, sizeof(why),
					"SAMPLES frame at offset %" PRIu64 ": record %u at offset "
					"%" PRIu64 " has type %u and size %u; expected a multiple "
					"of 8, at least %zu, at most the %zu bytes left in the "
					"frame",
					sf->off, n, base + (uint64_t)(p - payload),
					hdr ? h->type : 0, hdr ? h->size : 0,
					hdr ? pmufile__record_min(h->type) : sizeof(*h), left);
				return frame_bad(f, r, sf, why, err, errlen);
			}
			pmufile__count_record(&cnt, h);
		}
		if (fn && r->ucopy && h->type == PMUPROF_REC_SAMPLE) {
			const struct pmuprof_record_header *rebuilt;
			const char *bad;

			if (!pmufile__ucopy_is_packed(h)) {
				pmufile__ucopy_note(r->ucopy, h);
			} else if ((bad = pmufile__ucopy_unpack(r->ucopy, h, &rebuilt)) &&
				   !rebuilt) {
				/* fixed parts malformed: the consumer's view rejects it */
			} else {
				if (bad && !f->ucopy_unresolved++)
					pmufile__set_err(f->ucopy_error, sizeof(f->ucopy_error),
							 "record at offset %" PRIu64 ": %s",
							 base + (uint64_t)(p - payload), bad);
				ret = fn(ctx, rebuilt);
				if (ret)
					return ret;
				n++;
				p += h->size;
				continue;
			}
		}
		if (fn) {
			ret = fn(ctx, h);
			if (ret)
				return ret; /* stopped early: the frame stays unchecked */
		}
		n++;
		p += h->size;
	}
	if (first) {
		uint32_t nr = pf_get32(payload);

		if (n != nr && !sf->partial) {
			pmufile__set_err(why, sizeof(why),
					 "SAMPLES frame at offset %" PRIu64
					 ": holds %u records, its header "
					 "says %u",
					 sf->off, n, nr);
			return frame_bad(f, r, sf, why, err, errlen);
		}
		sf->state = SF_GOOD;
		r->nr_unchecked--;
		r->samples += cnt.samples;
		r->lost += cnt.lost;
		r->throttled += cnt.throttled;
		r->records += n;
	}
	return 0;
}

int pmufile__for_each_record(struct pmufile *f, pmufile_record_fn fn, void *ctx, char *err,
			     size_t errlen)
{
	struct reader *r = f->priv;

	/* Packed stack copies (version 2) are rebuilt in file order, each
	 * from its tid's previous copy: every walk starts afresh. */
	f->ucopy_unresolved = 0;
	f->ucopy_error[0] = 0;
	if (f->version >= 2 && fn) {
		if (!r->ucopy)
			r->ucopy = pmufile__ucopy_tab_new();
		if (!r->ucopy) {
			pmufile__set_err(err, errlen, "pmufile: %s: out of memory", r->path);
			return -ENOMEM;
		}
		pmufile__ucopy_tab_reset(r->ucopy);
	}
	for (size_t i = 0; i < r->nr_sframes; i++) {
		int ret = walk_frame(f, r, &r->sframes[i], fn, ctx, err, errlen);

		if (ret)
			return ret;
	}
	/* After the first complete pass: do the totals match the trailer? */
	return check_totals(f, r, err, errlen);
}

int pmufile__sample_view(const struct pmuprof_record_header *rec, struct pmufile_sample_view *v)
{
	return pmufile__sample_view_inline(rec, v);
}

const struct pmufile_mmap *pmufile__find_mmap(const struct pmufile *f, int32_t pid, uint64_t addr,
					      uint64_t t)
{
	const struct reader *r = f->priv;
	const struct pmufile_mmap *m = f->mmaps;
	const struct pmufile_mmap *before = NULL, *after = NULL;
	size_t first = pmufile__first_mmap(f, pid), lo;

	/* first mapping of pid with start > addr */
	lo = first + PMUFILE_PARTITION(f->nr_mmaps - first, i,
				       m[first + i].pid == pid && m[first + i].start <= addr);
	/* Scan back over candidates; maxend bounds the scan to mappings that
	 * could still cover addr. Cost: O(log n + overlapping captures). */
	for (size_t i = lo; i > first && r->mmap_maxend[i - 1] > addr; i--) {
		const struct pmufile_mmap *c = &m[i - 1];

		if (c->end <= addr)
			continue;
		if (c->time_ns <= t) {
			if (!before || c->time_ns > before->time_ns)
				before = c;
		} else if (!after || c->time_ns < after->time_ns) {
			after = c;
		}
	}
	return before ? before : after;
}

const struct pmufile_process *pmufile__find_process(const struct pmufile *f, int32_t pid)
{
	/* the last (latest captured) entry of pid */
	size_t lo = PMUFILE_PARTITION(f->nr_processes, i, f->processes[i].pid <= pid);

	if (lo == 0 || f->processes[lo - 1].pid != pid)
		return NULL;
	return &f->processes[lo - 1];
}

void pmufile__no_event_error(const struct pmufile *f, const char *path, const char *name, char *err,
			     size_t errlen)
{
	snprintf(err, errlen, "%s: no event named '%s' (events:", path, name);
	for (uint32_t i = 0; i < f->nr_events && i < PMUPROF_MAX_EVENTS; i++) {
		size_t n = strlen(err);
		snprintf(err + n, errlen - n, " %s", f->events[i].name);
	}
	size_t n = strlen(err);
	snprintf(err + n, errlen - n, ")");
}

const struct pmufile_event *pmufile__event(const struct pmufile *f, uint32_t index)
{
	const struct reader *r = f->priv;

	if (index >= PMUPROF_MAX_EVENTS || r->event_slot[index] < 0)
		return NULL;
	return &f->events[r->event_slot[index]];
}
