/* SPDX-License-Identifier: MIT */
/* pmuctl: messages, file and line readers, small helpers (util.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* "pmuctl: PREFIX<message>" on stderr, one line; err and note print alike */
#define DEFINE_MSG(name, prefix)                                                                   \
	void name(const char *fmt, ...)                                                            \
	{                                                                                          \
		va_list ap;                                                                        \
                                                                                                   \
		fprintf(stderr, "pmuctl: %s", prefix);                                             \
		va_start(ap, fmt);                                                                 \
		vfprintf(stderr, fmt, ap);                                                         \
		va_end(ap);                                                                        \
		fputc('\n', stderr);                                                               \
	}
DEFINE_MSG(pmuctl_err, "")
DEFINE_MSG(pmuctl_warn, "warning: ")
DEFINE_MSG(pmuctl_note, "")

int pmuctl_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pmuctl %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'pmuctl %s --help')\n", cmd);
	return EXIT_USAGE;
}

int atoi_safe(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (int)v;
}

char *read_whole_file(const char *path, size_t max, size_t *lenp)
{
	size_t cap = max < 16384 ? max : 16384, len = 0;
	char *buf = malloc(cap + 1), *n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t r;

		if (len == cap) {
			if (cap >= max || !(n = realloc(buf, cap * 2 + 1)))
				break;
			buf = n;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

const char *next_line(const char **p, const char *end, size_t *len)
{
	const char *line = *p, *nl;

	if (line >= end)
		return NULL;
	nl = memchr(line, '\n', (size_t)(end - line));
	*len = (size_t)((nl ? nl : end) - line);
	*p = nl ? nl + 1 : end;
	return line;
}

int read_small_file_fmt(char *buf, size_t len, const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	ssize_t n;
	int fd;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

uint64_t now_ns(int clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
