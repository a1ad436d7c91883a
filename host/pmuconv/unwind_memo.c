// SPDX-License-Identifier: MIT
/*
 * Exact memoization of libdwfl unwinds (see unwind_memo.h): the registers
 * and stack words an unwind depends on, from the CFI rules libdw gives for
 * its frames' pcs, and the table of stored unwinds keyed by them.
 */
#include "unwind_memo.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#define NREGS	       PMUPROF_NR_UREGS /* x86-64 DWARF regs 0-16, libdwfl's frame regs */
#define REG_RA	       16		/* DWARF x86-64: the return address (rip) */
#define RULES_CACHE    1024		/* analysed pcs kept, direct-mapped */
#define MEMO_BUCKETS0  64		/* buckets at first; doubled at 2 entries a bucket */
#define MEMO_MAX_BYTES (32u << 20)	/* stored unwinds per map set, then no more */
#define MEMO_MAX_WORDS 256		/* stack words in one key */
#define STEP_BUCKETS   4096		/* step table buckets (chained) */

/* What one CFI rule does with a register of the caller's frame. */
enum rule_kind {
	RK_UNDEF, /* undefined: not recovered */
	RK_SAME,  /* same value as in this frame */
	RK_LOC,	  /* read from memory at an address computed from deps */
	RK_VAL,	  /* computed from deps, no memory read */
};

/* The rules at one pc, reduced to which of this frame's registers each
 * caller register (and the CFA) depends on. */
struct rules {
	uint64_t pc1; /* lookup pc + 1; 0: empty slot */
	/* the CFI row holding pc: every pc in [row_lo, row_hi) (run-time
	 * addresses) has these rules, from the same table (.eh_frame: eh) */
	uint64_t row_lo, row_hi;
	bool eh;
	bool ok; /* false: a rule reads memory itself, or an unknown form */
	uint32_t cfa_deps;
	uint32_t step_deps; /* cfa_deps and those of every computed register */
	uint32_t deps[NREGS];
	uint8_t kind[NREGS];
	/* the registers of each kind, in order (for the steps) */
	uint32_t loc_mask, val_mask, same_mask;
	/* the step last found at this row (unw_memo__step tries it first:
	 * a loop's frames meet the same caller again); NULL: none yet */
	const struct step *hint;
};

struct entry {
	struct entry *next;
	uint64_t row_lo, row_hi; /* the initial pc's CFI row (struct rules) */
	bool eh;
	uint64_t sp;
	uint32_t valid, max;
	uint32_t regs_mask; /* initial registers in the key */
	uint32_t nr_words, nr_out;
	int oc;
	uint64_t regs[NREGS];
	/* then nr_words (offset, value) pairs, then nr_out results */
	uint64_t data[];
};

/* One stored step (unwind_memo.h): key row + deps values, then what the
 * rules computed, by register. */
struct step {
	struct step *next;
	uint64_t row_lo, row_hi;
	bool eh;
	bool vals_known;
	uint64_t dep[NREGS];  /* values of the registers the rules name, else 0 */
	uint64_t addr[NREGS]; /* RK_LOC: the address read */
	uint64_t val[NREGS];  /* RK_VAL: the value (vals_known) */
};

struct unw_memo {
	Dwfl *dwfl;
	struct step **steps;	/* STEP_BUCKETS; NULL until a step is stored */
	struct rules *rules;	/* RULES_CACHE, allocated on first store */
	struct entry **buckets; /* nr_buckets, a power of 2; NULL until a store */
	uint32_t nr_buckets, nr_entries;
	size_t bytes; /* of the stored entries */
	uint64_t hits, stored;
};

struct unw_memo *unw_memo__new(Dwfl *dwfl)
{
	struct unw_memo *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->dwfl = dwfl; /* the tables come with the first store (a map set
			 * per process: most of them see few samples) */
	return m;
}

