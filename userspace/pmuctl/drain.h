/* SPDX-License-Identifier: MIT */
/*
 * Drain a started session: read() the per-CPU rings' records from the
 * device, count them, let every sample's pid through procmaps__see() and
 * hand the records on, exactly as read() returned them, to a sink (pmuctl
 * record: the data file). The loop sleeps in poll() on the device and a
 * signalfd (SIGINT, SIGTERM, SIGHUP, SIGCHLD); the module wakes readers past
 * its watermark, and a DRAIN_TICK_MS tick drains below it, so there is no
 * busy loop and a process that lives shorter than a tick is still seen
 * (and its maps read) while it is alive.
 */
#ifndef PMUCTL_DRAIN_H
#define PMUCTL_DRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/pmufile/pmufile.h"
#include "procmaps.h"

struct drain_ops {
	/* Whole records, after counting and procmaps; 0 or -errno (kept in err). */
	int (*records)(void *ctx, const void *buf, size_t len);
	/* SIGCHLD arrived: reap; 1 when the followed process has exited (the
	 * loop ends), 0, or -errno (err becomes -EIO). NULL: ignored. */
	int (*child)(void *ctx);
	/* After every wake-up of the loop (a live status line). NULL: none. */
	void (*tick)(void *ctx, uint64_t now_ns);
};

struct drain {
	int fd, sfd;	     /* the device; the signals (drain__signals) */
	struct procmaps *pm; /* NULL: no process table */
	const struct drain_ops *ops;
	void *ctx;
	uint8_t *buf;
	struct pmufile_counts n;
	int err;	 /* first error of procmaps or the sink: nothing more is passed on */
	int stop_signal; /* the signal that ended the loop, 0 if none */
	bool child_exited;
};

/* Block SIGINT, SIGTERM, SIGHUP and SIGCHLD; from here on they arrive at
 * d->sfd (SIGPIPE is ignored). 0, or -errno with a message. */
int drain__signals(struct drain *d);
/* Drain device fd into ops; 0 or -ENOMEM. */
int drain__init(struct drain *d, int fd, const struct drain_ops *ops, void *ctx);
/* Until deadline_ns (CLOCK_MONOTONIC, 0: none), a stop signal, the child's
 * exit, an error or the end of the stream. 0, or -errno after a message. */
int drain__run(struct drain *d, uint64_t deadline_ns);
/* After STOP: what is left, until the end of the stream. */
int drain__final(struct drain *d);
void drain__free(struct drain *d);

#endif
