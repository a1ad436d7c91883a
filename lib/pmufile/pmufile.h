/* SPDX-License-Identifier: MIT */
/*
 * libpmufile: the pmuprof data file (written by pmuctl, read by pmuconv).
 * Layout and versioning are documented in docs/FORMAT.md; this header is
 * the API both tools use. Errors follow one convention: functions returning
 * int give 0 or a negative errno; functions returning pointers give NULL
 * and set errno; every failure also leaves a human-readable message in the
 * caller's `err` buffer (what is wrong, and where: file offsets included).
 */
#ifndef PMUFILE_H
#define PMUFILE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "../../include/uapi/pmuprof.h"
#include "bsearch.h"

/* Format versions: 2 (since 2026-11-26) may hold packed stack copies
 * (PMUFILE_WRITE_PACK_UCOPY); the writer writes 1 otherwise, so files
 * without them stay readable by older readers. Readers take both. */
#define PMUFILE_VERSION	      2 /* the newest version this library reads and writes */
#define PMUFILE_VERSION_PLAIN 1 /* what it writes without packed stack copies */

/* ---------------------------------------------------------------- */
/* Metadata, as the writer is given it and the reader returns it.    */
/* ---------------------------------------------------------------- */
struct pmufile_header {
	char kernel_release[65]; /* uname -r of the recording host */
	char hostname[65];
	char cmdline[4096];  /* the pmuctl command line, space-joined */
	uint32_t cpu_vendor; /* enum pmuprof_cpu_vendor */
	uint32_t cpu_family, cpu_model, cpu_stepping;
	char cpu_vendor_string[16];
	char cpu_model_name[64]; /* /proc/cpuinfo "model name", may be empty */
	uint32_t nr_cpus;
	uint32_t page_size;	    /* sysconf(_SC_PAGESIZE) */
	uint64_t start_realtime_ns; /* wall clock at start (CLOCK_REALTIME) */
	uint64_t start_session_ns;  /* session clock at start (sample time base) */
	uint32_t config_flags;	    /* pmuprof_config.flags */
	uint32_t stack_depth;
	uint32_t target;	  /* enum pmuprof_target */
	int32_t pid;		  /* target pid or -1 */
	struct pmuprof_info info; /* GET_INFO of the recording machine */
};

struct pmufile_event {
	uint32_t index;	 /* the `event` field of samples */
	uint32_t source; /* enum pmuprof_source */
	uint32_t flags;	 /* PMUPROF_EVF_* */
	uint32_t __pad;
	uint64_t config;    /* raw encoding (0 for cpu-clock) */
	uint64_t period;    /* period or Hz (EVF_FREQ) as configured */
	char name[128];	    /* as the user wrote it, e.g. "cycles:u" */
	char resolved[256]; /* libpfm4's fully qualified name, or "" */
	char unit[32];	    /* what `period` counts: "cycles", "ns", "events" */
};

struct pmufile_process {
	int32_t pid; /* tgid */
	int32_t ppid;
	uint64_t time_ns; /* session clock when captured */
	char comm[16];
	char exe[4096]; /* /proc/PID/exe target, "" if unknown */
	uint8_t build_id[20];
	uint32_t build_id_size; /* 0 if none */
	bool exited;		/* captured from the last state before exit */
};

struct pmufile_mmap {
	int32_t pid;
	uint32_t prot;	     /* PROT_* bits from the maps line */
	uint64_t time_ns;    /* session clock when captured */
	uint64_t start, end; /* [start, end) virtual */
	uint64_t pgoff;	     /* file offset of start */
	char path[4096];     /* "" for anonymous, "[vdso]" etc. kept as is */
	uint8_t build_id[20];
	uint32_t build_id_size;
};

/* The recording machine's NUMA layout (NUMA frame, docs/FORMAT.md): which
 * node each CPU belongs to and which node owns each physical address range,
 * so a sample's physical data address is resolved to a node offline. */
#define PMUFILE_MAX_NUMA_NODES	1024 /* MAX_NUMNODES of x86-64 Linux */
#define PMUFILE_MAX_NUMA_RANGES 16384
struct pmufile_numa_range {
	uint64_t start, end; /* [start, end) physical */
	int32_t node;
	uint32_t __pad;
};

