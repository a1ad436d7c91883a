// SPDX-License-Identifier: MIT
/*
 * Escaping, number formatting and colours for the renderers. See
 * render_common.h for the escaping table.
 */
#include "render_common.h"

#include <math.h>
#include <string.h>

/*
 * Decode one character at s[0..len). Returns its byte length (>= 1) and
 * sets *cp to the code point, or to -1 when s[0] does not start a
 * well-formed UTF-8 sequence (then the length is 1: the byte alone).
 * Well-formed = RFC 3629: shortest form, no surrogates, at most U+10FFFF.
 */
static size_t utf8_next(const unsigned char *s, size_t len, int32_t *cp)
{
	unsigned char c = s[0];
	size_t n;
	int32_t v, min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
		min = 0x10000;
	} else {
		*cp = -1;
		return 1;
	}
	if (len < n) {
		*cp = -1;
		return 1;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = -1;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
		*cp = -1;
		return 1;
	}
	*cp = v;
	return n;
}

/* Code points that pass unchanged into XML text. */
static int cp_plain(int32_t cp)
{
	if (cp < 0x20 || cp == 0x7f)
		return 0;
	if (cp >= 0x80 && cp <= 0x9f)
		return 0;
	if (cp == 0xfffe || cp == 0xffff)
		return 0;
	return 1;
}

/* Small output sink so the same escaper feeds a FILE or a buffer. */
struct sink {
	FILE *f;
	char *buf;
	size_t cap, len;
};

static void sink_put(struct sink *k, const char *s, size_t n)
{
	if (k->f) {
		if (n)
			fwrite(s, 1, n, k->f);
	} else if (k->buf && k->len < k->cap) {
		size_t room = k->cap - k->len;
		memcpy(k->buf + k->len, s, n < room ? n : room);
	}
	k->len += n;
}

static void esc_to(struct sink *k, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0; /* s[i-run .. i) is plain and not yet written */
	char tmp[16];

	while (i < len) {
		int32_t cp;
		size_t n = utf8_next(s + i, len - i, &cp);
		const char *rep = NULL;
		switch (cp) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&#39;";
			break;
		default:
			if (cp < 0 || cp < 0x80) {
				if (cp >= 0 && cp_plain(cp))
					break;
				snprintf(tmp, sizeof(tmp), "\\x%02X", s[i]);
				rep = tmp;
			} else if (!cp_plain(cp)) {
				snprintf(tmp, sizeof(tmp), "\\u%04X", (unsigned)cp);
				rep = tmp;
			}
		}
		if (rep) {
			sink_put(k, (const char *)s + i - run, run);
			run = 0;
			sink_put(k, rep, strlen(rep));
		} else {
			run += n;
		}
		i += n;
	}
	sink_put(k, (const char *)s + i - run, run);
}

void rc_esc_n(FILE *out, const char *s, size_t len)
{
	struct sink k = {.f = out};
	esc_to(&k, s, len);
}

void rc_esc(FILE *out, const char *s)
{
	if (s)
		rc_esc_n(out, s, strlen(s));
}

size_t rc_esc_buf(char *dst, size_t dstlen, const char *s, size_t len)
{
	struct sink k = {.buf = dst, .cap = dstlen ? dstlen - 1 : 0};
	esc_to(&k, s, len);
	if (dstlen)
		dst[k.len < k.cap ? k.len : k.cap] = 0;
	return k.len;
}

/* Displayed width of one decoded character (see the escaping table). */
static size_t vis_width(int32_t cp)
{
	if (cp < 0)
		return 4; /* \xNN */
	if (cp < 0x80)
		return cp_plain(cp) ? 1 : 4;
	return cp_plain(cp) ? 1 : 6; /* \uNNNN */
}

size_t rc_visible_len(const char *s, size_t len)
{
	size_t i = 0, w = 0;

	while (i < len) {
		int32_t cp;
		i += utf8_next((const unsigned char *)s + i, len - i, &cp);
		w += vis_width(cp);
	}
	return w;
}

size_t rc_prefix_fit(const char *s, size_t len, size_t max)
{
	size_t i = 0, w = 0;

	while (i < len) {
		int32_t cp;
		size_t n = utf8_next((const unsigned char *)s + i, len - i, &cp);
		size_t cw = vis_width(cp);
		if (w + cw > max)
			break;
		w += cw;
		i += n;
	}
	return i;
}

