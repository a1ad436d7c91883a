// SPDX-License-Identifier: MIT
/* Write-to-temporary-and-rename output files (atomicfile.h). */
#include "atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PC_ATOMIC_SUFFIX ".tmp.XXXXXX"

int pc_atomic__open(struct pc_atomic *a, const char *path, mode_t mode)
{
	size_t len = strlen(path) + sizeof(PC_ATOMIC_SUFFIX);
	mode_t um;
	int e;

	struct stat st;

	a->fd = -1;
	a->path = path;
	a->tmp = NULL;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		/* a device or FIFO: write to it; a directory fails here */
		if ((a->fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
			return -errno;
		return 0;
	}
	if (len > PATH_MAX) {
		return -ENAMETOOLONG;
	}
	if (!(a->tmp = malloc(len)))
		return -ENOMEM;
	snprintf(a->tmp, len, "%s" PC_ATOMIC_SUFFIX, path);
	if ((a->fd = mkstemp(a->tmp)) < 0) {
		e = errno;
		free(a->tmp);
		a->tmp = NULL;
		return -e;
	}
	/* mkstemp creates 0600; give the file the mode open(2) would */
	um = umask(0);
	umask(um);
	if (fchmod(a->fd, mode & ~um)) {
		e = errno;
		pc_atomic__discard(a);
		return -e;
	}
	return 0;
}

int pc_atomic__rename(struct pc_atomic *a)
{
	if (!a->tmp)
		return 0; /* written in place */
	if (rename(a->tmp, a->path))
		return -errno;
	free(a->tmp);
	a->tmp = NULL;
	return 0;
}

void pc_atomic__discard(struct pc_atomic *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
	if (a->tmp)
		unlink(a->tmp);
	free(a->tmp);
	a->tmp = NULL;
}