struct pmufile_numa {
	uint32_t nr_nodes;   /* online nodes, ids ascending in nodes[] */
	uint32_t nr_cpus;    /* entries of cpu_node[] */
	uint32_t nr_ranges;  /* sorted by start, not overlapping */
	uint32_t flags;	     /* 0 (reserved) */
	uint64_t block_size; /* memory block size the ranges were built from, 0 unknown */
	int32_t *nodes;
	int32_t *cpu_node; /* node of CPU i, -1 unknown (offline, or no node dir) */
	struct pmufile_numa_range *ranges;
};

/* Per-event totals in the trailer; the trailer makes truncation detectable. */
struct pmufile_trailer {
	uint64_t end_realtime_ns;
	uint64_t end_session_ns;
	uint64_t samples; /* sample records written */
	uint64_t lost;	  /* sum of LOST records written */
	uint64_t throttled;
	uint64_t records; /* all records in SAMPLES frames */
	uint64_t frames;  /* frames before the trailer */
	uint32_t nr_events;
	uint32_t __pad;
	uint64_t event_samples[PMUPROF_MAX_EVENTS];
	uint64_t event_lost[PMUPROF_MAX_EVENTS];
};

/* ---------------------------------------------------------------- */
/* The record ABI (include/uapi/pmuprof.h), checked in one place.    */
/* ---------------------------------------------------------------- */
/* Smallest size of a record of `type`: its fixed part (the header for
 * types this library does not know: they are skipped by size). */
size_t pmufile__record_min(uint16_t type);
/* The record at rec, with avail bytes from it to the end of its buffer:
 * NULL when it is a whole record (header in bounds, size a multiple of 8,
 * at least pmufile__record_min(), at most PMUPROF_MAX_RECORD and avail),
 * else what is wrong (a constant string). With PMUFILE_CHECK_EXACT also
 * what the module emits and nothing else: a known type, fixed-size records
 * of exactly their size, a sample's size equal to its parts, stacks within
 * PMUPROF_MAX_DEPTH, an event index below PMUPROF_MAX_EVENTS. */
#define PMUFILE_CHECK_EXACT (1u << 0)
const char *pmufile__check_record(const void *rec, size_t avail, unsigned int checks);
/* What a stream of records holds (for trailers, totals and accounting). */
struct pmufile_counts {
	uint64_t records, samples, lost, lost_records, throttled, unthrottled, periods;
	uint64_t event_samples[PMUPROF_MAX_EVENTS];
};
/* Count one record that passed pmufile__check_record(). */
void pmufile__count_record(struct pmufile_counts *n, const struct pmuprof_record_header *rec);

/* ---------------------------------------------------------------- */
/* Writer (pmuctl). Streams to disk; memory does not grow with the   */
/* recording. Every call after a failed write fails with the same    */
/* error, so a full disk is reported, never silently ignored.        */
/* ---------------------------------------------------------------- */
struct pmufile_writer;

struct pmufile_writer *pmufile_writer__open(const char *path, const struct pmufile_header *hdr,
					    char *err, size_t errlen);
/* The same with PMUFILE_WRITE_* flags. PMUFILE_WRITE_PACK_UCOPY: store
 * every SAMPLE's user stack copy packed (only its valid bytes, and what
 * differs from the previous copy of the same tid; docs/FORMAT.md), in a
 * version 2 file; records given to writer__records stay as read(). */
#define PMUFILE_WRITE_PACK_UCOPY (1u << 0)
struct pmufile_writer *pmufile_writer__open_flags(const char *path,
						  const struct pmufile_header *hdr,
						  unsigned int flags, char *err, size_t errlen);
int pmufile_writer__event(struct pmufile_writer *w, const struct pmufile_event *ev);
int pmufile_writer__process(struct pmufile_writer *w, const struct pmufile_process *p);
int pmufile_writer__mmap(struct pmufile_writer *w, const struct pmufile_mmap *m);
/* /proc/kallsyms text (any number of calls, concatenated) and kernel build-id. */
int pmufile_writer__kallsyms(struct pmufile_writer *w, const char *text, size_t len);
int pmufile_writer__kernel_build_id(struct pmufile_writer *w, const uint8_t *id, size_t len);
/* The vDSO image the recorder's kernel maps into its processes as [vdso]
 * (the recorder's own copy: every 64-bit process gets the same one), so
 * that the converter can unwind through it. At most PMUFILE_MAX_VDSO bytes. */
