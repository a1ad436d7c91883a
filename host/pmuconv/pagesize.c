// SPDX-License-Identifier: MIT
/* The page-size consumer of the sample stream: data and code page-size
 * shares per event, the top symbols and processes, and their text/JSON. */
#include "pagesize.h"
#include "pagemap.h"
#include "verdict.h"
#include "pcagg.h"
#include "tlbevent.h"
#include "tlbinfo.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>

#define PS_MAX_EVENTS 16

/* One stream sample with a data address, for the top tables: its names are
 * copied (the input's symbols do not outlive the load). */
struct ps_ent {
	const char *sym, *comm;
	uint32_t event;
	uint8_t page, kmode;
	uint64_t samples, weight;
};

struct pagesize_acc {
	int mode; /* enum pc_mode_filter */
	bool together;
	struct ps_event ev[PS_MAX_EVENTS][2]; /* counters, [event][kernel mode] */
	struct ps_ent *ents;
	size_t nr, cap;
	struct pc_arena names;
	struct ps_maps *maps;
	bool has_access; /* the input delivered data accesses */
};

struct pagesize_acc *pagesize_acc__new(int mode, bool together)
{
	struct pagesize_acc *a = calloc(1, sizeof(struct pagesize_acc));

	if (a && !(a->maps = ps_maps__new())) {
		free(a);
		return NULL;
	}
	if (a) {
		a->mode = mode;
		a->together = together;
	}
	return a;
}

void pagesize_acc__free(struct pagesize_acc *a)
{
	if (!a)
		return;
	free(a->ents);
	pc_arena__free(&a->names);
	ps_maps__free(a->maps);
	free(a);
}

struct pc_consumer pagesize_acc__consumer(struct pagesize_acc *a)
{
	return (struct pc_consumer){.fn = pagesize_acc__consume,
				    .ctx = a,
				    .wants_addr = true,
				    .access = pagesize_acc__access};
}

static void split_add(struct ps_split *sp, int page, uint64_t n, uint64_t w)
{
	sp->samples[page] += n;
	sp->weight[page] += w;
	sp->total_samples += n;
	sp->total_weight += w;
}

static void split_merge(struct ps_split *d, const struct ps_split *x)
{
	for (int p = 0; p < PS__NR; p++)
		split_add(d, p, x->samples[p], x->weight[p]);
}

/* Both modes are always counted (user and kernel apart); the views are
 * chosen when summarizing. */
int pagesize_acc__consume(void *ctx, const struct pc_sample *s)
{
	struct pagesize_acc *a = ctx;
	struct ps_event *ev;
	struct ps_ent *e;

	if (s->event >= PS_MAX_EVENTS)
		return 0;
	ev = &a->ev[s->event][s->kernel_mode];
	ev->samples += s->samples;
	for (const struct pc_addr_part *p = s->addr; p < s->addr + s->nr_addr; p++) {
		ev->with_addr += p->samples;
		ev->addr_status[p->status & 7] += p->samples;
		split_add(&ev->code, p->code_page, p->samples, p->weight);
		if (p->data_page == PS_NONE) {
			ev->no_data_access += p->samples;
			continue;
		}
		split_add(&ev->data, p->data_page, p->samples, p->weight);
		if (pc_grow((void **)&a->ents, &a->cap, a->nr + 1, sizeof(*a->ents)))
			return -ENOMEM;
		e = &a->ents[a->nr];
		*e = (struct ps_ent){NULL,	     NULL,	 s->event, p->data_page,
				     s->kernel_mode, p->samples, p->weight};
		e->sym = pc_arena__strndup(&a->names, p->ip_name, strlen(p->ip_name));
		e->comm = pc_arena__strndup(&a->names, s->comm ? s->comm : "", s->comm_len);
		if (!e->sym || !e->comm)
			return -ENOMEM;
		a->nr++;
	}
	return 0;
}

