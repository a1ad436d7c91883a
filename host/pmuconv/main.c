// SPDX-License-Identifier: MIT
/*
 * pmuconv: turn pmuprof data files (and perf script / stap / folded text)
 * into folded stacks, reports, page-size breakdowns, diffs and, when the
 * renderers are built in, flamegraphs and HTML pages. This file holds the
 * subcommand table and dispatches; each cmd_<name>.c parses its own options
 * and wires its pipeline.
 */
#include "cli.h"
#include "heap.h"

static const struct pc_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} cmds[] = {
	{"folded", cmd_folded, "folded stacks, one file per event"},
	{"report", cmd_report, "accounting header and top tables per event"},
	{"pagesize", cmd_pagesize, "4K/2M/1G shares of data and code accesses"},
	{"diff", cmd_diff, "functions that grew or shrank between two recordings"},
	{"flamegraph", cmd_flamegraph, "one interactive SVG per event (renderer)"},
	{"html", cmd_html, "one self-contained HTML report (renderer)"},
	{"archive", cmd_archive, "the binaries samples hit, by build-id, in one tar"},
	{"pprof", cmd_pprof, "pprof profile (go tool pprof, Pyroscope, Parca)"},
	{"speedscope", cmd_speedscope, "speedscope JSON profile (speedscope.app)"},
	{"script", cmd_script, "every sample, one per line, in perf script's layout"},
	{"perf-data", cmd_perfdata, "a perf.data file for perf report/script, hotspot"},
};

static const struct pc_cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < PC_ARRAY_SIZE(cmds); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: pmuconv [--version] COMMAND [options] [FILE...]\n\ncommands:\n");
	for (size_t i = 0; i < PC_ARRAY_SIZE(cmds); i++)
		fprintf(out, "  %-11s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(out, "\nWith no FILE, " PC_DEFAULT_INPUT
		     " in the current directory is read (diff: the\n" PC_DEFAULT_INPUT
		     ".old and " PC_DEFAULT_INPUT
		     " that pmuctl record leaves); - reads standard input.\n"
		     "'pmuconv COMMAND --help' for the options of a command; see pmuconv(1).\n");
}

int main(int argc, char **argv)
{
	const struct pc_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		if (argc > 2 && (c = find_cmd(argv[2]))) {
			char *help[] = {argv[2], "--help", NULL};
			return c->fn(2, help);
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("pmuconv %s\n", PMUPROF_VERSION);
		return 0;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		fprintf(stderr, "pmuconv: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	pc_heap_setup();
	return c->fn(argc - 1, argv + 1);
}
