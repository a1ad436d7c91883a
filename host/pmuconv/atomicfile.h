/* SPDX-License-Identifier: MIT */
/*
 * Output files that appear whole or not at all: written under a temporary
 * name beside their path and renamed over it when complete (rename(2) is
 * atomic within a directory), so a failed or interrupted write never leaves
 * a truncated file where a reader expects a good one. Used by every pmuconv
 * output that may be read while being replaced (pc_cli_open_atomic, the
 * perf.data writer, the kallsyms snapshot beside it). A path that exists
 * and is not a regular file (/dev/null, /dev/stdout, a FIFO) is written in
 * place: renaming over it would replace a device node by a file.
 */
#ifndef PMUCONV_ATOMICFILE_H
#define PMUCONV_ATOMICFILE_H

#include <sys/types.h>

struct pc_atomic {
	int fd;		  /* the temporary file; the caller may close it (set -1) */
	char *tmp;	  /* "<path>.tmp.XXXXXX"; NULL once renamed or removed, and
			   * when writing in place */
	const char *path; /* not copied */
};

/* Create path.tmp.XXXXXX with mode (before the umask), or open path itself
 * when it exists and is not a regular file; 0, or -errno (-ENAMETOOLONG
 * when path leaves no room for the suffix in PATH_MAX). */
int pc_atomic__open(struct pc_atomic *a, const char *path, mode_t mode);
/* Rename the temporary file over path (the caller has closed a->fd and
 * checked its writes; nothing to do when written in place); 0, or -errno
 * with the temporary file still there for pc_atomic__discard(). */
int pc_atomic__rename(struct pc_atomic *a);
/* Close a->fd if still open and remove the temporary file if not renamed;
 * safe on a zeroed, failed-open or renamed struct. */
void pc_atomic__discard(struct pc_atomic *a);

#endif
