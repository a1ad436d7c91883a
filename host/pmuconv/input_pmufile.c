// SPDX-License-Identifier: MIT
/*
 * Native pmuprof data files, through lib/pmufile.
 *
 * Two phases, so that cost per sample stays tiny and symbolization cost
 * grows with unique addresses:
 *  1. walk every record where the reader has it (PMUFILE_OPEN_STREAM: in a
 *     frame-sized buffer, valid during the callback); for each kept sample
 *     hash (event, pid, comm, mode, raw kernel+user addresses) into a table
 *     of unique raw stacks and add samples/weight. No allocation per sample,
 *     only per new unique stack, and nothing points into the records after
 *     the callback returns.
 *  2. symbolize each unique raw stack: every distinct (pid, address) is
 *     resolved once through a cache (recorded maps -> binary + file offset
 *     -> ELF symbol; kernel via kallsyms/vmlinux), then the symbolic stack is
 *     emitted as one stream sample carrying its count (the profile builder
 *     merges raw stacks that resolve to the same functions).
 *
 * When a consumer wants per-sample ids (pprof's labels), the thread and CPU
 * join the raw key, and frames carry their address and recorded mapping.
 *
 * The raw stack keeps the time of its first sample for the maps lookup: a
 * process that exec()s during the recording and reuses an identical raw
 * stack under the new image is attributed to the first image (rare; the
 * addresses would have to coincide exactly).
 */
#include "inputs.h"
#include "filterspec.h"
#include "lib/pmufile/pmufile.h"
#include "nodemap.h"
#include "psnames.h"
#include "srcinline.h"
#include "textparse.h"
#include "unwind.h"
#include "where.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#define KMODE	     1u	  /* raw key flag: sample interrupted kernel mode */
#define UNWOUND	     2u	  /* raw key flag: user frames from the DWARF unwinder */
#define UNW_MAX_USER 1024 /* user frames kept from an unwind */
_Static_assert(UNW__NR == PC_ARRAY_SIZE(((struct pc_accounting *)0)->unwind),
	       "pc_accounting.unwind counts enum unw_outcome");

/* A unique raw stack: this header, then nk + nu addresses, stored inline
 * in one arena (l->raw) so a lookup touches one contiguous run of memory.
 * The key is kept as words, compared (and hashed) a word at a time:
 *   key[0] = pid (low 32 bits) | event << 32 | flags << 48
 *   key[1] = nk | nu << 16
 *   key[2..3] = comm (16 bytes, as in the record)
 * parts: when a consumer wants the address part, the list of its samples'
 * (IP, address status, pages) tallies, as struct addr_part index + 1. */
struct raw_ent {
	uint64_t hash;
	uint64_t samples, weight;
	uint64_t time; /* first sample's, for the maps lookup */
	uint64_t parts;
	uint64_t ids; /* tid | cpu << 32 when the loader wants ids, else 0 */
	uint64_t key[PC_STACK_KEY_WORDS];
	uint64_t addrs[]; /* kstack then ustack, innermost first */
};
_Static_assert(sizeof(struct raw_ent) % sizeof(uint64_t) == 0, "raw_ent is 8-byte units");
#define RAW_HDR_WORDS (sizeof(struct raw_ent) / sizeof(uint64_t))

static inline int32_t raw_pid(const struct raw_ent *e)
{
	return (int32_t)(uint32_t)e->key[0];
}
static inline uint16_t raw_event(const struct raw_ent *e)
{
	return (uint16_t)(e->key[0] >> 32);
}
static inline uint32_t raw_nk(const struct raw_ent *e)
{
	return (uint16_t)e->key[1];
}
static inline uint32_t raw_nu(const struct raw_ent *e)
{
	return (uint16_t)(e->key[1] >> 16);
}
/* One (raw stack, IP, status, code page, data page, data node) tally; pages =
 * status | code page << 8 | data page << 16 (enum ps_page, PS_NONE: no data
 * access) | data node << 24 (its index in the node map + 1, or without a map
 * the module's node + 1; 0 unknown, and nodes past the 255th of a map are
 * unknown here). */
struct addr_part {
	uint64_t raw, ip, samples, weight;
	uint32_t pages, next; /* next part of the same raw stack, index + 1 */
};
static inline size_t raw_words(const struct raw_ent *e)
{
	return RAW_HDR_WORDS + raw_nk(e) + raw_nu(e);
}

struct addr_ent {
	int32_t pid; /* -1 kernel */
	uint32_t adj;
	uint64_t addr;
	const char *name;
	int kind;
	bool junk;	  /* a return address outside executable mappings */
	const char *path; /* the user mapping's path, or NULL */
	const struct pc_map *map;
	/* DWARF debug info: the functions inlined at addr, innermost first,
	 * and the position of the function's definition */
	const struct inl_frame *inl;
	uint32_t nr_inl;
	const char *src;
};

/* Binaries whose frames were followed by junk return addresses, for the
 * frame-pointer warning (a handful is enough to name the culprits). */
#define JUNK_BINS 4
struct junk_bin {
	const char *path;
	uint64_t samples;
};

/* One sample's data access, kept from phase 1 for the access consumers
 * (attributed to a recorded mapping once all MMAP frames are read). */