void rc_label(FILE *out, const char *s, size_t max)
{
	size_t len = strlen(s);

	if (max < 3)
		return;
	if (rc_visible_len(s, len) <= max) {
		rc_esc_n(out, s, len);
		return;
	}
	rc_esc_n(out, s, rc_prefix_fit(s, len, max - 2));
	fputs("..", out);
}

char *rc_fmt_u64(char *buf, uint64_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	char *o = buf;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			*o++ = ',';
		*o++ = tmp[i];
	}
	*o = 0;
	return buf;
}

char *rc_fmt_pct(char *buf, uint64_t part, uint64_t whole)
{
	if (!whole || !part) {
		strcpy(buf, "0%");
		return buf;
	}
	double p = 100.0 * (double)part / (double)whole;
	if (p < 0.005)
		strcpy(buf, "<0.01%");
	else
		snprintf(buf, 16, "%.2f%%", p);
	return buf;
}

char *rc_fmt_pp(char *buf, double pp)
{
	if (fabs(pp) < 0.005)
		strcpy(buf, "0.00");
	else
		snprintf(buf, 24, "%+.2f", pp);
	return buf;
}

double rc_round(double x)
{
	long long t;
	double frac;

	if (!(fabs(x) < 0x1p52)) /* already an integer, an infinity or NaN */
		return x;
	t = (long long)x;     /* toward zero, exact below 2^52 */
	frac = x - (double)t; /* exact too */
	if (frac >= 0.5)
		t++;
	else if (frac <= -0.5)
		t--;
	return t == 0 && signbit(x) ? -0.0 : (double)t;
}

char *rc_fmt_coord(char *buf, double v)
{
	/* round to hundredths first so -0.00 and 1.999 print cleanly */
	double r = rc_round(v * 100.0) / 100.0;
	int n;

	if (r == 0)
		r = 0; /* no "-0" */
	n = snprintf(buf, 32, "%.2f", r);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = 0;
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = 0;
	return buf;
}

const char *rc_kind_class(int kind)
{
	static const char *const cls[] = {"u", "k", "x", "p"}; /* by enum pc_frame_kind */

	return kind > 0 && kind < 4 ? cls[kind] : "u";
}

uint32_t rc_hash_name(const char *s)
{
	uint32_t h = 2166136261u;

	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

/* Two independent fractions in [0,1) from one hash. */
static void hash_fracs(const char *name, double *a, double *b)
{
	uint32_t h = rc_hash_name(name);

	*a = (double)(h & 0xffff) / 65536.0;
	*b = (double)(h >> 16) / 65536.0;
}

struct rc_rgb rc_frame_color(int kind, const char *name)
{
	double a, b;
	struct rc_rgb c;

	hash_fracs(name, &a, &b);
	switch (kind) {
	case PC_FRAME_KERNEL: /* aqua to steel blue */
		c.r = (uint8_t)(60 + 60 * a);
		c.g = (uint8_t)(150 + 60 * b);
		c.b = (uint8_t)(200 + 40 * a);
		break;
	case PC_FRAME_UNKNOWN: /* greys */
		c.r = c.g = c.b = (uint8_t)(170 + 40 * a);
		break;
	case PC_FRAME_PROCESS: /* greens */
		c.r = (uint8_t)(110 + 50 * a);
		c.g = (uint8_t)(190 + 40 * b);
		c.b = (uint8_t)(90 + 40 * a);
		break;
	default: /* user: the classic warm flame */
		c.r = (uint8_t)(205 + 50 * b);
		c.g = (uint8_t)(50 + 180 * a);
		c.b = (uint8_t)(0 + 55 * b);
		break;
	}
	return c;
}

struct rc_rgb rc_diff_color(double delta, double max_abs)
{
	double s = max_abs > 0 ? fabs(delta) / max_abs : 0;
	uint8_t fade;
	struct rc_rgb c;

	if (s > 1)
		s = 1;
	/* tiny changes stay visibly tinted so that "changed" differs from "same" */
	if (delta != 0 && s < 0.08)
		s = 0.08;
	fade = (uint8_t)rc_round(255.0 - 200.0 * s);
	if (delta > 0)
		c = (struct rc_rgb){255, fade, fade};
	else if (delta < 0)
		c = (struct rc_rgb){fade, fade, 255};
	else
		c = (struct rc_rgb){250, 250, 250};
	return c;
}
