// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_heavy: spends most of its time inside the kernel, so samples land
 * in kernel stacks that end in the syscall entry (entry_SYSCALL_64 ->
 * do_syscall_64 -> ...). Each round does N getppid() calls from
 * loop_getppid() and N 4 KiB reads of /dev/zero from loop_read().
 *
 *   syscall_heavy [-c CPU] [-r ROUNDS | -s SECONDS] [-n CALLS_PER_ROUND]
 *
 * Prints at the end:
 *   syscall_heavy: pid=P cpu=C rounds=R getppid=G reads=N seconds=S
 */
#include <fcntl.h>
#include <getopt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wl_common.h"

static char buf[4096];

__attribute__((noinline)) unsigned long loop_getppid(unsigned long n)
{
	WL_FRAME();
	unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += (unsigned long)syscall(SYS_getppid);
	return acc;
}

__attribute__((noinline)) unsigned long loop_read(int fd, unsigned long n)
{
	WL_FRAME();
	unsigned long got = 0;

	for (unsigned long i = 0; i < n; i++) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r > 0)
			got += (unsigned long)r;
	}
	return got;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: syscall_heavy [-c CPU] [-r ROUNDS | -s SECONDS] [-n CALLS_PER_ROUND]\n"
		   "  default: -s 2 -n 2000\n");
}

int main(int argc, char **argv)
{
	struct wl_run run = {.prog = "syscall_heavy", .usage = usage, .cpu = -1, .seconds = 2};
	unsigned long long n = 2000;
	int fd;
	double t;
	TT_OPTS(o, TT_NUM('n', &n, "CALLS_PER_ROUND"));

	if (wl_run_begin(&run, argc, argv, "c:r:s:n:h", o, &n) != 0)
		return 1;
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0) {
		perror("syscall_heavy: open /dev/zero");
		return 1;
	}

	for (wl_start(&run); wl_more(&run); run.done++) {
		wl_sink += loop_getppid(n);
		wl_sink += loop_read(fd, n);
	}
	t = wl_now() - run.t0;
	close(fd);
	printf("syscall_heavy: pid=%d cpu=%d rounds=%llu getppid=%llu reads=%llu seconds=%.3f\n",
	       (int)getpid(), sched_getcpu(), run.done, run.done * n, run.done * n, t);
	return 0;
}
