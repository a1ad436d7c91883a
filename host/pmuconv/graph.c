// SPDX-License-Identifier: MIT
/*
 * `pmuconv flamegraph` and `pmuconv html`: load, then hand the profiles to
 * the renderers (render.h). The renderers are linked in when their sources
 * exist; otherwise the weak symbols are NULL and these commands say so.
 */
#include "cli.h"
#include "pagesize.h"
#include "render.h"
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

static int not_built(const char *what)
{
	fprintf(stderr,
		"pmuconv: %s: not built (this pmuconv has no %s renderer); use 'pmuconv folded' "
		"and FlameGraph/inferno, or 'pmuconv report'\n",
		what, what);
	return 3;
}

void pc_render_opts(struct render_opts *ro, const struct pc_agg *a, char *sub, size_t sublen,
		    char *unit, size_t unitlen)
{
	memset(ro, 0, sizeof(*ro));
	ro->title = a->prof.event;
	pc_unit_label(a, unit, unitlen);
	ro->unit_label = unit;
	if (a->prof.freq_mode)
		snprintf(sub, sublen, "period varies (frequency mode), %llu samples",
			 (unsigned long long)a->prof.total_samples);
	else if (a->prof.period)
		snprintf(sub, sublen, "period %llu %s, %llu samples",
			 (unsigned long long)a->prof.period, a->prof.unit,
			 (unsigned long long)a->prof.total_samples);
	else
		snprintf(sub, sublen, "%llu samples", (unsigned long long)a->prof.total_samples);
	ro->subtitle = sub;
}

int cmd_flamegraph(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	int r = pc_cli_parse(&c, argc, argv,
			     OPT_EVENT | OPT_OUTPUT | OPT_FILTER | OPT_WEIGHT | OPT_INPUT |
				     OPT_ANNOTATE,
			     pc_find_cmd("flamegraph"), 1, 1);

	if (r)
		return r == 1 ? 0 : 2;
	if (!render_flamegraph_svg)
		return not_built("flamegraph");
	if (!c.out) {
		fprintf(stderr, "pmuconv flamegraph: give the output directory with -o DIR\n");
		return 2;
	}
	if ((r = pc_cli_load(&c, &s, 0)))
		goto out;
	if (mkdir(c.out, 0777) && errno != EEXIST) {
		fprintf(stderr, "pmuconv: cannot create directory %s: %s\n", c.out,
			strerror(errno));
		r = 1;
		goto out;
	}
	for (size_t i = 0; i < s.nr && !r; i++) {
		char name[200], path[4096], sub[256], unit[96];
		struct render_opts ro;
		FILE *f;
		pc_safe_filename(name, sizeof(name), s.ev[i]->prof.event);
		snprintf(path, sizeof(path), "%s/%s.svg", c.out, name);
		pc_render_opts(&ro, s.ev[i], sub, sizeof(sub), unit, sizeof(unit));
		ro.by_samples = c.load.filter.weight == PC_WEIGHT_SAMPLES;
		if (!(f = pc_cli_open_out(path))) {
			r = 1;
			break;
		}
		int e = render_flamegraph_svg(f, &s.ev[i]->prof, &ro);
		if (e)
			fprintf(stderr, "pmuconv: %s: rendering failed: %s\n", path, strerror(-e));
		r = pc_cli_close_out(f, path) || e ? 1 : 0;
		if (!r && !pc_quiet)
			fprintf(stderr, "pmuconv: wrote %s\n", path);
	}
out:
	pc_set__free(&s);
	return r;
}

int cmd_html(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	struct pc_report_event *reps = NULL;
	struct pagesize_summary *ps = NULL;
	int r = pc_cli_parse(&c, argc, argv,
			     OPT_EVENT | OPT_OUTPUT | OPT_FILTER | OPT_WEIGHT | OPT_INPUT | OPT_TOP,
			     pc_find_cmd("html"), 1, 1);

	if (r)
		return r == 1 ? 0 : 2;
	if (!render_html)
		return not_built("html");
	if (!c.out) {
		fprintf(stderr, "pmuconv html: give the output file with -o report.html\n");
		return 2;
	}
	c.load.pagesize = pagesize_acc__new();
	if (!c.load.pagesize) {
		r = 1;
		goto out;
	}
	if ((r = pc_cli_load(&c, &s, 0)))
		goto out;
	ps = pagesize_take_summary(c.load.pagesize);
	reps = calloc(s.nr ? s.nr : 1, sizeof(*reps));
	if (!reps) {
		r = 1;
		goto out;
	}
	for (size_t i = 0; i < s.nr; i++)
		if (pc_report__build(&reps[i], s.ev[i])) {
			r = 1;
			goto out;
		}
	struct html_input in = {.title = c.pos[0],
				.set = &s,
				.reports = reps,
				.top = c.top,
				.pagesize = (ps && ps->has_data_addr) ? ps : NULL};
	FILE *f = pc_cli_open_out(c.out);
	if (!f) {
		r = 1;
		goto out;
	}
	int e = render_html(f, &in);
	if (e)
		fprintf(stderr, "pmuconv: %s: rendering failed: %s\n", c.out, strerror(-e));
	r = pc_cli_close_out(f, c.out) || e ? 1 : 0;
out:
	if (reps)
		for (size_t i = 0; i < s.nr; i++)
			pc_report__free(&reps[i]);
	free(reps);
	pagesize_summary__free(ps);
	pagesize_acc__free(c.load.pagesize);
	pc_set__free(&s);
	return r;
}
