// SPDX-License-Identifier: MIT
/* `pmuconv diff A B`: load both, pick the event, compare, print; optional
 * differential flamegraph through the renderer. */
#include "cli.h"
#include "diff.h"
#include "render.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const struct pc_cmd_help help = {
	"diff",
	"usage: pmuconv diff A B [-e EVENT] [--json] [--svg FILE] [options]\n"
	"Compare two recordings of the same event: per function, the self and total\n"
	"shares (normalised by each recording's total) in A and B and the change, largest\n"
	"changes first. --svg writes a differential flamegraph (renderer needed).\n"
	"  --absolute          per second of each recording's run time instead of shares:\n"
	"                      weight (events) and samples per second, change B - A\n"
	"  -e, --event EVENT   event to compare (needed when a file has several)\n"
	"  -n, --top N         rows (default 30)\n"
	"  --json              machine-readable output\n"
	"  -o, --output OUT    table to OUT instead of stdout\n" FILTER_HELP COMMON_INPUT_HELP};

static struct pc_agg *pick_event(struct pc_set *s, const char *want, const char *path)
{
	if (want) {
		struct pc_agg *a = pc_set__find(s, want);
		if (!a)
			fprintf(stderr, "pmuconv diff: %s has no event '%s'\n", path, want);
		return a;
	}
	if (s->nr == 1)
		return s->ev[0];
	fprintf(stderr, "pmuconv diff: %s has %zu events; choose one with -e:", path, s->nr);
	for (size_t i = 0; i < s->nr; i++)
		fprintf(stderr, " %s", s->ev[i]->prof.event);
	fprintf(stderr, "\n");
	return NULL;
}

int cmd_diff(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set sa = {0}, sb = {0};
	struct pc_report_event ra = {0}, rb = {0};
	struct diff_row *rows = NULL;
	size_t nr = 0;
	FILE *out = NULL;
	static const char *const own[] = {"--absolute", NULL};
	bool absolute = false;
	int r;

	argc = pc_cli_take_flags(argc, argv, own, &absolute);
	r = pc_cli_parse(&c, argc, argv, OPT_PROFILE | OPT_JSON | OPT_TOP, &help, 2, 2);

	if (r != PC_CLI_RUN)
		return r;
	if (c.top == 20)
		c.top = 30;
	if (c.svg && !render_diff_flamegraph_svg) {
		fprintf(stderr, "pmuconv diff: --svg: not built (no flamegraph renderer in this "
				"pmuconv)\n");
		return 3;
	}
	if ((r = pc_cli_load(&c, &sa, 0)) || (r = pc_cli_load(&c, &sb, 1)))
		goto done;
	struct pc_agg *a = pick_event(&sa, c.load.filter.event, c.pos[0]);
	struct pc_agg *b = a ? pick_event(&sb, c.load.filter.event, c.pos[1]) : NULL;
	if (!a || !b) {
		r = 2;
		goto done;
	}
	double secs[2] = {sa.acct.has_time ? (double)sa.acct.duration_ns / 1e9 : 0,
			  sb.acct.has_time ? (double)sb.acct.duration_ns / 1e9 : 0};
	for (int k = 0; absolute && k < 2; k++)
		if (secs[k] <= 0) {
			fprintf(stderr,
				"pmuconv diff: --absolute: %s does not say how long the recording "
				"ran "
				"(%s input has no run time); compare shares without --absolute, or "
				"use pmuprof recordings\n",
				c.pos[k],
				(k ? sb : sa).acct.format ? (k ? sb : sa).acct.format : "this");
			r = 2;
			goto done;
		}
	if (strcmp(a->prof.event, b->prof.event))
		pc_warn("diff: comparing different events '%s' and '%s'", a->prof.event,
			b->prof.event);
	if (a->acct.weight_is_period != b->acct.weight_is_period ||
	    strcmp(a->prof.unit, b->prof.unit))
		pc_warn("diff: the recordings weigh samples differently (%s vs %s); shares are "
			"still comparable, counts are not",
			a->prof.unit, b->prof.unit);
	if (pc_report__build(&ra, a) || pc_report__build(&rb, b) ||
	    diff_rows(&ra, &rb, &rows, &nr)) {
		fprintf(stderr, "pmuconv diff: out of memory\n");
		r = 1;
		goto done;
	}
	if (!(out = pc_cli_open_out(c.out))) {
		r = 1;
		goto done;
	}
	const char *paths[2] = {c.pos[0], c.pos[1]};
	const struct pc_agg *evs[2] = {a, b};
	if (absolute)
		diff_print_absolute(out, paths, evs, secs, rows, nr, c.top, c.json);
	else
		diff_print(out, paths, evs, rows, nr, c.top, c.json);
	r = pc_cli_close_out(out, c.out);
	if (!r && c.svg) {
		struct render_opts ro;
		char sub[256], unit[96];
		FILE *f = pc_cli_open_out(c.svg);
		pc_render_opts(&ro, b, sub, sizeof(sub), unit, sizeof(unit));
		r = f ? pc_cli_close_rendered(
				f, c.svg, render_diff_flamegraph_svg(f, &a->prof, &b->prof, &ro))
		      : 1;
	}
done:
	free(rows);
	pc_report__free(&ra);
	pc_report__free(&rb);
	pc_set__free(&sa);
	pc_set__free(&sb);
	return r;
}
