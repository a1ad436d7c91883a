/* SPDX-License-Identifier: MIT */
/*
 * --symfs and --buildid-dir given a file instead of a directory: the tar
 * that `pmuconv archive` writes (plain or compressed), unpacked with
 * libarchive into a private temporary directory that is removed at exit,
 * so that `pmuconv report rec.pmu --symfs rec-bins.tar` works without
 * unpacking by hand.
 */
#ifndef PMUCONV_SYMFS_TAR_H
#define PMUCONV_SYMFS_TAR_H

#include <stddef.h>

/* `path` itself when it is not a regular file (a directory, or missing:
 * symbolization then reports what it cannot find); otherwise the directory
 * the archive was unpacked into. NULL with err filled when the file is not
 * an archive, an entry would land outside the directory (an absolute path
 * or ".."), or unpacking fails. */
const char *pc_symfs_open(const char *path, char *err, size_t errlen);

#endif
