/* SPDX-License-Identifier: MIT */
/*
 * Renderer interface: functions the graphical renderers (host/pmuconv/
 * render_*.c, written separately) provide and the cmd_*.c call. Until a
 * renderer is linked in, its function is a weak undefined symbol (NULL) and
 * the subcommand that needs it says "not built" instead of crashing.
 *
 * Contract for every renderer:
 *  - output is deterministic for the same input (no timestamps, stable order);
 *  - self-contained: no network, no external scripts or fonts;
 *  - every name taken from the profile is escaped for XML/HTML (names may
 *    hold any byte except ';' and control characters, see pcagg.c);
 *  - returns 0, or a negative errno after writing nothing useful;
 *  - the weight unit comes from opts->unit_label (never assumed "samples").
 */
#ifndef PMUCONV_RENDER_H
#define PMUCONV_RENDER_H

#include <stdint.h>
#include <stdio.h>
#include "profile.h"
#include "pagesize.h"

struct pc_set;
struct pc_report_event;

struct render_opts {
	const char *title;	/* e.g. "cycles:u" (the event); never NULL */
	const char *subtitle;	/* e.g. "period 100000 cycles, 12345 samples" or NULL */
	const char *unit_label; /* e.g. "estimated cycles (sum of sample periods)" */
	int width;		/* pixels, 0 = 1200 */
	double min_width_px;	/* frames narrower than this are elided, 0 = 0.1 */
	int by_samples;		/* frame widths by samples instead of weight */
};

/* One interactive flamegraph: hover (function, samples, estimated count,
 * percent), click to zoom, search with matched percentage, kernel and user
 * frames (struct pc_name.kind) coloured apart. */
int render_flamegraph_svg(FILE *out, const struct pc_profile *p, const struct render_opts *o)
	__attribute__((weak));

/* Differential flamegraph: frame widths from `after`; colour from the change
 * of each frame's share of the total between `before` and `after` (red grew,
 * blue shrank), so recordings of different lengths compare. */
int render_diff_flamegraph_svg(FILE *out, const struct pc_profile *before,
			       const struct pc_profile *after, const struct render_opts *o)
	__attribute__((weak));

/* Bar chart of data and code page-size shares per event. */
int render_pagesize_svg(FILE *out, const struct pagesize_summary *s) __attribute__((weak));

struct pc_nodetab;
struct html_input {
	const char *title;
	const struct pc_set *set; /* accounting (set->acct) + events (set->ev[i]->prof) */
	const struct pc_report_event *reports;	 /* [set->nr] top tables, report.h */
	size_t top;				 /* rows per table */
	const struct pagesize_summary *pagesize; /* NULL if no data addresses */
	const struct pc_nodetab *numa;		 /* NULL or no map: no NUMA section */
};

/* One self-contained page: accounting header, every event's flamegraph,
 * the top tables and the page-size charts. */
int render_html(FILE *out, const struct html_input *in) __attribute__((weak));

#endif