int pmufile_writer__vdso(struct pmufile_writer *w, const void *image, size_t len);
/* Records exactly as read() returned them (whole records). Buffered into
 * SAMPLES frames; the writer counts samples/LOST for the trailer itself. */
int pmufile_writer__records(struct pmufile_writer *w, const void *buf, size_t len);
int pmufile_writer__stats(struct pmufile_writer *w, const struct pmuprof_stats *st);
/* The NUMA layout (checked with pmufile__numa_check: -EINVAL if bad). */
int pmufile_writer__numa(struct pmufile_writer *w, const struct pmufile_numa *n);
/* Flush, write the trailer (totals computed by the writer; end times from
 * the caller), fsync, close. 0 only if every byte reached the file. Frees w
 * in every case. */
int pmufile_writer__close(struct pmufile_writer *w, uint64_t end_realtime_ns,
			  uint64_t end_session_ns, char *err, size_t errlen);
/* Abandon: free without a trailer (the file is then detectably truncated). */
void pmufile_writer__abort(struct pmufile_writer *w);
/* Write buffered frames to the file now (e.g. once a second, so that a
 * killed recorder loses little). 0 or the sticky write error. */
int pmufile_writer__flush(struct pmufile_writer *w);
/* Skip the fsync in close (generators of scratch files; never pmuctl). */
void pmufile_writer__no_fsync(struct pmufile_writer *w);
/* The message describing the last failure of w ("" if none), for calls
 * that have no err buffer of their own. */
const char *pmufile_writer__error(const struct pmufile_writer *w);
/* Bytes written so far (for the live status line). */
uint64_t pmufile_writer__bytes(const struct pmufile_writer *w);

/* ---------------------------------------------------------------- */
/* Reader (pmuconv). Maps the file; metadata is parsed on open,      */
/* samples are iterated in place (no copy) for speed.                */
/* ---------------------------------------------------------------- */
#define PMUFILE_OPEN_SALVAGE (1u << 0) /* report what precedes damage */
/* Check every SAMPLES frame (CRC and records) during open, so damage is
 * reported before any record is used. Without it that happens lazily, in
 * the first pmufile__for_each_record() pass (one memory pass, not two). */
#define PMUFILE_OPEN_VERIFY (1u << 1)
/* Skip the payload CRC of SAMPLES frames (speed): records are still
 * bounds-checked, so a damaged file cannot cause out-of-bounds reads, but
 * flipped bits inside records go unnoticed. Metadata frames are always
 * CRC-checked. */
#define PMUFILE_OPEN_NO_CRC (1u << 2)
/* Read each SAMPLES frame's payload (pread, into one buffer the size of the
 * largest SAMPLES frame) instead of using it in place from the mapping:
 * faster for one pass over a large file, and resident memory stays small.
 * A record passed to pmufile__for_each_record's fn is then valid only until
 * fn returns. Checks and salvage behave exactly as without it; a failed
 * read (a file that shrank, an I/O error) fails the walk with its errno. */
#define PMUFILE_OPEN_STREAM (1u << 3)

struct pmufile {
	struct pmufile_header hdr;
	uint32_t version; /* format version found in the file */
	uint32_t nr_events;
	struct pmufile_event events[PMUPROF_MAX_EVENTS];
	size_t nr_processes;
	struct pmufile_process *processes;
	size_t nr_mmaps;
	struct pmufile_mmap *mmaps; /* sorted by (pid, start, time_ns) */
	const char *kallsyms;	    /* NUL-terminated, "" if none */
	size_t kallsyms_len;
	const uint8_t *vdso; /* the recorded [vdso] image (VDSO frame), NULL if none */
	size_t vdso_len;
	uint8_t kernel_build_id[20];
	uint32_t kernel_build_id_size;
	bool has_stats;
	struct pmuprof_stats stats;
	bool has_numa; /* a NUMA frame was read (the last one wins) */
	struct pmufile_numa numa;
	bool has_trailer; /* false: truncated (salvage mode only) */
	struct pmufile_trailer trailer;
	/* damage report (salvage mode): first bad offset, frames skipped */
	uint64_t damage_offset; /* 0 if none */
	uint64_t frames_skipped;
	char damage[256]; /* what was wrong, "" if none */
	/* Packed stack copies (version 2) the last walk could not rebuild
	 * (a reference missing or damaged): delivered with an empty copy
	 * (valid 0, PMUFILE_USTACK_UNRESOLVED); the first reason, with offset */
	uint64_t ucopy_unresolved;
	char ucopy_error[256];
	/* private */
	void *priv;
};

