// SPDX-License-Identifier: MIT
/* Unpacks an archive given as --symfs/--buildid-dir; see symfs_tar.h. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "symfs_tar.h"
#include "libarchive_dl.h"
#include "util.h"

#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DIRS 2 /* --symfs and --buildid-dir */
static char dirs[MAX_DIRS][4096];
static int nr_dirs;

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

static void rm_dirs(void)
{
	for (int i = 0; i < nr_dirs; i++)
		nftw(dirs[i], rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Entry names stay inside the directory: relative, no ".." component. */
static bool name_ok(const char *n)
{
	if (!n || !*n || n[0] == '/')
		return false;
	for (const char *p = n; *p;) {
		const char *e = strchr(p, '/');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += l + (e ? 1 : 0);
	}
	return true;
}

static int unpack(const char *path, const char *dir, char *err, size_t errlen)
{
	struct archive *in = NULL, *out = NULL;
	struct archive_entry *e;
	char full[8192];
	int r, st;

	if ((r = larc__load(err, errlen)))
		return r;
	in = larc.archive_read_new();
	out = larc.archive_write_disk_new();
	if (!in || !out) {
		r = -ENOMEM;
		goto done;
	}
	larc.archive_read_support_filter_all(in);
	larc.archive_read_support_format_tar(in);
	larc.archive_write_disk_set_options(out, ARCHIVE_EXTRACT_SECURE_NODOTDOT |
							 ARCHIVE_EXTRACT_SECURE_SYMLINKS |
							 ARCHIVE_EXTRACT_PERM);
	if (larc.archive_read_open_filename(in, path, 65536) != ARCHIVE_OK) {
		snprintf(err, errlen, "%s: not readable as a tar archive: %s", path,
			 larc.archive_error_string(in));
		r = -EINVAL;
		goto done;
	}
	while ((st = larc.archive_read_next_header(in, &e)) == ARCHIVE_OK) {
		const char *name = larc.archive_entry_pathname(e),
			   *link = larc.archive_entry_hardlink(e);
		if (!name_ok(name) || (link && !name_ok(link))) {
			snprintf(err, errlen,
				 "%s: entry '%s' would land outside the directory it is unpacked "
				 "into; not a 'pmuconv archive' tar",
				 path, name ? name : "");
			r = -EINVAL;
			goto done;
		}
		snprintf(full, sizeof(full), "%s/%s", dir, name);
		larc.archive_entry_set_pathname(e, full);
		if (link) {
			snprintf(full, sizeof(full), "%s/%s", dir, link);
			larc.archive_entry_set_hardlink(e, full);
		}
		if (larc.archive_write_header(out, e) != ARCHIVE_OK) {
			r = -EIO;
			break;
		}
		const void *buf;
		size_t size;
		la_int64_t off;
		while ((st = larc.archive_read_data_block(in, &buf, &size, &off)) == ARCHIVE_OK)
			if (larc.archive_write_data_block(out, buf, size, off) != ARCHIVE_OK) {
				r = -EIO;
				break;
			}
		if (r || st != ARCHIVE_EOF) {
			r = -EIO;
			break;
		}
		if (larc.archive_write_finish_entry(out) != ARCHIVE_OK) {
			r = -EIO;
			break;
		}
	}
	if (!r && st != ARCHIVE_EOF)
		r = -EIO;
	if (r == -EIO)
		snprintf(err, errlen, "%s: unpacking into %s failed: %s", path, dir,
			 larc.archive_error_string(larc.archive_errno(in) ? in : out));
done:
	if (in)
		larc.archive_read_free(in);
	if (out)
		larc.archive_write_free(out);
	return r;
}

const char *pc_symfs_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	const char *tmp = getenv("TMPDIR");
	char *d;

	if (!path || stat(path, &st) || !S_ISREG(st.st_mode))
		return path;
	if (nr_dirs == MAX_DIRS) {
		snprintf(err, errlen, "%s: too many archives to unpack", path);
		return NULL;
	}
	d = dirs[nr_dirs];
	snprintf(d, sizeof(dirs[0]), "%s/pmuconv-symfs.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(d)) {
		snprintf(err, errlen, "%s: cannot make a directory to unpack it into (%s): %s",
			 path, d, strerror(errno));
		return NULL;
	}
	if (nr_dirs++ == 0)
		atexit(rm_dirs);
	if (unpack(path, d, err, errlen))
		return NULL;
	return d;
}
