/* SPDX-License-Identifier: MIT */
/*
 * The data file of a session (lib/pmufile, docs/FORMAT.md): header from the
 * session and the command line, the events, the NUMA layout, the kernel
 * build-id; at the end the
 * GET_STATS snapshot and the trailer. Records in between go straight to
 * pmufile_writer__records(), process maps through procmaps, kernel symbols
 * through ksyms.
 */
#ifndef PMUCTL_OUTPUT_H
#define PMUCTL_OUTPUT_H

#include <stdint.h>

#include "lib/pmufile/pmufile.h"
#include "session.h"

/* Open path (an existing non-empty file is renamed to path.old first) and
 * write the header; NULL after a one-line message. */
struct pmufile_writer *output__open(const char *path, const struct session *s, int argc,
				    char **argv);
/* The session's events and the kernel's symbols; 0 or -errno. */
int output__write_meta(struct pmufile_writer *w, const struct session *s);
/* The machine's NUMA layout (numa.c; sysfs_root NULL: /sys) as a NUMA
 * frame; nothing on a kernel without NUMA, a warning if sysfs is unreadable
 * (the recording goes on with unknown nodes). 0 or the writer's -errno. */
int output__write_numa(struct pmufile_writer *w, const char *sysfs_root);
/* Finish w (freed in every case) after write_err, the first error while
 * writing (0: none): the stats (st, or NULL), the trailer stamped with
 * end_mono. 0 with *bytes = the file's size, or -errno after a message
 * saying the file is INCOMPLETE. */
int output__close(struct pmufile_writer *w, const char *path, const struct pmuprof_stats *st,
		  int write_err, uint64_t end_mono, uint64_t *bytes);

#endif