struct access_ent {
	uint64_t addr, time, weight;
	int32_t pid;
	uint16_t event; /* file event index */
	uint8_t kmode, page;
};

struct loader {
	const char *path; /* for messages */
	struct pc_set *set;
	const struct pc_filter *flt;
	const struct pc_stream *out;
	struct pmufile *f;
	struct symbolizer *sym;
	/* --call-graph dwarf: the unwinder (NULL: copies are not used) and
	 * the kernel frames + unwound user frames of the current sample */
	struct unwinder *unw;
	uint64_t *ubuf;
	struct srcinline *inl;			/* inline frames (NULL: --no-inline) */
	struct pc_agg *agg[PMUPROF_MAX_EVENTS]; /* by event index; NULL = not wanted */
	bool want_addr;		 /* a consumer reads the address part: keep it in the raw key */
	bool want_ids;		 /* a consumer reads tid/cpu: keep them in the raw key */
	struct pc_nodemap nodes; /* the recorded NUMA node map (nodemap.h) */
	struct pc_map *maps;	 /* one per f->mmaps entry, same index */
	struct pc_map kmap;	 /* the kernel */
	/* raw stacks: entries in an arena of u64 words, indexed by offset */
	pc_stack_hash_fn hash;
	uint64_t *raw;
	size_t raw_nr, raw_cap;
	struct pc_htab raw_index; /* hash -> arena offset (u64 units) */
	/* address cache */
	struct addr_ent *cache;
	size_t cache_nr, cache_cap;
	struct pc_htab cache_index; /* hash -> cache entry */
	struct addr_part *parts;
	size_t nr_parts, cap_parts;
	struct pc_htab part_index;	/* hash -> part */
	struct pc_addr_part *out_parts; /* phase 2: one raw stack's parts, for the stream */
	/* user stacks whose walk left the code: no frame pointers somewhere */
	uint64_t ustack_samples, junk_samples, junk_other;
	struct junk_bin junk_bins[JUNK_BINS];
	struct access_ent *acc; /* data accesses, when a consumer wants them */
	size_t nr_acc, cap_acc;
	/* accounting */
	struct pmufile_counts n; /* every record (lib/pmufile/record.c) */
	uint64_t samples, bad;	 /* samples kept / with inconsistent sizes */
	uint64_t tmin, tmax;
	struct pc_progress prog;
	bool filter_samples; /* --pid, --comm or --cpu given */
	bool weight_period;
	int err;
};

static inline struct raw_ent *raw_at(const struct loader *l, uint64_t off)
{
	return (struct raw_ent *)(l->raw + off);
}

static uint64_t raw_hash(const void *l, uint32_t off)
{
	return raw_at(l, off)->hash;
}

static uint64_t part_hash(const void *l, uint32_t i)
{
	const struct addr_part *p = &((const struct loader *)l)->parts[i];

	return pc_fmix(pc_mix(pc_mix(p->raw, p->ip), p->pages));
}

/* Count one sample's address part against its raw stack (arena offset raw):
 * the new part is built at the end of l->parts and kept if it is new. */
static int part_add(struct loader *l, uint64_t raw, uint64_t ip, uint32_t pages, uint64_t w)
{
	struct pc_htab *t = &l->part_index;
	struct addr_part *p;
	size_t j;

	if (pc_htab__reserve(t, 4096, part_hash, l) ||
	    pc_grow((void **)&l->parts, &l->cap_parts, l->nr_parts + 1, sizeof(*l->parts)))
		return -ENOMEM;
	p = &l->parts[l->nr_parts];
	*p = (struct addr_part){raw, ip, 0, 0, pages, (uint32_t)raw_at(l, raw)->parts};
	for (j = pc_htab__slot(t, part_hash(l, (uint32_t)l->nr_parts)); t->slots[j];
	     j = pc_htab__next(t, j)) {
		struct addr_part *q = &l->parts[t->slots[j] - 1];
		if (q->raw == raw && q->ip == ip && q->pages == pages) {
			p = q;
			break;
		}
	}
	if (!t->slots[j]) {
		raw_at(l, raw)->parts = l->nr_parts + 1;
		pc_htab__set(t, j, (uint32_t)l->nr_parts++);
	}
	p->samples++;
	p->weight += w;
	return 0;
}

/* The hot path: one hash over the key and stack words, one compare on a
 * hit. Kernel and user frames are contiguous in the record (u == k + nk),
 * so both are hashed and compared as one array. */
