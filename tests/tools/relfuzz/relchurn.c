// SPDX-License-Identifier: GPL-2.0
/*
 * relchurn: process churn while a profiler samples (issue 8). The process
 * itself and its children keep changing under the sampler: fork, exec,
 * threads that start and end, exit from a thread, short-lived children that
 * exit while being sampled, and the main process exec()ing itself, so a
 * PID-target session sees its target exec and keep the same pid.
 *
 *   relchurn [-s SECONDS] [-x EXECS]
 *     -s  run this long in total (default 5)
 *     -x  the main process exec()s itself this many times during the run
 *         (default 4): same pid, new image each time
 *
 * Prints "relchurn: pid=P forks=F execs=E threads=T exits=X" at the end
 * (from the last image), exit 0.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/tools/opts.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile uint64_t sink;

static __attribute__((noinline)) void burn(double secs)
{
	double end = now() + secs;

	while (now() < end)
		for (int i = 0; i < 10000; i++)
			sink += (uint64_t)i * 2654435761u;
}

static void *thread_fn(void *arg)
{
	burn(0.002);
	if (arg)
		_exit(0); /* whole-process exit from a non-main thread */
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = 5, start, end;
	long execs = 4, done_execs = 0, forks = 0, threads = 0, exits = 0;
	char *self = argv[0];
	TT_OPTS(o, TT_DBL('s', &secs), TT_LONG('x', &execs));

	/* Re-exec'd images carry the state in the environment. */
	if (getenv("RELCHURN_END")) {
		end = atof(getenv("RELCHURN_END"));
		done_execs = atol(getenv("RELCHURN_EXECS_DONE"));
		forks = atol(getenv("RELCHURN_FORKS"));
		threads = atol(getenv("RELCHURN_THREADS"));
		exits = atol(getenv("RELCHURN_EXITS"));
		execs = atol(getenv("RELCHURN_EXECS"));
	} else {
		if (tt_opts_next(argc, argv, "s:x:", NULL, o, "relchurn") != -1) {
			fprintf(stderr, "usage: relchurn [-s SECONDS] [-x EXECS]\n");
			return 2;
		}
		end = now() + secs;
		if (execs < 0)
			execs = 0;
	}
	start = now();
	/* the slice of the run until the next exec of the main image */
	double slice_end =
		done_execs < execs ? start + (end - start) / (double)(execs - done_execs + 1) : end;

	while (now() < slice_end) {
		int kind = (int)(forks % 5);
		pid_t p = fork();

		if (p < 0) {
			burn(0.01);
			continue;
		}
		if (p == 0) {
			pthread_t t;

			switch (kind) {
			case 0: /* exit at once */
				_exit(0);
			case 1: /* work, then exit */
				burn(0.003);
				_exit(0);
			case 2: /* exec a short-lived image */
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			case 3: /* a thread ends the whole process */
				if (pthread_create(&t, NULL, thread_fn, (void *)1) == 0)
					for (;;)
						burn(0.001);
				_exit(0);
			default: /* fork a grandchild and leave it to init */
				if (fork() == 0) {
					burn(0.002);
					_exit(0);
				}
				_exit(0);
			}
		}
		forks++;
		exits++;
		waitpid(p, NULL, 0);
		{
			pthread_t t;

			if (pthread_create(&t, NULL, thread_fn, NULL) == 0) {
				pthread_join(t, NULL);
				threads++;
			}
		}
		burn(0.001);
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	if (done_execs < execs && now() < end) {
		char b[6][32];

		snprintf(b[0], sizeof(b[0]), "%.6f", end);
		snprintf(b[1], sizeof(b[1]), "%ld", done_execs + 1);
		snprintf(b[2], sizeof(b[2]), "%ld", forks);
		snprintf(b[3], sizeof(b[3]), "%ld", threads);
		snprintf(b[4], sizeof(b[4]), "%ld", exits);
		snprintf(b[5], sizeof(b[5]), "%ld", execs);
		setenv("RELCHURN_END", b[0], 1);
		setenv("RELCHURN_EXECS_DONE", b[1], 1);
		setenv("RELCHURN_FORKS", b[2], 1);
		setenv("RELCHURN_THREADS", b[3], 1);
		setenv("RELCHURN_EXITS", b[4], 1);
		setenv("RELCHURN_EXECS", b[5], 1);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "relchurn: re-exec of %s: %s\n", self, strerror(errno));
		return 1;
	}
	printf("relchurn: pid=%d forks=%ld execs=%ld threads=%ld exits=%ld\n", (int)getpid(), forks,
	       done_execs, threads, exits);
	return 0;
}
