// SPDX-License-Identifier: MIT
/*
 * Page-size bar chart: per event, one stacked bar for the data accesses and
 * one for the code (IP) pages, split into 4K/2M/1G/unknown by share of the
 * event's weight (estimated event counts, or samples with --weight samples).
 * Every number is written as text next to the bars and in <title> tooltips,
 * so the chart reads the same with scripts off or as a static image.
 */
#include "render_common.h"

#include <errno.h>
#include <string.h>

#define PS_W	   960
#define PS_X0	   90 /* bars start here; row labels to the left */
#define PS_BAR_H   22
#define PS_BLOCK_H 128
#define PS_TOP	   82

static const struct rc_rgb page_rgb[PS__NR] = {
	{224, 123, 57},	 /* 4K: orange, the pages that cost TLB reach */
	{60, 141, 188},	 /* 2M: blue */
	{46, 125, 50},	 /* 1G: green */
	{158, 158, 158}, /* unknown: grey */
};

static const char *const view_title[PS_VIEW__NR] = {"user mode", "kernel mode",
						    "user and kernel mode"};

static uint64_t split_part(const struct ps_split *sp, int p)
{
	return sp->total_weight ? sp->weight[p] : sp->samples[p];
}

static uint64_t split_total(const struct ps_split *sp)
{
	return sp->total_weight ? sp->total_weight : sp->total_samples;
}

static void bar(FILE *o, const struct ps_event *e, const struct ps_split *sp, const char *what,
		int y, int recorded)
{
	uint64_t total = split_total(sp);
	double x = PS_X0, span = PS_W - 10 - PS_X0;
	char b1[32], b2[32], b3[32];

	fprintf(o, "<text class=\"ps-row\" x=\"10\" y=\"%d\">%s</text>\n", y + 16, what);
	if (!recorded || !total) {
		fprintf(o,
			"<rect x=\"%d\" y=\"%d\" width=\"%s\" height=\"%d\" fill=\"none\" "
			"stroke=\"#bbb\"/>\n<text class=\"ps-note\" x=\"%d\" y=\"%d\">%s</text>\n",
			PS_X0, y, rc_fmt_coord(b1, span), PS_BAR_H, PS_X0 + 8, y + 16,
			recorded ? "no samples with this address part"
				 : "code page sizes were not recorded in this file");
		return;
	}
	for (int p = 0; p < PS__NR; p++) {
		uint64_t part = split_part(sp, p);
		double w = span * (double)part / (double)total;
		if (!part)
			continue;
		fprintf(o,
			"<g class=\"ps-seg\" data-kind=\"%s\" data-page=\"%s\" data-pct=\"%.2f\">"
			"<title>",
			what, ps_page_names[p], 100.0 * (double)part / (double)total);
		rc_esc(o, e->event);
		fprintf(o, " %s on %s pages: %s, %s samples", what, ps_page_names[p],
			rc_fmt_pct(b1, part, total), rc_fmt_u64(b2, sp->samples[p]));
		fprintf(o,
			"</title><rect x=\"%s\" y=\"%d\" width=\"%s\" height=\"%d\" "
			"fill=\"rgb(%u,%u,%u)\"/>",
			rc_fmt_coord(b1, x), y, rc_fmt_coord(b2, w), PS_BAR_H, page_rgb[p].r,
			page_rgb[p].g, page_rgb[p].b);
		if (w >= 80)
			fprintf(o, "<text class=\"ps-in\" x=\"%s\" y=\"%d\">%s %s</text>",
				rc_fmt_coord(b1, x + 5), y + 15, ps_page_names[p],
				rc_fmt_pct(b3, part, total));
		fputs("</g>\n", o);
		x += w;
	}
	/* the full breakdown as a line of text, wide segments or not */
	fprintf(o, "<text class=\"ps-line\" x=\"%d\" y=\"%d\">", PS_X0, y + PS_BAR_H + 15);
	for (int p = 0; p < PS__NR; p++)
		fprintf(o, "%s%s %s (%s samples)", p ? "  \xc2\xb7  " : "", ps_page_names[p],
			rc_fmt_pct(b1, split_part(sp, p), total), rc_fmt_u64(b2, sp->samples[p]));
	fputs("</text>\n", o);
}

int rc_pagesize_write(FILE *o, const struct pagesize_summary *s, int standalone)
{
	int height = PS_TOP + (int)(s->nr_events ? s->nr_events : 1) * PS_BLOCK_H + 10;
	char b1[32], b2[32];

	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", o);
	fprintf(o,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" class=\"pmupages\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"Verdana,'DejaVu "
		"Sans',sans-serif\" font-size=\"12\">\n<title>Page sizes: ",
		PS_W, height, PS_W, height);
	rc_esc(o, s->source);
	fprintf(o, "</title>\n<style><![CDATA[\n%s]]></style>\n", rc_pagesize_css);
	fprintf(o, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", PS_W,
		height);
	fputs("<text class=\"ps-title\" x=\"10\" y=\"24\">Page sizes of sampled accesses</text>\n"
	      "<text class=\"ps-sub\" x=\"10\" y=\"42\">",
	      o);
	if (s->source) {
		rc_esc(o, s->source);
		fputs(": ", o);
	}
	fputs("shares of each event's weight by page size; data = page of the accessed "
	      "address, code = page of the sampled instruction</text>\n",
	      o);
	for (int p = 0, x = 10; p < PS__NR; p++) {
		fprintf(o,
			"<rect x=\"%d\" y=\"52\" width=\"12\" height=\"12\" "
			"fill=\"rgb(%u,%u,%u)\"/>"
			"<text class=\"ps-sub\" x=\"%d\" y=\"62\">%s pages</text>\n",
			x, page_rgb[p].r, page_rgb[p].g, page_rgb[p].b, x + 16, ps_page_names[p]);
		x += 40 + 8 * (int)strlen(ps_page_names[p]) + 40;
	}
	if (!s->has_data_addr || !s->nr_events)
		fprintf(o,
			"<text class=\"ps-note\" x=\"10\" y=\"%d\">This recording has no data "
			"addresses; record with pmuctl record --data-addr.</text>\n",
			PS_TOP + 20);
	for (size_t i = 0; s->has_data_addr && i < s->nr_events; i++) {
		const struct ps_event *e = &s->events[i];
		int y = PS_TOP + (int)i * PS_BLOCK_H;
		fprintf(o, "<g class=\"ps-event\" data-event=\"");
		rc_esc(o, e->event);
		fprintf(o, "\" data-view=\"%s\">\n<text class=\"ps-head\" x=\"10\" y=\"%d\">",
			ps_view_names[e->view], y + 14);
		rc_esc(o, e->event);
		fprintf(o, " (%s) \xe2\x80\x94 %s samples, %s with a data address; weight = ",
			view_title[e->view], rc_fmt_u64(b1, e->samples),
			rc_fmt_u64(b2, e->data.total_samples));
		if (!e->data.total_weight || !strcmp(e->unit, "samples"))
			fputs("samples", o);
		else {
			fputs("estimated ", o);
			rc_esc(o, e->unit);
		}
		fputs("</text>\n", o);
		bar(o, e, &e->data, "data", y + 24, 1);
		bar(o, e, &e->code, "code", y + 24 + PS_BAR_H + 30, s->has_code_page);
		fputs("</g>\n", o);
	}
	fputs("</svg>\n", o);
	return ferror(o) ? -EIO : 0;
}

int render_pagesize_svg(FILE *out, const struct pagesize_summary *s)
{
	if (!out || !s)
		return -EINVAL;
	return rc_pagesize_write(out, s, 1);
}
