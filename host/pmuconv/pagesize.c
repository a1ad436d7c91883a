// SPDX-License-Identifier: MIT
/* The page-size consumer of the sample stream: data and code page-size
 * shares per event, the top symbols and processes, and their text/JSON. */
#include "pagesize.h"
#include "pcagg.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>

const char *const ps_page_names[PS__NR] = {"4K", "2M", "1G", "unknown"};

#define PS_MAX_EVENTS 16

/* One stream sample with a data address, for the top tables: its names are
 * copied (the input's symbols do not outlive the load). */
struct ps_ent {
	const char *sym, *comm;
	uint32_t event;
	uint8_t page;
	uint64_t samples, weight;
};

struct pagesize_acc {
	int mode; /* enum pc_mode_filter */
	struct ps_event ev[PS_MAX_EVENTS];
	struct ps_ent *ents;
	size_t nr, cap;
	struct pc_arena names;
};

struct pagesize_acc *pagesize_acc__new(int mode)
{
	struct pagesize_acc *a = calloc(1, sizeof(struct pagesize_acc));

	if (a)
		a->mode = mode;
	return a;
}

void pagesize_acc__free(struct pagesize_acc *a)
{
	if (!a)
		return;
	free(a->ents);
	pc_arena__free(&a->names);
	free(a);
}

static void split_add(struct ps_split *sp, int page, uint64_t n, uint64_t w)
{
	sp->samples[page] += n;
	sp->weight[page] += w;
	sp->total_samples += n;
	sp->total_weight += w;
}

int pagesize_acc__consume(void *ctx, const struct pc_sample *s)
{
	struct pagesize_acc *a = ctx;
	struct ps_event *ev;
	struct ps_ent *e;

	/* A page size belongs to the sampled instruction, so for page sizes
	 * --user-only/--kernel-only keep the samples taken in that mode (a
	 * kernel-mode sample's data address is the kernel's). */
	if (s->event >= PS_MAX_EVENTS || (a->mode == PC_MODE_USER_ONLY && s->kernel_mode) ||
	    (a->mode == PC_MODE_KERNEL_ONLY && !s->kernel_mode))
		return 0;
	ev = &a->ev[s->event];
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
		*e = (struct ps_ent){NULL, NULL, s->event, p->data_page, p->samples, p->weight};
		e->sym = pc_arena__strndup(&a->names, p->ip_name, strlen(p->ip_name));
		e->comm = pc_arena__strndup(&a->names, s->comm ? s->comm : "", s->comm_len);
		if (!e->sym || !e->comm)
			return -ENOMEM;
		a->nr++;
	}
	return 0;
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

/* Merge equal (page, name), then keep the heaviest PS_TOP_MAX per page. */
static void fill_top(struct named *v, size_t n, struct ps_top top[PS__NR][PS_TOP_MAX],
		     size_t nr_top[PS__NR])
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

