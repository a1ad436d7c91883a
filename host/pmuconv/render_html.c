// SPDX-License-Identifier: MIT
/*
 * The HTML report: one self-contained page (no network, no external files)
 * with the accounting header (and each event's sample-source split), each
 * event's interactive flamegraph (inline SVG driven by flame.js, as wide as
 * the page), the top tables by self and total (a row zooms the graph:
 * report.js), the process and CPU breakdowns, and the page-size charts.
 *
 * The page is polyglot markup: it parses as HTML5 and as well-formed XML
 * (XHTML namespace, CDATA-guarded script and style, numeric character
 * references only), so the tests can check it with an XML parser. Every
 * string from the input goes through rc_esc().
 */
#include "render_common.h"
#include "nodetab.h"
#include "pagesize.h"
#include "report.h"
#include "include/uapi/pmuprof.h"

#include <errno.h>
#include <string.h>

static void esc_td(FILE *o, const char *cls, const char *s)
{
	fprintf(o, cls ? "<td class=\"%s\">" : "<td>", cls);
	rc_esc(o, s);
	fputs("</td>", o);
}

static void kv(FILE *o, const char *key, const char *val)
{
	fprintf(o, "<tr><th>%s</th>", key);
	esc_td(o, NULL, val);
	fputs("</tr>\n", o);
}

static const char *source_name(uint32_t src) /* "" if unknown */
{
	static const char *const names[PC_NR_SOURCES] = {[PMUPROF_SOURCE_PMU] = "PMU overflow",
							 [PMUPROF_SOURCE_NMI_IPI] = "NMI-IPI timer",
							 [PMUPROF_SOURCE_TIMER] = "timer interrupt",
							 [PMUPROF_SOURCE_PEBS] = "PEBS"};

	return src < PC_NR_SOURCES && names[src] ? names[src] : "";
}

/* An event whose samples came from more than one source (cpu-clock: NMI-IPI
 * samples, and timer samples on the CPUs that send the NMIs): how many of
 * each, and, with timer samples, what they cannot see, as report.txt says. */
static void source_split(FILE *o, const struct pc_agg *a)
{
	const char *sep = "";
	unsigned int n = 0;
	char b1[32];

	for (unsigned int i = 0; i < PC_NR_SOURCES; i++)
		n += a->acct.by_source[i] != 0;
	if (n < 2)
		return;
	fputs("<p class=\"sources\">", o);
	rc_esc(o, a->prof.event);
	fputs(" samples by source:", o);
	for (unsigned int i = 0; i < PC_NR_SOURCES; i++) {
		const char *name = source_name(i);

		if (!a->acct.by_source[i])
			continue;
		fprintf(o, "%s ", sep);
		rc_esc(o, name[0] ? name : "unknown source");
		fprintf(o, " %s (%.1f %%)", rc_fmt_u64(b1, a->acct.by_source[i]),
			pc_pct(a->acct.by_source[i], a->acct.samples));
		sep = ",";
	}
	fputs("</p>\n", o);
	if (a->acct.by_source[PMUPROF_SOURCE_TIMER])
		fputs("<p class=\"note\">Timer samples come from a CPU's own timer interrupt and "
		      "cannot land in IRQ-disabled code; leave one CPU out of -C for NMI samples "
		      "everywhere.</p>\n",
		      o);
}

