// SPDX-License-Identifier: MIT
/*
 * Per-mapping page-size tables: every data access (pc_access) is counted
 * against the recorded mapping that covered it (pmuprof MMAP frames; the
 * input picks the snapshot that was current at the sample's time, so a pid
 * that exec()s is attributed to the image it ran then), per view (user or
 * kernel mode), with the page sizes the samples found there and an estimate
 * of how many distinct 4K pages and 2M regions the program touched in it.
 *
 * The same mapping recorded in several snapshots (maps are re-read while a
 * process runs, at exec and at exit) is one row: same pid, start, file
 * offset and path; its extent is the largest recorded ([heap] grows).
 */
#include "pagemap.h"
#include "textparse.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SZ_4K_SHIFT 12
#define SZ_2M_SHIFT 21

struct pm_map {
	uint32_t event;
	int32_t pid;
	int kind;
	uint64_t start, end, pgoff;
	const char *path;				/* in the arena */
	uint64_t samples[2][PS__NR], weight[2][PS__NR]; /* [kernel mode][page] */
};

struct pm_acc {
	uint32_t map;
	uint8_t kmode;
	uint64_t addr;
};

struct ps_maps {
	struct pm_map *maps;
	size_t nr, cap;
	struct pm_acc *acc;
	size_t nr_acc, cap_acc;
	size_t last; /* the previous access's map + 1: accesses come in runs */
	struct pc_arena names;
};

struct ps_maps *ps_maps__new(void)
{
	return calloc(1, sizeof(struct ps_maps));
}

void ps_maps__free(struct ps_maps *m)
{
	if (!m)
		return;
	free(m->maps);
	free(m->acc);
	pc_arena__free(&m->names);
	free(m);
}

int ps_map_kind_of(const char *path)
{
	if (!path[0] || !strncmp(path, "[anon:", 6))
		return PS_MAP_ANON;
	if (!strcmp(path, "[heap]"))
		return PS_MAP_HEAP;
	if (!strncmp(path, "[stack", 6))
		return PS_MAP_STACK;
	if (path[0] == '[')
		return PS_MAP_SPECIAL;
	/* MAP_HUGETLB anonymous memory shows as "/anon_hugepage (deleted)";
	 * files of a mounted hugetlbfs under its mount point (not known here) */
	if (!strncmp(path, "/anon_hugepage", 14))
		return PS_MAP_HUGETLB;
	return PS_MAP_FILE;
}

static bool same_map(const struct pm_map *p, uint32_t ev, int32_t pid, int kind, uint64_t start,
		     uint64_t pgoff, const char *path)
{
	return p->event == ev && p->pid == pid && p->kind == kind && p->start == start &&
	       p->pgoff == pgoff && !strcmp(p->path, path);
}

int ps_maps__add(struct ps_maps *m, const struct pc_access *x)
{
	const struct pc_mapping *pm = x->map;
	int32_t pid = pm ? pm->pid : -1;
	uint64_t start = pm ? pm->start : 0, end = pm ? pm->end : 0, pgoff = pm ? pm->pgoff : 0;
	const char *path = pm ? pm->path : x->addr >= KERNEL_ADDR_MIN ? "[kernel]" : "[unmapped]";
	int kind = pm				? ps_map_kind_of(path)
		   : x->addr >= KERNEL_ADDR_MIN ? PS_MAP_KERNEL
						: PS_MAP_UNMAPPED;
	size_t i = m->nr;
	int page = x->page < PS__NR ? x->page : PS_UNKNOWN;

	if (m->last && same_map(&m->maps[m->last - 1], x->event, pid, kind, start, pgoff, path))
		i = m->last - 1;
	else
		for (i = 0; i < m->nr; i++)
			if (same_map(&m->maps[i], x->event, pid, kind, start, pgoff, path))
				break;
	if (i == m->nr) {
		if (pc_grow((void **)&m->maps, &m->cap, m->nr + 1, sizeof(*m->maps)))
			return -ENOMEM;
		struct pm_map *n = &m->maps[m->nr];
		*n = (struct pm_map){.event = x->event,
				     .pid = pid,
				     .kind = kind,
				     .start = start,
				     .end = end,
				     .pgoff = pgoff};
		if (!(n->path = pc_arena__strndup(&m->names, path, strlen(path))))
			return -ENOMEM;
		m->nr++;
	}
	struct pm_map *p = &m->maps[i];
	if (end > p->end)
		p->end = end;
	p->samples[x->kernel_mode][page]++;
	p->weight[x->kernel_mode][page] += x->weight;
	m->last = i + 1;
	if (pc_grow((void **)&m->acc, &m->cap_acc, m->nr_acc + 1, sizeof(*m->acc)))
		return -ENOMEM;
	m->acc[m->nr_acc++] = (struct pm_acc){(uint32_t)i, x->kernel_mode, x->addr};
	return 0;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

void ps_density__estimate(uint64_t *keys, size_t n, uint64_t cap, struct ps_density *d)
{
	*d = (struct ps_density){.samples = n, .cap = cap};
	qsort(keys, n, sizeof(*keys), cmp_u64);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && keys[j] == keys[i])
			j++;
		d->seen++;
		d->once += j - i == 1;
		d->twice += j - i == 2;
		i = j;
	}
	/* Chao1, bias-corrected (defined when no key was seen twice) */
	double est = (double)d->seen +
		     (double)d->once * (double)(d->once ? d->once - 1 : 0) / (2.0 * (d->twice + 1));
	d->estimate = (uint64_t)(est + 0.5);
	if (cap && d->estimate > cap)
		d->estimate = cap;
	if (d->estimate < d->seen)
		d->estimate = d->seen;
	d->coverage = n ? 1.0 - (double)d->once / (double)n : 0.0;
	d->confidence = d->coverage >= 0.9   ? PS_CONF_HIGH
			: d->coverage >= 0.5 ? PS_CONF_MEDIUM
					     : PS_CONF_LOW;
}

