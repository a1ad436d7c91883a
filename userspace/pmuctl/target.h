/* SPDX-License-Identifier: MIT */
/*
 * The process pmuctl record starts (COMMAND): forked before CONFIGURE so
 * its pid can be the target, held at a pipe until recording has started,
 * then released. It is traced (PTRACE_SEIZE with exec/exit/fork/vfork/clone
 * events, which the kernel extends to every process and thread it creates)
 * so the maps of COMMAND and of all its descendants are captured right
 * after exec and right before exit, when the mm is still there.
 */
#ifndef PMUCTL_TARGET_H
#define PMUCTL_TARGET_H

#include <stdbool.h>
#include <sys/types.h>

#include "procmaps.h"

struct target {
	char **argv;
	pid_t pid; /* 0: none */
	int go_fd, exec_fd;
	bool traced, done;
	int status; /* wait status once done */
};

/* Fork argv (it waits for target__release); 0 or -errno. */
int target__fork(struct target *t, char **argv);
/* Let it exec; wait until exec succeeded (the CLOEXEC pipe closes) or failed. */
int target__release(struct target *t);
/* Handle ptrace stops and exits of the target and its traced descendants,
 * snapshotting maps into pm at exec and exit; 0 or a procmaps error. */
int target__reap(struct target *t, struct procmaps *pm);
/* Still running at the end: SIGTERM, reap (catching its exit maps) for up
 * to CHILD_EXIT_WAIT_MS while draining the signalfd sfd, then SIGKILL. */
void target__finish(struct target *t, int sfd, struct procmaps *pm);
/* Kill and reap it (a target never released exits without running). */
void target__abandon(struct target *t);

#endif
