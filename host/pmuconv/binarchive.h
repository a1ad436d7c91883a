/* SPDX-License-Identifier: MIT */
/*
 * `pmuconv archive`: the binaries a recording's samples hit (their IPs and
 * call stacks; for --call-graph dwarf recordings, the unwound frames'), collected by
 * build-id into one tar (libarchive) so that the recording can be
 * symbolized on another machine, as `perf archive` does for perf.data.
 *
 * The tar is a symfs root and a build-id directory at once:
 *   <recorded path>                        the binary (e.g. usr/bin/app)
 *   usr/lib/debug/.build-id/ab/cdef….debug its separate debug file, if any
 *   .build-id/ab/cdef…                     hard link to the binary
 *   .build-id/ab/cdef….debug               hard link to the debug file
 * so after `tar -xf OUT -C DIR`, `--symfs DIR` and `--buildid-dir DIR` both
 * find them. Binaries are found the way symbolization finds them
 * (sym__files: --buildid-dir, --symfs, the debug directories).
 */
#ifndef PMUCONV_BINARCHIVE_H
#define PMUCONV_BINARCHIVE_H

#include <stdio.h>
#include "symbolize.h"

struct archive_opts {
	struct sym_opts sym; /* where to find the binaries */
	int salvage;	     /* read what precedes damage in the recording */
	FILE *log;	     /* one line per binary archived or missing */
	int call_graph_fp;   /* --call-graph fp: the FP walk's binaries, copies not unwound */
};

/* Write OUT (a tar; .tar.gz, .tgz, .tar.xz, .tar.zst compress) from the
 * recording IN. Returns the number of files archived, or a negative errno
 * with err filled. Binaries that cannot be found are warned about and
 * skipped; none found at all is an error (-ENOENT, and no OUT is left). */
long pc_archive_write(const char *in, const char *out, const struct archive_opts *o, char *err,
		      size_t errlen);

#endif