static int cmp_map_weight(const void *pa, const void *pb)
{
	const struct ps_mapping *a = pa, *b = pb;

	if (a->weight != b->weight)
		return a->weight < b->weight ? 1 : -1;
	if (a->samples != b->samples)
		return a->samples < b->samples ? 1 : -1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* Pages of 1 << shift bytes that [start, end) overlaps (0: no extent). */
static uint64_t nr_units(uint64_t start, uint64_t end, int shift)
{
	return end > start ? ((end - 1) >> shift) - (start >> shift) + 1 : 0;
}

int ps_maps__fill(const struct ps_maps *m, uint32_t ev, struct ps_event *e)
{
	struct ps_mapping *v = calloc(m->nr + 1, sizeof(*v));
	uint32_t *idx = calloc(m->nr + 1, sizeof(*idx));
	uint64_t *keys = NULL;
	size_t n = 0;
	int r = 0;

	if (!v || !idx) {
		r = -ENOMEM;
		goto out;
	}
	e->has_maps = true;
	for (size_t i = 0; i < m->nr; i++) {
		const struct pm_map *p = &m->maps[i];
		struct ps_mapping *o = &v[n];
		if (p->event != ev)
			continue;
		memset(o, 0, sizeof(*o));
		for (int k = 0; k < 2; k++) {
			if ((e->view == PS_VIEW_USER && k) || (e->view == PS_VIEW_KERNEL && !k))
				continue;
			for (int pg = 0; pg < PS__NR; pg++) {
				o->page_samples[pg] += p->samples[k][pg];
				o->page_weight[pg] += p->weight[k][pg];
				o->samples += p->samples[k][pg];
				o->weight += p->weight[k][pg];
			}
		}
		if (!o->samples)
			continue;
		snprintf(o->name, sizeof(o->name), "%s", p->path[0] ? p->path : "[anon]");
		o->kind = p->kind;
		o->pid = p->pid;
		o->start = p->start;
		o->end = p->end;
		o->pages_4k.cap = i; /* the source map, until sorted */
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_map_weight);
	e->nr_maps = n < PS_MAP_MAX ? n : PS_MAP_MAX;
	e->other_maps = n - e->nr_maps;
	for (size_t i = e->nr_maps; i < n; i++) {
		e->other_samples += v[i].samples;
		e->other_weight += v[i].weight;
	}
	for (size_t i = 0; i < e->nr_maps; i++)
		idx[i] = (uint32_t)v[i].pages_4k.cap;
	if (!(keys = malloc((m->nr_acc + 1) * sizeof(*keys)))) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < e->nr_maps; i++) {
		struct ps_mapping *o = &v[i];
		size_t k = 0;
		for (size_t a = 0; a < m->nr_acc; a++) {
			const struct pm_acc *x = &m->acc[a];
			if (x->map != idx[i] || (e->view == PS_VIEW_USER && x->kmode) ||
			    (e->view == PS_VIEW_KERNEL && !x->kmode))
				continue;
			keys[k++] = x->addr >> SZ_4K_SHIFT;
		}
		ps_density__estimate(keys, k, nr_units(o->start, o->end, SZ_4K_SHIFT),
				     &o->pages_4k);
		for (size_t j = 0; j < k; j++)
			keys[j] >>= SZ_2M_SHIFT - SZ_4K_SHIFT;
		ps_density__estimate(keys, k, nr_units(o->start, o->end, SZ_2M_SHIFT),
				     &o->regions_2m);
		e->maps[i] = *o;
	}
out:
	free(keys);
	free(idx);
	free(v);
	return r;
}