int pagesize_acc__access(void *ctx, const struct pc_access *x)
{
	struct pagesize_acc *a = ctx;

	a->has_access = true;
	return x->event < PS_MAX_EVENTS ? ps_maps__add(a->maps, x) : 0;
}

static bool in_view(int view, int kmode)
{
	return view == PS_VIEW_ALL || (view == PS_VIEW_KERNEL) == !!kmode;
}

struct named {
	const char *name;
	uint8_t page;
	uint64_t samples, weight;
};

static int cmp_named_key(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;

	if (a->page != b->page)
		return a->page - b->page;
	return strcmp(a->name, b->name);
}

static int cmp_named_weight(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;

	if (a->weight != b->weight)
		return a->weight < b->weight ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* Merge equal (page, name) in place; returns the new count. */
static size_t merge_named(struct named *v, size_t n)
{
	size_t m = 0;

	qsort(v, n, sizeof(*v), cmp_named_key);
	for (size_t i = 0; i < n; i++) {
		if (m && v[m - 1].page == v[i].page && !strcmp(v[m - 1].name, v[i].name)) {
			v[m - 1].samples += v[i].samples;
			v[m - 1].weight += v[i].weight;
		} else {
			v[m++] = v[i];
		}
	}
	return m;
}

/* Merge equal (page, name), then keep the heaviest PS_TOP_MAX per page. */
static void fill_top(struct named *v, size_t n, struct ps_top top[PS__NR][PS_TOP_MAX],
		     size_t nr_top[PS__NR])
{
	size_t m = merge_named(v, n);

	qsort(v, m, sizeof(*v), cmp_named_weight);
	for (size_t i = 0; i < m; i++) {
		int p = v[i].page;
		if (p >= PS__NR || nr_top[p] >= PS_TOP_MAX)
			continue;
		struct ps_top *t = &top[p][nr_top[p]++];
		snprintf(t->name, sizeof(t->name), "%s", v[i].name);
		t->samples = v[i].samples;
		t->weight = v[i].weight;
	}
}

static int cmp_func(const void *pa, const void *pb)
{
	const struct ps_func *a = pa, *b = pb;

	if (a->weight != b->weight)
		return a->weight < b->weight ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int cmp_named_name(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

/* The view's functions over all page sizes, the heaviest PS_TOP_MAX
 * (v: the view's entries as (name, page, samples, weight); sorted here). */
static void fill_funcs(struct ps_event *pe, struct named *v, size_t n)
{
	struct ps_func f[PS_TOP_MAX + 1];
	size_t nf = 0;

	qsort(v, n, sizeof(*v), cmp_named_name);
	for (size_t i = 0; i < n;) {
		struct ps_func cur = {0};
		size_t j = i;
		snprintf(cur.name, sizeof(cur.name), "%s", v[i].name);
		for (; j < n && !strcmp(v[j].name, v[i].name); j++) {
			cur.samples += v[j].samples;
			cur.weight += v[j].weight;
			cur.page_samples[v[j].page < PS__NR ? v[j].page : PS_UNKNOWN] +=
				v[j].samples;
		}
		i = j;
		if (nf == PS_TOP_MAX && cmp_func(&cur, &f[nf - 1]) >= 0)
			continue;
		f[nf < PS_TOP_MAX ? nf++ : nf - 1] = cur;
		qsort(f, nf, sizeof(*f), cmp_func);
	}
	memcpy(pe->funcs, f, nf * sizeof(*f));
	pe->nr_funcs = nf;
}

static int summarize_view(const struct pagesize_acc *a, const struct pc_set *set, size_t e,
			  int view, struct ps_event *pe, struct named *syms, struct named *procs)
{
	const struct ps_event *u = &a->ev[e][0], *k = &a->ev[e][1];

	*pe = view == PS_VIEW_KERNEL ? *k : *u;
	if (view == PS_VIEW_ALL) {
		pe->samples += k->samples;
		pe->with_addr += k->with_addr;
		pe->no_data_access += k->no_data_access;
		for (int i = 0; i < 8; i++)
			pe->addr_status[i] += k->addr_status[i];
		split_merge(&pe->data, &k->data);
		split_merge(&pe->code, &k->code);
	}
	pe->view = view;
	pe->all_samples = u->samples + k->samples;
	snprintf(pe->event, sizeof(pe->event), "%s", set->ev[e]->prof.event);
	snprintf(pe->unit, sizeof(pe->unit), "%s", set->ev[e]->prof.unit);
	pe->kind = ps_event_kind(pe->event, set->ev[e]->acct.resolved, set->ev[e]->acct.config,
				 set->acct.cpu_vendor, set->acct.cpu_family, pe->unit);
	size_t n = 0;
	for (size_t i = 0; i < a->nr; i++) {
		const struct ps_ent *x = &a->ents[i];
		if (x->event != e || !in_view(view, x->kmode))
			continue;
		syms[n] = (struct named){x->sym, x->page, x->samples, x->weight};
		procs[n] = syms[n];
		procs[n++].name = x->comm;
		if (x->kmode && ps_is_zeroing_fn(x->sym)) {
			pe->zero_samples += x->samples;
			pe->zero_weight += x->weight;
		}
	}
	size_t n0 = n;
	n = merge_named(syms, n);
	fill_funcs(pe, syms, n);
	/* the heaviest zeroing function, by name over all pages */
	uint64_t best = 0;
	for (size_t i = 0; i < pe->nr_funcs; i++)
		if (ps_is_zeroing_fn(pe->funcs[i].name) && pe->funcs[i].samples > best) {
			best = pe->funcs[i].samples;
			snprintf(pe->zero_fn, sizeof(pe->zero_fn), "%s", pe->funcs[i].name);
		}
	fill_top(syms, n, pe->top_syms, pe->nr_top_syms);
	fill_top(procs, n0, pe->top_procs, pe->nr_top_procs);
	return 0;
}

struct pagesize_summary *pagesize_acc__summarize(const struct pagesize_acc *a,
						 const struct pc_set *set)
{
	struct pagesize_summary *s = calloc(1, sizeof(*s));
	struct named *syms = calloc(a->nr + 1, sizeof(*syms));
	struct named *procs = calloc(a->nr + 1, sizeof(*procs));
	int views[2], nv = 0;

	if (a->together)
		views[nv++] = PS_VIEW_ALL;
	else if (a->mode == PC_MODE_USER_ONLY)
		views[nv++] = PS_VIEW_USER;
	else if (a->mode == PC_MODE_KERNEL_ONLY)
		views[nv++] = PS_VIEW_KERNEL;
	else {
		views[nv++] = PS_VIEW_USER;
		views[nv++] = PS_VIEW_KERNEL;
	}
	if (!s || !syms || !procs || !(s->events = calloc(PS_MAX_EVENTS * 2, sizeof(*s->events)))) {
		pagesize_summary__free(s);
		s = NULL;
		errno = ENOMEM;
		goto out;
	}
	s->source = set->acct.source;
	snprintf(s->cpu_model, sizeof(s->cpu_model), "%s", set->acct.cpu_model);
	s->tlb = ps_tlb_for(s->cpu_model);
	s->has_data_addr = set->acct.has_data_addr;
	s->has_code_page = set->acct.has_code_page;
	s->duration_s = set->acct.has_time ? (double)set->acct.duration_ns / 1e9 : 0;
	for (size_t e = 0; e < set->nr && e < PS_MAX_EVENTS; e++)
		for (int v = 0; v < nv; v++) {
			struct ps_event *pe = &s->events[s->nr_events++];
			summarize_view(a, set, e, views[v], pe, syms, procs);
			if (a->has_access && ps_maps__fill(a->maps, (uint32_t)e, pe)) {
				pagesize_summary__free(s);
				s = NULL;
				errno = ENOMEM;
				goto out;
			}
			ps_verdict__decide(pe, s->tlb);
		}
	/* a time event's verdict points to the recording's page-walk event */
	for (size_t i = 0; i < s->nr_events; i++)
		for (size_t j = 0; s->events[i].kind == PS_EV_TIME && j < s->nr_events; j++)
			if (ps_event_kind_walks(s->events[j].kind) && !s->events[i].walk_event[0])
				snprintf(s->events[i].walk_event, sizeof(s->events[i].walk_event),
					 "%s", s->events[j].event);
out:
	free(syms);
	free(procs);
	return s;
}

void pagesize_summary__free(struct pagesize_summary *s)
{
	if (!s)
		return;
	free(s->events);
	free(s);
}

static void print_split(FILE *out, const char *what, const struct ps_split *sp, const char *unit)
{
	fprintf(out, "  %-9s %10s %8s %16s %8s\n", what, "samples", "share", unit, "share");
	for (int p = 0; p < PS__NR; p++)
		fprintf(out, "  %-9s %10llu %7.2f%% %16llu %7.2f%%\n", ps_page_names[p],
			(unsigned long long)sp->samples[p],
			pc_pct(sp->samples[p], sp->total_samples),
			(unsigned long long)sp->weight[p], pc_pct(sp->weight[p], sp->total_weight));
}

static void print_top(FILE *out, const char *what, int p, const struct ps_top *t, size_t n,
		      const struct ps_split *data)
{
	fprintf(out, "%s on %s data pages:\n", what, ps_page_names[p]);
	for (size_t k = 0; k < n; k++)
		fprintf(out, "  %7.2f%% %10llu  %s\n", pc_pct(t[k].weight, data->weight[p]),
			(unsigned long long)t[k].samples, t[k].name);
}

static json_t *json_split(const struct ps_split *sp)
{
	json_t *j = json_pack("{s:I, s:I}", "samples", PC_JI(sp->total_samples), "weight",
			      PC_JI(sp->total_weight));

	for (int p = 0; p < PS__NR; p++)
		json_object_set_new(
			j, ps_page_names[p],
			json_pack("{s:I, s:I, s:o, s:o}", "samples", PC_JI(sp->samples[p]),
				  "weight", PC_JI(sp->weight[p]), "samples_percent",
				  pc_json_real(pc_pct(sp->samples[p], sp->total_samples), 4),
				  "weight_percent",
				  pc_json_real(pc_pct(sp->weight[p], sp->total_weight), 4)));
	return j;
}

static json_t *json_top(const struct ps_top t[PS__NR][PS_TOP_MAX], const size_t *nr)
{
	json_t *j = json_object(), *a;

	for (int p = 0; p < PS__NR; p++) {
		json_object_set_new(j, ps_page_names[p], a = json_array());
		for (size_t i = 0; i < nr[p]; i++)
			json_array_append_new(a, json_pack("{s:o, s:I, s:I}", "name",
							   pc_json_str(t[p][i].name), "samples",
							   PC_JI(t[p][i].samples), "weight",
							   PC_JI(t[p][i].weight)));
	}
	return j;
}

/* A row's share of the view's samples with a data address: by weight (the
 * order of the tables and the verdict's share), by samples without one. */
static double ps_share(uint64_t samples, uint64_t weight, const struct ps_split *d)
{
	return d->total_weight ? pc_pct(weight, d->total_weight)
			       : pc_pct(samples, d->total_samples);
}

static const char *const status_names[8] = {
	"ok", "no_mem_operand", "fetch_fault", "undecodable", "hidden", "5", "6", "other"};

static json_t *json_density(const struct ps_density *d)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:o, s:s}", "seen", PC_JI(d->seen), "estimate",
			 PC_JI(d->estimate), "max", PC_JI(d->cap), "sampled_once", PC_JI(d->once),
			 "sampled_twice", PC_JI(d->twice), "coverage", pc_json_real(d->coverage, 4),
			 "confidence", ps_confidence_names[d->confidence]);
}