/* Returns the raw stack's arena offset, or a negative errno. */
static int64_t raw_add(struct loader *l, const struct pmuprof_sample *s, uint8_t flags,
		       const uint64_t *k, uint16_t nk, uint16_t nu, uint64_t w)
{
	uint64_t key[PC_STACK_KEY_WORDS], h, ids = 0;
	size_t j, n = (size_t)nk + nu;
	struct pc_htab *t = &l->raw_index;

	key[0] = (uint64_t)s->pid | (uint64_t)s->event << 32 | (uint64_t)flags << 48;
	key[1] = (uint64_t)nk | (uint64_t)nu << 16;
	memcpy(&key[2], s->comm, 16);
	h = l->hash(key, k, n);
	if (l->want_ids) {
		ids = (uint64_t)s->tid | (uint64_t)s->cpu << 32;
		h = pc_fmix(pc_mix(h, ids));
	}

	for (j = pc_htab__slot(t, h); t->slots[j]; j = pc_htab__next(t, j)) {
		struct raw_ent *e = raw_at(l, t->slots[j] - 1);
		if (e->hash == h && e->key[0] == key[0] && e->key[1] == key[1] &&
		    e->key[2] == key[2] && e->key[3] == key[3] && e->ids == ids &&
		    (!n || !memcmp(e->addrs, k, n * sizeof(*k)))) {
			e->samples++;
			e->weight += w;
			return t->slots[j] - 1;
		}
	}
	if (pc_htab__reserve(t, 4096, raw_hash, l)) /* new stack: j is stale if it grew */
		return -ENOMEM;
	for (j = pc_htab__slot(t, h); t->slots[j]; j = pc_htab__next(t, j))
		;
	if (pc_grow((void **)&l->raw, &l->raw_cap, l->raw_nr + RAW_HDR_WORDS + n, sizeof(*l->raw)))
		return -ENOMEM;
	struct raw_ent *e = raw_at(l, l->raw_nr);
	e->hash = h;
	memcpy(e->key, key, sizeof(key));
	e->time = s->time_ns;
	e->parts = 0;
	e->ids = ids;
	e->samples = 1;
	e->weight = w;
	if (n)
		memcpy(e->addrs, k, n * sizeof(*k));
	pc_htab__set(t, j, (uint32_t)l->raw_nr);
	l->raw_nr += RAW_HDR_WORDS + n;
	return (int64_t)(l->raw_nr - RAW_HDR_WORDS - n);
}

/* --dso/--symbol: the sampled IP (the interrupted one; else the innermost
 * frame) against the filter (resolved here, uncached: only with these). */
static bool leaf_matches(struct loader *l, const struct pmufile_sample_view *v)
{
	const struct pmuprof_sample *s = v->s;
	bool kern = s->hdr.misc & PMUPROF_MISC_KERNEL;
	uint64_t ip = s->ip		      ? s->ip
		      : kern && s->nr_kstack  ? v->kstack[0]
		      : !kern && s->nr_ustack ? v->ustack[0]
					      : 0;
	struct pc_where w =
		pc_where__resolve(l->sym, l->f, (int32_t)s->pid, ip, kern, 0, s->time_ns);

	return pc_where__match(l->flt, &w);
}

static int on_sample(struct loader *l, const struct pmuprof_record_header *rec)
{
	struct pmufile_sample_view v;

	if (pmufile__sample_view_inline(rec, &v)) {
		if (l->bad++ == 0)
			pc_set__skip(l->set,
				     "sample record %llu: sizes disagree with its "
				     "header (size %u)",
				     (unsigned long long)l->n.records, rec->size);
		else
			l->set->acct.skipped++;
		return 0;
	}
	const struct pmuprof_sample *s = v.s;
	l->samples++;
	if (s->time_ns < l->tmin)
		l->tmin = s->time_ns;
	if (s->time_ns > l->tmax)
		l->tmax = s->time_ns;
	struct pc_agg *a = s->event < PMUPROF_MAX_EVENTS ? l->agg[s->event] : NULL;
	if (!a) {
		if (s->event >= l->f->nr_events && s->event >= PMUPROF_MAX_EVENTS)
			pc_set__skip(l->set,
				     "sample with event index %u beyond the "
				     "file's %u events",
				     s->event, l->f->nr_events);
		return 0;
	}
	a->acct.samples++;
	if (s->source < PC_NR_SOURCES)
		a->acct.by_source[s->source]++;
	if (l->filter_samples) {
		const struct pc_filter *f = l->flt;
		if ((f->has_pid && (int32_t)s->pid != f->pid) ||
		    (f->comm && strncmp(f->comm, s->comm, sizeof(s->comm))) ||
		    (f->has_cpu && !pc_cpuset__has(&f->cpus, s->cpu)) ||
		    (f->has_time && (s->time_ns < f->time_start || s->time_ns > f->time_end)) ||
		    ((f->dso || f->symbol) && !leaf_matches(l, &v))) {
			l->set->acct.filtered++;
			return 0;
		}
	}
	uint64_t w = l->weight_period ? s->period : 1;
	if (s->cpu < a->nr_cpus) { /* the common case of pc_agg__add_cpu, inline */
		a->cpus[s->cpu].samples++;
		a->cpus[s->cpu].weight += w;
	} else if (pc_agg__add_cpu(a, s->cpu, 1, w) == -ENOMEM) {
		return -ENOMEM;
	}
	uint8_t flags = (s->hdr.misc & PMUPROF_MISC_KERNEL) ? KMODE : 0;
	const uint64_t *k = v.kstack;
	uint16_t nk = s->nr_kstack, nu = s->nr_ustack;
	if (v.ucopy && l->unw) {
		/* kernel frames, then the unwound user frames replace the FP walk */
		enum unw_outcome oc;
		memcpy(l->ubuf, v.kstack, nk * sizeof(*k));
		nu = (uint16_t)unw__sample(l->unw, &v, l->ubuf + nk, UNW_MAX_USER, &oc);
		l->set->acct.unwind[oc]++;
		k = l->ubuf;
		if (oc != UNW_FP)
			flags |= UNWOUND;
	} else if (v.ucopy) {
		l->set->acct.unwind_ignored = true;
	}
	/* no stacks recorded: the interrupted IP is the only frame */
	if (!nk && !nu && s->ip) {
		k = (const uint64_t *)&s->ip;
		if (flags & KMODE)
			nk = 1;
		else
			nu = 1;
	}
	int64_t raw = raw_add(l, s, flags, k, nk, nu, w);
	const struct pmuprof_sample_addr *ad = v.addr;
	if (raw < 0 || !l->want_addr || !ad)
		return raw < 0 ? (int)raw : 0;
	uint32_t dp = ad->addr_status == PMUPROF_ADDR_OK && ad->data_addr
			      ? ps_page_of_record(ad->data_page)
			      : PS_NONE;
	if (dp != PS_NONE && l->out->wants_access) {
		if (pc_grow((void **)&l->acc, &l->cap_acc, l->nr_acc + 1, sizeof(*l->acc)))
			return -ENOMEM;
		l->acc[l->nr_acc++] = (struct access_ent){
			ad->data_addr,	    s->time_ns,	   w,	       (int32_t)s->pid,
			(uint16_t)s->event, flags & KMODE, (uint8_t)dp};
	}
	uint32_t node = 0;
	if (dp != PS_NONE && l->nodes.numa) {
		int idx = pc_nodemap__node_index(
			&l->nodes,
			pc_nodemap__data_node(&l->nodes, ad->data_phys, ad->data_node1, NULL));
		node = idx >= 0 && idx < 255 ? (uint32_t)idx + 1 : 0;
	} else if (dp != PS_NONE) { /* no map: the module's node itself */
		node = ad->data_node1;
	}
	return part_add(l, (uint64_t)raw, s->ip,
			(ad->addr_status < 8 ? ad->addr_status : 7) |
				ps_page_of_record(ad->code_page) << 8 | dp << 16 | node << 24,
			w);
}

