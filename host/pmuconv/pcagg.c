// SPDX-License-Identifier: MIT
/* Builds the per-event profiles: name interning, the unique-stack table,
 * per-CPU tallies, the pc_set of one input, and its stream consumer. */
#include "pcagg.h"
#include "msort.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ------------------------------------------------------------ */

static bool name_needs_escape(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ';' || c < 0x20 || c == 0x7f)
			return true;
	}
	return false;
}

size_t pc_escape_name(char *dst, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		dst[i] = c == ';' ? ':' : (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	return len;
}

static int64_t pc_strtab__intern_slow(struct pc_strtab *t, const char *s, size_t len, int kind);

static uint64_t strtab_hash(const void *t, uint32_t id)
{
	return ((const struct pc_strtab *)t)->hashes[id];
}

static int64_t strtab_intern_raw(struct pc_strtab *t, const char *s, size_t len, int kind)
{
	uint64_t h = pc_hash_bytes(s, len, PC_HASH_SEED + (uint64_t)kind);
	size_t j;
	int r;

	if ((r = pc_htab__reserve(&t->index, 1024, strtab_hash, t)))
		return r;
	for (j = pc_htab__slot(&t->index, h); t->index.slots[j]; j = pc_htab__next(&t->index, j)) {
		uint32_t id = t->index.slots[j] - 1;
		const struct pc_name *n = &t->names[id];
		if (t->hashes[id] == h && n->kind == kind && !strncmp(n->name, s, len) &&
		    n->name[len] == 0)
			return id;
	}
	if (t->nr >= t->cap) {
		size_t c1 = t->cap, c2 = t->cap;
		if (pc_grow((void **)&t->names, &c1, t->nr + 1, sizeof(*t->names)) ||
		    pc_grow((void **)&t->hashes, &c2, t->nr + 1, sizeof(*t->hashes)))
			return -ENOMEM;
		t->cap = c1 < c2 ? c1 : c2;
	}
	char *copy = pc_arena__strndup(&t->arena, s, len);
	if (!copy)
		return -ENOMEM;
	t->names[t->nr].name = copy;
	t->names[t->nr].kind = (uint8_t)kind;
	t->names[t->nr].src = NULL;
	t->hashes[t->nr] = h;
	pc_htab__set(&t->index, j, (uint32_t)t->nr);
	return (int64_t)t->nr++;
}

int64_t pc_strtab__intern(struct pc_strtab *t, const char *s, size_t len, int kind)
{
	/* frames name symbols by pointers into symbol tables: the same
	 * pointer comes back for every sample through that function. The
	 * slot's id is taken only if its stored name is these very bytes
	 * with this kind (so a reused buffer is no risk); a name that needed
	 * escaping is stored escaped, never equal: it takes the long way. */
	size_t slot =
		(size_t)(((uintptr_t)s * 0x9e3779b97f4a7c15ull + len * 31u + (unsigned)kind) >>
			 56) %
		PC_STRTAB_RECENT;
	if (t->recent[slot].s == s && t->recent[slot].len == len && t->recent[slot].id1) {
		const struct pc_name *n = &t->names[t->recent[slot].id1 - 1];
		if (n->kind == kind && !memcmp(n->name, s, len) && n->name[len] == 0)
			return t->recent[slot].id1 - 1;
	}
	int64_t id = pc_strtab__intern_slow(t, s, len, kind);
	if (id >= 0 && len <= UINT32_MAX) {
		t->recent[slot].s = s;
		t->recent[slot].len = (uint32_t)len;
		t->recent[slot].id1 = (uint32_t)id + 1;
	}
	return id;
}

static int64_t pc_strtab__intern_slow(struct pc_strtab *t, const char *s, size_t len, int kind)
{
	if (name_needs_escape(s, len)) {
		char *tmp = malloc(len ? len : 1);
		int64_t r;

		if (!tmp)
			return -ENOMEM;
		pc_escape_name(tmp, s, len);
		r = strtab_intern_raw(t, tmp, len, kind);
		free(tmp);
		return r;
	}
	return strtab_intern_raw(t, s, len, kind);
}

int pc_strtab__set_src(struct pc_strtab *t, uint32_t id, const char *src)
{
	if (id >= t->nr || t->names[id].src || !src)
		return 0;
	t->names[id].src = pc_arena__strndup(&t->arena, src, strlen(src));
	return t->names[id].src ? 0 : -ENOMEM;
}

void pc_strtab__free(struct pc_strtab *t)
{
	pc_arena__free(&t->arena);
	free(t->names);
	free(t->hashes);
	pc_htab__free(&t->index);
	memset(t, 0, sizeof(*t));
}

/* ---- stacks ------------------------------------------------------------ */

static uint64_t hash_frames(const uint32_t *f, uint32_t nr)
{
	uint64_t h = pc_mix(PC_HASH_SEED, nr);
	uint32_t i = 0;

	for (; i + 1 < nr; i += 2)
		h = pc_mix(h, (uint64_t)f[i] | (uint64_t)f[i + 1] << 32);
	if (i < nr)
		h = pc_mix(h, f[i]);
	return pc_fmix(h);
}

static uint64_t ent_hash(const void *a, uint32_t i)
{
	return ((const struct pc_agg *)a)->ents[i].hash;
}

int pc_agg__add(struct pc_agg *a, const uint32_t *frames, uint32_t nr, uint64_t samples,
		uint64_t weight)
{
	uint64_t h = hash_frames(frames, nr);
	size_t j;
	int r;

	if (a->finished)
		return -EINVAL;
	if ((r = pc_htab__reserve(&a->ents_index, 4096, ent_hash, a)))
		return r;
	for (j = pc_htab__slot(&a->ents_index, h); a->ents_index.slots[j];
	     j = pc_htab__next(&a->ents_index, j)) {
		struct pc_stackent *e = &a->ents[a->ents_index.slots[j] - 1];
		if (e->hash == h && e->nr == nr &&
		    (!nr || !memcmp(a->pool + e->off, frames, nr * sizeof(*frames)))) {
			e->samples += samples;
			e->weight += weight;
			return 0;
		}
	}
	if (pc_grow((void **)&a->ents, &a->cap_ents, a->nr_ents + 1, sizeof(*a->ents)) ||
	    pc_grow((void **)&a->pool, &a->pool_cap, a->pool_nr + nr, sizeof(*a->pool)))
		return -ENOMEM;
	if (nr) /* pool may still be NULL */
		memcpy(a->pool + a->pool_nr, frames, nr * sizeof(*frames));
	a->ents[a->nr_ents] = (struct pc_stackent){
		.hash = h, .off = a->pool_nr, .nr = nr, .samples = samples, .weight = weight};
	a->pool_nr += nr;
	pc_htab__set(&a->ents_index, j, (uint32_t)a->nr_ents++);
	return 0;
}

int pc_agg__add_cpu(struct pc_agg *a, uint32_t cpu, uint64_t samples, uint64_t weight)
{
	if (cpu >= 65536)
		return -ERANGE;
	if (cpu >= a->nr_cpus) {
		size_t cap = a->nr_cpus;
		if (pc_grow((void **)&a->cpus, &cap, (size_t)cpu + 1, sizeof(*a->cpus)))
			return -ENOMEM;
		memset(a->cpus + a->nr_cpus, 0, (cap - a->nr_cpus) * sizeof(*a->cpus));
		a->nr_cpus = cap;
	}
	a->cpus[cpu].samples += samples;
	a->cpus[cpu].weight += weight;
	return 0;
}

static const struct pc_agg *sort_agg; /* qsort has no context argument */

static int cmp_stack(const void *pa, const void *pb)
{
	const struct pc_stack *x = pa, *y = pb;
	const struct pc_name *n = sort_agg->names.names;
	uint32_t m = x->nr < y->nr ? x->nr : y->nr;

	for (uint32_t i = 0; i < m; i++) {
		if (x->frames[i] == y->frames[i])
			continue;
		int c = strcmp(n[x->frames[i]].name, n[y->frames[i]].name);
		if (c)
			return c;
		c = (int)n[x->frames[i]].kind - (int)n[y->frames[i]].kind;
		if (c)
			return c;
	}
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

PC_DEFINE_MSORT(sort_stacks, struct pc_stack, cmp_stack)

int pc_agg__finish(struct pc_agg *a)
{
	struct pc_profile *p = &a->prof;

	if (a->finished)
		return 0;
	p->names = a->names.names;
	p->nr_names = a->names.nr;
	p->stacks = calloc(a->nr_ents ? a->nr_ents : 1, sizeof(*p->stacks));
	if (!p->stacks)
		return -ENOMEM;
	p->nr_stacks = a->nr_ents;
	p->total_samples = p->total_weight = 0;
	for (size_t i = 0; i < a->nr_ents; i++) {
		struct pc_stackent *e = &a->ents[i];
		p->stacks[i] = (struct pc_stack){.nr = e->nr,
						 .frames = a->pool + e->off,
						 .samples = e->samples,
						 .weight = e->weight};
		p->total_samples += e->samples;
		p->total_weight += e->weight;
	}
	sort_agg = a;
	sort_stacks(p->stacks, p->nr_stacks);
	sort_agg = NULL;
	pc_htab__free(&a->ents_index);
	a->finished = true;
	return 0;
}

void pc_agg__free(struct pc_agg *a)
{
	if (!a)
		return;
	pc_strtab__free(&a->names);
	free(a->ents);
	pc_htab__free(&a->ents_index);
	free(a->pool);
	free(a->cpus);
	free(a->prof.stacks);
	free(a);
}

/* ---- sets -------------------------------------------------------------- */

struct pc_agg *pc_set__find(const struct pc_set *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->ev[i]->prof.event, name))
			return s->ev[i];
	return NULL;
}

