/* SPDX-License-Identifier: MIT */
/*
 * pmuctl: control utility for the pmuprof sampling profiler.
 * Subcommands are dispatched through cmds[] (as git and bpftool do).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "include/uapi/pmuprof.h"
#include "pmuctl.h"

static const struct pmuctl_cmd cmds[] = {
	{"info", cmd_info, "show the PMU and the sample sources the module can use"},
	{"list", cmd_list, "list events of this CPU (libpfm4) and pmuprof's generic names"},
	{"encode", cmd_encode, "show the IA32_PERFEVTSELx encoding of events"},
	{"record", cmd_record, "record samples into a pmuprof data file"},
};

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "pmuctl: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pmuctl_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void pmuctl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void pmuctl_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

int pmuctl_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pmuctl %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'pmuctl %s --help')\n", cmd);
	return EXIT_USAGE;
}

int atoi_safe(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (int)v;
}

int read_small_file_fmt(char *buf, size_t len, const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	ssize_t n;
	int fd;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

uint64_t now_ns(int clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

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
