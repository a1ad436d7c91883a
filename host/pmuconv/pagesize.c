// SPDX-License-Identifier: MIT
/* `pmuconv pagesize`: data and code page-size shares per event. */
#include "pagesize.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>

#ifndef PMUCONV_NO_PMUFILE
#include "lib/pmufile/pmufile.h"
#endif

const char *const ps_page_names[PS__NR] = {"4K", "2M", "1G", "unknown"};

#define PS_NO_DATA    0xff /* key: sample has no data address */
#define PS_MAX_EVENTS 16

/* One unique (event, pid, comm, leaf ip, pages) tuple: symbols are
 * resolved once per tuple after the pass. */
struct ps_key_ent {
	uint64_t hash;
	uint64_t ip, time;
	int32_t pid;
	uint16_t event;
	uint8_t data_page, code_page, kernel;
	char comm[16];
	uint64_t samples, weight;
};

struct pagesize_acc {
	struct ps_key_ent *ents;
	size_t nr, cap;
	uint32_t *slots;
	size_t nslots;
	struct ps_event ev[PS_MAX_EVENTS];
	bool seen[PS_MAX_EVENTS];
	struct pagesize_summary *summary;
};

struct pagesize_acc *pagesize_acc__new(void)
{
	return calloc(1, sizeof(struct pagesize_acc));
}

void pagesize_acc__free(struct pagesize_acc *a)
{
	if (!a)
		return;
	free(a->ents);
	free(a->slots);
	pagesize_summary__free(a->summary);
	free(a);
}

#ifndef PMUCONV_NO_PMUFILE
static int page_index(uint8_t p)
{
	switch (p) {
	case PMUPROF_PAGE_4K:
		return PS_4K;
	case PMUPROF_PAGE_2M:
		return PS_2M;
	case PMUPROF_PAGE_1G:
		return PS_1G;
	default:
		return PS_UNKNOWN;
	}
}

static int ps_rehash(struct pagesize_acc *a)
{
	size_t n = a->nslots ? a->nslots * 2 : 4096;
	uint32_t *sl = calloc(n, sizeof(*sl));

	if (!sl)
		return -ENOMEM;
	for (size_t i = 0; i < a->nr; i++) {
		size_t j = a->ents[i].hash & (n - 1);
		while (sl[j])
			j = (j + 1) & (n - 1);
		sl[j] = (uint32_t)i + 1;
	}
	free(a->slots);
	a->slots = sl;
	a->nslots = n;
	return 0;
}

int pagesize_acc__add(struct pagesize_acc *a, uint32_t evi, const struct pmufile_sample_view *v,
		      uint64_t w)
{
	const struct pmuprof_sample *s = v->s;
	const struct pmuprof_sample_addr *ad = v->addr;
	struct ps_event *ev;
	uint8_t dp = PS_NO_DATA, cp = PS_UNKNOWN;

	if (evi >= PS_MAX_EVENTS)
		return 0;
	ev = &a->ev[evi];
	a->seen[evi] = true;
	ev->samples++;
	if (!ad)
		return 0;
	ev->with_addr++;
	ev->addr_status[ad->addr_status < 8 ? ad->addr_status : 7]++;
	cp = (uint8_t)page_index(ad->code_page);
	ev->code.samples[cp]++;
	ev->code.weight[cp] += w;
	ev->code.total_samples++;
	ev->code.total_weight += w;
	if (ad->addr_status == PMUPROF_ADDR_OK && ad->data_addr) {
		dp = (uint8_t)page_index(ad->data_page);
		ev->data.samples[dp]++;
		ev->data.weight[dp] += w;
		ev->data.total_samples++;
		ev->data.total_weight += w;
	} else {
		ev->no_data_access++;
	}
	/* tally by leaf for the top tables */
	uint8_t kern = (s->hdr.misc & PMUPROF_MISC_KERNEL) ? 1 : 0;
	uint64_t c0, c1, h;
	memcpy(&c0, s->comm, 8);
	memcpy(&c1, s->comm + 8, 8);
	h = pc_mix(PC_HASH_SEED,
		   (uint64_t)evi | (uint64_t)dp << 16 | (uint64_t)cp << 24 | (uint64_t)kern << 32);
	h = pc_fmix(pc_mix(pc_mix(pc_mix(pc_mix(h, s->ip), (uint32_t)s->pid), c0), c1));
	if (a->nr + 1 > a->nslots / 2 && ps_rehash(a))
		return -ENOMEM;
	size_t j;
	for (j = h & (a->nslots - 1); a->slots[j]; j = (j + 1) & (a->nslots - 1)) {
		struct ps_key_ent *e = &a->ents[a->slots[j] - 1];
		if (e->hash == h && e->ip == s->ip && e->pid == (int32_t)s->pid &&
		    e->event == evi && e->data_page == dp && e->code_page == cp &&
		    e->kernel == kern && !memcmp(e->comm, s->comm, 16)) {
			e->samples++;
			e->weight += w;
			return 0;
		}
	}
	if (pc_grow((void **)&a->ents, &a->cap, a->nr + 1, sizeof(*a->ents)))
		return -ENOMEM;
	struct ps_key_ent *e = &a->ents[a->nr];
	*e = (struct ps_key_ent){.hash = h,
				 .ip = s->ip,
				 .time = s->time_ns,
				 .pid = (int32_t)s->pid,
				 .event = (uint16_t)evi,
				 .data_page = dp,
				 .code_page = cp,
				 .kernel = kern,
				 .samples = 1,
				 .weight = w};
	memcpy(e->comm, s->comm, 16);
	a->slots[j] = (uint32_t)++a->nr;
	return 0;
}
#endif

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