/* { "4K": n, ... } */
static json_t *json_by_page(const uint64_t *n)
{
	json_t *j = json_object();

	for (int p = 0; p < PS__NR; p++)
		json_object_set_new(j, ps_page_names[p], json_integer(PC_JI(n[p])));
	return j;
}

static void json_event_extra(json_t *o, const struct ps_event *e)
{
	json_t *fn = json_array(), *maps = e->has_maps ? json_array() : json_null();

	for (size_t i = 0; i < e->nr_funcs; i++) {
		const struct ps_func *f = &e->funcs[i];
		json_t *j =
			json_pack("{s:o, s:I, s:I, s:o}", "name", pc_json_str(f->name), "samples",
				  PC_JI(f->samples), "weight", PC_JI(f->weight), "share_percent",
				  pc_json_real(ps_share(f->samples, f->weight, &e->data), 4));

		json_object_update_new(j, json_by_page(f->page_samples));
		json_array_append_new(fn, j);
	}
	json_object_set_new(o, "functions", fn);
	for (size_t i = 0; e->has_maps && i < e->nr_maps; i++) {
		const struct ps_mapping *m = &e->maps[i];

		json_array_append_new(
			maps,
			json_pack("{s:o, s:s, s:i, s:o, s:o, s:I, s:I, s:I, s:o, s:o, s:o, s:o}",
				  "name", pc_json_str(m->name), "kind", ps_map_kind_names[m->kind],
				  "pid", (int)m->pid, "start", pc_json_hex(m->start), "end",
				  pc_json_hex(m->end), "size", PC_JI(m->end - m->start), "samples",
				  PC_JI(m->samples), "weight", PC_JI(m->weight), "share_percent",
				  pc_json_real(ps_share(m->samples, m->weight, &e->data), 4),
				  "pages", json_by_page(m->page_samples), "distinct_4k_pages",
				  json_density(&m->pages_4k), "distinct_2m_regions",
				  json_density(&m->regions_2m)));
	}
	json_object_set_new(o, "mappings", maps);
	if (e->has_maps)
		json_object_set_new(o, "other_mappings",
				    json_pack("{s:I, s:I}", "count", PC_JI(e->other_maps),
					      "samples", PC_JI(e->other_samples)));
	json_object_set_new(o, "first_touch_zeroing",
			    json_pack("{s:I, s:I, s:o}", "samples", PC_JI(e->zero_samples),
				      "weight", PC_JI(e->zero_weight), "function",
				      pc_json_str(e->zero_fn[0] ? e->zero_fn : NULL)));
	json_object_set_new(o, "verdict", ps_verdict__json(e));
}

