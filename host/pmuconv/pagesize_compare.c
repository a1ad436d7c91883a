// SPDX-License-Identifier: MIT
/*
 * `pmuconv pagesize --compare BEFORE AFTER`: for each (event, view) of both
 * recordings, the data page-size split, the verdict and the per-mapping
 * table side by side, each row with its share of the view's samples with a
 * data address and its samples per second of run time (so "fewer TLB-miss
 * samples after madvise" reads as a number). Mappings are matched by name
 * and kind, then by their rank among equal names: addresses move between
 * runs (ASLR), names do not.
 */
#include "pagesize_compare.h"
#include "psnames.h"
#include "util.h"

#include <errno.h>
#include <string.h>

static const char *const answer_text[] = {"no data",
					  "likely (a candidate on 4K pages)",
					  "no: already on huge pages",
					  "unlikely: no eligible 4K mapping",
					  "not judged",
					  "not judged (no memory maps)"};

static const struct ps_event *find_view(const struct pagesize_summary *s, const char *ev, int view)
{
	for (size_t i = 0; i < s->nr_events; i++)
		if (s->events[i].view == view && !strcmp(s->events[i].event, ev))
			return &s->events[i];
	return NULL;
}

/* rank of maps[i] among the maps of e with its name and kind */
static size_t rank_of(const struct ps_event *e, size_t i)
{
	size_t r = 0;

	for (size_t j = 0; j < i; j++)
		r += e->maps[j].kind == e->maps[i].kind &&
		     !strcmp(e->maps[j].name, e->maps[i].name);
	return r;
}

static const struct ps_mapping *match(const struct ps_event *e, const struct ps_mapping *m,
				      size_t rank)
{
	for (size_t j = 0; e && j < e->nr_maps; j++)
		if (e->maps[j].kind == m->kind && !strcmp(e->maps[j].name, m->name) &&
		    rank_of(e, j) == rank)
			return &e->maps[j];
	return NULL;
}

static double rate(uint64_t n, double s)
{
	return s > 0 ? (double)n / s : 0;
}

static void row(FILE *o, int json, bool first, const char *name, const struct ps_mapping *b,
		const struct ps_mapping *a, const struct ps_event *eb, const struct ps_event *ea,
		double sb, double sa)
{
	uint64_t tb = eb ? eb->data.total_samples : 0, ta = ea ? ea->data.total_samples : 0;

	if (json) {
		fprintf(o, "%s\n     {\"name\": ", first ? "" : ",");
		pc_json_str(o, name);
		for (int k = 0; k < 2; k++) {
			const struct ps_mapping *m = k ? a : b;
			fprintf(o, ", \"%s\": ", k ? "after" : "before");
			if (!m) {
				fprintf(o, "null");
				continue;
			}
			fprintf(o,
				"{\"samples\": %llu, \"share_percent\": %.4f, \"samples_per_s\": "
				"%.4f, "
				"\"size\": %llu",
				(unsigned long long)m->samples, pc_pct(m->samples, k ? ta : tb),
				rate(m->samples, k ? sa : sb),
				(unsigned long long)(m->end - m->start));
			for (int p = 0; p < PS__NR; p++)
				fprintf(o, ", \"%s_percent\": %.4f", ps_page_names[p],
					pc_pct(m->page_samples[p], m->samples));
			fprintf(o, "}");
		}
		fprintf(o, "}");
		return;
	}
	fprintf(o, "  ");
	for (int k = 0; k < 2; k++) {
		const struct ps_mapping *m = k ? a : b;
		if (!m) {
			fprintf(o, "%7s %9s %6s %6s %6s  ", "-", "-", "-", "-", "-");
			continue;
		}
		fprintf(o, "%6.2f%% %9.1f %5.1f%% %5.1f%% %5.1f%%  ",
			pc_pct(m->samples, k ? ta : tb), rate(m->samples, k ? sa : sb),
			pc_pct(m->page_samples[PS_4K], m->samples),
			pc_pct(m->page_samples[PS_2M], m->samples),
			pc_pct(m->page_samples[PS_1G], m->samples));
		if (!k)
			fprintf(o, "| ");
	}
	fprintf(o, "%s\n", name);
}