int pagesize_acc__summarize(struct pagesize_acc *a, ps_resolve_fn resolve, void *ctx,
			    const char *source, bool has_data_addr, bool has_code_page,
			    const char *const *event_names, const char *const *units,
			    size_t nr_events)
{
	struct pagesize_summary *s = calloc(1, sizeof(*s));
	struct named *syms = NULL, *procs = NULL;
	char(*comms)[17] = NULL;

	if (!s)
		return -ENOMEM;
	s->source = source;
	s->has_data_addr = has_data_addr;
	s->has_code_page = has_code_page;
	s->events = calloc(PS_MAX_EVENTS, sizeof(*s->events));
	syms = calloc(a->nr + 1, sizeof(*syms));
	procs = calloc(a->nr + 1, sizeof(*procs));
	comms = calloc(a->nr + 1, sizeof(*comms));
	if (!s->events || !syms || !procs || !comms)
		goto nomem;
	for (size_t e = 0; e < nr_events && e < PS_MAX_EVENTS; e++) {
		if (!event_names[e])
			continue;
		struct ps_event *pe = &s->events[s->nr_events++];
		*pe = a->ev[e];
		snprintf(pe->event, sizeof(pe->event), "%s", event_names[e]);
		snprintf(pe->unit, sizeof(pe->unit), "%s", units[e] ? units[e] : "samples");
		size_t n = 0;
		for (size_t i = 0; i < a->nr; i++) {
			const struct ps_key_ent *k = &a->ents[i];
			if (k->event != e || k->data_page == PS_NO_DATA)
				continue;
			syms[n].name = resolve(ctx, k->pid, k->ip, k->time, k->kernel);
			syms[n].page = k->data_page;
			syms[n].samples = k->samples;
			syms[n].weight = k->weight;
			snprintf(comms[n], sizeof(comms[n]), "%.16s", k->comm);
			procs[n] = syms[n];
			procs[n].name = comms[n];
			n++;
		}
		fill_top(syms, n, pe->top_syms, pe->nr_top_syms);
		fill_top(procs, n, pe->top_procs, pe->nr_top_procs);
	}
	free(syms);
	free(procs);
	free(comms);
	pagesize_summary__free(a->summary);
	a->summary = s;
	return 0;
nomem:
	free(syms);
	free(procs);
	free(comms);
	pagesize_summary__free(s);
	return -ENOMEM;
}

struct pagesize_summary *pagesize_take_summary(struct pagesize_acc *a)
{
	struct pagesize_summary *s;

	if (!a)
		return NULL;
	s = a->summary;
	a->summary = NULL;
	return s;
}

void pagesize_summary__free(struct pagesize_summary *s)
{
	if (!s)
		return;
	free(s->events);
	free(s);
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void print_split(FILE *out, const char *what, const struct ps_split *sp, const char *unit)
{
	fprintf(out, "  %-9s %10s %8s %16s %8s\n", what, "samples", "share", unit, "share");
	for (int p = 0; p < PS__NR; p++)
		fprintf(out, "  %-9s %10llu %7.2f%% %16llu %7.2f%%\n", ps_page_names[p],
			(unsigned long long)sp->samples[p], pct(sp->samples[p], sp->total_samples),
			(unsigned long long)sp->weight[p], pct(sp->weight[p], sp->total_weight));
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
			(unsigned long long)sp->weight[p], pct(sp->samples[p], sp->total_samples),
			pct(sp->weight[p], sp->total_weight));
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
		fprintf(out, "{\n \"source\": ");
		pc_json_str(out, s->source ? s->source : "");
		fprintf(out, ",\n \"has_data_addr\": %s,\n \"has_code_page\": %s,\n \"events\": [",
			s->has_data_addr ? "true" : "false", s->has_code_page ? "true" : "false");
		for (size_t i = 0; i < s->nr_events; i++) {
			const struct ps_event *e = &s->events[i];
			fprintf(out, "%s\n  {\"event\": ", i ? "," : "");
			pc_json_str(out, e->event);
			fprintf(out, ", \"unit\": ");
			pc_json_str(out, e->unit);
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
			fprintf(out, "\nTop symbols on %s data pages:\n", ps_page_names[p]);
			for (size_t k = 0; k < e->nr_top_syms[p]; k++)
				fprintf(out, "  %7.2f%% %10llu  %s\n",
					pct(e->top_syms[p][k].weight, e->data.weight[p]),
					(unsigned long long)e->top_syms[p][k].samples,
					e->top_syms[p][k].name);
			fprintf(out, "Top processes on %s data pages:\n", ps_page_names[p]);
			for (size_t k = 0; k < e->nr_top_procs[p]; k++)
				fprintf(out, "  %7.2f%% %10llu  %s\n",
					pct(e->top_procs[p][k].weight, e->data.weight[p]),
					(unsigned long long)e->top_procs[p][k].samples,
					e->top_procs[p][k].name);
		}
	}
	return ferror(out) ? -EIO : 0;
}