/* Every record the reader passed (pmufile__check_record: its size covers
 * its type's fixed part), counted once by pmufile__count_record. */
static int on_record(void *ctx, const struct pmuprof_record_header *rec)
{
	struct loader *l = ctx;
	const struct pmuprof_throttle *t = (const void *)rec;
	struct pc_agg *a;

	pmufile__count_record(&l->n, rec);
	if ((l->n.records & 0xfffff) == 0)
		pc_progress__update(&l->prog, l->n.records, l->samples);
	if (rec->type == PMUPROF_REC_SAMPLE)
		return on_sample(l, rec);
	/* LOST is counted; unknown record types are skipped by size (ABI rule) */
	if (rec->type != PMUPROF_REC_THROTTLE && rec->type != PMUPROF_REC_UNTHROTTLE &&
	    rec->type != PMUPROF_REC_PERIOD)
		return 0;
	if (!(a = t->event < PMUPROF_MAX_EVENTS ? l->agg[t->event] : NULL))
		return 0;
	if (rec->type == PMUPROF_REC_THROTTLE) {
		a->acct.throttled++;
	} else if (rec->type == PMUPROF_REC_UNTHROTTLE) {
		a->acct.unthrottled++;
	} else {
		a->acct.period_changes++;
		a->prof.freq_mode = 1;
	}
	return 0;
}

/* ---- phase 2: symbolization ------------------------------------------ */

static uint64_t addr_hash(int32_t pid, uint64_t addr, uint32_t adj)
{
	return pc_fmix(
		pc_mix(pc_mix(PC_HASH_SEED, (uint64_t)(uint32_t)pid | (uint64_t)adj << 32), addr));
}

static uint64_t cache_hash(const void *l, uint32_t i)
{
	const struct addr_ent *e = &((const struct loader *)l)->cache[i];

	return addr_hash(e->pid, e->addr, e->adj);
}

/* Resolve (pid, addr) once. adj: a return address; look up addr - 1 so a
 * call that ends its function is attributed to the caller. */
