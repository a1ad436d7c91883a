// SPDX-License-Identifier: MIT
/*
 * pmuconv: turn pmuprof data files (and perf script / stap / folded text)
 * into folded stacks, reports, page-size breakdowns, diffs and, when the
 * renderers are built in, flamegraphs and HTML pages. The subcommands live
 * in cli.c's table (pc_cmds[]); this file only dispatches.
 */
#include "cli.h"

#include <stdlib.h>

static void usage(FILE *out)
{
	fprintf(out, "usage: pmuconv COMMAND [options] FILE...\n\ncommands:\n");
	for (size_t i = 0; i < pc_nr_cmds; i++)
		fprintf(out, "  %-11s %s\n", pc_cmds[i].name, pc_cmds[i].summary);
	fprintf(out, "\n'pmuconv COMMAND --help' for the options of a command; see pmuconv(1).\n");
}

int main(int argc, char **argv)
{
	const struct pc_cmd *c;
	int r;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		if (argc > 2 && (c = pc_find_cmd(argv[2]))) {
			fputs(c->usage, stdout);
			return 0;
		}
		usage(stdout);
		return 0;
	}
	c = pc_find_cmd(argv[1]);
	if (!c) {
		fprintf(stderr, "pmuconv: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	r = c->fn(argc - 1, argv + 1);
	return r;
}
