// SPDX-License-Identifier: MIT
/* `pmuconv html`: load, build the tables, page sizes and NUMA placement,
 * render one page. */
#include "cli.h"
#include "nodetab.h"
#include "pagesize.h"
#include "render.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

static const struct pc_cmd_help help = {
	"html",
	"usage: pmuconv html FILE -o report.html [options]\n" FILTER_HELP COMMON_INPUT_HELP};

int cmd_html(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	struct pc_report_event *reps = NULL;
	struct pagesize_summary *ps = NULL;
	struct pagesize_acc *acc = NULL;
	struct pc_nodetab nt = {0};
	int r = pc_cli_parse(&c, argc, argv, OPT_PROFILE | OPT_TOP, &help, 1, 1);

	if (r != PC_CLI_RUN)
		return r;
	if (!render_html)
		return pc_cli_not_built("html");
	if (!c.out) {
		fprintf(stderr, "pmuconv html: give the output file with -o report.html\n");
		return 2;
	}
	if (!(acc = pagesize_acc__new(c.load.filter.mode, false))) {
		r = 1;
		goto out;
	}
	c.load.also = pagesize_acc__consumer(acc);
	if ((r = pc_cli_load(&c, &s, 0)))
		goto out;
	if (s.acct.has_pages && !(ps = pagesize_acc__summarize(acc, &s))) {
		r = 1;
		goto out;
	}
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
	/* the NUMA section: a second pass over a pmuprof file with a node map */
	if (ps && ps->has_data_addr && strcmp(c.pos[0], "-")) {
		char err[1024] = "";

		if (pc_nodetab__load(&nt, c.pos[0], &c.load, err, sizeof(err))) {
			fprintf(stderr, "pmuconv html: %s\n", err);
			r = 1;
			goto out;
		}
	}
	struct html_input in = {.title = c.pos[0],
				.set = &s,
				.reports = reps,
				.top = c.top,
				.pagesize = (ps && ps->has_data_addr) ? ps : NULL,
				.numa = &nt};
	FILE *f = pc_cli_open_out(c.out);
	r = f ? pc_cli_close_rendered(f, c.out, render_html(f, &in)) : 1;
out:
	if (reps)
		for (size_t i = 0; i < s.nr; i++)
			pc_report__free(&reps[i]);
	free(reps);
	pagesize_summary__free(ps);
	pagesize_acc__free(acc);
	pc_nodetab__free(&nt);
	pc_set__free(&s);
	return r;
}