void unw_memo__free(struct unw_memo *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nr_buckets; i++) {
		struct entry *e = m->buckets[i];
		while (e) {
			struct entry *n = e->next;
			free(e);
			e = n;
		}
	}
	for (uint32_t i = 0; m->steps && i < STEP_BUCKETS; i++) {
		struct step *st = m->steps[i];
		while (st) {
			struct step *n = st->next;
			free(st);
			st = n;
		}
	}
	free(m->steps);
	free(m->buckets);
	free(m->rules);
	free(m);
}

void unw_memo__stats(const struct unw_memo *m, uint64_t *hits, uint64_t *stored)
{
	*hits = m ? m->hits : 0;
	*stored = m ? m->stored : 0;
}

/* ---- dependencies of the rules at one pc ------------------------------- */

/* The registers the DWARF expression ops[0, n) names (DW_OP_reg*,
 * DW_OP_breg*); *cfa: it pushes the CFA; *loc: its value is an address
 * libdwfl reads (expr_eval's is_location: the last of DW_OP_call_frame_cfa
 * and DW_OP_stack_value decides). False if it reads memory itself or names
 * a register beyond the frame's. */
static bool scan_ops(const Dwarf_Op *ops, size_t n, uint32_t *deps, bool *cfa, bool *loc)
{
	*deps = 0;
	*cfa = *loc = false;
	for (size_t i = 0; i < n; i++) {
		unsigned a = ops[i].atom;
		uint64_t reg = UINT64_MAX;

		if (a >= DW_OP_reg0 && a <= DW_OP_reg31)
			reg = a - DW_OP_reg0;
		else if (a >= DW_OP_breg0 && a <= DW_OP_breg31)
			reg = a - DW_OP_breg0;
		else if (a == DW_OP_regx || a == DW_OP_bregx)
			reg = ops[i].number;
		else if (a == DW_OP_deref || a == DW_OP_deref_size)
			return false;
		else if (a == DW_OP_call_frame_cfa)
			*cfa = *loc = true;
		else if (a == DW_OP_stack_value)
			*loc = false;
		if (reg != UINT64_MAX) {
			if (reg >= NREGS)
				return false;
			*deps |= 1u << reg;
		}
	}
	return true;
}

/* The CFI libdwfl unwinds pc with (__libdwfl_frame_unwind: .eh_frame
 * first, then .debug_frame), as a Dwarf_Frame; NULL without. *bias: the
 * module's, *eh: from .eh_frame. */
static Dwarf_Frame *frame_at(Dwfl *dwfl, uint64_t pc, Dwarf_Addr *bias, bool *eh)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	Dwarf_Frame *fr = NULL;
	Dwarf_CFI *cfi;

	if (!mod)
		return NULL;
	cfi = dwfl_module_eh_cfi(mod, bias);
	*eh = true;
	if (cfi && dwarf_cfi_addrframe(cfi, pc - *bias, &fr) == 0)
		return fr;
	cfi = dwfl_module_dwarf_cfi(mod, bias);
	*eh = false;
	if (cfi && dwarf_cfi_addrframe(cfi, pc - *bias, &fr) == 0)
		return fr;
	return NULL;
}