struct pagesize_summary *pagesize_acc__summarize(const struct pagesize_acc *a,
						 const struct pc_set *set)
{
	struct pagesize_summary *s = calloc(1, sizeof(*s));
	struct named *syms = calloc(a->nr + 1, sizeof(*syms));
	struct named *procs = calloc(a->nr + 1, sizeof(*procs));

	if (!s || !syms || !procs || !(s->events = calloc(PS_MAX_EVENTS, sizeof(*s->events)))) {
		pagesize_summary__free(s);
		s = NULL;
		errno = ENOMEM;
		goto out;
	}
	s->source = set->acct.source;
	s->has_data_addr = set->acct.has_data_addr;
	s->has_code_page = set->acct.has_code_page;
	for (size_t e = 0; e < set->nr && e < PS_MAX_EVENTS; e++) {
		struct ps_event *pe = &s->events[s->nr_events++];
		*pe = a->ev[e];
		snprintf(pe->event, sizeof(pe->event), "%s", set->ev[e]->prof.event);
		snprintf(pe->unit, sizeof(pe->unit), "%s", set->ev[e]->prof.unit);
		size_t n = 0;
		for (size_t i = 0; i < a->nr; i++) {
			const struct ps_ent *k = &a->ents[i];
			if (k->event != e)
				continue;
			syms[n] = (struct named){k->sym, k->page, k->samples, k->weight};
			procs[n] = syms[n];
			procs[n++].name = k->comm;
		}
		fill_top(syms, n, pe->top_syms, pe->nr_top_syms);
		fill_top(procs, n, pe->top_procs, pe->nr_top_procs);
	}
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

static void json_split(FILE *out, const struct ps_split *sp)
{
	fprintf(out, "{\"samples\": %llu, \"weight\": %llu", (unsigned long long)sp->total_samples,
		(unsigned long long)sp->total_weight);
	for (int p = 0; p < PS__NR; p++)
		fprintf(out,
			", \"%s\": {\"samples\": %llu, \"weight\": %llu, \"samples_percent\": "
			"%.4f, \"weight_percent\": %.4f}",
			ps_page_names[p], (unsigned long long)sp->samples[p],
			(unsigned long long)sp->weight[p],
			pc_pct(sp->samples[p], sp->total_samples),
			pc_pct(sp->weight[p], sp->total_weight));
	fprintf(out, "}");
}

static void json_top(FILE *out, const struct ps_top t[PS__NR][PS_TOP_MAX], const size_t *nr)
{
	fprintf(out, "{");
	for (int p = 0; p < PS__NR; p++) {
		fprintf(out, "%s\"%s\": [", p ? ", " : "", ps_page_names[p]);
		for (size_t i = 0; i < nr[p]; i++) {
			fprintf(out, "%s{\"name\": ", i ? ", " : "");
			pc_json_str(out, t[p][i].name);
			fprintf(out, ", \"samples\": %llu, \"weight\": %llu}",
				(unsigned long long)t[p][i].samples,
				(unsigned long long)t[p][i].weight);
		}
		fprintf(out, "]");
	}
	fprintf(out, "}");
}

static const char *const status_names[8] = {
	"ok", "no_mem_operand", "fetch_fault", "undecodable", "hidden", "5", "6", "other"};

int pagesize_print(FILE *out, const struct pagesize_summary *s, int json)
{
	if (json) {
		pc_json_kstr(out, "{\n \"source\": ", s->source ? s->source : "");
		fprintf(out, ",\n \"has_data_addr\": %s,\n \"has_code_page\": %s,\n \"events\": [",
			s->has_data_addr ? "true" : "false", s->has_code_page ? "true" : "false");
		for (size_t i = 0; i < s->nr_events; i++) {
			const struct ps_event *e = &s->events[i];
			fprintf(out, "%s\n  {\"event\": ", i ? "," : "");
			pc_json_str(out, e->event);
			pc_json_kstr(out, ", \"unit\": ", e->unit);
			fprintf(out,
				",\n   \"samples\": %llu, \"with_addr\": %llu, \"no_data_access\": "
				"%llu,\n   \"addr_status\": {",
				(unsigned long long)e->samples, (unsigned long long)e->with_addr,
				(unsigned long long)e->no_data_access);
			for (int k = 0; k < 8; k++)
				fprintf(out, "%s\"%s\": %llu", k ? ", " : "", status_names[k],
					(unsigned long long)e->addr_status[k]);
			fprintf(out, "},\n   \"data\": ");
			json_split(out, &e->data);
			fprintf(out, ",\n   \"code\": ");
			if (s->has_code_page)
				json_split(out, &e->code);
			else
				fprintf(out, "null");
			fprintf(out, ",\n   \"top_symbols\": ");
			json_top(out, e->top_syms, e->nr_top_syms);
			fprintf(out, ",\n   \"top_processes\": ");
			json_top(out, e->top_procs, e->nr_top_procs);
			fprintf(out, "}");
		}
		fprintf(out, "]\n}\n");
		return ferror(out) ? -EIO : 0;
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
		char unit[48];
		snprintf(unit, sizeof(unit), "est.%s", e->unit);
		fprintf(out,
			"\n== event %s: %llu samples, %llu with address data, %llu with a data "
			"address ==\n",
			e->event, (unsigned long long)e->samples, (unsigned long long)e->with_addr,
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
		fprintf(out, "\nData page size (shares of samples with a data address):\n");
		print_split(out, "page", &e->data, unit);
		if (s->has_code_page) {
			fprintf(out, "\nCode page size (shares of samples with address data):\n");
			print_split(out, "page", &e->code, unit);
		} else {
			fprintf(out, "\nCode page size: not recorded\n");
		}
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
