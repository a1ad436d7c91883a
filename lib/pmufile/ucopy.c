// SPDX-License-Identifier: MIT
/*
 * Packed user stack copies (format version 2): the writer's packer and the
 * reader's unpacker, and the per-tid table of latest copies both keep.
 *
 * A `--call-graph dwarf` sample carries SIZE bytes copied from the user
 * stack pointer up (8 KiB by default): 97 % of the record. Consecutive
 * copies of one thread mostly hold the same bytes at the same addresses
 * (the outer frames, argv, the environment), and bytes [valid, size) are
 * zero. A packed copy stores only its valid bytes, as runs of {new bytes,
 * bytes equal to the thread's previous copy at the same addresses}; the
 * layout is in format.h (struct pmufile_ucopy_packed) and docs/FORMAT.md.
 * The packer and the unpacker see every copy of a file in the same order,
 * so their tables agree on each tid's reference; a reader that missed a
 * copy (a damaged frame skipped in salvage) sees that the reference's time
 * or stack pointer differs and fails that one sample, never guessing.
 *
 * Cost: packing compares each 8-byte chunk with the reference (a memcmp per
 * chunk); unpacking copies valid bytes twice (into the record delivered and
 * into the table). Both are a few microseconds per 8 KiB copy, against the
 * file bytes they save (reading and CRC-checking 8 KiB per sample).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pmufile/pmufile.h"
#include "lib/pmufile/format.h"

/* The packer starts afresh (full copies) past this many threads, so its
 * memory stays bounded on a system-wide recording of many threads. */
#define UCOPY_MAX_TIDS (1u << 16)
/* Most {new, same} pairs a copy can need: a same run is at least 16 bytes. */
#define UCOPY_MAX_RUNS (PMUPROF_USTACK_COPY_MAX / 16 + 2)
#define UCOPY_CHUNK    8u
/* Every this many copies of a tid, one is stored without a reference, so a
 * frame lost to damage breaks at most that many of the thread's copies
 * (8 KiB copies: ~32 bytes per sample). */
#define UCOPY_KEY_EVERY 256u

struct ucopy_ent {
	uint32_t tid, pid;
	uint64_t time_ns, sp;
	uint32_t valid, cap;
	uint32_t chain; /* packer: copies since the last one without a reference */
	bool used;
	bool ok;	/* the copy is held (false: it could not be rebuilt) */
	uint8_t *bytes; /* packer: the copy (valid bytes from sp) */
	uint8_t *win;	/* unpacker: the thread's window, see place() */
	size_t wcap;
	/* unpacker: win's bytes outside [dlo, dhi) are zero (dlo == dhi: all
	 * are), so a rebuilt copy's [valid, size) is cleared only where an
	 * earlier copy or record header left bytes */
	size_t dlo, dhi;
	uint64_t base; /* the address of win[0] */
};

struct pmufile_ucopy_tab {
	struct ucopy_ent *e;
	size_t cap, n; /* slots (a power of two), slots used */
	uint32_t runs[2 * UCOPY_MAX_RUNS];
	char why[256];
};

struct pmufile_ucopy_tab *pmufile__ucopy_tab_new(void)
{
	return calloc(1, sizeof(struct pmufile_ucopy_tab));
}

void pmufile__ucopy_tab_reset(struct pmufile_ucopy_tab *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		free(t->e[i].bytes);
		free(t->e[i].win);
	}
	free(t->e);
	t->e = NULL;
	t->cap = t->n = 0;
}

void pmufile__ucopy_tab_free(struct pmufile_ucopy_tab *t)
{
	if (!t)
		return;
	pmufile__ucopy_tab_reset(t);
	free(t);
}