static void analyse(Dwfl *dwfl, uint64_t pc, struct rules *r)
{
	Dwarf_Addr bias = 0, lo = 0, hi = 0;
	bool eh = false;
	Dwarf_Frame *fr = frame_at(dwfl, pc, &bias, &eh);
	Dwarf_Op *ops, mem[3];
	size_t n;
	bool signal = false, cfa, loc;

	memset(r, 0, sizeof(*r));
	r->pc1 = pc + 1;
	if (!fr)
		return;
	/* signal frames restore every register through DW_OP_deref */
	if (dwarf_frame_info(fr, &lo, &hi, &signal) != REG_RA || signal || lo >= hi ||
	    dwarf_frame_cfa(fr, &ops, &n) || !n || !scan_ops(ops, n, &r->cfa_deps, &cfa, &loc) ||
	    cfa)
		goto out;
	for (int reg = 0; reg < NREGS; reg++) {
		if (dwarf_frame_register(fr, reg, mem, &ops, &n))
			goto out;
		if (!n) {
			if (ops == mem) {
				r->kind[reg] = RK_UNDEF;
			} else if (!ops) {
				r->kind[reg] = RK_SAME;
				r->deps[reg] = 1u << reg;
			} else {
				goto out;
			}
			continue;
		}
		if (!scan_ops(ops, n, &r->deps[reg], &cfa, &loc))
			goto out;
		if (cfa)
			r->deps[reg] |= r->cfa_deps;
		r->kind[reg] = loc ? RK_LOC : RK_VAL;
	}
	r->step_deps = r->cfa_deps;
	for (int reg = 0; reg < NREGS; reg++) {
		if (r->kind[reg] == RK_LOC || r->kind[reg] == RK_VAL)
			r->step_deps |= r->deps[reg];
		r->loc_mask |= (uint32_t)(r->kind[reg] == RK_LOC) << reg;
		r->val_mask |= (uint32_t)(r->kind[reg] == RK_VAL) << reg;
		r->same_mask |= (uint32_t)(r->kind[reg] == RK_SAME) << reg;
	}
	r->row_lo = lo + bias;
	r->row_hi = hi + bias;
	r->eh = eh;
	r->ok = true;
out:
	free(fr);
}

static struct rules *rules_at(struct unw_memo *m, uint64_t pc)
{
	struct rules *r = &m->rules[(size_t)((pc * 0x9e3779b97f4a7c15ull) >> 53) % RULES_CACHE];

	if (r->pc1 != pc + 1)
		analyse(m->dwfl, pc, r);
	return r;
}

/* ---- the table --------------------------------------------------------- */

static uint32_t bucket(uint64_t row_lo, uint64_t sp, uint32_t valid, uint32_t max)
{
	uint64_t h = (row_lo * 0x9e3779b97f4a7c15ull) ^ (sp * 0xc2b2ae3d27d4eb4full) ^
		     ((uint64_t)valid << 32 | max);
	return (uint32_t)((h * 0x165667b19e3779f9ull) >> 32);
}

uint32_t unw_memo__lookup(struct unw_memo *m, const struct pmufile_sample_view *v, uint32_t max,
			  uint64_t *out, int *oc)
{
	const struct pmuprof_sample_ustack *c = v->ucopy;
	uint64_t pc = c->regs[PMUPROF_UREG_IP], sp = c->regs[PMUPROF_UREG_SP];
	if (!m->nr_buckets || !max)
		return 0;
	/* the initial pc's row: unwinds from any pc of one row are the same
	 * (libdwfl looks the rules up by pc, nothing else reads it unless a
	 * rule names rip: then it is a key register) but for out[0] */
	const struct rules *r = rules_at(m, pc);
	if (!r->ok)
		return 0; /* nothing is stored from such a pc */
	struct entry **head =
		&m->buckets[bucket(r->row_lo, sp, c->valid, max) & (m->nr_buckets - 1)];

	/* entries of one row and sp differ in the return addresses of deeper
	 * frames (a recursion's paths): a hit moves to the front, so the
	 * walk is short for the stacks that repeat most */
	for (struct entry **pe = head, *e; (e = *pe); pe = &e->next) {
		if (e->row_lo != r->row_lo || e->row_hi != r->row_hi || e->eh != r->eh ||
		    e->sp != sp || e->valid != c->valid || e->max != max || e->nr_out > max)
			continue;
		bool same = true;
		for (uint32_t i = 0; i < e->nr_words && same; i++) {
			uint64_t w;
			memcpy(&w, v->ucopy_stack + e->data[2 * i], 8);
			same = w == e->data[2 * i + 1];
		}
		for (int i = 0; i < NREGS && same; i++)
			if (e->regs_mask >> i & 1)
				same = e->regs[i] == c->regs[i];
		if (!same)
			continue;
		if (pe != head) {
			*pe = e->next;
			e->next = *head;
			*head = e;
		}
		memcpy(out, e->data + 2 * e->nr_words, e->nr_out * sizeof(*out));
		out[0] = pc; /* the frames libdwfl reports start with the initial pc */
		*oc = e->oc;
		m->hits++;
		return e->nr_out;
	}
	return 0;
}

