/* SPDX-License-Identifier: MIT */
/* pmuctl record: the COMMAND it runs and traces (target.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "target.h"
#include "util.h"

#define CHILD_EXIT_WAIT_MS 2000

int target__fork(struct target *t, char **argv)
{
	int go[2], ex[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0) {
		pmuctl_err("pipe: %s", strerror(errno));
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		pmuctl_err("fork: %s", strerror(errno));
		return -errno;
	}
	if (pid == 0) {
		sigset_t all;
		char c;
		int e;

		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		signal(SIGPIPE, SIG_DFL);
		close(go[1]);
		close(ex[0]);
		/* Wait for "go": recording has started. EOF means pmuctl gave up. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	t->argv = argv;
	t->pid = pid;
	t->go_fd = go[1];
	t->exec_fd = ex[0];
	/* Trace it to see exec/exit (for maps) of it and of everything it
	 * creates: the options pass on to auto-attached tracees, and CLONE
	 * makes its threads tracees too, so a child forked by any thread
	 * (not only the main one) is traced from its first instruction. */
	if (ptrace(PTRACE_SEIZE, pid, NULL,
		   (void *)(long)(PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT | PTRACE_O_TRACEFORK |
				  PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE)) == 0)
		t->traced = true;
	else
		pmuctl_warn("cannot trace COMMAND (%s): its maps are captured when samples "
			    "arrive only; short-lived processes may lack them",
			    strerror(errno));
	return 0;
}

void target__abandon(struct target *t)
{
	if (t->pid <= 0)
		return;
	if (t->go_fd >= 0)
		close(t->go_fd); /* EOF: the child exits without running COMMAND */
	t->go_fd = -1;
	kill(t->pid, SIGKILL);
	waitpid(t->pid, NULL, 0);
	t->pid = 0;
}

int target__release(struct target *t)
{
	int e = 0;
	ssize_t n;

	if (write(t->go_fd, "g", 1) != 1) {
		pmuctl_err("cannot start COMMAND: %s", strerror(errno));
		return -EIO;
	}
	close(t->go_fd);
	t->go_fd = -1;
	do
		n = read(t->exec_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(t->exec_fd);
	t->exec_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		pmuctl_err("cannot run '%s': %s", t->argv[0], strerror(e));
		return -e;
	}
	return 0;
}

/* The process (thread group) of thread `tid`, from /proc; -1 if gone. */
static int tgid_of(pid_t tid)
{
	char path[64], buf[1024];
	const char *t;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	t = strstr(buf, "\nTgid:");
	return t ? atoi(t + 6) : -1;
}

int target__reap(struct target *t, struct procmaps *pm)
{
	int st, ret = 0;
	pid_t p;

	while ((p = waitpid(-1, &st, WNOHANG | __WALL)) > 0) {
		if (WIFSTOPPED(st)) {
			int event = (st >> 16) & 0xff, sig = WSTOPSIG(st);
			uint64_t now = now_ns(CLOCK_MONOTONIC);

			if (event == PTRACE_EVENT_EXEC || event == PTRACE_EVENT_EXIT) {
				/* Maps belong to the process: an exec is reported
				 * under the leader's id; a non-leader thread's exit
				 * is not the process's last look (the leader's is). */
				int tgid = tgid_of(p);

				if (tgid > 0 && (event == PTRACE_EVENT_EXEC || tgid == (int)p))
					ret = procmaps__snapshot(pm, tgid,
								 event == PTRACE_EVENT_EXIT, now);
				sig = 0;
			} else if (event) {
				sig = 0; /* fork/vfork/clone/group-stop events */
			} else if (sig == SIGTRAP) {
				sig = 0;
			}
			ptrace(PTRACE_CONT, p, NULL, (void *)(long)sig);
			if (ret < 0)
				break;
			continue;
		}
		if (p == t->pid) {
			t->done = true;
			t->status = st;
		}
	}
	return ret;
}

void target__finish(struct target *t, int sfd, struct procmaps *pm)
{
	uint64_t until = now_ns(CLOCK_MONOTONIC) + CHILD_EXIT_WAIT_MS * 1000000ull;

	kill(t->pid, SIGTERM);
	while (!t->done && now_ns(CLOCK_MONOTONIC) < until) {
		struct pollfd pfd = {.fd = sfd, .events = POLLIN};
		struct signalfd_siginfo si;

		if (poll(&pfd, 1, 100) > 0)
			while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
				;
		target__reap(t, pm);
	}
	if (!t->done) {
		kill(t->pid, SIGKILL);
		pmuctl_warn("COMMAND (pid %d) did not exit on SIGTERM; killed it", t->pid);
	}
}