static const struct addr_ent *resolve(struct loader *l, int32_t pid, uint64_t addr, int kernel,
				      uint32_t adj, uint64_t t)
{
	int32_t key = kernel ? -1 : pid;
	struct pc_htab *ci = &l->cache_index;
	struct addr_ent *e;
	size_t j;

	if (pc_htab__reserve(ci, 4096, cache_hash, l))
		return NULL;
	for (j = pc_htab__slot(ci, addr_hash(key, addr, adj)); ci->slots[j];
	     j = pc_htab__next(ci, j)) {
		e = &l->cache[ci->slots[j] - 1];
		if (e->pid == key && e->addr == addr && e->adj == adj)
			return e;
	}
	uint64_t a = addr - adj;
	struct sym_result r;
	const struct pmufile_mmap *m = NULL;
	const struct pc_map *map = NULL;
	const struct inl_frame *inl = NULL;
	const char *src = NULL;
	uint32_t nr_inl = 0;
	if (pc_grow((void **)&l->cache, &l->cache_cap, l->cache_nr + 1, sizeof(*l->cache)))
		return NULL;
	if (kernel) {
		r = sym__kernel(l->sym, a);
		map = &l->kmap;
	} else {
		m = pmufile__find_mmap(l->f, pid, a, t);
		if (m) {
			size_t bl = m->build_id_size <= 20 ? m->build_id_size : 20;
			uint64_t off = a + adj - m->start + m->pgoff;
			r = sym__user(l->sym, m->path, m->build_id, bl, off, adj);
			map = &l->maps[m - l->f->mmaps];
			const char *vn = NULL;
			if (l->unw && r.kind != PC_FRAME_USER && !strcmp(m->path, "[vdso]") &&
			    (vn = unw__vdso_symbol(l->unw, pid, t, a)))
				r = (struct sym_result){vn, PC_FRAME_USER};
			if (l->inl && r.kind == PC_FRAME_USER)
				nr_inl = inl__lookup(l->inl, m->path, m->build_id, bl, off, adj,
						     &inl, &src);
		} else {
			r = (struct sym_result){"[unknown]", PC_FRAME_UNKNOWN};
		}
	}
	e = &l->cache[l->cache_nr];
	*e = (struct addr_ent){.pid = key,
			       .adj = adj,
			       .addr = addr,
			       .name = r.name,
			       .kind = r.kind,
			       /* a caller must be in code: [stack], [heap], data
				* or nothing means the walk read a non-frame */
			       .junk = !kernel && adj && (!m || !(m->prot & PROT_EXEC)),
			       .path = m && m->path[0] ? m->path : NULL,
			       .map = map,
			       .inl = inl,
			       .nr_inl = nr_inl,
			       .src = src};
	pc_htab__set(ci, j, (uint32_t)l->cache_nr++);
	return e;
}

/* A user stack walked into a junk return address right after a frame of
 * `path` (NULL: unknown): count its samples against that binary. */
static void junk_note(struct loader *l, const char *path, uint64_t samples)
{
	l->junk_samples += samples;
	for (size_t i = 0; path && i < JUNK_BINS; i++) {
		struct junk_bin *b = &l->junk_bins[i];
		if (!b->path)
			b->path = path;
		if (!strcmp(b->path, path)) {
			b->samples += samples;
			return;
		}
	}
	l->junk_other += samples;
}

static int cmp_junk_bin(const void *pa, const void *pb)
{
	const struct junk_bin *a = pa, *b = pb;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return a->path && b->path ? strcmp(a->path, b->path) : !a->path - !b->path;
}

/* Frame-pointer walks through code built without frame pointers read a
 * saved register or stack data as the caller's frame, so the "return
 * address" lands in [stack], [heap], a data mapping or nowhere. Say so when
 * it is not a rare accident (1 % of the multi-frame user stacks). */
static void junk_warn(struct loader *l, const char *path)
{
	char bins[1024] = "";

	if (!l->junk_samples || l->junk_samples * 100 < l->ustack_samples)
		return;
	qsort(l->junk_bins, JUNK_BINS, sizeof(l->junk_bins[0]), cmp_junk_bin);
	for (size_t i = 0; i < JUNK_BINS && l->junk_bins[i].path; i++) {
		size_t n = strlen(bins);
		snprintf(bins + n, sizeof(bins) - n, "%s%s (%llu)", n ? ", " : "",
			 l->junk_bins[i].path, (unsigned long long)l->junk_bins[i].samples);
	}
	pc_warn("%s: %llu of %llu user call chains (%.1f%%) run into return addresses outside "
		"any code mapping ([stack], [heap], data or unmapped): the frame-pointer walk "
		"(-g) went through code built without frame pointers, and the callers above "
		"that point are junk. Last good frame in: %s. Rebuild it with "
		"-fno-omit-frame-pointer, or record with --call-graph dwarf",
		path, (unsigned long long)l->junk_samples, (unsigned long long)l->ustack_samples,
		100.0 * (double)l->junk_samples / (double)l->ustack_samples,
		bins[0] ? bins : "unknown binaries");
}

/* Phase 2: every unique raw stack, symbolized, as one sample of the stream
 * (samples/weight: all the samples it stands for). */
