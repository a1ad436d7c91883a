// SPDX-License-Identifier: MIT
/* `pmuconv folded`: load, then write each event's profile as folded text. */
#include "cli.h"
#include "folded.h"
#include "report.h"

static const struct pc_cmd_help help = {
	"folded",
	"usage: pmuconv folded FILE [-e EVENT] [-o OUT] [options]\n"
	"Write folded stacks (root;...;leaf COUNT, root first; the root is the process\n"
	"name) for flamegraph.pl, inferno or speedscope. COUNT is the weight (see\n"
	"--weight); the unit is printed on stderr. Events are never mixed: with one\n"
	"event (or -e) the stacks go to OUT (default stdout); with several, -o names a\n"
	"directory that gets one EVENT.folded file per event.\n"
	"  -e, --event EVENT   only this event\n"
	"  -o, --output OUT    output file, or directory for several events\n"
	"  --annotate-kernel   suffix kernel frames with _[k] (FlameGraph colouring)\n"
	"  --no-process        do not put the process name at the root\n"
	"  --annotate-node     a leaf frame [node N] per data access: the NUMA node of\n"
	"                      the page it hit (pmuprof --data-addr recordings)\n" FILTER_HELP
		COMMON_INPUT_HELP};

static int write_one(struct pc_cli *c, const struct pc_agg *a, const char *path)
{
	static char buf[1 << 16]; /* folded_write hands over 64 KiB chunks */
	FILE *out = pc_cli_open_out(path);
	char ub[96];

	if (!out)
		return 1;
	setvbuf(out, buf, _IOFBF, sizeof(buf));
	folded_write(out, &a->prof, c->annotate_kernel, 0);
	if (pc_cli_close_out(out, path))
		return 1;
	if (!pc_quiet)
		fprintf(stderr, "pmuconv: %s: event %s, %zu stacks, %llu samples; counts are %s\n",
			path ? path : "stdout", a->prof.event, a->prof.nr_stacks,
			(unsigned long long)a->prof.total_samples,
			pc_unit_label(a, ub, sizeof(ub)));
	return 0;
}

int cmd_folded(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	int r = pc_cli_parse(&c, argc, argv, OPT_PROFILE | OPT_ANNOTATE, &help, 1, 1);

	if (r != PC_CLI_RUN)
		return r;
	if ((r = pc_cli_load(&c, &s, 0)))
		goto out;
	if (s.nr == 0) {
		fprintf(stderr, "pmuconv: %s: no samples\n", c.pos[0]);
		r = 1;
		goto out;
	}
	if (s.nr == 1) {
		r = write_one(&c, s.ev[0], c.out);
		goto out;
	}
	if (!c.out) {
		fprintf(stderr,
			"pmuconv: %s has %zu events, and folded never mixes events: choose one "
			"with -e, or give -o DIR for one file per event. Events:",
			c.pos[0], s.nr);
		for (size_t i = 0; i < s.nr; i++)
			fprintf(stderr, " %s", s.ev[i]->prof.event);
		fprintf(stderr, "\n");
		r = 2;
		goto out;
	}
	if ((r = pc_cli_mkdir(c.out)))
		goto out;
	for (size_t i = 0; i < s.nr && !r; i++) {
		char name[200], path[4096];
		pc_safe_filename(name, sizeof(name), s.ev[i]->prof.event);
		snprintf(path, sizeof(path), "%s/%s.folded", c.out, name);
		r = write_one(&c, s.ev[i], path);
	}
out:
	pc_set__free(&s);
	return r;
}
