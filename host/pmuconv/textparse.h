/* SPDX-License-Identifier: MIT */
/* Small scanning helpers shared by the text parsers (spans [p, e), no NUL). */
#ifndef PMUCONV_TEXTPARSE_H
#define PMUCONV_TEXTPARSE_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Lowest x86-64 kernel (upper half) address, 4- and 5-level paging alike. */
#define KERNEL_ADDR_MIN 0xff00000000000000ull

/* printf "%.*s" arguments for at most 60 characters of [p, e) */
#define PC_SNIP(p, e) ((e) - (p) > 60 ? 60 : (int)((e) - (p)))

static inline bool is_ws(char c)
{
	return c == ' ' || c == '\t';
}

static inline const char *skip_ws(const char *p, const char *e)
{
	while (p < e && is_ws(*p))
		p++;
	return p;
}

static inline const char *tok_end(const char *p, const char *e)
{
	while (p < e && !is_ws(*p))
		p++;
	return p;
}

static inline bool all_digits(const char *p, const char *e)
{
	if (p == e)
		return false;
	for (; p < e; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

static inline bool parse_u64_span(const char *p, const char *e, uint64_t *v)
{
	uint64_t r = 0;

	if (p == e || e - p > 19)
		return false;
	for (; p < e; p++) {
		if (!isdigit((unsigned char)*p))
			return false;
		r = r * 10 + (uint64_t)(*p - '0');
	}
	*v = r;
	return true;
}

static inline bool parse_hex_span(const char *p, const char *e, uint64_t *v)
{
	uint64_t r = 0;

	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (p == e || e - p > 16)
		return false;
	for (; p < e; p++) {
		int c = (unsigned char)*p, d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		r = r << 4 | (uint64_t)d;
	}
	*v = r;
	return true;
}

/* Line iteration helper for the text parsers. */
static inline const char *pc_next_line(const char *p, const char *end, size_t *len)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *e = nl ? nl : end;

	*len = (size_t)(e - p);
	if (*len && p[*len - 1] == '\r')
		(*len)--;
	return nl ? nl + 1 : end;
}

#endif
