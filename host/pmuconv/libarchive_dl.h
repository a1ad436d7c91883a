/* SPDX-License-Identifier: MIT */
/*
 * libarchive, loaded (dlopen) the first time an archive is read or written
 * (`pmuconv archive`, a tar given as --symfs or --buildid-dir) instead of at
 * every start: linked in, libarchive and what it brings (libxml2, ICU,
 * libstdc++, nettle, acl, lz4) cost each pmuconv run ~1.4 ms of loading
 * and relocation, about 9 % of converting a 3000-sample recording, for a
 * library most commands never call (bench/RESULTS.md 5d).
 *
 * Callers include <archive.h> for the types and call the functions
 * through `larc`, e.g. larc.archive_read_new(), after larc__load().
 */
#ifndef PMUCONV_LIBARCHIVE_DL_H
#define PMUCONV_LIBARCHIVE_DL_H

#include <archive.h>
#include <archive_entry.h>
#include <stddef.h>

/* The libarchive functions pmuconv calls, one a line. */
#define LARC_FUNCTIONS(X)                                                                          \
	X(archive_entry_free)                                                                      \
	X(archive_entry_hardlink)                                                                  \
	X(archive_entry_new)                                                                       \
	X(archive_entry_pathname)                                                                  \
	X(archive_entry_set_filetype)                                                              \
	X(archive_entry_set_hardlink)                                                              \
	X(archive_entry_set_mtime)                                                                 \
	X(archive_entry_set_pathname)                                                              \
	X(archive_entry_set_perm)                                                                  \
	X(archive_entry_set_size)                                                                  \
	X(archive_errno)                                                                           \
	X(archive_error_string)                                                                    \
	X(archive_read_data_block)                                                                 \
	X(archive_read_free)                                                                       \
	X(archive_read_new)                                                                        \
	X(archive_read_next_header)                                                                \
	X(archive_read_open_filename)                                                              \
	X(archive_read_support_filter_all)                                                         \
	X(archive_read_support_format_tar)                                                         \
	X(archive_write_close)                                                                     \
	X(archive_write_data)                                                                      \
	X(archive_write_data_block)                                                                \
	X(archive_write_disk_new)                                                                  \
	X(archive_write_disk_set_options)                                                          \
	X(archive_write_finish_entry)                                                              \
	X(archive_write_free)                                                                      \
	X(archive_write_header)                                                                    \
	X(archive_write_new)                                                                       \
	X(archive_write_open_filename)                                                             \
	X(archive_write_set_format_filter_by_ext)                                                  \
	X(archive_write_set_format_pax_restricted)

#define LARC_POINTER(name) __typeof__(name) *name;
struct larc_functions {
	LARC_FUNCTIONS(LARC_POINTER)
};
#undef LARC_POINTER

/* Valid after a larc__load() that returned 0. */
extern struct larc_functions larc;

/* Load libarchive (once; later calls return the first answer): 0, or
 * -ENOENT with err saying what is missing and what to install. */
int larc__load(char *err, size_t errlen);

#endif
