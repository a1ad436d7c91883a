/* SPDX-License-Identifier: MIT */
/*
 * pmuctl: control utility for the pmuprof sampling profiler.
 * Subcommands are dispatched through cmds[] (as git and bpftool do).
 */
#include <stdio.h>
#include <string.h>

#include "include/uapi/pmuprof.h"
#include "pmuctl.h"
#include "util.h"

static const struct pmuctl_cmd cmds[] = {
	{"info", cmd_info, "show the PMU and the sample sources the module can use"},
	{"list", cmd_list, "list events of this CPU (libpfm4) and pmuprof's generic names"},
	{"encode", cmd_encode, "show the IA32_PERFEVTSELx encoding of events"},
	{"record", cmd_record, "record samples into a pmuprof data file"},
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: pmuctl [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(out, "  %-8s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(out, "\n'pmuctl COMMAND --help' describes a command; see also pmuctl(1).\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("pmuctl %s (pmuprof ABI %d)\n", PMUCTL_VERSION, PMUPROF_ABI_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	pmuctl_err("unknown command '%s'; commands are info, list, encode, record (see 'pmuctl "
		   "--help')",
		   argv[1]);
	return EXIT_USAGE;
}