struct pc_agg *pc_set__event(struct pc_set *s, const char *name)
{
	struct pc_agg *a = pc_set__find(s, name), **ev;

	if (a)
		return a;
	if (s->nr >= 4096) { /* hostile input naming endless events */
		errno = E2BIG;
		return NULL;
	}
	ev = realloc(s->ev, (s->nr + 1) * sizeof(*ev));
	if (!ev)
		return NULL;
	s->ev = ev;
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	snprintf(a->prof.event, sizeof(a->prof.event), "%s", name);
	snprintf(a->prof.unit, sizeof(a->prof.unit), "samples");
	a->index = (uint32_t)s->nr;
	s->ev[s->nr++] = a;
	return a;
}

int pc_set__finish(struct pc_set *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		int r = pc_agg__finish(s->ev[i]);
		if (r)
			return r;
	}
	return 0;
}

void pc_set__free(struct pc_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++)
		pc_agg__free(s->ev[i]);
	free(s->ev);
	memset(s, 0, sizeof(*s));
}

void pc_set__skip(struct pc_set *s, const char *fmt, ...)
{
	va_list ap;

	if (s->acct.skipped++ == 0) {
		va_start(ap, fmt);
		vsnprintf(s->acct.first_skip, sizeof(s->acct.first_skip), fmt, ap);
		va_end(ap);
	}
}