static void print_funcs(FILE *out, const struct ps_event *e)
{
	if (!e->nr_funcs)
		return;
	fprintf(out, "\nFunctions (share of the samples with a data address; their accesses by "
		     "page size):\n");
	fprintf(out, "  %7s %9s %7s %7s %7s %7s  %s\n", "share", "samples", "4K", "2M", "1G",
		"unknown", "function");
	for (size_t i = 0; i < e->nr_funcs; i++) {
		const struct ps_func *f = &e->funcs[i];
		fprintf(out, "  %6.2f%% %9llu", ps_share(f->samples, f->weight, &e->data),
			(unsigned long long)f->samples);
		for (int p = 0; p < PS__NR; p++)
			fprintf(out, " %6.1f%%", pc_pct(f->page_samples[p], f->samples));
		fprintf(out, "  %s\n", f->name);
	}
}

static void print_maps(FILE *out, const struct ps_event *e)
{
	if (!e->has_maps || !e->nr_maps)
		return;
	fprintf(out, "\nMappings the data addresses fall in (from the recording's maps; "
		     "distinct pages are estimated from the samples):\n");
	fprintf(out, "  %7s %9s %7s %7s %7s %7s %18s %18s  %s\n", "share", "samples", "4K", "2M",
		"1G", "unknown", "4K pages (conf)", "2M regions (conf)", "mapping");
	for (size_t i = 0; i < e->nr_maps; i++) {
		const struct ps_mapping *m = &e->maps[i];
		char p4[32], r2[32];
		snprintf(p4, sizeof(p4), "%llu (%s)", (unsigned long long)m->pages_4k.estimate,
			 ps_confidence_names[m->pages_4k.confidence]);
		snprintf(r2, sizeof(r2), "%llu (%s)", (unsigned long long)m->regions_2m.estimate,
			 ps_confidence_names[m->regions_2m.confidence]);
		fprintf(out, "  %6.2f%% %9llu", ps_share(m->samples, m->weight, &e->data),
			(unsigned long long)m->samples);
		for (int p = 0; p < PS__NR; p++)
			fprintf(out, " %6.1f%%", pc_pct(m->page_samples[p], m->samples));
		fprintf(out, " %18s %18s  %s", p4, r2, m->name);
		if (m->kind != PS_MAP_KERNEL && m->kind != PS_MAP_UNMAPPED)
			fprintf(out, " %#llx-%#llx (%llu KiB, pid %d)",
				(unsigned long long)m->start, (unsigned long long)m->end,
				(unsigned long long)((m->end - m->start) >> 10), (int)m->pid);
		fprintf(out, "\n");
	}
	if (e->other_maps)
		fprintf(out, "  %6.2f%% %9llu  (%zu more mappings)\n",
			ps_share(e->other_samples, e->other_weight, &e->data),
			(unsigned long long)e->other_samples, e->other_maps);
}