/* Double the bucket table (MEMO_BUCKETS0 at first). False without memory. */
static bool grow(struct unw_memo *m)
{
	uint32_t n = m->nr_buckets ? 2 * m->nr_buckets : MEMO_BUCKETS0;
	struct entry **b = calloc(n, sizeof(*b));

	if (!b)
		return false;
	for (uint32_t i = 0; i < m->nr_buckets; i++) {
		struct entry *e = m->buckets[i];
		while (e) {
			struct entry *next = e->next;
			uint32_t j = bucket(e->row_lo, e->sp, e->valid, e->max) & (n - 1);
			e->next = b[j];
			b[j] = e;
			e = next;
		}
	}
	free(m->buckets);
	m->buckets = b;
	m->nr_buckets = n;
	return true;
}

void unw_memo__store(struct unw_memo *m, const struct unw_done *d)
{
	const struct pmuprof_sample_ustack *c = d->v->ucopy;
	uint64_t sp = c->regs[PMUPROF_UREG_SP];
	uint64_t words[2 * MEMO_MAX_WORDS];
	uint32_t nr_words = 0, need, k;
	const struct unw_read *rend = d->reads + d->nr_reads;
	uint64_t row_lo = 0, row_hi = 0;
	bool eh = false;

	if (m->bytes >= MEMO_MAX_BYTES || !d->nr_frames || !d->nr || d->nr > d->max)
		return;
	if (!m->rules && !(m->rules = calloc(RULES_CACHE, sizeof(*m->rules))))
		return;
	if (m->nr_entries >= 2 * m->nr_buckets && !grow(m))
		return;
	/* the registers of the outermost frame the walk's end depends on:
	 * its return address when libdwfl unwound it (read, undefined or 0
	 * ends the walk), its pc alone when the walk stopped on it (no CFI) */
	k = d->nr_frames - 1;
	need = 1u << REG_RA;
	if (!d->last_unwound) {
		if (!k)
			return; /* the initial frame: nothing was unwound */
		k--;
	}
	/* reads are in frame order: find frame k's last read, then walk down */
	for (;;) {
		uint64_t pc = k ? d->out[k] - 1 : d->out[0]; /* no signal frames here */
		const struct rules *r = rules_at(m, pc);
		uint32_t caller = need, nloc = 0, j;
		const struct unw_read *fr, *fe;

		if (!r->ok)
			return;
		/* frame k's reads: a run of reads with .frame == k */
		fe = rend;
		while (fe > d->reads && fe[-1].frame > k)
			fe--;
		fr = fe;
		while (fr > d->reads && fr[-1].frame == k)
			fr--;
		/* this frame's pc: reported, and it chose these rules; the
		 * initial one's row is the key's instead (see the lookup) */
		need = r->cfa_deps | (k ? 1u << REG_RA : 0);
		if (!k) {
			row_lo = r->row_lo;
			row_hi = r->row_hi;
			eh = r->eh;
		}
		for (int reg = 0; reg < NREGS; reg++)
			if (r->kind[reg] == RK_LOC) {
				need |= r->deps[reg]; /* the address read: its outcome counts */
				nloc++;
			}
		if ((uint32_t)(fe - fr) != nloc)
			return; /* a read not made (an unset register), or extra */
		j = 0;
		for (int reg = 0; reg < NREGS; reg++) {
			if (r->kind[reg] == RK_LOC) {
				const struct unw_read *x = &fr[j++];
				if (!(caller >> reg & 1) || x->src != UNW_READ_COPY)
					continue; /* not needed, or fixed by its address */
				if (nr_words >= MEMO_MAX_WORDS)
					return;
				words[2 * nr_words] = x->addr - sp;
				words[2 * nr_words + 1] = x->val;
				nr_words++;
			} else if (caller >> reg & 1) {
				need |= r->deps[reg];
			}
		}
		rend = fr;
		if (!k)
			break;
		k--;
	}
	if (rend != d->reads)
		return; /* reads before frame 0's: not expected */

	size_t sz = sizeof(struct entry) + (2 * (size_t)nr_words + d->nr) * sizeof(uint64_t);
	struct entry *e = malloc(sz);
	if (!e)
		return;
	e->row_lo = row_lo;
	e->row_hi = row_hi;
	e->eh = eh;
	e->sp = sp;
	e->valid = c->valid;
	e->max = d->max;
	e->regs_mask = need;
	for (int i = 0; i < NREGS; i++)
		e->regs[i] = need >> i & 1 ? c->regs[i] : 0;
	e->nr_words = nr_words;
	e->nr_out = d->nr;
	e->oc = d->oc;
	memcpy(e->data, words, 2 * nr_words * sizeof(uint64_t));
	memcpy(e->data + 2 * nr_words, d->out, d->nr * sizeof(uint64_t));
	uint32_t b = bucket(e->row_lo, sp, e->valid, e->max);
	e->next = m->buckets[b & (m->nr_buckets - 1)];
	m->buckets[b & (m->nr_buckets - 1)] = e;
	m->nr_entries++;
	m->bytes += sz;
	m->stored++;
}