struct pmufile *pmufile__open(const char *path, unsigned int flags, char *err, size_t errlen);
void pmufile__close(struct pmufile *f); /* accepts NULL */

/* Call fn for every record of every SAMPLES frame, in file order; records
 * are used in place (valid until pmufile__close; with PMUFILE_OPEN_STREAM,
 * until fn returns). A non-zero return from fn stops the walk and is
 * returned. The first visit of a frame checks its payload CRC before any
 * of its records is delivered, and each record's size before it is
 * delivered: a damaged frame (or a record with an impossible size, which
 * ends the frame it is in) fails the walk with -EBADMSG and err naming the
 * offset, or with SALVAGE is skipped, noted in damage/damage_offset and
 * counted in frames_skipped. After the first complete pass the totals are
 * compared with the trailer (-EBADMSG, or a damage note with SALVAGE). */
typedef int (*pmufile_record_fn)(void *ctx, const struct pmuprof_record_header *rec);
int pmufile__for_each_record(struct pmufile *f, pmufile_record_fn fn, void *ctx, char *err,
			     size_t errlen);

/*
 * Packed stack copies (lib/pmufile/ucopy.c; format in lib/pmufile/format.h
 * and docs/FORMAT.md). A table holds each tid's latest copy, the reference
 * of its next one: the writer packs against it, the reader rebuilds from
 * it. Memory: one copy per tid seen (at most PMUPROF_USTACK_COPY_MAX each).
 * ucopy_pack: rec packed into out (room for rec->size bytes); returns the
 * packed size, or 0 when rec is stored as it is (not a sample with a copy,
 * or packing would not make it smaller); every copy becomes its tid's
 * reference either way. ucopy_unpack: rec (a packed sample) rebuilt as
 * read() returned it, into *out (held by t: valid until t's next call);
 * NULL, or why it could not be (then *out is the record with an empty
 * copy, valid 0 and PMUFILE_USTACK_UNRESOLVED, or NULL when the record's
 * fixed parts are themselves malformed or memory ran out). Memory: the
 * unpacker keeps a window of about 3 records per thread, where copies are
 * rebuilt in place (only their new bytes written). ucopy_note: make a copy that
 * is not packed its tid's reference (the reader, for plain records). */
struct pmufile_ucopy_tab;
struct pmufile_ucopy_tab *pmufile__ucopy_tab_new(void);
void pmufile__ucopy_tab_free(struct pmufile_ucopy_tab *t); /* accepts NULL */
void pmufile__ucopy_tab_reset(struct pmufile_ucopy_tab *t);
size_t pmufile__ucopy_pack(struct pmufile_ucopy_tab *t, const struct pmuprof_record_header *rec,
			   void *out);
const char *pmufile__ucopy_unpack(struct pmufile_ucopy_tab *t,
				  const struct pmuprof_record_header *rec,
				  const struct pmuprof_record_header **out);
void pmufile__ucopy_note(struct pmufile_ucopy_tab *t, const struct pmuprof_record_header *rec);
/* Does rec carry a packed stack copy? (a SAMPLE whose parts say so) */
bool pmufile__ucopy_is_packed(const struct pmuprof_record_header *rec);

/* Helpers for consumers: parse a sample's variable parts. Returns 0, or
 * -EBADMSG if sizes disagree with hdr.size. */
struct pmufile_sample_view {
	const struct pmuprof_sample *s;
	const struct pmuprof_sample_addr *addr; /* NULL if absent */
	const uint64_t *kstack;
	const uint64_t *ustack;
	/* PMUPROF_SF_USTACK_COPY: user regs + stack copy, else NULL; the
	 * copy's bytes are ucopy_stack[0, ucopy->valid) */
	const struct pmuprof_sample_ustack *ucopy;
	const uint8_t *ucopy_stack;
};
int pmufile__sample_view(const struct pmuprof_record_header *rec, struct pmufile_sample_view *v);
/* The same, inline, for loops that view every sample (pmuconv). */
static inline int pmufile__sample_view_inline(const struct pmuprof_record_header *rec,
					      struct pmufile_sample_view *v)
{
	const struct pmuprof_sample *s = (const struct pmuprof_sample *)rec;
	size_t need = sizeof(*s);
	const uint8_t *p;

