/* SPDX-License-Identifier: MIT */
/* pmuctl list [PATTERN]: libpfm4 events of this CPU + generic names. */
#include <getopt.h>
#include <stdio.h>

#include "events.h"
#include "pmuctl.h"
#include "util.h"

static void help(FILE *out)
{
	fprintf(out,
		"usage: pmuctl list [-d] [PATTERN]\n\n"
		"List pmuprof's generic event names (with their mapping on this CPU model) and\n"
		"the events libpfm4 knows for this CPU, with descriptions and unit masks.\n"
		"PATTERN is a case-insensitive substring, or a glob when it contains * ? or [\n"
		"(matched against EVENT and EVENT:UMASK). LIBPFM_FORCE_PMU=NAME lists another\n"
		"CPU model's events.\n\n"
		"  -d, --desc   also match PATTERN against descriptions\n"
		"  -h, --help   this text\n");
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{"desc", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char err[512];
	int c, desc = 0, n;
	const char *pattern = NULL;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":dh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			desc = 1;
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			return pmuctl_usage_error("list", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		pattern = argv[optind++];
	if (optind < argc)
		return pmuctl_usage_error("list", "give at most one PATTERN (got '%s' too)",
					  argv[optind]);
	if (events__init(err, sizeof(err)) < 0) {
		pmuctl_err("%s", err);
		return EXIT_FAIL;
	}
	n = events__list(stdout, pattern, desc);
	if (n == 0 && pattern) {
		pmuctl_err("no event matches '%s'", pattern);
		return EXIT_FAIL;
	}
	return 0;
}