/* ---- steps ------------------------------------------------------------- */

static uint32_t step_bucket(const struct rules *r, uint32_t deps, const uint64_t *regs)
{
	uint64_t h = r->row_lo * 0x9e3779b97f4a7c15ull;

	for (uint32_t d = deps; d; d &= d - 1)
		h = (h ^ regs[__builtin_ctz(d)]) * 0xc2b2ae3d27d4eb4full;
	return (uint32_t)(h >> 40) % STEP_BUCKETS;
}

static struct step *step_find(struct unw_memo *m, const struct rules *r, uint32_t deps,
			      const uint64_t *regs, uint32_t b)
{
	for (struct step *st = m->steps[b]; st; st = st->next) {
		bool same = st->row_lo == r->row_lo && st->row_hi == r->row_hi && st->eh == r->eh;
		for (uint32_t d = deps; d && same; d &= d - 1)
			same = st->dep[__builtin_ctz(d)] == regs[__builtin_ctz(d)];
		if (same)
			return st;
	}
	return NULL;
}

void unw_memo__step_store(struct unw_memo *m, const struct unw_step_seen *s)
{
	uint32_t deps, nloc = 0, j = 0;
	const struct rules *r;
	struct step *st, *old;

	if (m->bytes >= MEMO_MAX_BYTES)
		return;
	if (!m->rules && !(m->rules = calloc(RULES_CACHE, sizeof(*m->rules))))
		return;
	if (!m->steps && !(m->steps = calloc(STEP_BUCKETS, sizeof(*m->steps))))
		return;
	r = rules_at(m, s->lookup_pc);
	if (!r->ok)
		return;
	deps = r->step_deps;
	if ((s->set & deps) != deps)
		return; /* a rule failed on an unset register: not stored */
	for (int reg = 0; reg < NREGS; reg++)
		nloc += r->kind[reg] == RK_LOC;
	if (s->nr_reads != nloc)
		return; /* a read not made, or an extra one */
	uint32_t b = step_bucket(r, deps, s->regs);
	old = step_find(m, r, deps, s->regs, b);
	if (old && (old->vals_known || !s->caller))
		return;
	if (!(st = calloc(1, sizeof(*st))))
		return;
	st->row_lo = r->row_lo;
	st->row_hi = r->row_hi;
	st->eh = r->eh;
	st->vals_known = s->caller != NULL;
	for (int reg = 0; reg < NREGS; reg++) {
		bool cset = s->caller && (s->caller_set >> reg & 1);

		if (deps >> reg & 1)
			st->dep[reg] = s->regs[reg];
		switch (r->kind[reg]) {
		case RK_LOC: {
			const struct unw_read *x = &s->reads[j++];
			st->addr[reg] = x->addr;
			/* what libdwfl made of the read: the value, or unset */
			if (s->caller &&
			    (x->src == UNW_READ_FAIL ? cset : !cset || s->caller[reg] != x->val))
				goto bad;
			break;
		}
		case RK_VAL:
			if (s->caller && !cset)
				goto bad; /* evaluation failed: not expected, not stored */
			st->val[reg] = cset ? s->caller[reg] : 0;
			break;
		case RK_SAME:
			if (s->caller && (cset != (s->set >> reg & 1) ||
					  (cset && s->caller[reg] != s->regs[reg])))
				goto bad;
			break;
		default: /* RK_UNDEF */
			if (cset)
				goto bad;
			break;
		}
	}
	if (old) { /* replace one stored from a last frame: now with values */
		struct step *next = old->next;
		*old = *st;
		old->next = next;
		free(st);
		return;
	}
	st->next = m->steps[b];
	m->steps[b] = st;
	m->bytes += sizeof(*st);
	return;
bad:
	free(st);
}

