// SPDX-License-Identifier: MIT
/*
 * The HTML page's NUMA section (issue 20): per event, the data page size x
 * data node matrix as a heat table (each cell's background darker with its
 * share of the event's weight, the count and share written in it), and the
 * local/remote split per page size. Nothing when the recording has no node
 * map (nodetab.h); inline styles only, so the page stays self-contained.
 */
#include "nodetab.h"
#include "psnames.h"
#include "render_common.h"

#include <errno.h>

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

/* One heat cell: red with an opacity from 0.05 (empty) to 0.9 (the largest
 * cell of the table), so the hot cells stand out whatever the scale. */
static void heat_cell(FILE *o, uint64_t n, uint64_t w, uint64_t total, uint64_t max)
{
	double a = 0.05 + 0.85 * share(w, max);

	fprintf(o,
		"<td class=\"nh\" data-share=\"%.4f\" style=\"background:rgba(200,40,30,%.2f);"
		"color:%s\">%llu<br/>%.1f%%</td>",
		share(w, total), a, a > 0.5 ? "#fff" : "#000", (unsigned long long)n,
		100.0 * share(w, total));
}

static void event_tables(FILE *o, const struct pc_nodetab *t, const struct pc_nodetab_event *e)
{
	uint64_t max = 0, unk = 0;

	for (int p = 0; p < PS__NR; p++)
		for (uint32_t c = 0; c <= t->nr_nodes; c++) {
			uint64_t w = pc_nodetab__cell(t, e, p, c, true);

			if (w > max)
				max = w;
			if (c == t->nr_nodes)
				unk += pc_nodetab__cell(t, e, p, c, false);
		}
	fputs("<table class=\"numaheat\"><tr><th>page</th>", o);
	for (uint32_t c = 0; c < t->nr_nodes; c++)
		fprintf(o, "<th>node %d</th>", (int)t->nodes[c]);
	if (unk)
		fputs("<th>unknown</th>", o);
	fputs("</tr>\n", o);
	for (int p = 0; p < PS__NR; p++) {
		uint64_t rows = 0;

		for (uint32_t c = 0; c <= t->nr_nodes; c++)
			rows += pc_nodetab__cell(t, e, p, c, false);
		if (!rows)
			continue;
		fprintf(o, "<tr><th>%s</th>", ps_page_names[p]);
		for (uint32_t c = 0; c < t->nr_nodes + (unk ? 1 : 0); c++)
			heat_cell(o, pc_nodetab__cell(t, e, p, c, false),
				  pc_nodetab__cell(t, e, p, c, true), e->weight, max);
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
	if (t->nr_nodes < 2) {
		fputs("<p>One node: every access is local.</p>\n", o);
		return;
	}
	fputs("<table class=\"numaloc\"><tr><th>page</th><th>local</th><th>remote</th>", o);
	if (unk)
		fputs("<th>unknown</th>", o);
	fputs("</tr>\n", o);
	for (int p = 0; p < PS__NR; p++) {
		uint64_t all = e->loc_weight[p][0] + e->loc_weight[p][1] + e->loc_weight[p][2];

		if (!e->loc_samples[p][0] && !e->loc_samples[p][1] && !e->loc_samples[p][2])
			continue;
		fprintf(o, "<tr><th>%s</th>", ps_page_names[p]);
		for (int l = 0; l < (unk ? PC_LOC__NR : PC_LOC_UNKNOWN); l++)
			fprintf(o, "<td>%.1f%%</td>", 100.0 * share(e->loc_weight[p][l], all));
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
}

int rc_numa_html(FILE *o, const struct pc_nodetab *t)
{
	if (!t || !t->has_map)
		return 0;
	fprintf(o, "<section id=\"numa\"><h2>NUMA placement of data accesses</h2>\n<p>%u node%s: ",
		t->nr_nodes, t->nr_nodes == 1 ? "" : "s");
	for (uint32_t i = 0; i < t->nr_nodes; i++) {
		fprintf(o, "%snode %d (CPUs ", i ? "; " : "", (int)t->nodes[i]);
		rc_esc(o, t->node_cpus[i] ? t->node_cpus[i] : "?");
		fprintf(o, ", %.2f GiB)", (double)t->node_bytes[i] / (1u << 30));
	}
	fputs(". Rows: the page size of the data access; columns: the NUMA node owning the "
	      "page; each cell: samples and share of the event's weight (darker: more). "
	      "Local/remote: the page's node against the sampling CPU's node.</p>\n",
	      o);
	for (uint32_t x = 0; x < t->nr_events; x++) {
		const struct pc_nodetab_event *e = &t->ev[x];

		fputs("<h3>", o);
		rc_esc(o, e->name);
		fprintf(o, ": %llu samples with a data address</h3>\n",
			(unsigned long long)e->samples);
		if (e->samples)
			event_tables(o, t, e);
	}
	fputs("</section>\n", o);
	return ferror(o) ? -EIO : 0;
}