static int emit_all(struct loader *l)
{
	struct pc_frame *fr = malloc(PC_MAX_FRAMES * sizeof(*fr));
	int r = 0;

	/* a raw stack's parts, for the stream (all of them at most) */
	l->out_parts = malloc((l->nr_parts ? l->nr_parts : 1) * sizeof(*l->out_parts));
	if (!fr || !l->out_parts) {
		free(fr);
		return -ENOMEM;
	}
	for (size_t off = 0; off < l->raw_nr && !r;) {
		const struct raw_ent *e = raw_at(l, off);
		off += raw_words(e);
		const uint32_t nk = raw_nk(e), nu = raw_nu(e);
		const int32_t pid = raw_pid(e);
		const uint64_t *k = e->addrs;
		char comm[16];
		memcpy(comm, &e->key[2], sizeof(comm));
		struct pc_sample s = {.samples = e->samples, .weight = e->weight, .frames = fr};
		s.event = l->agg[raw_event(e)]->index;
		s.comm = comm;
		s.comm_len = (uint32_t)strnlen(comm, sizeof(comm));
		s.kernel_mode = (e->key[0] >> 48) & KMODE;
		const struct addr_ent *prev = NULL;
		/* the junk-caller warning is about frame-pointer walks only */
		bool junk = (e->key[0] >> 48) & UNWOUND;
		s.has_ids = l->want_ids;
		s.pid = pid;
		s.tid = (uint32_t)e->ids;
		s.cpu = (uint32_t)(e->ids >> 32);
		for (uint32_t x = 0; x < nk + nu && s.nr < PC_MAX_FRAMES; x++) {
			if (x >= nk && k[x] == UNW_TRUNCATED_ADDR) { /* an unwind stopped here */
				fr[s.nr++] = (struct pc_frame){
					.name = "[truncated]", .len = 11, .kind = PC_FRAME_UNKNOWN};
				continue;
			}
			/* a user address in the kernel half is bogus (fault mid-walk) */
			int kern = x < nk || k[x] >= KERNEL_ADDR_MIN;
			const struct addr_ent *ae =
				resolve(l, pid, k[x], kern, x != 0 && x != nk, e->time);
			if (!ae) {
				r = -ENOMEM;
				break;
			}
			if ((ae->junk || (x > nk && k[x] >= KERNEL_ADDR_MIN)) && !junk) {
				junk = true;
				junk_note(l, prev && prev->path ? prev->path : NULL, e->samples);
			}
			if (!kern)
				prev = ae;
			/* functions inlined at this address: frames of their
			 * own, innermost first, at the same address */
			for (uint32_t i = 0; i < ae->nr_inl && s.nr < PC_MAX_FRAMES - 1; i++)
				fr[s.nr++] =
					(struct pc_frame){.name = ae->inl[i].name,
							  .len = (uint32_t)strlen(ae->inl[i].name),
							  .kind = PC_FRAME_USER,
							  .addr = k[x],
							  .map = ae->map,
							  .src = ae->inl[i].src};
			fr[s.nr++] = (struct pc_frame){.name = ae->name,
						       .len = (uint32_t)strlen(ae->name),
						       .kind = (uint8_t)ae->kind,
						       .kernel = (uint8_t)kern,
						       .addr = k[x],
						       .map = ae->map,
						       .src = ae->src};
		}
		for (uint32_t i = e->parts; !r && i; i = l->parts[i - 1].next) {
			const struct addr_part *p = &l->parts[i - 1];
			struct pc_addr_part *o = &l->out_parts[s.nr_addr++];
			*o = (struct pc_addr_part){.samples = p->samples, .weight = p->weight};
			o->status = (uint8_t)p->pages;
			o->code_page = (uint8_t)(p->pages >> 8);
			o->data_page = (uint8_t)(p->pages >> 16);
			if (p->pages >> 24 && l->nodes.numa)
				o->data_node1 =
					(uint16_t)(pc_nodemap__node_id(&l->nodes,
								       (p->pages >> 24) - 1) +
						   1);
			else
				o->data_node1 = (uint16_t)(p->pages >> 24);
			const struct addr_ent *ae =
				o->data_page == PS_NONE
					? NULL
					: resolve(l, pid, p->ip, s.kernel_mode, 0, e->time);
			o->ip_name = ae ? ae->name : "[unknown]";
		}
		s.addr = l->out_parts;
		if (nu > 1 && !((e->key[0] >> 48) & UNWOUND))
			l->ustack_samples += e->samples;
		if (!r)
			r = pc_stream__emit(l->out, &s);
	}
	free(fr);
	return r;
}

/* The data accesses, each with the recorded mapping that covered its
 * address at its time (pmufile__find_mmap: the latest snapshot at or before
 * the sample, else the earliest after it; so a pid that exec()s gets the
 * maps of the image it ran then). Kernel addresses have no mapping. */
static int emit_accesses(struct loader *l)
{
	int r = 0;

	for (size_t i = 0; i < l->nr_acc && !r; i++) {
		const struct access_ent *e = &l->acc[i];
		const struct pmufile_mmap *m =
			e->addr >= KERNEL_ADDR_MIN
				? NULL
				: pmufile__find_mmap(l->f, e->pid, e->addr, e->time);
		struct pc_mapping pm;
		struct pc_access a = {.event = l->agg[e->event]->index,
				      .pid = e->pid,
				      .kernel_mode = e->kmode,
				      .page = e->page,
				      .addr = e->addr,
				      .weight = e->weight};
		if (m) {
			pm = (struct pc_mapping){m->pid, m->prot,  m->start,
						 m->end, m->pgoff, m->path};
			a.map = &pm;
		}
		r = pc_stream__emit_access(l->out, &a);
	}
	return r;
}

static const char *default_unit(uint32_t source)
{
	return source == PMUPROF_SOURCE_NMI_IPI || source == PMUPROF_SOURCE_TIMER ? "ns" : "events";
}

