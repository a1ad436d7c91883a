/* SPDX-License-Identifier: MIT */
/* pmuctl list [--all] [PATTERN]: the events usable here (libpfm4 + generic names). */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "device.h"
#include "events.h"
#include "pmuctl.h"
#include "util.h"

static void help(FILE *out)
{
	fprintf(out,
		"usage: pmuctl list [-d] [--all] [PATTERN]\n\n"
		"List pmuprof's generic event names (with their mapping on this CPU model) and\n"
		"the events libpfm4 knows for this CPU, with descriptions and unit masks.\n"
		"Where the hardware events cannot be used (an AMD CPU; or the loaded module\n"
		"reports no usable PMU: a VM without one, counters held by perf), only\n"
		"cpu-clock is listed, with one line saying why; --all lists everything.\n"
		"PATTERN is a case-insensitive substring, or a glob when it contains * ? or [\n"
		"(matched against EVENT and EVENT:UMASK). LIBPFM_FORCE_PMU=NAME lists another\n"
		"CPU model's events.\n\n"
		"  -d, --desc   also match PATTERN against descriptions\n"
		"  -a, --all    also the events that are not usable here\n"
		"  -h, --help   this text\n");
}

/* Why hardware events are unusable here, or NULL: the CPU (events.c), then
 * the loaded module's GET_INFO when this user may open the device (without
 * the module, or without the right to open it, the CPU alone decides). */
static const char *unusable_why(void)
{
	const char *why = events__hw_unusable();
	struct pmuprof_info info;
	int fd;

	if (why)
		return why;
	fd = open(PMUPROF_DEVICE, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (ioctl(fd, PMUPROF_IOC_GET_INFO, &info) == 0 && info.pmu_status != PMUPROF_PMU_OK)
		why = device__pmu_reason(&info);
	close(fd);
	return why;
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{"all", no_argument, NULL, 'a'},
		{"desc", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char err[512];
	int c, desc = 0, all = 0, n;
	const char *pattern = NULL;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":adh", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			all = 1;
			break;
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
	n = events__list(stdout, pattern, desc, all ? NULL : unusable_why());
	if (n == 0 && pattern) {
		pmuctl_err("no event matches '%s'", pattern);
		return EXIT_FAIL;
	}
	return 0;
}