static void print_zeroing(FILE *out, const struct ps_event *e, const struct ps_event *kview)
{
	if (e->view != PS_VIEW_USER && e->zero_samples)
		fprintf(out,
			"First-touch zeroing: %.2f%% of this view's samples with a data address "
			"(%llu) are the kernel clearing new pages on first touch (%s): a one-time "
			"cost of creating the mapping, not of the access pattern; pages that are "
			"huge are zeroed whole, so it shows on their page size.\n",
			pc_pct(e->zero_samples, e->data.total_samples),
			(unsigned long long)e->zero_samples, e->zero_fn[0] ? e->zero_fn : "?");
	if (e->view == PS_VIEW_USER && e->all_samples > e->samples) {
		fprintf(out,
			"(%llu kernel-mode samples of this event, %.2f%%, are not in this view",
			(unsigned long long)(e->all_samples - e->samples),
			pc_pct(e->all_samples - e->samples, e->all_samples));
		if (kview && kview->zero_samples)
			fprintf(out, "; %llu of them are first-touch zeroing (%s)",
				(unsigned long long)kview->zero_samples, kview->zero_fn);
		fprintf(out, ")\n");
	}
}

int pagesize_print(FILE *out, const struct pagesize_summary *s, int json)
{
	if (json) {
		json_t *evs = json_array();

		for (size_t i = 0; i < s->nr_events; i++) {
			const struct ps_event *e = &s->events[i];
			json_t *st = json_object(), *o;

			for (int k = 0; k < 8; k++)
				json_object_set_new(st, status_names[k],
						    json_integer(PC_JI(e->addr_status[k])));
			o = json_pack(
				"{s:o, s:o, s:s, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
				"event", pc_json_str(e->event), "unit", pc_json_str(e->unit),
				"view", ps_view_names[e->view], "all_samples",
				PC_JI(e->all_samples), "samples", PC_JI(e->samples), "with_addr",
				PC_JI(e->with_addr), "no_data_access", PC_JI(e->no_data_access),
				"addr_status", st, "data", json_split(&e->data), "code",
				s->has_code_page ? json_split(&e->code) : json_null(),
				"top_symbols", json_top(e->top_syms, e->nr_top_syms),
				"top_processes", json_top(e->top_procs, e->nr_top_procs));
			json_event_extra(o, e);
			json_array_append_new(evs, o);
		}
		return pc_json_dump(
			out, json_pack("{s:o, s:b, s:b, s:{s:o, s:i, s:i, s:i}, s:o}", "source",
				       pc_json_str(s->source ? s->source : ""), "has_data_addr",
				       s->has_data_addr, "has_code_page", s->has_code_page, "tlb",
				       "name", pc_json_str(s->tlb->name), "l1d_4k",
				       (int)s->tlb->l1d_4k, "l1d_2m", (int)s->tlb->l1d_2m, "stlb",
				       (int)s->tlb->stlb, "events", evs));
	}
	fprintf(out, "source: %s\n", s->source ? s->source : "?");
	if (!s->has_data_addr) {
		fprintf(out,
			"This recording has no data addresses, so there are no page sizes to "
			"show.\nRecord with data addresses, e.g.: pmuctl record --data-addr -e "
			"EVENT -- COMMAND\n");
		return ferror(out) ? -EIO : 0;
	}
	for (size_t i = 0; i < s->nr_events; i++) {
		const struct ps_event *e = &s->events[i];
		const struct ps_event *kview =
			i + 1 < s->nr_events && s->events[i + 1].view == PS_VIEW_KERNEL &&
					!strcmp(s->events[i + 1].event, e->event)
				? &s->events[i + 1]
				: NULL;
		char unit[48];
		static const char *const view_title[PS_VIEW__NR] = {
			"user-mode samples", "kernel-mode samples",
			"user and kernel samples together"};
		/* a walk event's estimated events are walks, by the page size of the
		 * data they translated */
		bool walks = e->kind == PS_EV_WALKS || e->kind == PS_EV_WALKS_4K ||
			     e->kind == PS_EV_WALKS_2M || e->kind == PS_EV_WALKS_1G;
		snprintf(unit, sizeof(unit), "est.%s", walks ? "walks" : e->unit);
		fprintf(out,
			"\n== event %s, %s: %llu samples, %llu with address data, %llu with a data "
			"address ==\n",
			e->event, view_title[e->view], (unsigned long long)e->samples,
			(unsigned long long)e->with_addr,
			(unsigned long long)e->data.total_samples);
		if (e->no_data_access)
			fprintf(out,
				"(%llu samples had no data address: %llu no memory operand, %llu "
				"fetch fault, %llu undecodable, %llu hidden)\n",
				(unsigned long long)e->no_data_access,
				(unsigned long long)e->addr_status[1],
				(unsigned long long)e->addr_status[2],
				(unsigned long long)e->addr_status[3],
				(unsigned long long)e->addr_status[4]);
		if (!e->samples) {
			fprintf(out, "No samples in this view.\n");
			continue;
		}
		print_zeroing(out, e, kview);
		ps_verdict__print(out, e, s->tlb, "");
		if (walks)
			fprintf(out,
				"\nData page size (shares of samples with a data address; %s "
				"counts "
				"%s: these are walks by the page size of the data they "
				"translated):\n",
				e->event,
				e->kind == PS_EV_WALKS ? "page walks"
						       : ps_event_kind_phrase(e->kind));
		else
			fprintf(out, "\nData page size (shares of samples with a data address):\n");
		print_split(out, "page", &e->data, unit);
		if (s->has_code_page) {
			fprintf(out, "\nCode page size (shares of samples with address data):\n");
			print_split(out, "page", &e->code, unit);
		} else {
			fprintf(out, "\nCode page size: not recorded\n");
		}
		print_funcs(out, e);
		print_maps(out, e);
		for (int p = 0; p < PS__NR; p++) {
			if (!e->nr_top_syms[p])
				continue;
			print_top(out, "\nTop symbols", p, e->top_syms[p], e->nr_top_syms[p],
				  &e->data);
			print_top(out, "Top processes", p, e->top_procs[p], e->nr_top_procs[p],
				  &e->data);
		}
	}
	return ferror(out) ? -EIO : 0;
}