/* What the file's header says, into the accounting; its NUMA node map. */
static void take_header(struct loader *l)
{
	struct pc_accounting *ac = &l->set->acct;
	const struct pmufile *f = l->f;

	pc_nodemap__init(&l->nodes, f->has_numa ? &f->numa : NULL);
	ac->format = "pmuprof";
	ac->version = f->version;
	snprintf(ac->source, sizeof(ac->source), "%s", l->path);
	snprintf(ac->hostname, sizeof(ac->hostname), "%s", f->hdr.hostname);
	snprintf(ac->kernel, sizeof(ac->kernel), "%s", f->hdr.kernel_release);
	snprintf(ac->cpu_model, sizeof(ac->cpu_model), "%s", f->hdr.cpu_model_name);
	ac->cpu_vendor = f->hdr.cpu_vendor;
	ac->cpu_family = f->hdr.cpu_family;
	snprintf(ac->cmdline, sizeof(ac->cmdline), "%.511s", f->hdr.cmdline);
	l->set->has_cpu = true;
	l->set->has_process = !l->flt->no_process;
	ac->has_pages = true;
	ac->has_data_addr = f->hdr.config_flags & PMUPROF_CF_DATA_ADDR;
	ac->has_code_page = f->hdr.config_flags & PMUPROF_CF_CODE_PAGE;
}

/* The file's events (those -e keeps) as the set's aggregates, by index. */
static int take_events(struct loader *l, char *err, size_t errlen)
{
	const struct pc_filter *flt = l->flt;
	const struct pmufile *f = l->f;
	bool any = false;

	for (uint32_t i = 0; i < f->nr_events && i < PMUPROF_MAX_EVENTS; i++) {
		const struct pmufile_event *ev = &f->events[i];
		char name[128];
		snprintf(name, sizeof(name), "%s", ev->name[0] ? ev->name : "event");
		if (!pc_event__wanted(f, ev, flt->event))
			continue;
		if (pc_set__find(l->set, name)) /* same name twice: keep them apart */
			snprintf(name, sizeof(name), "%.100s#%u", ev->name, ev->index);
		struct pc_agg *a = pc_set__event(l->set, name);
		if (!a)
			return -ENOMEM;
		if (ev->index >= PMUPROF_MAX_EVENTS) {
			snprintf(err, errlen, "%s: event '%s' has index %u (max %d)", l->path, name,
				 ev->index, PMUPROF_MAX_EVENTS - 1);
			return -EBADMSG;
		}
		l->agg[ev->index] = a;
		any = true;
		a->acct.source = ev->source;
		a->acct.config = ev->config;
		snprintf(a->acct.resolved, sizeof(a->acct.resolved), "%s", ev->resolved);
		a->acct.weight_is_period = flt->weight == PC_WEIGHT_PERIOD;
		snprintf(a->prof.unit, sizeof(a->prof.unit), "%s",
			 !a->acct.weight_is_period ? "samples"
			 : ev->unit[0]		   ? ev->unit
						   : default_unit(ev->source));
		if (ev->flags & PMUPROF_EVF_FREQ)
			a->prof.freq_mode = 1;
		else
			a->prof.period = ev->period;
		if (f->has_trailer && ev->index < PMUPROF_MAX_EVENTS)
			a->acct.lost = f->trailer.event_lost[ev->index];
		else if (f->has_stats)
			a->acct.lost = f->stats.event_lost[ev->index];
	}
	if (flt->event && !any) {
		pmufile__no_event_error(f, l->path, flt->event, err, errlen);
		return -ENOENT;
	}
	return 0;
}

/* What phase 2 resolves addresses against, from the file: the recorded
 * mappings (as the stream shows them to consumers), the kernel's symbols
 * and, unless -g fp, the DWARF unwinder of the stack copies. */
static int take_maps(struct loader *l)
{
	const struct pmufile *f = l->f;

	l->maps = calloc(f->nr_mmaps ? f->nr_mmaps : 1, sizeof(*l->maps));
	if (!l->maps)
		return -ENOMEM;
	for (size_t i = 0; i < f->nr_mmaps; i++) {
		const struct pmufile_mmap *m = &f->mmaps[i];
		l->maps[i] = (struct pc_map){
			.start = m->start,
			.limit = m->end,
			.offset = m->pgoff,
			.file = m->path,
			.build_id = m->build_id,
			.build_id_size = m->build_id_size <= 20 ? m->build_id_size : 20};
	}
	l->kmap = (struct pc_map){
		.start = KERNEL_ADDR_MIN,
		.limit = UINT64_MAX,
		.file = "[kernel.kallsyms]",
		.build_id = f->kernel_build_id,
		.build_id_size = f->kernel_build_id_size <= 20 ? f->kernel_build_id_size : 20};
	if (f->kallsyms && f->kallsyms_len)
		sym__load_kallsyms(l->sym, f->kallsyms, f->kallsyms_len);
	if (!l->flt->call_graph_fp) { /* cheap until a sample carries a stack copy */
		l->unw = unw__new(l->f, l->sym);
		/* nr_kstack is a u16: a damaged record may claim that many */
		l->ubuf = malloc((UINT16_MAX + UNW_MAX_USER) * sizeof(*l->ubuf));
		if (!l->unw || !l->ubuf)
			return -ENOMEM;
	}
	return 0;
}

/* Phase 1: every record once, into the table of unique raw stacks; then
 * the pass's totals into the accounting. */
