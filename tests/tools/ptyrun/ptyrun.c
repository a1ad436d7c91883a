// SPDX-License-Identifier: MIT
/*
 * ptyrun: run a command with its stdin/stdout/stderr on a fresh
 * pseudo-terminal and copy everything it writes there to our stdout, so a
 * test can see what a program shows a person at a terminal (pmuctl's live
 * status line, which it prints only when stderr is a terminal). Exit status
 * is the command's (128 + signal if it was killed).
 *
 *   ptyrun [-s SIG -a SECONDS] -- CMD ARGS...
 *     -s SIG -a SEC   send SIG to the command SEC seconds after it started
 *                     (e.g. -s INT -a 3 stands in for Ctrl-C)
 */
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int sig_by_name(const char *s)
{
	if (!strcmp(s, "INT"))
		return SIGINT;
	if (!strcmp(s, "TERM"))
		return SIGTERM;
	if (!strcmp(s, "HUP"))
		return SIGHUP;
	return atoi(s);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int opt, sig = 0, master, status, sent = 0;
	double after = 0, t0;
	pid_t pid;
	char buf[4096];

	while ((opt = getopt(argc, argv, "+s:a:")) != -1) {
		if (opt == 's')
			sig = sig_by_name(optarg);
		else if (opt == 'a')
			after = atof(optarg);
		else
			goto usage;
	}
	if (optind >= argc)
		goto usage;
	pid = forkpty(&master, NULL, NULL, NULL);
	if (pid < 0) {
		fprintf(stderr, "ptyrun: forkpty: %s\n", strerror(errno));
		return 125;
	}
	if (pid == 0) {
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "ptyrun: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	t0 = now_s();
	for (;;) {
		struct pollfd p = {.fd = master, .events = POLLIN};
		int n = poll(&p, 1, 100);

		if (sig && !sent && now_s() - t0 >= after) {
			kill(pid, sig);
			sent = 1;
		}
		if (n > 0) {
			ssize_t r = read(master, buf, sizeof(buf));

			if (r <= 0)
				break; /* EIO: the command and its children closed the pty */
			fwrite(buf, 1, (size_t)r, stdout);
			fflush(stdout);
		}
	}
	if (waitpid(pid, &status, 0) < 0)
		return 125;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
usage:
	fprintf(stderr, "usage: ptyrun [-s SIG -a SECONDS] -- CMD ARGS...\n");
	return 125;
}
