/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scratch directories of the unit tests that read or write files: made
 * under $TMPDIR (else /tmp), filled with small text files, removed whole
 * (header only, asserting with Check).
 */
#ifndef PMUPROF_TESTS_TMPDIR_H
#define PMUPROF_TESTS_TMPDIR_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* A fresh directory $TMPDIR/NAME.XXXXXX (or under /tmp) into dir. */
static inline void pp_tmpdir(char *dir, size_t size, const char *name)
{
	snprintf(dir, size, "%s/%s.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* The file at path holding exactly text. */
static inline void pp_write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* "dir/name" in one of two static buffers (two paths may be in use at once). */
static inline const char *pp_tmp_path(const char *dir, const char *name)
{
	static char p[2][512];
	static int which;

	which ^= 1;
	snprintf(p[which], sizeof(p[which]), "%s/%s", dir, name);
	return p[which];
}

/* rm -rf dir. */
static inline void pp_rm_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

#endif
