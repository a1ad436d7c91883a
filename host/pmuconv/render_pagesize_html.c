// SPDX-License-Identifier: MIT
/*
 * The HTML page's page-size section: per event view (user mode, kernel
 * mode) the verdict "would huge pages help?" on top, then the page-size
 * chart (render_pagesize.c), the per-mapping table with bars (share of the
 * samples and the 4K/2M/1G split), the functions with their accesses by
 * page size, and the top symbols. A recording without data addresses gets
 * one line saying how to record them. Styles: pagesize.css (#pagesize).
 */
#include "render_common.h"
#include "verdict.h"

#include <errno.h>
#include <stdlib.h>

/* The guide, named in the pmuprof sources (the page makes no external
 * references: it must render offline and leak nothing; render_xml checks) */
#define PSH_DOC "<code>docs/HUGEPAGES.md</code> in the pmuprof sources"

static const char *const view_title[PS_VIEW__NR] = {"user-mode samples", "kernel-mode samples",
						    "user and kernel samples"};

/* Text for a <pre>: markup characters escaped, line breaks kept (rc_esc
 * writes them as character references, for attributes). */
static void esc_pre(FILE *o, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&':
			fputs("&amp;", o);
			break;
		case '<':
			fputs("&lt;", o);
			break;
		case '>':
			fputs("&gt;", o);
			break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n')
				fputc(*s, o);
		}
}

/* The verdict's text (verdict.c), escaped, in a <pre>. */
static int verdict_block(FILE *o, const struct ps_event *e, const struct ps_tlb *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return -ENOMEM;
	ps_verdict__print(m, e, t, "");
	if (fclose(m)) {
		free(buf);
		return -ENOMEM;
	}
	fprintf(o, "<pre class=\"psv psv-%d\">", e->verdict.answer);
	esc_pre(o, buf);
	fputs("</pre>\n", o);
	free(buf);
	return 0;
}

/* A stacked bar of the 4K/2M/1G/unknown split of n samples, width 100 %. */
static void split_bar(FILE *o, const uint64_t *pages, uint64_t n)
{
	static const char *const cls[PS__NR] = {"p4k", "p2m", "p1g", "pun"};
	char b[32];

	fputs("<div class=\"psbar\">", o);
	for (int p = 0; p < PS__NR && n; p++)
		if (pages[p])
			fprintf(o,
				"<span class=\"%s\" style=\"width:%.2f%%\" title=\"%s %s\"></span>",
				cls[p], 100.0 * (double)pages[p] / (double)n, ps_page_names[p],
				rc_fmt_pct(b, pages[p], n));
	fputs("</div>", o);
}

static void maps_table(FILE *o, const struct ps_event *e)
{
	char b1[32], b2[32], b3[64];

	if (!e->nr_maps)
		return;
	fputs("<h4>Mappings the data addresses fall in</h4>\n<table class=\"t psm\"><tr>"
	      "<th class=\"n\">share</th><th></th><th class=\"n\">samples</th>"
	      "<th>4K / 2M / 1G / unknown</th><th class=\"n\">4K pages (est.)</th>"
	      "<th class=\"n\">2M regions (est.)</th><th>mapping</th><th>range</th></tr>\n",
	      o);
	for (size_t i = 0; i < e->nr_maps; i++) {
		const struct ps_mapping *m = &e->maps[i];
		double share = e->data.total_samples
				       ? 100.0 * (double)m->samples / (double)e->data.total_samples
				       : 0;
		fprintf(o,
			"<tr><td class=\"n\">%s</td><td><div class=\"psshare\"><span "
			"style=\"width:%.2f%%\"></span></div></td><td class=\"n\">%s</td><td>",
			rc_fmt_pct(b1, m->samples, e->data.total_samples), share,
			rc_fmt_u64(b2, m->samples));
		split_bar(o, m->page_samples, m->samples);
		fprintf(o, "</td><td class=\"n\">%llu (%s)</td><td class=\"n\">%llu (%s)</td>",
			(unsigned long long)m->pages_4k.estimate,
			ps_confidence_names[m->pages_4k.confidence],
			(unsigned long long)m->regions_2m.estimate,
			ps_confidence_names[m->regions_2m.confidence]);
		fputs("<td class=\"fn\">", o);
		rc_esc(o, m->name);
		fputs("</td><td class=\"fn\">", o);
		if (m->kind != PS_MAP_KERNEL && m->kind != PS_MAP_UNMAPPED) {
			snprintf(b3, sizeof(b3), "%#llx-%#llx", (unsigned long long)m->start,
				 (unsigned long long)m->end);
			rc_esc(o, b3);
			fprintf(o, " (pid %d)", (int)m->pid);
		}
		fputs("</td></tr>\n", o);
	}
	if (e->other_maps)
		fprintf(o,
			"<tr><td class=\"n\">%s</td><td></td><td class=\"n\">%s</td><td></td>"
			"<td></td><td></td><td>(%zu more mappings)</td><td></td></tr>\n",
			rc_fmt_pct(b1, e->other_samples, e->data.total_samples),
			rc_fmt_u64(b2, e->other_samples), e->other_maps);
	fputs("</table>\n", o);
}