static void one(FILE *o, int json, const struct pagesize_summary *B,
		const struct pagesize_summary *A, const struct ps_event *eb,
		const struct ps_event *ea)
{
	const struct ps_event *any = eb ? eb : ea;
	double sb = B->duration_s, sa = A->duration_s;
	bool first = true;

	if (json) {
		fprintf(o, "\n  {\"event\": ");
		pc_json_str(o, any->event);
		fprintf(o, ", \"view\": \"%s\"", ps_view_names[any->view]);
		for (int k = 0; k < 2; k++) {
			const struct ps_event *e = k ? ea : eb;
			fprintf(o, ", \"%s\": ", k ? "after" : "before");
			if (!e) {
				fprintf(o, "null");
				continue;
			}
			fprintf(o,
				"{\"samples\": %llu, \"samples_per_s\": %.4f, \"with_data_addr\": "
				"%llu, \"verdict\": \"%s\"",
				(unsigned long long)e->samples, rate(e->samples, k ? sa : sb),
				(unsigned long long)e->data.total_samples,
				answer_text[e->verdict.answer]);
			for (int p = 0; p < PS__NR; p++)
				fprintf(o, ", \"%s_percent\": %.4f", ps_page_names[p],
					pc_pct(e->data.samples[p], e->data.total_samples));
			fprintf(o, "}");
		}
		fprintf(o, ",\n   \"mappings\": [");
	} else {
		fprintf(o, "\n== event %s, %s-mode samples ==\n", any->event,
			any->view == PS_VIEW_ALL ? "user and kernel" : ps_view_names[any->view]);
		for (int k = 0; k < 2; k++) {
			const struct ps_event *e = k ? ea : eb;
			fprintf(o, "%-7s ", k ? "after:" : "before:");
			if (!e) {
				fprintf(o, "no such event in this recording\n");
				continue;
			}
			fprintf(o, "%llu samples (%.1f/s), %llu with a data address:",
				(unsigned long long)e->samples, rate(e->samples, k ? sa : sb),
				(unsigned long long)e->data.total_samples);
			for (int p = 0; p < PS__NR; p++)
				fprintf(o, " %s %.2f%%", ps_page_names[p],
					pc_pct(e->data.samples[p], e->data.total_samples));
			fprintf(o, "; huge pages would help: %s\n", answer_text[e->verdict.answer]);
		}
		fprintf(o,
			"\nMappings (share of the view's samples with a data address, samples per "
			"second of run time, page sizes):\n"
			"  %-41s| %-41s\n  %7s %9s %6s %6s %6s  | %7s %9s %6s %6s %6s  %s\n",
			"before", "after", "share", "samples/s", "4K", "2M", "1G", "share",
			"samples/s", "4K", "2M", "1G", "mapping");
	}
	for (size_t i = 0; eb && i < eb->nr_maps; i++) {
		const struct ps_mapping *m = &eb->maps[i];
		row(o, json, first, m->name, m, match(ea, m, rank_of(eb, i)), eb, ea, sb, sa);
		first = false;
	}
	for (size_t i = 0; ea && i < ea->nr_maps; i++) {
		const struct ps_mapping *m = &ea->maps[i];
		if (eb && match(eb, m, rank_of(ea, i)))
			continue;
		row(o, json, first, m->name, NULL, m, eb, ea, sb, sa);
		first = false;
	}
	if (json)
		fprintf(o, "]}");
}

int pagesize_compare_print(FILE *o, const struct pagesize_summary *B,
			   const struct pagesize_summary *A, int json)
{
	bool first = true;

	if (json) {
		fprintf(o, "{\n \"before\": ");
		pc_json_str(o, B->source);
		fprintf(o, ", \"before_seconds\": %.6f,\n \"after\": ", B->duration_s);
		pc_json_str(o, A->source);
		fprintf(o, ", \"after_seconds\": %.6f,\n \"events\": [", A->duration_s);
	} else {
		fprintf(o, "before: %s (run time %.3f s)\nafter:  %s (run time %.3f s)\n",
			B->source ? B->source : "?", B->duration_s, A->source ? A->source : "?",
			A->duration_s);
		if (!B->duration_s || !A->duration_s)
			fprintf(o, "(a recording without its run time: samples per second show as "
				   "0)\n");
	}
	for (size_t i = 0; i < B->nr_events; i++) {
		const struct ps_event *eb = &B->events[i];
		if (json && !first)
			fprintf(o, ",");
		one(o, json, B, A, eb, find_view(A, eb->event, eb->view));
		first = false;
	}
	for (size_t i = 0; i < A->nr_events; i++) {
		const struct ps_event *ea = &A->events[i];
		if (find_view(B, ea->event, ea->view))
			continue;
		if (json && !first)
			fprintf(o, ",");
		one(o, json, B, A, NULL, ea);
		first = false;
	}
	if (json)
		fprintf(o, "]\n}\n");
	return ferror(o) ? -EIO : 0;
}
