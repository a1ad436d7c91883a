// SPDX-License-Identifier: MIT
/*
 * `pmuconv pagesize --compare BEFORE AFTER`: for each (event, view) of both
 * recordings, the data page-size split, the verdict and the per-mapping
 * table side by side, each row with its share of the view's samples with a
 * data address and its samples per second of run time (so "fewer TLB-miss
 * samples after madvise" reads as a number). For an event that counts page
 * walks, the walks with a data address before and after (estimated events),
 * the measured reduction beside the one BEFORE's verdict predicted.
 * Mappings are matched by name
 * and kind, then by their rank among equal names: addresses move between
 * runs (ASLR), names do not.
 */
#include "pagesize_compare.h"
#include "psnames.h"
#include "tlbevent.h"
#include "util.h"
#include "verdict.h"

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

/* "4K_percent"...: a page-size split for --json ("%.4f" numbers). */
static json_t *page_pcts(json_t *j, const uint64_t *pages, uint64_t of)
{
	char key[32];

	for (int p = 0; p < PS__NR; p++) {
		snprintf(key, sizeof(key), "%s_percent", ps_page_names[p]);
		json_object_set_new(j, key, pc_json_real(pc_pct(pages[p], of), 4));
	}
	return j;
}

static void row(FILE *o, json_t *jrows, const char *name, const struct ps_mapping *b,
		const struct ps_mapping *a, const struct ps_event *eb, const struct ps_event *ea,
		double sb, double sa)
{
	uint64_t tb = eb ? eb->data.total_samples : 0, ta = ea ? ea->data.total_samples : 0;

	if (jrows) {
		json_t *r = json_pack("{s:o}", "name", pc_json_str(name));

		for (int k = 0; k < 2; k++) {
			const struct ps_mapping *m = k ? a : b;

			json_object_set_new(
				r, k ? "after" : "before",
				!m ? json_null()
				   : page_pcts(
					     json_pack(
						     "{s:I, s:o, s:o, s:I}", "samples",
						     PC_JI(m->samples), "share_percent",
						     pc_json_real(pc_pct(m->samples, k ? ta : tb),
								  4),
						     "samples_per_s",
						     pc_json_real(rate(m->samples, k ? sa : sb), 4),
						     "size", PC_JI(m->end - m->start)),
					     m->page_samples, m->samples));
		}
		json_array_append_new(jrows, r);
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

/* Walk events: the walks with a data address before and after, measured
 * and predicted reduction (percent); into j for --json, else as text. */
static void walks(FILE *o, json_t *j, const struct ps_event *eb, const struct ps_event *ea)
{
	uint64_t b = eb->verdict.walks, a = ea->verdict.walks;
	double measured = b ? 100.0 * ((double)b - (double)a) / (double)b : 0.0;
	bool predicted = eb->verdict.answer == PSA_LIKELY;

	if (j) {
		json_object_set_new(
			j, "walks",
			json_pack("{s:I, s:I, s:o, s:o}", "before", PC_JI(b), "after", PC_JI(a),
				  "measured_reduction_percent", pc_json_real(measured, 4),
				  "predicted_reduction_percent",
				  predicted ? pc_json_real(ps_verdict__reduction(&eb->verdict), 4)
					    : json_null()));
		return;
	}
	fprintf(o,
		"%s walks with a data address (estimated from the sample periods): before ~%llu, "
		"after ~%llu: measured %.1f%% fewer",
		eb->event, (unsigned long long)b, (unsigned long long)a, measured);
	if (predicted)
		fprintf(o, "; BEFORE's verdict predicted %.1f%% fewer\n",
			ps_verdict__reduction(&eb->verdict));
	else
		fprintf(o, "; BEFORE's verdict named no candidate, so predicted none\n");
}

static void one(FILE *o, json_t *jev, const struct pagesize_summary *B,
		const struct pagesize_summary *A, const struct ps_event *eb,
		const struct ps_event *ea)
{
	const struct ps_event *any = eb ? eb : ea;
	double sb = B->duration_s, sa = A->duration_s;
	json_t *jrows = NULL;

	if (jev) {
		json_t *j = json_pack("{s:o, s:s}", "event", pc_json_str(any->event), "view",
				      ps_view_names[any->view]);

		for (int k = 0; k < 2; k++) {
			const struct ps_event *e = k ? ea : eb;

			json_object_set_new(
				j, k ? "after" : "before",
				!e ? json_null()
				   : page_pcts(json_pack("{s:I, s:o, s:I, s:s}", "samples",
							 PC_JI(e->samples), "samples_per_s",
							 pc_json_real(rate(e->samples, k ? sa : sb),
								      4),
							 "with_data_addr",
							 PC_JI(e->data.total_samples), "verdict",
							 answer_text[e->verdict.answer]),
					       e->data.samples, e->data.total_samples));
		}
		if (eb && ea && ps_event_kind_walks(eb->kind) && eb->view != PS_VIEW_KERNEL)
			walks(o, j, eb, ea);
		json_object_set_new(j, "mappings", jrows = json_array());
		json_array_append_new(jev, j);
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
		if (eb && ea && ps_event_kind_walks(eb->kind) && eb->view != PS_VIEW_KERNEL)
			walks(o, NULL, eb, ea);
		fprintf(o,
			"\nMappings (share of the view's samples with a data address, samples per "
			"second of run time, page sizes):\n"
			"  %-41s| %-41s\n  %7s %9s %6s %6s %6s  | %7s %9s %6s %6s %6s  %s\n",
			"before", "after", "share", "samples/s", "4K", "2M", "1G", "share",
			"samples/s", "4K", "2M", "1G", "mapping");
	}
	for (size_t i = 0; eb && i < eb->nr_maps; i++) {
		const struct ps_mapping *m = &eb->maps[i];
		row(o, jrows, m->name, m, match(ea, m, rank_of(eb, i)), eb, ea, sb, sa);
	}
	for (size_t i = 0; ea && i < ea->nr_maps; i++) {
		const struct ps_mapping *m = &ea->maps[i];
		if (eb && match(eb, m, rank_of(ea, i)))
			continue;
		row(o, jrows, m->name, NULL, m, eb, ea, sb, sa);
	}
}

int pagesize_compare_print(FILE *o, const struct pagesize_summary *B,
			   const struct pagesize_summary *A, int json)
{
	json_t *jev = json ? json_array() : NULL;

	if (!json) {
		fprintf(o, "before: %s (run time %.3f s)\nafter:  %s (run time %.3f s)\n",
			B->source ? B->source : "?", B->duration_s, A->source ? A->source : "?",
			A->duration_s);
		if (!B->duration_s || !A->duration_s)
			fprintf(o, "(a recording without its run time: samples per second show as "
				   "0)\n");
	}
	for (size_t i = 0; i < B->nr_events; i++) {
		const struct ps_event *eb = &B->events[i];
		one(o, jev, B, A, eb, find_view(A, eb->event, eb->view));
	}
	for (size_t i = 0; i < A->nr_events; i++) {
		const struct ps_event *ea = &A->events[i];
		if (!find_view(B, ea->event, ea->view))
			one(o, jev, B, A, NULL, ea);
	}
	if (json)
		return pc_json_dump(o, json_pack("{s:o, s:o, s:o, s:o, s:o}", "before",
						 pc_json_str(B->source), "before_seconds",
						 pc_json_real(B->duration_s, 6), "after",
						 pc_json_str(A->source), "after_seconds",
						 pc_json_real(A->duration_s, 6), "events", jev));
	return ferror(o) ? -EIO : 0;
}