static size_t slot_of(const struct pmufile_ucopy_tab *t, uint32_t tid)
{
	size_t i = ((size_t)tid * 0x9E3779B1u) & (t->cap - 1);

	while (t->e[i].used && t->e[i].tid != tid)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static struct ucopy_ent *find(const struct pmufile_ucopy_tab *t, uint32_t tid)
{
	struct ucopy_ent *e;

	if (!t->cap)
		return NULL;
	e = &t->e[slot_of(t, tid)];
	return e->used ? e : NULL;
}

/* tid's entry, inserted if new; NULL when out of memory. */
static struct ucopy_ent *get(struct pmufile_ucopy_tab *t, uint32_t tid)
{
	struct ucopy_ent *e;

	if (2 * (t->n + 1) > t->cap) {
		size_t ncap = t->cap ? 2 * t->cap : 64;
		struct ucopy_ent *old = t->e, *ne = calloc(ncap, sizeof(*ne));
		size_t ocap = t->cap;

		if (!ne)
			return NULL;
		t->e = ne;
		t->cap = ncap;
		for (size_t i = 0; i < ocap; i++)
			if (old[i].used)
				t->e[slot_of(t, old[i].tid)] = old[i];
		free(old);
	}
	e = &t->e[slot_of(t, tid)];
	if (!e->used) {
		memset(e, 0, sizeof(*e));
		e->used = true;
		e->tid = tid;
		t->n++;
	}
	return e;
}

/* Make (s, u, bytes) tid's reference; ok false: known to exist, unusable. */
static struct ucopy_ent *set_ref(struct pmufile_ucopy_tab *t, const struct pmuprof_sample *s,
				 const struct pmuprof_sample_ustack *u, const uint8_t *bytes,
				 bool ok)
{
	struct ucopy_ent *e = get(t, s->tid);

	if (!e)
		return NULL; /* out of memory: later copies of tid fall back (packer) or fail */
	e->pid = s->pid;
	e->time_ns = s->time_ns;
	e->sp = u->regs[PMUPROF_UREG_SP];
	e->ok = false;
	if (!ok)
		return e;
	if (e->cap < u->valid) {
		uint8_t *nb = realloc(e->bytes, u->valid);

		if (!nb)
			return e;
		e->bytes = nb;
		e->cap = u->valid;
	}
	memcpy(e->bytes, bytes, u->valid);
	e->valid = u->valid;
	e->ok = true;
	return e;
}

/* rec's stack-copy part when rec is a SAMPLE with one whose fixed parts
 * fit (*need: the bytes before it), else NULL. */
static const struct pmuprof_sample_ustack *ucopy_part(const struct pmuprof_record_header *rec,
						      size_t *need)
{
	const struct pmuprof_sample *s = (const void *)rec;
	const struct pmuprof_sample_ustack *u;
	size_t n = sizeof(*s);

	if (rec->type != PMUPROF_REC_SAMPLE || rec->size < sizeof(*s) ||
	    !(s->sample_flags & PMUPROF_SF_USTACK_COPY))
		return NULL;
	if (s->sample_flags & PMUPROF_SF_ADDR)
		n += sizeof(struct pmuprof_sample_addr);
	n += ((size_t)s->nr_kstack + s->nr_ustack) * sizeof(uint64_t);
	if (n + sizeof(*u) > rec->size)
		return NULL;
	u = (const void *)((const uint8_t *)rec + n);
	if (u->size % 8 || u->size > PMUPROF_USTACK_COPY_MAX || u->valid > u->size ||
	    n + sizeof(*u) + u->size > PMUPROF_MAX_RECORD) /* rebuilt: must fit a read() */
		return NULL;
	*need = n;
	return u;
}

bool pmufile__ucopy_is_packed(const struct pmuprof_record_header *rec)
{
	size_t need;
	const struct pmuprof_sample_ustack *u = ucopy_part(rec, &need);

	return u && (u->flags & PMUFILE_USTACK_PACKED);
}

/*
 * The reader keeps each thread's copies in a window of its address space
 * (win[i] is the byte at address base + i): a copy is rebuilt where it
 * lies, so its `same` runs are already in place (they name the previous
 * copy's bytes at the same addresses) and only the literals are written.
 * The delivered record is built around it: its fixed parts just below sp
 * (bytes the next copy cannot refer to: they are not in this one) and the
 * zeros of [valid, size) above. Returns the record's stack (the byte at
 * sp) in the window, moving the window when the record would not fit or
 * be 8-byte aligned there; NULL when out of memory.
 */
/* win's bytes [lo, hi) may now be non-zero */
static void win_dirty(struct ucopy_ent *e, size_t lo, size_t hi)
{
	if (lo >= hi)
		return;
	if (e->dlo == e->dhi) {
		e->dlo = lo;
		e->dhi = hi;
		return;
	}
	if (lo < e->dlo)
		e->dlo = lo;
	if (hi > e->dhi)
		e->dhi = hi;
}

/* win's bytes [lo, hi) must read zero: clear those that may not be, and
 * take the cleared part off [dlo, dhi) where it is an end of it */
static void win_zero(struct ucopy_ent *e, size_t lo, size_t hi)
{
	size_t a = lo > e->dlo ? lo : e->dlo, b = hi < e->dhi ? hi : e->dhi;

	if (a >= b)
		return;
	memset(e->win + a, 0, b - a);
	if (a == e->dlo && b == e->dhi)
		e->dlo = e->dhi = 0;
	else if (a == e->dlo)
		e->dlo = b;
	else if (b == e->dhi)
		e->dhi = a;
}

static uint8_t *place(struct ucopy_ent *e, uint64_t sp, size_t fixed, uint32_t size)
{
	uint64_t off = sp - e->base; /* modulo 2^64, as every address here */
	size_t wcap, slack, nlo = 0, nhi = 0;
	uint8_t *nw;

	if (e->win && off % 8 == 0 && off >= fixed && off <= e->wcap && size <= e->wcap - off)
		return e->win + off;
	wcap = 3 * (fixed + size);
	slack = ((wcap - fixed - size) / 2) & ~(size_t)7;
	nw = calloc(1, wcap); /* zero: see dlo, dhi */
	if (!nw)
		return NULL;
	/* keep what this copy may refer to: the previous copy's valid bytes
	 * within [sp, sp + size) */
	if (e->win && e->ok) {
		uint64_t lo = sp - e->sp < e->valid ? sp : e->sp; /* later start */
		uint64_t a = lo - e->sp, b = lo - sp;

		if (a <= e->valid && b <= size) {
			size_t n = e->valid - a < size - b ? e->valid - a : size - b;
			uint64_t from = lo - e->base;

			if (from <= e->wcap && n <= e->wcap - from) {
				memcpy(nw + fixed + slack + b, e->win + from, n);
				nlo = fixed + slack + b;
				nhi = nlo + n;
			}
		}
	}
	free(e->win);
	e->win = nw;
	e->wcap = wcap;
	e->dlo = nlo;
	e->dhi = nhi;
	e->base = sp - fixed - slack;
	return nw + fixed + slack;
}

void pmufile__ucopy_note(struct pmufile_ucopy_tab *t, const struct pmuprof_record_header *rec)
{
	size_t need;
	const struct pmuprof_sample_ustack *u = ucopy_part(rec, &need);

	const struct pmuprof_sample *s = (const void *)rec;
	struct ucopy_ent *e;
	uint8_t *stack;

	if (!u || (u->flags & PMUFILE_USTACK_PACKED) || need + sizeof(*u) + u->size != rec->size)
		return;
	e = get(t, s->tid);
	if (!e)
		return;
	e->ok = false; /* nothing of the previous copy is needed: all of it is here */
	stack = place(e, u->regs[PMUPROF_UREG_SP], need + sizeof(*u), u->size);
	if (!stack)
		return;
	memcpy(stack, u + 1, u->valid);
	win_dirty(e, (size_t)(stack - e->win), (size_t)(stack - e->win) + u->valid);
	e->pid = s->pid;
	e->time_ns = s->time_ns;
	e->sp = u->regs[PMUPROF_UREG_SP];
	e->valid = u->valid;
	e->ok = true;
}

/* Are the len bytes at stack offset pos (address sp + pos) equal to the
 * reference's bytes at the same address? */
static bool same_at(const struct ucopy_ent *e, uint64_t sp, const uint8_t *stack, uint32_t valid,
		    uint32_t pos)
{
	uint32_t len = valid - pos < UCOPY_CHUNK ? valid - pos : UCOPY_CHUNK;
	uint64_t a = sp + pos;

	if (!e || a < e->sp || a - e->sp > e->valid || len > e->valid - (a - e->sp))
		return false;
	return memcmp(stack + pos, e->bytes + (a - e->sp), len) == 0;
}

size_t pmufile__ucopy_pack(struct pmufile_ucopy_tab *t, const struct pmuprof_record_header *rec,
			   void *out)
{
	const struct pmuprof_sample *s = (const void *)rec;
	struct pmufile_ucopy_packed pk = {0};
	const struct pmuprof_sample_ustack *u;
	const struct ucopy_ent *e;
	struct ucopy_ent *ne;
	const uint8_t *stack;
	uint32_t pos = 0, nr = 0, lit = 0, chain;
	size_t need, head, total;
	uint64_t sp;
	uint8_t *o;

	u = ucopy_part(rec, &need);
	if (!u || (u->flags & PMUFILE_USTACK_PACKED) || need + sizeof(*u) + u->size != rec->size)
		return 0;
	stack = (const uint8_t *)(u + 1);
	sp = u->regs[PMUPROF_UREG_SP];
	if (t->n >= UCOPY_MAX_TIDS && !find(t, s->tid))
		pmufile__ucopy_tab_reset(t);
	e = find(t, s->tid);
	if (e && (!e->ok || e->pid != s->pid || e->chain + 1 >= UCOPY_KEY_EVERY))
		e = NULL;
	chain = e ? e->chain + 1 : 0;
	/* Runs: a same run starts only where two chunks in a row match (a pair
	 * costs 8 bytes, as much as one chunk saves). */
	while (pos < u->valid) {
		uint32_t start = pos, mid;

		while (pos < u->valid && !(pos + 2 * UCOPY_CHUNK <= u->valid &&
					   same_at(e, sp, stack, u->valid, pos) &&
					   same_at(e, sp, stack, u->valid, pos + UCOPY_CHUNK)))
			pos = pos + UCOPY_CHUNK < u->valid ? pos + UCOPY_CHUNK : u->valid;
		mid = pos;
		while (pos < u->valid && same_at(e, sp, stack, u->valid, pos))
			pos = pos + UCOPY_CHUNK < u->valid ? pos + UCOPY_CHUNK : u->valid;
		t->runs[2 * nr] = mid - start;
		t->runs[2 * nr + 1] = pos - mid;
		lit += mid - start;
		nr++;
	}
	head = need + sizeof(*u) + sizeof(pk);
	total = pmufile__align8(head + 8 * (size_t)nr + lit);
	if (total >= rec->size) {
		ne = set_ref(t, s, u, stack, true);
		if (ne)
			ne->chain = 0; /* stored whole */
		return 0;
	}
	o = out;
	memcpy(o, rec, need + sizeof(*u));
	((struct pmuprof_record_header *)o)->size = (uint32_t)total;
	((struct pmuprof_sample_ustack *)(o + need))->flags |= PMUFILE_USTACK_PACKED;
	if (e) {
		pk.ref_time_ns = e->time_ns;
		pk.ref_sp = e->sp;
		pk.flags = PMUFILE_UCOPY_REF;
	}
	pk.nr_runs = nr;
	memcpy(o + need + sizeof(*u), &pk, sizeof(pk));
	memcpy(o + head, t->runs, 8 * (size_t)nr);
	o += head + 8 * (size_t)nr;
	pos = 0;
	for (uint32_t i = 0; i < nr; i++) {
		memcpy(o, stack + pos, t->runs[2 * i]);
		o += t->runs[2 * i];
		pos += t->runs[2 * i] + t->runs[2 * i + 1];
	}
	memset(o, 0, total - (head + 8 * (size_t)nr + lit));
	ne = set_ref(t, s, u, stack, true);
	if (ne)
		ne->chain = chain;
	return total;
}

const char *pmufile__ucopy_unpack(struct pmufile_ucopy_tab *t,
				  const struct pmuprof_record_header *rec,
				  const struct pmuprof_record_header **out)
{
	const struct pmuprof_sample *s = (const void *)rec;
	struct pmufile_ucopy_packed pk;
	const struct pmuprof_sample_ustack *u;
	struct pmuprof_sample_ustack *ou;
	struct ucopy_ent *e;
	const uint8_t *runs, *lits;
	size_t need, avail, nlit, lit = 0, off;
	uint32_t pos = 0;
	uint8_t *stack;
	uint64_t sp;
	bool ref = false, known;

	*out = NULL;
	u = ucopy_part(rec, &need);
	if (!u || !(u->flags & PMUFILE_USTACK_PACKED)) {
		snprintf(t->why, sizeof(t->why), "not a sample with a packed stack copy");
		return t->why;
	}
	sp = u->regs[PMUPROF_UREG_SP];
	e = find(t, s->tid);
	known = e != NULL; /* whether it is the copy this one refers to: below */
	if (!e && !(e = get(t, s->tid))) {
		snprintf(t->why, sizeof(t->why), "out of memory");
		return t->why;
	}
	stack = place(e, sp, need + sizeof(*u), u->size);
	if (!stack) {
		e->ok = false;
		snprintf(t->why, sizeof(t->why), "out of memory");
		return t->why;
	}
	memcpy(stack - need - sizeof(*u), rec, need + sizeof(*u));
	*out = (const void *)(stack - need - sizeof(*u));
	((struct pmuprof_record_header *)(stack - need - sizeof(*u)))->size =
		(uint32_t)(need + sizeof(*u) + u->size);
	ou = (struct pmuprof_sample_ustack *)(stack - sizeof(*u));
	ou->flags &= ~PMUFILE_USTACK_PACKED;
	avail = rec->size - need - sizeof(*u);
	if (avail < sizeof(pk)) {
		snprintf(t->why, sizeof(t->why),
			 "packed stack copy of tid %u: %zu bytes, shorter than its %zu-byte header",
			 s->tid, avail, sizeof(pk));
		goto fail;
	}
	memcpy(&pk, u + 1, sizeof(pk));
	if (pk.nr_runs > (avail - sizeof(pk)) / 8) {
		snprintf(t->why, sizeof(t->why),
			 "packed stack copy of tid %u: %u runs do not fit in its %zu bytes", s->tid,
			 pk.nr_runs, avail);
		goto fail;
	}
	runs = (const uint8_t *)(u + 1) + sizeof(pk);
	lits = runs + 8 * (size_t)pk.nr_runs;
	nlit = avail - sizeof(pk) - 8 * (size_t)pk.nr_runs;
	if (pk.flags & PMUFILE_UCOPY_REF) {
		if (!known) {
			snprintf(t->why, sizeof(t->why),
				 "the stack copy of tid %u refers to an earlier copy of that "
				 "thread (time %llu) which the file does not hold (a frame "
				 "skipped?)",
				 s->tid, (unsigned long long)pk.ref_time_ns);
			goto fail;
		}
		if (e->time_ns != pk.ref_time_ns || e->sp != pk.ref_sp || e->pid != s->pid) {
			snprintf(t->why, sizeof(t->why),
				 "the stack copy of tid %u refers to its copy of time %llu, sp "
				 "%#llx, but the previous one read is of time %llu, sp %#llx (a "
				 "frame skipped?)",
				 s->tid, (unsigned long long)pk.ref_time_ns,
				 (unsigned long long)pk.ref_sp, (unsigned long long)e->time_ns,
				 (unsigned long long)e->sp);
			goto fail;
		}
		if (!e->ok) {
			snprintf(t->why, sizeof(t->why),
				 "the stack copy of tid %u refers to its copy of time %llu, which "
				 "could not be rebuilt either",
				 s->tid, (unsigned long long)pk.ref_time_ns);
			goto fail;
		}
		ref = true;
	}
	for (uint32_t i = 0; i < pk.nr_runs; i++) {
		uint32_t nw = pf_get32(runs + 8 * (size_t)i),
			 sm = pf_get32(runs + 8 * (size_t)i + 4);
		uint64_t d;

		if (nw > u->valid - pos || nw > nlit - lit) {
			snprintf(t->why, sizeof(t->why),
				 "packed stack copy of tid %u: run %u takes %u new bytes at offset "
				 "%u, beyond the copy's %u valid bytes or the %zu stored",
				 s->tid, i, nw, pos, u->valid, nlit);
			goto fail;
		}
		memcpy(stack + pos, lits + lit, nw);
		pos += nw;
		lit += nw;
		if (!sm)
			continue;
		/* already in place: the previous copy's bytes at these addresses */
		d = sp + pos - e->sp;
		if (!ref || sm > u->valid - pos || d > e->valid || sm > e->valid - d) {
			snprintf(t->why, sizeof(t->why),
				 "packed stack copy of tid %u: run %u repeats %u bytes at offset "
				 "%u, outside the copy's %u valid bytes or the referenced copy's",
				 s->tid, i, sm, pos, u->valid);
			goto fail;
		}
		pos += sm;
	}
	if (pos != u->valid ||
	    pmufile__align8(sizeof(pk) + 8 * (size_t)pk.nr_runs + lit) != avail) {
		snprintf(t->why, sizeof(t->why),
			 "packed stack copy of tid %u: its runs cover %u of %u valid bytes and use "
			 "%zu of %zu stored bytes",
			 s->tid, pos, u->valid, lit, nlit);
		goto fail;
	}
	off = (size_t)(stack - e->win);
	win_dirty(e, off - need - sizeof(*u), off + u->valid);
	win_zero(e, off + u->valid, off + u->size);
	e->pid = s->pid;
	e->time_ns = s->time_ns;
	e->sp = sp;
	e->valid = u->valid;
	e->ok = true;
	return NULL;
fail:
	off = (size_t)(stack - e->win);
	win_dirty(e, off - need - sizeof(*u), off + u->valid); /* pos <= valid */
	win_zero(e, off, off + u->size);
	ou->valid = 0;
	ou->flags |= PMUFILE_USTACK_UNRESOLVED;
	e->pid = s->pid;
	e->time_ns = s->time_ns;
	e->sp = sp;
	e->valid = 0;
	e->ok = false;
	return t->why;
}
