/* SPDX-License-Identifier: MIT */
/*
 * A sampling session through /dev/pmuprof: the device, what it offers
 * (GET_INFO), the events resolved against it and the configuration built
 * from the options; then CONFIGURE, START, STOP and GET_STATS. Every
 * failure prints one line saying what was wrong and what to do.
 */
#ifndef PMUCTL_SESSION_H
#define PMUCTL_SESSION_H

#include <stdbool.h>

#include "include/uapi/pmuprof.h"
#include "events.h"
#include "record_opts.h"

struct session {
	int fd; /* /dev/pmuprof, O_NONBLOCK; -1 when closed */
	struct pmuprof_info info;
	struct pmuctl_event ev[PMUPROF_MAX_EVENTS];
	int nr_ev;
	struct pmuprof_config cfg; /* a COMMAND's pid goes into cfg.pid before CONFIGURE */
};

/* Open the device, GET_INFO, resolve o's events (the default one is put
 * into o) and build the configuration. 0 or -errno. First, what needs no
 * module is checked (so a host without it hears about a misspelt event, a
 * bad -C list, a missing -p process or COMMAND, not about the module):
 * event names and modifiers, the -C list against the CPUs configured, that
 * -p PID exists and that COMMAND can be found. */
int session__open(struct session *s, struct record_opts *o);
/* CONFIGURE; without the module's PMUPROF_CF_INHERIT the default tree
 * recording falls back to one process, an asked-for one fails. 0 or -errno. */
int session__configure(struct session *s, bool inherit_asked);
int session__start(struct session *s);
/* STOP and GET_STATS print nothing: 0 or -errno. */
int session__stop(struct session *s);
int session__stats(struct session *s, struct pmuprof_stats *st);
void session__close(struct session *s);

#endif