int unw_memo__step(struct unw_memo *m, uint64_t lookup_pc, const uint64_t *regs, uint32_t set,
		   struct unw_step_out *o, const struct pmufile_sample_view *v, unw_step_read_fn rd,
		   void *ctx)
{
	struct rules *r;
	const struct step *st;
	uint32_t deps, d;

	if (!m->steps)
		return -1;
	r = rules_at(m, lookup_pc);
	if (!r->ok)
		return -1;
	deps = r->step_deps;
	if ((set & deps) != deps)
		return -1;
	/* the hint has this row (analyse clears it when the slot is reused)
	 * and keys are unique (unw_memo__step_store): equal deps, same step */
	st = r->hint;
	for (d = deps; st && d; d &= d - 1)
		if (st->dep[__builtin_ctz(d)] != regs[__builtin_ctz(d)])
			st = NULL;
	if (!st) {
		st = step_find(m, r, deps, regs, step_bucket(r, deps, regs));
		if (!st)
			return -1;
		r->hint = st;
	}
	/* as libdwfl's handle_cfi: a read per saved register, in register
	 * order (only reads outside the copy have effects: rd makes them) */
	const struct pmuprof_sample_ustack *c = v->ucopy;
	uint64_t sp = c->regs[PMUPROF_UREG_SP];
	uint64_t span = c->valid >= 8 ? (uint64_t)c->valid - 8 : 0;
	bool any = c->valid >= 8;

	o->set = r->same_mask & set;
	o->ra_undefined = !((r->loc_mask | r->val_mask | r->same_mask) >> REG_RA & 1);
	o->vals_unknown = !st->vals_known;
	for (d = r->loc_mask; d; d &= d - 1) {
		int reg = __builtin_ctz(d);
		uint64_t a = st->addr[reg];

		if (any && a >= sp && a - sp <= span) {
			memcpy(&o->regs[reg], v->ucopy_stack + (a - sp), 8);
			o->set |= 1u << reg;
		} else if (rd(ctx, a, &o->regs[reg])) {
			o->set |= 1u << reg;
		}
	}
	for (d = r->val_mask; d; d &= d - 1) {
		int reg = __builtin_ctz(d);
		o->regs[reg] = st->val[reg];
	}
	if (st->vals_known)
		o->set |= r->val_mask;
	for (d = o->set & r->same_mask; d; d &= d - 1) {
		int reg = __builtin_ctz(d);
		o->regs[reg] = regs[reg];
	}
	return 0;
}