/* ---- the profile builder, a stream consumer ---------------------------- */

/* --annotate-node: the stack out[n] once per data node among the sample's
 * data accesses, with a leaf pseudo-frame "[node N]" ("[node unknown]" for
 * an access whose node is unknown); what is left (no data access) is
 * returned in *samples, *weight for the plain stack. */
static int add_by_node(struct pc_agg *a, const struct pc_sample *s, uint32_t *out, uint32_t n,
		       uint64_t *samples, uint64_t *weight)
{
	for (uint32_t i = 0; i < s->nr_addr; i++) {
		const struct pc_addr_part *p = &s->addr[i];
		uint64_t ns = 0, nw = 0;
		char name[32];
		int64_t id;
		int r, len;

		if (p->data_page == PS_NONE)
			continue;
		/* the first part of each node takes every part of that node */
		bool first = true;
		for (uint32_t j = 0; j < i && first; j++)
			first = !(s->addr[j].data_page != PS_NONE &&
				  s->addr[j].data_node1 == p->data_node1);
		if (!first)
			continue;
		for (uint32_t j = i; j < s->nr_addr; j++)
			if (s->addr[j].data_page != PS_NONE &&
			    s->addr[j].data_node1 == p->data_node1) {
				ns += s->addr[j].samples;
				nw += s->addr[j].weight;
			}
		len = p->data_node1 ? snprintf(name, sizeof(name), "[node %u]", p->data_node1 - 1u)
				    : snprintf(name, sizeof(name), "[node unknown]");
		if ((id = pc_strtab__intern(&a->names, name, (size_t)len, PC_FRAME_USER)) < 0)
			return (int)id;
		out[n] = (uint32_t)id;
		if ((r = pc_agg__add(a, out, n + 1, ns, nw)))
			return r;
		*samples -= ns < *samples ? ns : *samples;
		*weight -= nw < *weight ? nw : *weight;
	}
	return 0;
}

