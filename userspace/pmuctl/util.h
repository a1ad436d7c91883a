/* SPDX-License-Identifier: MIT */
/* pmuctl: one-line messages, exit codes, file and line readers and small
 * helpers every subcommand uses. */
#ifndef PMUCTL_UTIL_H
#define PMUCTL_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Messages: "pmuctl: ..." / "pmuctl: warning: ..." on stderr, one line. */
void pmuctl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pmuctl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pmuctl_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Unknown option / usage error for a subcommand: message + "see --help", exit code 2. */
int pmuctl_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Decimal pid-like string -> value, -1 if not all digits. */
int atoi_safe(const char *s);
/* Read a small text file (first line, newline stripped) into buf; 0 or -errno. */
int read_small_file_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A whole text file (kallsyms, maps, notes) NUL-terminated in a malloc'd
 * buffer, at most max bytes (the rest is cut); NULL if it cannot be opened. */
char *read_whole_file(const char *path, size_t max, size_t *lenp);
/* The next line of [*p, end): its start, *len its length without '\n';
 * *p moves past it. NULL at end. */
const char *next_line(const char **p, const char *end, size_t *len);
uint64_t now_ns(int clock);

/* Exit codes. */
#define EXIT_USAGE 2 /* bad flags or arguments */
#define EXIT_FAIL  1 /* anything else */

#endif