static void funcs_table(FILE *o, const struct ps_event *e)
{
	char b1[32], b2[32];

	if (!e->nr_funcs)
		return;
	fputs("<h4>Functions: their share and their accesses by page size</h4>\n"
	      "<table class=\"t psf\"><tr><th class=\"n\">share</th><th class=\"n\">samples</th>"
	      "<th>4K / 2M / 1G / unknown</th><th>function</th></tr>\n",
	      o);
	for (size_t i = 0; i < e->nr_funcs; i++) {
		const struct ps_func *f = &e->funcs[i];
		fprintf(o, "<tr><td class=\"n\">%s</td><td class=\"n\">%s</td><td>",
			rc_fmt_pct(b1, f->samples, e->data.total_samples),
			rc_fmt_u64(b2, f->samples));
		split_bar(o, f->page_samples, f->samples);
		fputs("</td><td class=\"fn\">", o);
		rc_esc(o, f->name);
		fputs("</td></tr>\n", o);
	}
	fputs("</table>\n", o);
}

/* The top symbols (processes) on each data page size. */
static void tops(FILE *o, const char *what, const struct ps_top (*t)[PS_TOP_MAX], const size_t *nr,
		 const struct ps_split *sp)
{
	char b1[32], b2[32];

	for (int p = 0; p < PS__NR; p++) {
		if (!nr[p])
			continue;
		fprintf(o, "<h4>Top %s on %s data pages</h4>\n", what, ps_page_names[p]);
		fputs("<table class=\"t\"><tr><th class=\"n\">share</th><th "
		      "class=\"n\">samples</th><th>name</th></tr>\n",
		      o);
		for (size_t k = 0; k < nr[p] && k < PS_TOP_MAX; k++) {
			fprintf(o,
				"<tr><td class=\"n\">%s</td><td class=\"n\">%s</td><td "
				"class=\"fn\">",
				rc_fmt_pct(b1, t[p][k].weight, sp->weight[p]),
				rc_fmt_u64(b2, t[p][k].samples));
			rc_esc(o, t[p][k].name);
			fputs("</td></tr>\n", o);
		}
		fputs("</table>\n", o);
	}
}

int rc_pagesize_html(FILE *o, const struct pagesize_summary *ps)
{
	int err;

	fputs("<section id=\"pagesize\"><h2>Page sizes: would huge pages help?</h2>\n", o);
	if (!ps) {
		fputs("<p class=\"psnone\">This recording has no data addresses, so there is no "
		      "page-size answer. Record with data addresses to get this section: "
		      "<code>pmuctl record --data-addr -e EVENT -- COMMAND</code> (see " PSH_DOC
		      ").</p>\n</section>\n",
		      o);
		return ferror(o) ? -EIO : 0;
	}
	fputs("<p class=\"psdoc\">User-mode and kernel-mode samples are shown apart; how to read "
	      "this and what to change: " PSH_DOC " (or "
	      "<code>pmuconv pagesize --help</code>).</p>\n",
	      o);
	for (size_t i = 0; i < ps->nr_events; i++) {
		const struct ps_event *e = &ps->events[i];
		fprintf(o, "<div class=\"psview\" data-view=\"%s\"><h3>", ps_view_names[e->view]);
		rc_esc(o, e->event);
		fprintf(o, ": %s</h3>\n", view_title[e->view]);
		if (e->view != PS_VIEW_USER && e->zero_samples) {
			char b[32];
			fprintf(o,
				"<p class=\"pszero\">First-touch zeroing: %s of these samples are "
				"the kernel clearing new pages (",
				rc_fmt_pct(b, e->zero_samples, e->data.total_samples));
			rc_esc(o, e->zero_fn);
			fputs("), a one-time cost of creating the mappings, not of the access "
			      "pattern.</p>\n",
			      o);
		}
		if ((err = verdict_block(o, e, ps->tlb)))
			return err;
		maps_table(o, e);
		funcs_table(o, e);
		tops(o, "symbols", (const struct ps_top(*)[PS_TOP_MAX])e->top_syms, e->nr_top_syms,
		     &e->data);
		tops(o, "processes", (const struct ps_top(*)[PS_TOP_MAX])e->top_procs,
		     e->nr_top_procs, &e->data);
		fputs("</div>\n", o);
	}
	fputs("<h3>Charts</h3>\n<div class=\"ps\">\n", o);
	if ((err = rc_pagesize_write(o, ps, 0)))
		return err;
	fputs("</div>\n</section>\n", o);
	return ferror(o) ? -EIO : 0;
}