static int read_samples(struct loader *l, char *err, size_t errlen)
{
	const char *path = l->path;
	const struct pc_filter *flt = l->flt;
	struct pc_accounting *ac = &l->set->acct;
	const struct pmufile *f = l->f;
	int r;

	l->hash = pc_stack_hash_select();
	l->filter_samples = flt->has_pid || flt->comm || flt->has_cpu || flt->has_time ||
			    flt->dso || flt->symbol;
	l->weight_period = flt->weight == PC_WEIGHT_PERIOD;
	if (pc_htab__grow(&l->raw_index, 4096, raw_hash, l))
		return -ENOMEM;
	pc_progress__begin(&l->prog, "reading samples", f->has_trailer ? f->trailer.records : 0);
	l->prog.bytes = 0;
	r = pmufile__for_each_record(l->f, on_record, l, err, errlen);
	pc_progress__end(&l->prog);
	if (r == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	else if (r == -E2BIG)
		snprintf(err, errlen, "%s: more unique stacks than pmuconv can hold (32 GB)", path);
	if (r)
		return r;

	ac->samples = l->samples;
	ac->has_lost = true;
	ac->lost = f->has_trailer ? f->trailer.lost : l->n.lost;
	ac->has_throttle = true;
	ac->throttled = f->has_trailer ? f->trailer.throttled : l->n.throttled;
	ac->unthrottled = l->n.unthrottled;
	if (f->has_stats) { /* 0 in files from before the fields (shorter STATS frame) */
		ac->missed = f->stats.missed;
		ac->pebs_check[0] = f->stats.pebs_agree;
		ac->pebs_check[1] = f->stats.pebs_disagree;
		ac->pebs_check[2] = f->stats.pebs_not_applicable;
		ac->pebs_check[3] = f->stats.pebs_undecodable;
	}
	/* one definition with pmuctl's summary (lib/pmufile/duration.c) */
	if (pmufile__duration_ns(f, &ac->duration_ns)) {
		ac->has_time = true;
	} else if (l->samples && l->tmax >= l->tmin) {
		ac->has_time = true;
		ac->duration_ns = l->tmax - l->tmin;
	}
	if (!f->has_trailer || f->damage[0] || f->frames_skipped) {
		ac->truncated = true;
		char where[64];
		snprintf(where, sizeof(where), " (offset %llu, %llu frame(s) skipped)",
			 (unsigned long long)f->damage_offset,
			 (unsigned long long)f->frames_skipped);
		snprintf(ac->damage, sizeof(ac->damage), "%.180s%s",
			 f->damage[0] ? f->damage : "file ends without a trailer", where);
		pc_warn("%s: damaged: %s; reporting what precedes the damage", path, ac->damage);
	}
	if (l->bad)
		pc_warn("%s: skipped %llu malformed sample record(s); first: %s", path,
			(unsigned long long)l->bad, ac->first_skip);
	return 0;
}

/* Phase 2 into the sample stream: the symbolized stacks, then the data
 * accesses; the set's totals; the symbolizer's warnings. */
static int emit_stream(struct loader *l, char *err, size_t errlen)
{
	int r = emit_all(l);

	if (!r)
		r = emit_accesses(l);
	if (!r)
		r = pc_set__finish(l->set);
	if (r) {
		snprintf(err, errlen, "%s: %s", l->path, strerror(-r));
		return r;
	}
	sym__warn_binaries(l->sym);
	unw__warn(l->unw, l->path);
	junk_warn(l, l->path);
	return 0;
}

static void loader_free(struct loader *l)
{
	inl__free(l->inl);
	unw__free(l->unw);
	free(l->ubuf);
	sym__free(l->sym);
	pmufile__close(l->f);
	free(l->raw);
	pc_htab__free(&l->raw_index);
	pc_htab__free(&l->cache_index);
	pc_htab__free(&l->part_index);
	free(l->cache);
	free(l->parts);
	free(l->out_parts);
	free(l->maps);
	free(l->acc);
	free(l);
}

/* The symbolizer (sym: --symfs, --no-inline...) first, then the file:
 * header, events, mappings, the records (phase 1), the stream (phase 2). */
int input_pmufile_load(struct pc_set *s, const char *path, const struct pc_filter *flt,
		       const struct sym_opts *sym, const struct pc_stream *out, char *err,
		       size_t errlen)
{
	struct loader *l = calloc(1, sizeof(*l));
	int r = -ENOMEM;

	if (!l)
		return -ENOMEM;
	l->path = path;
	l->set = s;
	l->flt = flt;
	l->out = out;
	l->want_addr = out->wants_addr;
	l->want_ids = out->wants_ids;
	l->tmin = UINT64_MAX;
	if ((l->sym = sym__new(sym)) &&
	    (sym->no_inline || (l->inl = inl__new(l->sym, sym->no_demangle)))) {
		/* STREAM: records are only used inside on_record (everything kept
		 * is copied), and one read pass beats faulting in the mapping */
		l->f = pmufile__open(
			path, PMUFILE_OPEN_STREAM | (flt->salvage ? PMUFILE_OPEN_SALVAGE : 0), err,
			errlen);
		r = l->f ? 0 : errno ? -errno : -EINVAL;
		if (l->f)
			take_header(l);
		else if (!flt->salvage && !err[0])
			snprintf(err, errlen, "%s: not a readable pmuprof file", path);
	}
	if (!r)
		r = take_events(l, err, errlen);
	if (!r)
		r = take_maps(l);
	if (!r)
		r = read_samples(l, err, errlen);
	if (!r)
		r = emit_stream(l, err, errlen);
	loader_free(l);
	return r;
}
