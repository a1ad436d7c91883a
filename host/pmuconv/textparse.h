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

/* The value of a hex digit, or -1. */
static inline int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20; /* lower case */
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static inline bool parse_hex_span(const char *p, const char *e, uint64_t *v)
{
	uint64_t r = 0;
	int d;

	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (p == e || e - p > 16)
		return false;
	for (; p < e; p++) {
		if ((d = hex_digit((unsigned char)*p)) < 0)
			return false;
		r = r << 4 | (uint64_t)d;
	}
	*v = r;
	return true;
}

/* The end of SYM in "SYM+0xOFF..." spanning [sym, se): the last '+' ends
 * it if "0x" follows (and, with whole_hex, hex digits up to se) and SYM is
 * not empty; otherwise se. */
static inline const char *strip_offset(const char *sym, const char *se, bool whole_hex)
{
	uint64_t off;

	for (const char *x = se; x > sym; x--) {
		if (x[-1] != '+')
			continue;
		if (se - x > 2 && x[0] == '0' && x[1] == 'x' && x - 1 > sym &&
		    (!whole_hex || parse_hex_span(x, se, &off)))
			return x - 1;
		break;
	}
	return se;
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