int pc_set__consume(void *ctx, const struct pc_sample *s)
{
	struct pc_set *set = ctx;
	struct pc_agg *a = set->ev[s->event];
	const struct pc_filter *f = set->filter;
	int mode = f ? f->mode : PC_MODE_ALL;
	uint32_t nr = s->nr < PC_MAX_FRAMES ? s->nr : PC_MAX_FRAMES, n = 0;
	uint32_t ids[PC_MAX_FRAMES], out[PC_MAX_FRAMES + 2]; /* + process root, node leaf */
	bool any = false;
	int64_t id;
	int r;

	for (uint32_t i = 0; i < nr; i++) {
		const struct pc_frame *fr = &s->frames[i];
		if ((id = pc_strtab__intern(&a->names, fr->name, fr->len, fr->kind)) < 0)
			return (int)id;
		if (fr->src && (r = pc_strtab__set_src(&a->names, (uint32_t)id, fr->src)))
			return r;
		ids[i] = (uint32_t)id;
	}
	if (s->comm && !(f && f->no_process)) {
		id = s->comm_len
			     ? pc_strtab__intern(&a->names, s->comm, s->comm_len, PC_FRAME_PROCESS)
			     : pc_strtab__intern(&a->names, "[unknown]", 9, PC_FRAME_PROCESS);
		if (id < 0)
			return (int)id;
		out[n++] = (uint32_t)id;
	}
	for (uint32_t k = 0; k < nr; k++) {
		uint32_t i = s->root_first ? k : nr - 1 - k;
		if ((mode == PC_MODE_KERNEL_ONLY && !s->frames[i].kernel) ||
		    (mode == PC_MODE_USER_ONLY && s->frames[i].kernel))
			continue;
		out[n++] = ids[i];
		any = true;
	}
	if (mode != PC_MODE_ALL && !any) {
		set->acct.filtered += s->samples;
		return 0;
	}
	uint64_t rest_samples = s->samples, rest_weight = s->weight;
	if (f && f->annotate_node && (r = add_by_node(a, s, out, n, &rest_samples, &rest_weight)))
		return r;
	if (rest_samples && (r = pc_agg__add(a, out, n, rest_samples, rest_weight)))
		return r;
	a->acct.kept += s->samples;
	a->acct.weight += s->weight;
	return 0;
}

void pc_set__stream(struct pc_set *s, const struct pc_filter *f, struct pc_stream *st)
{
	s->filter = f;
	*st = (struct pc_stream){0};
	pc_stream__add(st, (struct pc_consumer){.fn = pc_set__consume,
						.ctx = s,
						.wants_addr = f && f->annotate_node});
}
