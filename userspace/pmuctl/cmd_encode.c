/* SPDX-License-Identifier: MIT */
/* pmuctl encode EVENT...: the IA32_PERFEVTSELx value of each event. */
#include <getopt.h>
#include <stdio.h>

#include "include/uapi/pmuprof.h"
#include "events.h"
#include "evtsel.h"
#include "pmuctl.h"
#include "util.h"

static void help(FILE *out)
{
	fprintf(out,
		"usage: pmuctl encode EVENT...\n\n"
		"Print each event's raw encoding: the IA32_PERFEVTSELx value pmuprof would\n"
		"program (without EN and INT, which the module sets), its fields, and whether\n"
		"a fixed counter can count it. Works without the module; LIBPFM_FORCE_PMU=NAME\n"
		"(e.g. skl, icl) encodes for another CPU model. EVENT is a generic name\n"
		"(cycles, ...), a libpfm4 name (DTLB_LOAD_MISSES.WALK_COMPLETED,\n"
		"dtlb_load_misses:walk_completed:u:c=2), a raw rNNNN value, or cpu-clock.\n\n"
		"  -h, --help   this text\n");
}

static void print_event(const struct pmuctl_event *ev)
{
	struct evtsel_fields f;

	printf("%s\n", ev->name);
	if (ev->source == PMUPROF_SOURCE_NMI_IPI) {
		printf("  source     nmi-ipi (hrtimer NMI IPIs; no PMU counter, no encoding)\n");
		printf("  period     nanoseconds of CPU time between samples\n");
		return;
	}
	evtsel__decode(ev->config, &f);
	printf("  resolved   %s\n", ev->resolved);
	printf("  config     0x%08llx\n", (unsigned long long)ev->config);
	printf("  fields     event=0x%02x umask=0x%02x cmask=%u inv=%u edge=%u any=%u usr=%u "
	       "os=%u\n",
	       f.event, f.umask, f.cmask, f.inv, f.edge, f.any, f.usr, f.os);
	if (f.other)
		printf("  other bits 0x%llx (outside IA32_PERFEVTSELx's user fields; pmuprof "
		       "rejects them)\n",
		       (unsigned long long)f.other);
	if (ev->fixed >= 0)
		printf("  counter    fixed counter %d%s\n", ev->fixed,
		       ev->fixed_only ? " only (pseudo encoding)"
				      : " when free, else a general-purpose counter");
	else
		printf("  counter    general-purpose\n");
}

int cmd_encode(int argc, char **argv)
{
	static const struct option opts[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct pmuctl_event ev;
	char err[1024];
	int c, i, failed = 0;

	opterr = 0;
	optind = 1;
	/* '+': stop at the first event so names never parse as options. */
	while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help(stdout);
			return 0;
		default:
			return pmuctl_usage_error("encode", "unknown option '%s'",
						  argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return pmuctl_usage_error("encode", "give at least one EVENT");
	if (events__init(err, sizeof(err)) < 0) {
		pmuctl_err("%s", err);
		return EXIT_FAIL;
	}
	for (i = optind; i < argc; i++) {
		if (events__resolve(argv[i], &ev, err, sizeof(err)) < 0) {
			pmuctl_err("%s", err);
			failed = 1;
			continue;
		}
		print_event(&ev);
	}
	return failed ? EXIT_FAIL : 0;
}