	if (rec->type != PMUPROF_REC_SAMPLE || rec->size < sizeof(*s))
		return -EBADMSG;
	if (s->sample_flags & PMUPROF_SF_ADDR)
		need += sizeof(struct pmuprof_sample_addr);
	need += ((size_t)s->nr_kstack + s->nr_ustack) * sizeof(uint64_t);
	v->ucopy = NULL;
	v->ucopy_stack = NULL;
	if (s->sample_flags & PMUPROF_SF_USTACK_COPY) {
		const struct pmuprof_sample_ustack *u;

		if (need + sizeof(*u) > rec->size)
			return -EBADMSG;
		u = (const struct pmuprof_sample_ustack *)((const uint8_t *)rec + need);
		if (u->size % 8 || u->size > PMUPROF_USTACK_COPY_MAX || u->valid > u->size)
			return -EBADMSG;
		need += sizeof(*u) + u->size;
		v->ucopy = u;
		v->ucopy_stack = (const uint8_t *)(u + 1);
	}
	if (need != rec->size)
		return -EBADMSG;
	p = (const uint8_t *)(s + 1);
	v->s = s;
	v->addr = NULL;
	if (s->sample_flags & PMUPROF_SF_ADDR) {
		v->addr = (const struct pmuprof_sample_addr *)p;
		p += sizeof(struct pmuprof_sample_addr);
	}
	v->kstack = (const uint64_t *)p;
	v->ustack = v->kstack + s->nr_kstack;
	return 0;
}

/* Index in f->mmaps (sorted by pid, start, time) of pid's first mapping:
 * f->nr_mmaps or another pid's when pid has none. */
static inline size_t pmufile__first_mmap(const struct pmufile *f, int32_t pid)
{
	return PMUFILE_PARTITION(f->nr_mmaps, i, f->mmaps[i].pid < pid);
}
/* The mapping of pid covering addr at time t (latest captured at or
 * before t, else the earliest after), or NULL. */
const struct pmufile_mmap *pmufile__find_mmap(const struct pmufile *f, int32_t pid, uint64_t addr,
					      uint64_t t);
const struct pmufile_process *pmufile__find_process(const struct pmufile *f, int32_t pid);
const struct pmufile_event *pmufile__event(const struct pmufile *f, uint32_t index);
/* "PATH: no event named 'NAME' (events: A B ...)" into err, for a filter
 * naming an event the recording does not have (every reader says it alike). */
/* NUMA layout helpers (lib/pmufile/numa.c). check: NULL if n is a valid
 * layout (limits above, ranges sorted and disjoint with start < end, every
 * node named in nodes[], nodes ascending, cpu_node[] -1 or a node), else
 * what is wrong. node_of: the node owning physical address phys, -1 when no
 * range covers it (binary search). cpu_node: -1 for CPUs beyond the map.
 * node_bytes: the memory of one node (sum of its ranges). free: the arrays
 * (accepts a zeroed struct). */
const char *pmufile__numa_check(const struct pmufile_numa *n);
int pmufile__numa_node_of(const struct pmufile_numa *n, uint64_t phys);
int pmufile__numa_cpu_node(const struct pmufile_numa *n, uint32_t cpu);
uint64_t pmufile__numa_node_bytes(const struct pmufile_numa *n, int32_t node);
/* The CPUs of node as a list, "0-3,8" ("none" if it has none), into buf. */
void pmufile__numa_cpulist(const struct pmufile_numa *n, int32_t node, char *buf, size_t len);
void pmufile__numa_free(struct pmufile_numa *n);

void pmufile__no_event_error(const struct pmufile *f, const char *path, const char *name, char *err,
			     size_t errlen);

/* A recording's duration, one definition for every tool (docs/FORMAT.md,
 * "Duration"): the module's session time from START to STOP (GET_STATS
 * stop_ns - start_ns); 0 if st is NULL or has no such times. */
uint64_t pmufile__session_duration_ns(const struct pmuprof_stats *st);
/* The same from a file's STATS frame; without one (a file cut short), the
 * trailer's end_session_ns - the header's start_session_ns. false (and *ns
 * 0) when neither is known. */
bool pmufile__duration_ns(const struct pmufile *f, uint64_t *ns);

#endif /* PMUFILE_H */
