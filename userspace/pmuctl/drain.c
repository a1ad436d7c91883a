/* SPDX-License-Identifier: MIT */
/* pmuctl: draining a started session (drain.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "drain.h"
#include "util.h"

#define READ_BUF_SIZE	  (1u << 20) /* >= PMUPROF_READ_MIN */
#define DRAIN_TICK_MS	  100	     /* drain at least this often (see drain__run) */
#define FINAL_DRAIN_POLLS 50	     /* x 200 ms: give up on a stuck final drain */

int drain__signals(struct drain *d)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	/* A closed terminal (SIGHUP) stops the recording like SIGTERM: the
	 * default action would kill pmuctl and leave a file without trailer. */
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	d->sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (d->sfd < 0) {
		pmuctl_err("signalfd: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

int drain__init(struct drain *d, int fd, const struct drain_ops *ops, void *ctx)
{
	d->fd = fd;
	d->ops = ops;
	d->ctx = ctx;
	d->buf = malloc(READ_BUF_SIZE);
	return d->buf ? 0 : -ENOMEM;
}

void drain__free(struct drain *d)
{
	free(d->buf);
	d->buf = NULL;
	if (d->sfd >= 0)
		close(d->sfd);
	d->sfd = -1;
}

/* Count and snapshot; stop at a record the ABI says cannot exist. */
static void scan_records(struct drain *d, const uint8_t *buf, size_t len)
{
	size_t off = 0;
	uint64_t now = now_ns(CLOCK_MONOTONIC);

	while (off + sizeof(struct pmuprof_record_header) <= len) {
		const struct pmuprof_record_header *h = (const void *)(buf + off);
		const struct pmuprof_sample *s = (const void *)h;
		char comm[17];

		if (pmufile__check_record(h, len - off, 0))
			break; /* the sink validates and reports it */
		pmufile__count_record(&d->n, h);
		if (h->type == PMUPROF_REC_SAMPLE && !d->err && d->pm) {
			int ret;

			memcpy(comm, s->comm, 16);
			comm[16] = '\0';
			ret = procmaps__see(d->pm, (int)s->pid, comm, now);
			if (ret < 0)
				d->err = ret;
		}
		off += h->size;
	}
}

/* One read(); >0 bytes handled, 0 end of stream, -EAGAIN nothing now. */
static ssize_t drain_once(struct drain *d)
{
	ssize_t n = read(d->fd, d->buf, READ_BUF_SIZE);
	int ret;

	if (n < 0)
		return errno == EINTR ? -EAGAIN : -errno;
	if (n == 0)
		return 0;
	scan_records(d, d->buf, (size_t)n);
	if (!d->err) {
		ret = d->ops->records(d->ctx, d->buf, (size_t)n);
		if (ret < 0)
			d->err = ret;
	}
	return n;
}

int drain__run(struct drain *d, uint64_t deadline)
{
	for (;;) {
		struct pollfd pfd[2] = {{.fd = d->fd, .events = POLLIN},
					{.fd = d->sfd, .events = POLLIN}};
		uint64_t now = now_ns(CLOCK_MONOTONIC);
		/* Wake at least every DRAIN_TICK_MS: the module wakes us only past
		 * its watermark, and a short-lived process must be seen (and its
		 * maps read) while it is still alive. */
		int timeout = DRAIN_TICK_MS, n;

		if (deadline) {
			uint64_t left_ms;

			if (now >= deadline)
				break;
			left_ms = (deadline - now + 999999) / 1000000;
			if (left_ms < (uint64_t)timeout)
				timeout = (int)left_ms;
		}
		n = poll(pfd, 2, timeout);
		if (n < 0 && errno != EINTR) {
			pmuctl_err("poll: %s", strerror(errno));
			return -errno;
		}
		if (n > 0 && (pfd[1].revents & POLLIN)) {
			struct signalfd_siginfo si;

			while (read(d->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				if (si.ssi_signo != SIGCHLD) {
					d->stop_signal = (int)si.ssi_signo;
				} else if (d->ops->child) {
					int ret = d->ops->child(d->ctx);

					if (ret < 0 && !d->err)
						d->err = -EIO;
					else if (ret > 0)
						d->child_exited = true;
				}
			}
		}
		if (n == 0 || (pfd[0].revents & (POLLIN | POLLERR | POLLHUP))) {
			ssize_t got = -EAGAIN;
			int rounds = 0;

			/* Bounded: signals and the deadline are checked between rounds. */
			while (rounds++ < 16 && (got = drain_once(d)) > 0 && !d->err)
				;
			if (got == 0)
				break; /* session ended under us (e.g. module unload) */
			if (got < 0 && got != -EAGAIN) {
				pmuctl_err("read %s: %s", PMUPROF_DEVICE, strerror((int)-got));
				return (int)got;
			}
		}
		if (d->err || d->stop_signal || d->child_exited)
			break;
		if (d->ops->tick)
			d->ops->tick(d->ctx, now_ns(CLOCK_MONOTONIC));
	}
	return 0;
}

int drain__final(struct drain *d)
{
	int idle = 0;

	for (;;) {
		ssize_t got = drain_once(d);

		if (got > 0) {
			idle = 0;
			continue;
		}
		if (got == 0)
			return 0;
		if (got != -EAGAIN) {
			pmuctl_err("read %s after stop: %s", PMUPROF_DEVICE, strerror((int)-got));
			return (int)got;
		}
		if (++idle > FINAL_DRAIN_POLLS) {
			pmuctl_warn(
				"the module did not end the stream after STOP; the file may miss "
				"the last records");
			return 0;
		}
		struct pollfd pfd = {.fd = d->fd, .events = POLLIN};

		poll(&pfd, 1, 200);
	}
}
