// SPDX-License-Identifier: GPL-2.0
/*
 * benchtime: run a command and print what it cost, measured by the kernel.
 *
 *   benchtime [-o FILE] [-l LABEL] -- COMMAND [ARGS...]
 *
 * Prints (to FILE, appended, or stderr) one line:
 *   LABEL wall_s=W user_s=U sys_s=S maxrss_kb=M status=X
 * wall from CLOCK_MONOTONIC around fork..wait4, user/sys/maxrss from the
 * rusage wait4() returns for the child (maxrss: largest resident set of the
 * child or of any of its waited-for descendants, as getrusage(RUSAGE_CHILDREN)
 * defines it). status is the exit code, or 128+signal. The command's own
 * stdout/stderr are left alone. Exit status: the command's.
 *
 * Used on the host (converter throughput) and, statically linked, in the
 * VM guest (where busybox time has only 10 ms resolution).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/tools/common.h"
#include "tests/tools/opts.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: benchtime [-o FILE] [-l LABEL] -- COMMAND [ARGS...]\n"
		   "  prints 'LABEL wall_s= user_s= sys_s= maxrss_kb= status=' for COMMAND\n");
}

int main(int argc, char **argv)
{
	const char *out = NULL, *label = "benchtime";
	struct rusage ru;
	double t0, t1;
	int opt, st, code;
	pid_t pid;
	FILE *f;

	TT_OPTS(o, TT_STR('o', &out), TT_STR('l', &label));

	opt = tt_opts_next(argc, argv, "+o:l:h", NULL, o, "benchtime");
	if (opt != -1) /* -h, or an option it does not know */
		return tt_usage(opt, usage);
	if (optind >= argc) {
		fprintf(stderr, "benchtime: no COMMAND given\n");
		usage(stderr);
		return 2;
	}
	t0 = now();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "benchtime: fork failed: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "benchtime: cannot run '%s': %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "benchtime: wait4 failed: %s\n", strerror(errno));
			return 1;
		}
	}
	t1 = now();
	code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	f = out ? fopen(out, "a") : stderr;
	if (!f) {
		fprintf(stderr, "benchtime: cannot open %s: %s\n", out, strerror(errno));
		return 1;
	}
	fprintf(f, "%s wall_s=%.4f user_s=%.3f sys_s=%.3f maxrss_kb=%ld status=%d\n", label,
		t1 - t0, tv(ru.ru_utime), tv(ru.ru_stime), ru.ru_maxrss, code);
	if (out && fclose(f) != 0) {
		fprintf(stderr, "benchtime: writing %s failed: %s\n", out, strerror(errno));
		return 1;
	}
	return code;
}