static void accounting(FILE *o, const struct pc_set *s)
{
	const struct pc_accounting *a = &s->acct;
	char b1[32], b2[32], buf[128];

	fputs("<section id=\"accounting\"><h2>Accounting</h2>\n<table class=\"kv\">\n", o);
	kv(o, "source", a->source);
	if (a->format) {
		if (a->version)
			snprintf(buf, sizeof(buf), "%s (format version %u)", a->format, a->version);
		else
			snprintf(buf, sizeof(buf), "%s", a->format);
		kv(o, "input format", buf);
	}
	if (a->hostname[0])
		kv(o, "host", a->hostname);
	if (a->kernel[0])
		kv(o, "kernel", a->kernel);
	if (a->cpu_model[0])
		kv(o, "CPU", a->cpu_model);
	if (a->cmdline[0])
		kv(o, "command line", a->cmdline);
	if (a->has_time) {
		snprintf(buf, sizeof(buf), "%.3f s", (double)a->duration_ns / 1e9);
		kv(o, "duration", buf);
	}
	kv(o, "samples read", rc_fmt_u64(b1, a->samples));
	if (a->has_lost) {
		snprintf(buf, sizeof(buf), "%s (%s of samples taken)", rc_fmt_u64(b1, a->lost),
			 rc_fmt_pct(b2, a->lost, a->samples + a->lost));
		fprintf(o, "<tr><th>lost</th><td%s>", a->lost ? " class=\"warn\"" : "");
		rc_esc(o, buf);
		fputs("</td></tr>\n", o);
	} else {
		kv(o, "lost", "not known for this input");
	}
	if (a->has_throttle)
		kv(o, "throttled", rc_fmt_u64(b1, a->throttled));
	if (a->missed) {
		uint64_t due = a->missed + a->lost + a->samples;

		snprintf(buf, sizeof(buf),
			 "%s (%s of cpu-clock samples due): the CPU was not running "
			 "(descheduled vCPU) or stalled",
			 rc_fmt_u64(b1, a->missed), rc_fmt_pct(b2, a->missed, due));
		fprintf(o, "<tr><th>missed</th><td%s>",
			100 * a->missed > due ? " class=\"warn\"" : "");
		rc_esc(o, buf);
		fputs("</td></tr>\n", o);
	}
	if (a->filtered)
		kv(o, "removed by filters", rc_fmt_u64(b1, a->filtered));
	if (a->skipped) {
		snprintf(buf, sizeof(buf), "%s (first: ", rc_fmt_u64(b1, a->skipped));
		fprintf(o, "<tr><th>skipped</th><td class=\"warn\">");
		rc_esc(o, buf);
		rc_esc(o, a->first_skip);
		fputs(")</td></tr>\n", o);
	}
	if (a->truncated) {
		fprintf(o, "<tr><th>damage</th><td class=\"warn\">input ended early: ");
		rc_esc(o, a->damage);
		fputs("</td></tr>\n", o);
	}
	fputs("</table>\n", o);

	fputs("<table class=\"t\"><tr><th>event</th><th>source</th><th>period</th>"
	      "<th class=\"n\">samples</th><th class=\"n\">kept</th><th class=\"n\">weight</th>"
	      "<th>weight unit</th><th class=\"n\">lost</th><th class=\"n\">throttled</th></tr>\n",
	      o);
	for (size_t i = 0; i < s->nr; i++) {
		const struct pc_agg *g = s->ev[i];
		char unit[96];
		fputs("<tr>", o);
		fprintf(o, "<td><a href=\"#ev-%zu\">", i);
		rc_esc(o, g->prof.event);
		fputs("</a></td>", o);
		esc_td(o, NULL, source_name(g->acct.source));
		if (g->prof.freq_mode)
			snprintf(buf, sizeof(buf), "varies (frequency mode)");
		else if (g->prof.period)
			snprintf(buf, sizeof(buf), "%s %s", rc_fmt_u64(b1, g->prof.period),
				 g->prof.unit);
		else
			buf[0] = 0;
		esc_td(o, NULL, buf);
		esc_td(o, "n", rc_fmt_u64(b1, g->acct.samples));
		esc_td(o, "n", rc_fmt_u64(b1, g->prof.total_samples));
		esc_td(o, "n", rc_fmt_u64(b1, g->prof.total_weight));
		esc_td(o, NULL, pc_unit_label(g, unit, sizeof(unit)));
		if (a->has_lost) {
			snprintf(buf, sizeof(buf), "%s (%s)", rc_fmt_u64(b1, g->acct.lost),
				 rc_fmt_pct(b2, g->acct.lost, g->acct.samples + g->acct.lost));
			esc_td(o, "n", buf);
		} else {
			esc_td(o, "n", "?");
		}
		esc_td(o, "n", a->has_throttle ? rc_fmt_u64(b1, g->acct.throttled) : "?");
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
	for (size_t i = 0; i < s->nr; i++)
		source_split(o, s->ev[i]);
	fputs("</section>\n", o);
}

/* A row's function name links to its event's flamegraph (fg-EV); report.js
 * makes a click on the row zoom the graph to that function's frame. */
static void func_table(FILE *o, const struct pc_report_event *r, size_t ev, size_t top,
		       int by_total)
{
	const struct pc_agg *a = r->agg;
	const struct pc_profile *p = &a->prof;
	int est = a->acct.weight_is_period;
	size_t shown = 0;
	char b1[32], b2[32], b3[32];

	fprintf(o, "<h3>Top functions by %s</h3>\n",
		by_total ? "total (inclusive)" : "self (exclusive)");
	fprintf(o,
		"<table class=\"t %s\"><tr><th class=\"n\">#</th><th class=\"n\">%s</th>"
		"<th class=\"n\">samples</th>%s<th class=\"n\">%s</th><th>function</th></tr>\n",
		by_total ? "total" : "self", by_total ? "total" : "self",
		est ? "<th class=\"n\">est. count</th>" : "", by_total ? "self" : "total");
	for (size_t i = 0; i < r->nr_funcs && shown < top; i++) {
		const struct pc_func_row *f = by_total ? r->by_total[i] : &r->funcs[i];
		uint64_t s = by_total ? f->total_samples : f->self_samples;
		uint64_t w = by_total ? f->total_weight : f->self_weight;
		uint64_t other = by_total ? f->self_weight : f->total_weight;
		if (!s && !w)
			break; /* sorted: the rest have nothing here */
		shown++;
		fprintf(o,
			"<tr><td class=\"n\">%zu</td><td class=\"n\">%s</td><td "
			"class=\"n\">%s</td>",
			shown, rc_fmt_pct(b1, w, p->total_weight), rc_fmt_u64(b2, s));
		if (est)
			fprintf(o, "<td class=\"n\">%s</td>", rc_fmt_u64(b3, w));
		fprintf(o,
			"<td class=\"n\">%s</td><td class=\"fn\"><span class=\"kind %s\"></span>"
			"<a class=\"fn-link\" href=\"#fg-%zu\">",
			rc_fmt_pct(b1, other, p->total_weight), rc_kind_class(f->kind), ev);
		rc_esc(o, f->name);
		fputs("</a></td></tr>\n", o);
	}
	fputs("</table>\n", o);
	if (!shown)
		fputs("<p>No samples.</p>\n", o);
}

static void group_table(FILE *o, const char *title, const struct pc_group_row *g, size_t n,
			size_t top, const struct pc_agg *a, int avail, const char *format)
{
	char b1[32], b2[32], b3[32];

	fprintf(o, "<h3>%s</h3>\n", title);
	if (!avail) {
		fputs("<p>Not available: ", o);
		rc_esc(o, format ? format : "this");
		fputs(" input does not carry it.</p>\n", o);
		return;
	}
	fputs("<table class=\"t\"><tr><th class=\"n\">share</th><th class=\"n\">samples</th>"
	      "<th class=\"n\">weight</th><th>name</th></tr>\n",
	      o);
	for (size_t i = 0; i < n && i < top; i++) {
		fprintf(o,
			"<tr><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>",
			rc_fmt_pct(b1, g[i].weight, a->prof.total_weight),
			rc_fmt_u64(b2, g[i].samples), rc_fmt_u64(b3, g[i].weight));
		esc_td(o, NULL, g[i].name);
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
	if (n > top)
		fprintf(o, "<p>... %zu more</p>\n", n - top);
}

static int event_section(FILE *o, const struct html_input *in, size_t i, size_t top)
{
	const struct pc_set *s = in->set;
	const struct pc_agg *a = s->ev[i];
	struct render_opts ro;
	struct rc_tree t;
	struct rc_svg_opts so = {.ro = &ro, .standalone = 0};
	char sub[256], unit[96];
	int err;

	pc_render_opts(&ro, a, sub, sizeof(sub), unit, sizeof(unit));
	fprintf(o, "<section class=\"event\" id=\"ev-%zu\"><h2>Event ", i);
	rc_esc(o, a->prof.event);
	fprintf(o, "</h2>\n<div class=\"fg\" id=\"fg-%zu\">\n", i);
	if ((err = rc_tree__build(&t, &a->prof, 0)) || (err = rc_tree__layout(&t))) {
		rc_tree__free(&t);
		return err;
	}
	err = rc_flamegraph_write(o, &t, &so, NULL);
	rc_tree__free(&t);
	if (err)
		return err;
	fputs("</div>\n", o);
	if (in->reports) {
		const struct pc_report_event *r = &in->reports[i];
		func_table(o, r, i, top, 0);
		func_table(o, r, i, top, 1);
		if (r->no_frame_samples)
			fprintf(o, "<p>%llu samples had no function frame.</p>\n",
				(unsigned long long)r->no_frame_samples);
		group_table(o, "By process", r->procs, r->nr_procs, top, a, s->has_process,
			    s->acct.format);
		group_table(o, "By CPU", r->cpus, r->nr_cpus, (size_t)-1, a, s->has_cpu,
			    s->acct.format);
	}
	fputs("</section>\n", o);
	return ferror(o) ? -EIO : 0;
}

int render_html(FILE *o, const struct html_input *in)
{
	const struct pc_set *s;
	size_t top;
	int err;

	if (!o || !in || !in->set)
		return -EINVAL;
	s = in->set;
	top = in->top ? in->top : 20;
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n<title>pmuprof report: ",
	      o);
	rc_esc(o, in->title ? in->title : s->acct.source);
	fprintf(o, "</title>\n<style>/*<![CDATA[*/\n%s%s/*]]>*/</style>\n</head>\n<body>\n",
		rc_report_css, rc_flame_css);
	fputs("<h1>pmuprof report: ", o);
	rc_esc(o, in->title ? in->title : s->acct.source);
	fputs("</h1>\n<nav><a href=\"#accounting\">accounting</a>", o);
	for (size_t i = 0; i < s->nr; i++) {
		fprintf(o, "<a href=\"#ev-%zu\">", i);
		rc_esc(o, s->ev[i]->prof.event);
		fputs("</a>", o);
	}
	if (in->pagesize)
		fputs("<a href=\"#pagesize\">page sizes</a>", o);
	if (in->numa && in->numa->has_map)
		fputs("<a href=\"#numa\">NUMA</a>", o);
	fputs("</nav>\n", o);
	accounting(o, s);
	if (!s->nr)
		fputs("<p>No events with samples in this input.</p>\n", o);
	for (size_t i = 0; i < s->nr; i++)
		if ((err = event_section(o, in, i, top)))
			return err;
	if ((err = rc_pagesize_html(o, in->pagesize)))
		return err;
	if ((err = rc_numa_html(o, in->numa)))
		return err;
	fprintf(o, "<script>//<![CDATA[\n%s%s//]]></script>\n</body>\n</html>\n", rc_flame_js,
		rc_report_js);
	return ferror(o) ? -EIO : 0;
}
