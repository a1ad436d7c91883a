// SPDX-License-Identifier: MIT
/*
 * Unit tests of pmuconv's graphical renderers (host/pmuconv/render_*.c):
 * the escaping table, number formatting, the frame tree (merge by prefix,
 * widths, percentages), determinism, elision, the differential colouring,
 * the page-size chart and the HTML page. Profiles are built here by hand,
 * so every expected number is known.
 *
 * `test_render --emit DIR` writes hostile-name outputs (SVG, diff SVG, HTML,
 * page-size SVG) for tests/suites/render_xml.sh to parse with xmllint.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "host/pmuconv/pagesize.h"
#include "host/pmuconv/pcagg.h"
#include "host/pmuconv/render.h"
#include "host/pmuconv/render_common.h"
#include "host/pmuconv/report.h"
#include "include/uapi/pmuprof.h"
#include "check_main.h"

/* ---- building profiles by hand ------------------------------------------ */

/* Helpers run inside Check tests and in --emit mode (no runner there). */
static int emitting;
#define REQ(c)                                                                                     \
	do {                                                                                       \
		if (emitting && !(c)) {                                                            \
			fprintf(stderr, "test_render: %s:%d: %s failed\n", __FILE__, __LINE__,     \
				#c);                                                               \
			exit(1);                                                                   \
		} else if (!emitting) {                                                            \
			ck_assert(c);                                                              \
		}                                                                                  \
	} while (0)

struct tprof {
	struct pc_profile p;
	size_t cap_names, cap_stacks;
};

static uint32_t tp_name(struct tprof *t, const char *name, size_t len, int kind)
{
	for (size_t i = 0; i < t->p.nr_names; i++)
		if (strlen(t->p.names[i].name) == len && !memcmp(t->p.names[i].name, name, len) &&
		    t->p.names[i].kind == kind)
			return (uint32_t)i;
	if (t->p.nr_names == t->cap_names) {
		t->cap_names = t->cap_names ? t->cap_names * 2 : 16;
		t->p.names = realloc(t->p.names, t->cap_names * sizeof(*t->p.names));
		REQ(t->p.names);
	}
	t->p.names[t->p.nr_names].name = strndup(name, len);
	t->p.names[t->p.nr_names].kind = (uint8_t)kind;
	t->p.names[t->p.nr_names].src = NULL;
	return (uint32_t)t->p.nr_names++;
}

/* path: "main;a;b" root first; a "k:" prefix marks a kernel frame */
static void tp_stack(struct tprof *t, const char *path, uint64_t samples, uint64_t weight)
{
	uint32_t fr[64], nr = 0;
	const char *s = path;

	while (*s) {
		const char *e = strchr(s, ';');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		int kind = PC_FRAME_USER;
		if (len > 2 && !memcmp(s, "k:", 2)) {
			kind = PC_FRAME_KERNEL;
			s += 2;
			len -= 2;
		}
		fr[nr++] = tp_name(t, s, len, kind);
		s += len + (e ? 1 : 0);
	}
	if (t->p.nr_stacks == t->cap_stacks) {
		t->cap_stacks = t->cap_stacks ? t->cap_stacks * 2 : 16;
		t->p.stacks = realloc(t->p.stacks, t->cap_stacks * sizeof(*t->p.stacks));
		REQ(t->p.stacks);
	}
	struct pc_stack *st = &t->p.stacks[t->p.nr_stacks++];
	st->nr = nr;
	st->frames = malloc((nr ? nr : 1) * sizeof(uint32_t));
	memcpy(st->frames, fr, nr * sizeof(uint32_t));
	st->samples = samples;
	st->weight = weight;
	t->p.total_samples += samples;
	t->p.total_weight += weight;
}

static void tp_free(struct tprof *t)
{
	for (size_t i = 0; i < t->p.nr_names; i++)
		free((char *)t->p.names[i].name);
	for (size_t i = 0; i < t->p.nr_stacks; i++)
		free(t->p.stacks[i].frames);
	free(t->p.names);
	free(t->p.stacks);
	memset(t, 0, sizeof(*t));
}

static void tp_init(struct tprof *t, const char *event)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->p.event, sizeof(t->p.event), "%s", event);
	snprintf(t->p.unit, sizeof(t->p.unit), "cycles");
	t->p.period = 10;
}

static struct render_opts ropts(const struct pc_profile *p)
{
	struct render_opts o = {.title = p->event,
				.subtitle = "period 10 cycles",
				.unit_label = "estimated cycles (sum of sample periods)"};
	return o;
}

/* Render to a malloc'd NUL-terminated string. */
struct mem {
	char *buf;
	size_t len;
};

static FILE *mem_open(struct mem *m)
{
	FILE *f = open_memstream(&m->buf, &m->len);
	ck_assert_ptr_nonnull(f);
	return f;
}

/* The flame graph SVG of p, rendered into memory (free() it). */
static char *svg_of(const struct pc_profile *p, const struct render_opts *o)
{
	struct mem m = {0};
	FILE *f = mem_open(&m);

	ck_assert_int_eq(render_flamegraph_svg(f, p, o), 0);
	fclose(f);
	return m.buf;
}

static size_t count_str(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The <g class="f ..."> element whose title starts with name + '\n'. */
static const char *frame_of(const char *svg, const char *name)
{
	char key[256];
	snprintf(key, sizeof(key), "<title>%s\n", name);
	const char *t = strstr(svg, key);
	if (!t)
		return NULL;
	/* back up to the opening <g */
	while (t > svg && strncmp(t, "<g class=\"f", 11))
		t--;
	return t;
}

static double attr_num(const char *from, const char *attr)
{
	char key[64];
	snprintf(key, sizeof(key), " %s=\"", attr);
	const char *p = strstr(from, key);
	ck_assert_msg(p, "attribute %s not found", attr);
	return strtod(p + strlen(key), NULL);
}

/* ---- escaping ------------------------------------------------------------- */

static const struct {
	int line;
	const char *in;
	size_t len; /* 0 = strlen */
	const char *out;
} esc_cases[] = {
	{__LINE__, "plain", 0, "plain"},
	{__LINE__, "a&b", 0, "a&amp;b"},
	{__LINE__, "<script>alert(1)</script>", 0, "&lt;script&gt;alert(1)&lt;/script&gt;"},
	{__LINE__, "say \"hi\" 'x'", 0, "say &quot;hi&quot; &#39;x&#39;"},
	{__LINE__, "]]>", 0, "]]&gt;"},
	{__LINE__, "&amp;", 0, "&amp;amp;"},
	{__LINE__, "tab\tnl\ncr\r", 0, "tab\\x09nl\\x0Acr\\x0D"},
	{__LINE__, "\x01\x1b[31m", 0, "\\x01\\x1B[31m"},
	{__LINE__, "del\x7f", 0, "del\\x7F"},
	{__LINE__, "nul\0x", 5, "nul\\x00x"},
	{__LINE__, "caf\xc3\xa9", 0, "caf\xc3\xa9"},		   /* U+00E9 */
	{__LINE__, "\xe2\x82\xac", 0, "\xe2\x82\xac"},		   /* U+20AC */
	{__LINE__, "\xf0\x9f\x98\x80", 0, "\xf0\x9f\x98\x80"},	   /* U+1F600 */
	{__LINE__, "c1\xc2\x85", 0, "c1\\u0085"},		   /* NEL, a C1 control */
	{__LINE__, "\xef\xbf\xbe", 0, "\\uFFFE"},		   /* XML non-character */
	{__LINE__, "bad\xff", 0, "bad\\xFF"},			   /* never valid */
	{__LINE__, "\xc0\xaf", 0, "\\xC0\\xAF"},		   /* overlong '/' */
	{__LINE__, "\xed\xa0\x80", 0, "\\xED\\xA0\\x80"},	   /* surrogate */
	{__LINE__, "cut\xe2\x82", 0, "cut\\xE2\\x82"},		   /* truncated sequence */
	{__LINE__, "\x80x", 0, "\\x80x"},			   /* stray continuation */
	{__LINE__, "\xf4\x90\x80\x80", 0, "\\xF4\\x90\\x80\\x80"}, /* > U+10FFFF */
	{__LINE__, "std::vector<int>::push_back(int const&)", 0,
	 "std::vector&lt;int&gt;::push_back(int const&amp;)"},
	{__LINE__, "", 0, ""},
};

START_TEST(test_escape_table)
{
	char buf[256];
	const char *in = esc_cases[_i].in;
	size_t len = esc_cases[_i].len ? esc_cases[_i].len : strlen(in);
	size_t n = rc_esc_buf(buf, sizeof(buf), in, len);

	ck_assert_msg(!strcmp(buf, esc_cases[_i].out), "line %d: got '%s' want '%s'",
		      esc_cases[_i].line, buf, esc_cases[_i].out);
	ck_assert_uint_eq(n, strlen(esc_cases[_i].out));
	/* the FILE path gives the same bytes */
	struct mem m = {0};
	FILE *f = mem_open(&m);
	rc_esc_n(f, in, len);
	fclose(f);
	ck_assert_msg(!strcmp(m.buf, esc_cases[_i].out), "line %d: FILE path got '%s'",
		      esc_cases[_i].line, m.buf);
	free(m.buf);
}
END_TEST

START_TEST(test_escape_buf_truncates)
{
	char buf[6];
	size_t n = rc_esc_buf(buf, sizeof(buf), "a<b", 3);

	ck_assert_uint_eq(n, 6);	/* "a&lt;b" */
	ck_assert_str_eq(buf, "a&lt;"); /* cut to 5 bytes + NUL */
}
END_TEST

START_TEST(test_labels)
{
	struct mem m = {0};
	FILE *f;

	ck_assert_uint_eq(rc_visible_len("abc", 3), 3);
	ck_assert_uint_eq(rc_visible_len("caf\xc3\xa9", 5), 4);
	ck_assert_uint_eq(rc_visible_len("a\x01", 2), 5);
	ck_assert_uint_eq(rc_prefix_fit("caf\xc3\xa9!", 6, 4), 5); /* never cuts the é */
	ck_assert_uint_eq(rc_prefix_fit("caf\xc3\xa9!", 6, 3), 3);
	f = mem_open(&m);
	rc_label(f, "handle_request", 8); /* 6 chars + ".." */
	fputc('|', f);
	rc_label(f, "main", 8);
	fputc('|', f);
	rc_label(f, "main", 2); /* too narrow: nothing */
	fputc('|', f);
	rc_label(f, "<<<<<<<<", 5);
	fclose(f);
	ck_assert_str_eq(m.buf, "handle..|main||&lt;&lt;&lt;..");
	free(m.buf);
}
END_TEST

START_TEST(test_numbers)
{
	char b[32];

	ck_assert_str_eq(rc_fmt_u64(b, 0), "0");
	ck_assert_str_eq(rc_fmt_u64(b, 999), "999");
	ck_assert_str_eq(rc_fmt_u64(b, 1000), "1,000");
	ck_assert_str_eq(rc_fmt_u64(b, 1234567), "1,234,567");
	ck_assert_str_eq(rc_fmt_u64(b, UINT64_MAX), "18,446,744,073,709,551,615");
	ck_assert_str_eq(rc_fmt_pct(b, 1, 3), "33.33%");
	ck_assert_str_eq(rc_fmt_pct(b, 2, 3), "66.67%");
	ck_assert_str_eq(rc_fmt_pct(b, 0, 3), "0%");
	ck_assert_str_eq(rc_fmt_pct(b, 5, 0), "0%");
	ck_assert_str_eq(rc_fmt_pct(b, 1, 1000000), "<0.01%");
	ck_assert_str_eq(rc_fmt_pct(b, 7, 7), "100.00%");
	ck_assert_str_eq(rc_fmt_pp(b, 1.25), "+1.25");
	ck_assert_str_eq(rc_fmt_pp(b, -0.5), "-0.50");
	ck_assert_str_eq(rc_fmt_pp(b, 0.001), "0.00");
	ck_assert_str_eq(rc_fmt_coord(b, 10), "10");
	ck_assert_str_eq(rc_fmt_coord(b, 12.5), "12.5");
	ck_assert_str_eq(rc_fmt_coord(b, 1.999), "2");
	ck_assert_str_eq(rc_fmt_coord(b, 0.126), "0.13");
	ck_assert_str_eq(rc_fmt_coord(b, -0.001), "0");
}
END_TEST

/* rc_round against libm's round(3): halves, the largest double below 0.5,
 * both sides of 2^52, huge values, signed zeros, infinities, NaN, and a
 * sweep of values at every hundredth and just beside it. */
START_TEST(test_round_like_libm)
{
	static const double edge[] = {
		0.0,
		-0.0,
		0.5,
		-0.5,
		1.5,
		-1.5,
		2.5,
		-2.5,
		0.49999999999999994,
		-0.49999999999999994,
		0.3,
		-0.3,
		4503599627370495.5,
		-4503599627370495.5,
		4503599627370496.0,
		4503599627370497.0,
		9007199254740993.0,
		1e300,
		-1e300,
		HUGE_VAL,
		-HUGE_VAL,
		255.0,
		54.5,
		127.49999999999999,
	};
	char a[32], b[32];

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		snprintf(a, sizeof(a), "%a", rc_round(edge[i]));
		snprintf(b, sizeof(b), "%a", round(edge[i]));
		ck_assert_msg(!strcmp(a, b), "rc_round(%a) = %s, round = %s", edge[i], a, b);
	}
	ck_assert(isnan(rc_round(NAN)));
	for (int i = -200000; i <= 200000; i++) {
		double v = i / 100.0, vs[3] = {v, nextafter(v, -INFINITY), nextafter(v, INFINITY)};

		for (int k = 0; k < 3; k++) {
			snprintf(a, sizeof(a), "%a", rc_round(vs[k] * 100.0));
			snprintf(b, sizeof(b), "%a", round(vs[k] * 100.0));
			ck_assert_msg(!strcmp(a, b), "rc_round(%a) = %s, round = %s", vs[k] * 100.0,
				      a, b);
		}
	}
}
END_TEST

START_TEST(test_colors)
{
	/* same name, same colour; kinds use separate palettes */
	struct rc_rgb u1 = rc_frame_color(PC_FRAME_USER, "main");
	struct rc_rgb u2 = rc_frame_color(PC_FRAME_USER, "main");
	ck_assert(u1.r == u2.r && u1.g == u2.g && u1.b == u2.b);
	ck_assert_uint_eq(rc_hash_name("a"), 0xe40c292cu); /* FNV-1a("a") */
	for (int i = 0; i < 200; i++) {
		char n[16];
		snprintf(n, sizeof(n), "fn%d", i);
		struct rc_rgb u = rc_frame_color(PC_FRAME_USER, n);
		struct rc_rgb k = rc_frame_color(PC_FRAME_KERNEL, n);
		ck_assert_msg(u.r > u.b && u.r >= 205, "user frames are warm");
		ck_assert_msg(k.b > k.r && k.b >= 200, "kernel frames are cool");
	}
}
END_TEST

START_TEST(test_script_embeddable)
{
	/* the same script text sits in an SVG CDATA section, an XHTML CDATA
	 * section and an HTML <script>: none of them may end early */
	ck_assert_ptr_null(strstr(rc_flame_js, "]]>"));
	ck_assert_ptr_null(strstr(rc_flame_js, "</"));
	ck_assert_ptr_null(strstr(rc_flame_css, "]]>"));
	ck_assert_ptr_null(strstr(rc_flame_css, "</"));
	/* names reach the document only as text, never as markup */
	ck_assert_ptr_null(strstr(rc_flame_js, "innerHTML"));
	ck_assert_ptr_null(strstr(rc_flame_js, "outerHTML"));
	ck_assert_ptr_null(strstr(rc_flame_js, "insertAdjacentHTML"));
	ck_assert_ptr_null(strstr(rc_flame_js, "eval("));
	ck_assert_ptr_null(strstr(rc_report_js, "]]>"));
	ck_assert_ptr_null(strstr(rc_report_js, "</"));
	ck_assert_ptr_null(strstr(rc_report_js, "innerHTML"));
	ck_assert_ptr_null(strstr(rc_report_js, "eval("));
}
END_TEST

/* ---- tree ------------------------------------------------------------------- */

static void small_profile(struct tprof *t)
{
	tp_init(t, "cycles");
	tp_stack(t, "main;a;b", 3, 30);
	tp_stack(t, "main;a;c", 2, 20);
	tp_stack(t, "main;d", 5, 50);
	tp_stack(t, "main;a;k:sys_write", 1, 10); /* kernel leaf */
	tp_stack(t, "main", 1, 10);		  /* self time in main */
	tp_stack(t, "", 1, 10);			  /* no frames: counts only for "all" */
}

START_TEST(test_tree_merge)
{
	struct tprof t;
	struct rc_tree tr;

	small_profile(&t);
	ck_assert_int_eq(rc_tree__build(&tr, &t.p, 0), 0);
	ck_assert_int_eq(rc_tree__layout(&tr), 0);
	/* all, main, a, b, c, sys_write, d */
	ck_assert_uint_eq(tr.nr, 7);
	ck_assert_uint_eq(tr.n[0].weight, 130);
	ck_assert_uint_eq(tr.n[0].samples, 13);
	ck_assert_uint_eq(tr.n[0].subtree, 7);
	ck_assert_uint_eq(tr.n[0].nr_kids, 1);
	const struct rc_node *main = &tr.n[tr.kid[tr.n[0].kids]];
	ck_assert_str_eq(t.p.names[main->name].name, "main");
	ck_assert_uint_eq(main->weight, 120);
	ck_assert_uint_eq(main->nr_kids, 2);
	/* children sorted by name: a before d; widths add up, parents cover kids */
	const struct rc_node *a = &tr.n[tr.kid[main->kids]];
	const struct rc_node *d = &tr.n[tr.kid[main->kids + 1]];
	ck_assert_str_eq(t.p.names[a->name].name, "a");
	ck_assert_str_eq(t.p.names[d->name].name, "d");
	ck_assert_uint_eq(a->weight, 60);
	ck_assert_uint_eq(a->samples, 6);
	ck_assert_uint_eq(d->weight, 50);
	ck_assert(a->x == main->x);
	ck_assert(d->x == a->x + 60);
	for (size_t i = 0; i < tr.nr; i++) {
		uint64_t sum = 0;
		for (uint32_t k = 0; k < tr.n[i].nr_kids; k++)
			sum += tr.n[tr.kid[tr.n[i].kids + k]].weight;
		ck_assert_msg(sum <= tr.n[i].weight, "node %zu: children wider than parent", i);
	}
	const char *order[] = {"b", "c", "sys_write"};
	for (uint32_t k = 0; k < a->nr_kids; k++)
		ck_assert_str_eq(t.p.names[tr.n[tr.kid[a->kids + k]].name].name, order[k]);
	rc_tree__free(&tr);
	tp_free(&t);
}
END_TEST

START_TEST(test_svg_frames_and_percentages)
{
	struct tprof t;
	struct render_opts o;
	struct mem m = {0};

	small_profile(&t);
	o = ropts(&t.p);
	m.buf = svg_of(&t.p, &o);
	ck_assert_uint_eq(count_str(m.buf, "<g class=\"f "), 7);
	ck_assert_int_eq((int)attr_num(m.buf, "data-frames"), 7);
	ck_assert_int_eq((int)attr_num(m.buf, "data-elided"), 0);
	ck_assert_int_eq((int)attr_num(m.buf, "data-total"), 130);
	/* a: 6 of 13 samples, 60 of 130 cycles */
	const char *a = frame_of(m.buf, "a");
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq((int)attr_num(a, "data-v"), 60);
	ck_assert_ptr_nonnull(strstr(a, "6 samples (46.15%)\n60 estimated cycles (sum of sample "
					"periods) (46.15%)</title>"));
	/* widths proportional: the drawable span is 1180 px for 130 cycles */
	const char *r = strstr(a, "<rect");
	ck_assert(r && attr_num(r, "width") > 544.6 && attr_num(r, "width") < 544.7);
	const char *d = frame_of(m.buf, "d");
	ck_assert(attr_num(strstr(d, "<rect"), "x") > 10 + 544.6);
	/* kernel frame classed and coloured apart */
	const char *k = frame_of(m.buf, "sys_write");
	ck_assert_ptr_nonnull(k);
	ck_assert(!strncmp(k, "<g class=\"f k\"", 14));
	ck_assert(!strncmp(frame_of(m.buf, "b"), "<g class=\"f u\"", 14));
	/* title names the event and the subtitle its period */
	ck_assert_ptr_nonnull(strstr(m.buf, "<title>Flame graph: cycles</title>"));
	ck_assert_ptr_nonnull(strstr(m.buf, "period 10 cycles"));
	/* self-contained: script inline in CDATA, nothing fetched */
	ck_assert_ptr_nonnull(strstr(m.buf, "<script type=\"text/ecmascript\"><![CDATA["));
	ck_assert_ptr_null(strstr(m.buf, "href="));
	ck_assert_ptr_null(strstr(m.buf, "src="));
	free(m.buf);
	tp_free(&t);
}
END_TEST

START_TEST(test_by_samples)
{
	struct tprof t;
	struct render_opts o;
	struct mem m = {0};

	small_profile(&t);
	o = ropts(&t.p);
	o.by_samples = 1;
	m.buf = svg_of(&t.p, &o);
	ck_assert_int_eq((int)attr_num(m.buf, "data-total"), 13);
	ck_assert_int_eq((int)attr_num(frame_of(m.buf, "a"), "data-v"), 6);
	ck_assert_ptr_nonnull(strstr(m.buf, "data-metric=\"samples\""));
	free(m.buf);
	tp_free(&t);
}
END_TEST

START_TEST(test_determinism)
{
	struct tprof t1, t2;
	struct render_opts o;
	struct mem m1 = {0}, m2 = {0}, m3 = {0};

	small_profile(&t1);
	/* the same stacks in another order, names interned in another order */
	tp_init(&t2, "cycles");
	tp_stack(&t2, "", 1, 10);
	tp_stack(&t2, "main;d", 5, 50);
	tp_stack(&t2, "main", 1, 10);
	tp_stack(&t2, "main;a;k:sys_write", 1, 10);
	tp_stack(&t2, "main;a;c", 2, 20);
	tp_stack(&t2, "main;a;b", 3, 30);
	o = ropts(&t1.p);
	m1.buf = svg_of(&t1.p, &o);
	m2.buf = svg_of(&t1.p, &o);
	m3.buf = svg_of(&t2.p, &o);
	ck_assert_uint_eq(m1.len, m2.len);
	ck_assert(!memcmp(m1.buf, m2.buf, m1.len));
	ck_assert_uint_eq(m1.len, m3.len);
	ck_assert_msg(!memcmp(m1.buf, m3.buf, m1.len), "input order changed the output");
	free(m1.buf);
	free(m2.buf);
	free(m3.buf);
	tp_free(&t1);
	tp_free(&t2);
}
END_TEST

START_TEST(test_elision)
{
	struct tprof t;
	struct render_opts o;
	struct rc_tree tr;
	struct rc_svg_stats st;
	struct rc_svg_opts so = {.ro = &o, .standalone = 1};
	struct mem m = {0};
	FILE *f;
	char path[64];

	tp_init(&t, "cycles");
	tp_stack(&t, "main;big", 1000, 1000000);
	for (int i = 0; i < 50; i++) { /* 1/1e6 of 1180 px: far below 0.1 px */
		snprintf(path, sizeof(path), "main;big;tiny%02d", i);
		tp_stack(&t, path, 1, 1);
	}
	tp_stack(&t, "main;small;x;y", 1, 1); /* a narrow subtree: 3 frames */
	o = ropts(&t.p);
	ck_assert_int_eq(rc_tree__build(&tr, &t.p, 0), 0);
	ck_assert_int_eq(rc_tree__layout(&tr), 0);
	ck_assert_uint_eq(tr.nr, 1 + 2 + 50 + 3);
	f = mem_open(&m);
	ck_assert_int_eq(rc_flamegraph_write(f, &tr, &so, &st), 0);
	fclose(f);
	ck_assert_uint_eq(st.drawn, 3); /* all, main, big */
	ck_assert_uint_eq(st.elided, 53);
	ck_assert_uint_eq(st.drawn + st.elided, tr.nr);
	ck_assert_uint_eq(st.max_depth, 2);
	ck_assert_uint_eq(count_str(m.buf, "<g class=\"f "), 3);
	ck_assert_int_eq((int)attr_num(m.buf, "data-elided"), 53);
	ck_assert_ptr_nonnull(strstr(m.buf, "53 frames narrower than 0.1 px not drawn"));
	free(m.buf);
	rc_tree__free(&tr);

	/* a smaller threshold draws them */
	o.min_width_px = 0.0001;
	ck_assert_int_eq(rc_tree__build(&tr, &t.p, 0), 0);
	ck_assert_int_eq(rc_tree__layout(&tr), 0);
	f = mem_open(&m);
	ck_assert_int_eq(rc_flamegraph_write(f, &tr, &so, &st), 0);
	fclose(f);
	ck_assert_uint_eq(st.elided, 0);
	ck_assert_uint_eq(st.drawn, tr.nr);
	free(m.buf);
	rc_tree__free(&tr);
	tp_free(&t);
}
END_TEST

START_TEST(test_empty_profile)
{
	struct tprof t;
	struct render_opts o;
	struct mem m = {0};

	tp_init(&t, "cycles");
	o = ropts(&t.p);
	m.buf = svg_of(&t.p, &o);
	ck_assert_uint_eq(count_str(m.buf, "<g class=\"f "), 1);
	ck_assert_ptr_nonnull(strstr(m.buf, "no samples"));
	free(m.buf);
	tp_free(&t);
}
END_TEST

/* ---- diff ------------------------------------------------------------------- */

static void fill_of(const char *frame, unsigned *r, unsigned *g, unsigned *b)
{
	const char *p = strstr(frame, "fill=\"rgb(");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(sscanf(p, "fill=\"rgb(%u,%u,%u)", r, g, b), 3);
}

START_TEST(test_diff_colours)
{
	struct tprof before, after;
	struct render_opts o;
	struct mem m = {0};
	FILE *f;
	unsigned r, g, b;

	tp_init(&before, "cycles");
	tp_stack(&before, "main;grows", 50, 500);
	tp_stack(&before, "main;shrinks", 50, 500);
	tp_stack(&before, "main;gone", 10, 100); /* only before */
	tp_init(&after, "cycles");		 /* twice as long: shares matter */
	tp_stack(&after, "main;grows", 160, 1600);
	tp_stack(&after, "main;shrinks", 40, 400);
	tp_stack(&after, "main;new", 20, 200); /* only after */
	o = ropts(&after.p);
	f = mem_open(&m);
	ck_assert_int_eq(render_diff_flamegraph_svg(f, &before.p, &after.p, &o), 0);
	fclose(f);
	/* widths from after: all, main, grows, new, shrinks */
	ck_assert_uint_eq(count_str(m.buf, "<g class=\"f "), 5);
	ck_assert_int_eq((int)attr_num(m.buf, "data-total"), 2200);
	ck_assert_int_eq((int)attr_num(frame_of(m.buf, "grows"), "data-v"), 1600);
	/* grows: 45.45% -> 72.73% red; shrinks: 45.45% -> 18.18% blue */
	fill_of(frame_of(m.buf, "grows"), &r, &g, &b);
	ck_assert_msg(r == 255 && g < 200 && b < 200, "grew: rgb(%u,%u,%u)", r, g, b);
	fill_of(frame_of(m.buf, "shrinks"), &r, &g, &b);
	ck_assert_msg(b == 255 && r < 200 && g < 200, "shrank: rgb(%u,%u,%u)", r, g, b);
	fill_of(frame_of(m.buf, "new"), &r, &g, &b);
	ck_assert_msg(r == 255 && g < 255, "new frame is red: rgb(%u,%u,%u)", r, g, b);
	/* main: 100% in both -> neutral */
	fill_of(frame_of(m.buf, "main"), &r, &g, &b);
	ck_assert_msg(r == g && g == b, "unchanged frame is neutral: rgb(%u,%u,%u)", r, g, b);
	ck_assert_ptr_nonnull(strstr(frame_of(m.buf, "grows"), "change: +27.27 percentage points"));
	ck_assert_ptr_nonnull(strstr(frame_of(m.buf, "shrinks"), "change: -27.27"));
	/* the vanished path is reported, not drawn */
	ck_assert_ptr_null(frame_of(m.buf, "gone"));
	ck_assert_ptr_nonnull(strstr(m.buf, "9.09% of the earlier profile is on paths absent"));
	free(m.buf);

	struct rc_rgb up = rc_diff_color(2, 4), down = rc_diff_color(-4, 4),
		      same = rc_diff_color(0, 4);
	ck_assert(up.r == 255 && up.g == up.b && up.g < 255);
	ck_assert(down.b == 255 && down.r == down.g && down.r == 55);
	ck_assert(same.r == same.g && same.g == same.b);
	tp_free(&before);
	tp_free(&after);
}
END_TEST

/* ---- page sizes ------------------------------------------------------------- */

static void ps_fill(struct pagesize_summary *s, struct ps_event *e)
{
	memset(s, 0, sizeof(*s));
	memset(e, 0, sizeof(*e));
	snprintf(e->event, sizeof(e->event), "dtlb-load-misses");
	snprintf(e->unit, sizeof(e->unit), "events");
	e->samples = 120;
	e->with_addr = 110;
	uint64_t ds[PS__NR] = {50, 30, 20, 0}, cs[PS__NR] = {10, 100, 0, 0};
	for (int p = 0; p < PS__NR; p++) {
		e->data.samples[p] = ds[p];
		e->data.weight[p] = ds[p] * 1000;
		e->data.total_samples += ds[p];
		e->data.total_weight += ds[p] * 1000;
		e->code.samples[p] = cs[p];
		e->code.weight[p] = cs[p] * 1000;
		e->code.total_samples += cs[p];
		e->code.total_weight += cs[p] * 1000;
	}
	snprintf(e->top_syms[PS_4K][0].name, sizeof(e->top_syms[0][0].name), "walk<&>\x01");
	e->top_syms[PS_4K][0].samples = 50;
	e->top_syms[PS_4K][0].weight = 50000;
	e->nr_top_syms[PS_4K] = 1;
	s->source = "test.pmu";
	s->has_data_addr = true;
	s->has_code_page = true;
	s->nr_events = 1;
	s->events = e;
}

START_TEST(test_pagesize_chart)
{
	struct pagesize_summary s;
	struct ps_event e;
	struct mem m = {0};
	FILE *f;

	ps_fill(&s, &e);
	f = mem_open(&m);
	ck_assert_int_eq(render_pagesize_svg(f, &s), 0);
	fclose(f);
	ck_assert_ptr_nonnull(
		strstr(m.buf, "data-kind=\"data\" data-page=\"4K\" data-pct=\"50.00\""));
	ck_assert_ptr_nonnull(
		strstr(m.buf, "data-kind=\"data\" data-page=\"2M\" data-pct=\"30.00\""));
	ck_assert_ptr_nonnull(
		strstr(m.buf, "data-kind=\"data\" data-page=\"1G\" data-pct=\"20.00\""));
	ck_assert_ptr_null(strstr(m.buf, "data-kind=\"data\" data-page=\"unknown\"")); /* 0% */
	ck_assert_ptr_nonnull(
		strstr(m.buf, "data-kind=\"code\" data-page=\"4K\" data-pct=\"9.09\""));
	ck_assert_ptr_nonnull(
		strstr(m.buf, "data-kind=\"code\" data-page=\"2M\" data-pct=\"90.91\""));
	/* readable without scripts: the numbers are text */
	ck_assert_ptr_nonnull(strstr(m.buf, "4K 50.00% (50 samples)"));
	ck_assert_ptr_nonnull(strstr(m.buf, "unknown 0% (0 samples)"));
	ck_assert_ptr_null(strstr(m.buf, "<script"));
	free(m.buf);

	/* code pages not recorded: the code bar says so */
	s.has_code_page = false;
	f = mem_open(&m);
	ck_assert_int_eq(render_pagesize_svg(f, &s), 0);
	fclose(f);
	ck_assert_ptr_null(strstr(m.buf, "data-kind=\"code\""));
	ck_assert_ptr_nonnull(strstr(m.buf, "code page sizes were not recorded"));
	free(m.buf);
}
END_TEST

/* ---- HTML -------------------------------------------------------------------- */

static const char hostile[] = "<script>alert(\"x\")</script>&'\x01\x1b]]>\xff";

/* A pc_set with one event, built through the pmuconv aggregation API. */
static void html_set(struct pc_set *s, struct pc_report_event *rep)
{
	const char *names[] = {"proc", "main", "work", hostile};
	int kinds[] = {PC_FRAME_PROCESS, PC_FRAME_USER, PC_FRAME_USER, PC_FRAME_KERNEL};
	uint32_t id[4];

	memset(s, 0, sizeof(*s));
	snprintf(s->acct.source, sizeof(s->acct.source), "rec</title><script>x</script>.pmu");
	s->acct.format = "pmuprof";
	s->acct.version = 1;
	s->acct.samples = 10;
	s->acct.has_lost = true;
	s->acct.lost = 2;
	snprintf(s->acct.cmdline, sizeof(s->acct.cmdline), "pmuctl record -- ./a \"&\"");
	struct pc_agg *a = pc_set__event(s, "cycles");
	REQ(a);
	snprintf(a->prof.unit, sizeof(a->prof.unit), "cycles");
	a->prof.period = 1000;
	a->acct.weight_is_period = 1;
	a->acct.samples = 10;
	a->acct.lost = 2;
	for (int i = 0; i < 4; i++) {
		int64_t r = pc_strtab__intern(&a->names, names[i], strlen(names[i]), kinds[i]);
		REQ(r >= 0);
		id[i] = (uint32_t)r;
	}
	uint32_t st1[] = {id[0], id[1], id[2]}, st2[] = {id[0], id[1], id[3]};
	REQ(pc_agg__add(a, st1, 3, 7, 7000) == 0);
	REQ(pc_agg__add(a, st2, 3, 3, 3000) == 0);
	s->has_process = true;
	REQ(pc_set__finish(s) == 0);
	REQ(pc_report__build(rep, a) == 0);
}

static int has_raw_controls(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			return 1;
	}
	return 0;
}

START_TEST(test_html_page)
{
	struct pc_set s;
	struct pc_report_event rep;
	struct pagesize_summary ps;
	struct ps_event e;
	struct mem m = {0};
	FILE *f;

	html_set(&s, &rep);
	ps_fill(&ps, &e);
	struct html_input in = {
		.title = "rec.pmu", .set = &s, .reports = &rep, .top = 10, .pagesize = &ps};
	f = mem_open(&m);
	ck_assert_int_eq(render_html(f, &in), 0);
	fclose(f);
	ck_assert(!strncmp(m.buf, "<!DOCTYPE html>", 15));
	ck_assert_uint_eq(count_str(m.buf, "<svg "), 2); /* one flamegraph, one chart */
	ck_assert_uint_eq(count_str(m.buf, "class=\"pmuflame\""), 1);
	ck_assert_uint_eq(count_str(m.buf, "<script"), 1); /* ours, once, at the end */
	ck_assert_ptr_null(strstr(m.buf, "<script>alert"));
	ck_assert_ptr_null(strstr(m.buf, "<script>x"));
	/* pmuconv's interning already made the controls '?' (pcagg.c); the
	 * renderer escapes the rest, including the byte that is not UTF-8 */
	ck_assert_ptr_nonnull(strstr(m.buf, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"
					    "&amp;&#39;??]]&gt;\\xFF"));
	ck_assert(!has_raw_controls(m.buf, m.len));
	/* tables: self and total, 70%/30% split, kernel row marked */
	ck_assert_ptr_nonnull(strstr(m.buf, "Top functions by self (exclusive)"));
	ck_assert_ptr_nonnull(strstr(m.buf, "Top functions by total (inclusive)"));
	ck_assert_ptr_nonnull(strstr(m.buf, "<td class=\"n\">70.00%</td>"));
	ck_assert_ptr_nonnull(strstr(m.buf, "<span class=\"kind k\"></span>"
					    "<a class=\"fn-link\" href=\"#fg-0\">&lt;script"));
	/* every function row links to the event's flamegraph (report.js zooms
	 * it): 2 self rows (work, hostile), 3 total rows (main, work, hostile;
	 * process frames are not functions) */
	ck_assert_uint_eq(count_str(m.buf, "<div class=\"fg\" id=\"fg-0\">"), 1);
	ck_assert_uint_eq(count_str(m.buf, "<a class=\"fn-link\" href=\"#fg-0\">"), 5);
	ck_assert_ptr_nonnull(strstr(m.buf, "fg.zoomTo(a.textContent, kind)"));
	/* one sample source: no split, no caveat */
	ck_assert_ptr_null(strstr(m.buf, "samples by source"));
	ck_assert_ptr_null(strstr(m.buf, "IRQ-disabled"));
	/* accounting: lost with its share, period */
	ck_assert_ptr_nonnull(strstr(m.buf, "2 (16.67% of samples taken)"));
	ck_assert_ptr_nonnull(strstr(m.buf, "1,000 cycles"));
	/* page sizes present, with the escaped top symbol */
	ck_assert_ptr_nonnull(strstr(m.buf, "data-page=\"4K\" data-pct=\"50.00\""));
	ck_assert_ptr_nonnull(strstr(m.buf, "walk&lt;&amp;&gt;\\x01"));
	/* no network: no external references of any kind */
	ck_assert_ptr_null(strstr(m.buf, "src="));
	ck_assert_ptr_null(strstr(m.buf, "href=\"http"));
	ck_assert_ptr_null(strstr(m.buf, "url("));
	free(m.buf);
	pc_report__free(&rep);
	pc_set__free(&s);
}
END_TEST

/* An event fed by two sources (cpu-clock: NMI-IPI samples, timer samples on
 * the sending CPU) shows the split and the caveat that report.txt prints;
 * two sources without the timer show the split only. */
START_TEST(test_html_source_split)
{
	struct pc_set s;
	struct pc_report_event rep;
	struct mem m = {0};
	FILE *f;

	html_set(&s, &rep);
	s.ev[0]->acct.by_source[PMUPROF_SOURCE_NMI_IPI] = 7;
	s.ev[0]->acct.by_source[PMUPROF_SOURCE_TIMER] = 3;
	struct html_input in = {.title = "rec.pmu", .set = &s, .reports = &rep};
	f = mem_open(&m);
	ck_assert_int_eq(render_html(f, &in), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(m.buf,
				     "<p class=\"sources\">cycles samples by source: "
				     "NMI-IPI timer 7 (70.0 %), timer interrupt 3 (30.0 %)</p>"));
	ck_assert_ptr_nonnull(strstr(m.buf, "cannot land in IRQ-disabled code"));
	/* in the accounting section, before the first event's section */
	ck_assert(strstr(m.buf, "samples by source") < strstr(m.buf, "<section class=\"event\""));
	free(m.buf);

	memset(&m, 0, sizeof(m));
	s.ev[0]->acct.by_source[PMUPROF_SOURCE_TIMER] = 0;
	s.ev[0]->acct.by_source[PMUPROF_SOURCE_PMU] = 3;
	f = mem_open(&m);
	ck_assert_int_eq(render_html(f, &in), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(m.buf, "samples by source: PMU overflow 3 (30.0 %), "
					    "NMI-IPI timer 7 (70.0 %)</p>"));
	ck_assert_ptr_null(strstr(m.buf, "IRQ-disabled"));
	free(m.buf);
	pc_report__free(&rep);
	pc_set__free(&s);
}
END_TEST

START_TEST(test_hostile_svg)
{
	struct tprof t;
	struct render_opts o;
	struct mem m = {0};
	char path[128];

	tp_init(&t, "ev<il>\"&");
	snprintf(path, sizeof(path), "main;%s", hostile);
	tp_stack(&t, path, 5, 50);
	tp_stack(&t, "main;x", 5, 50);
	o = ropts(&t.p);
	o.subtitle = "sub <b>&";
	m.buf = svg_of(&t.p, &o);
	ck_assert(!has_raw_controls(m.buf, m.len));
	ck_assert_uint_eq(count_str(m.buf, "<script"), 1);
	ck_assert_uint_eq(count_str(m.buf, "]]>"), 2); /* our style and script CDATA ends */
	ck_assert_ptr_nonnull(strstr(m.buf,
				     "<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"
				     "&amp;&#39;\\x01\\x1B]]&gt;\\xFF\n"));
	ck_assert_ptr_nonnull(strstr(m.buf, "ev&lt;il&gt;&quot;&amp;"));
	ck_assert_ptr_nonnull(strstr(m.buf, "sub &lt;b&gt;&amp;"));
	ck_assert_ptr_null(strstr(m.buf, "\xff"));
	free(m.buf);
	tp_free(&t);
}
END_TEST

/* ---- size and speed ------------------------------------------------------------ */

/* 100k unique stacks, 32 deep, over a 3-level fan-out with skewed weights. */
static void big_profile(struct tprof *t)
{
	char path[1024];
	uint32_t seed = 12345;

	tp_init(t, "cycles");
	for (int i = 0; i < 100000; i++) {
		int n = snprintf(path, sizeof(path), "proc%d;main", i % 4);
		for (int d = 0; d < 30; d++) {
			seed = seed * 1103515245u + 12345u;
			/* the first levels branch little, deeper ones a lot */
			int fan = d < 3 ? 4 : d < 8 ? 16 : 64;
			n += snprintf(path + n, sizeof(path) - (size_t)n, ";f%d_%u", d,
				      (seed >> 16) % (uint32_t)fan);
		}
		seed = seed * 1103515245u + 12345u;
		tp_stack(t, path, 1 + (seed >> 16) % 50, 1000 * (1 + (seed >> 16) % 50));
	}
}

START_TEST(test_big_profile_bounded)
{
	struct tprof t;
	struct render_opts o;
	struct mem m = {0};
	clock_t c0, c1;

	big_profile(&t);
	o = ropts(&t.p);
	c0 = clock();
	m.buf = svg_of(&t.p, &o);
	c1 = clock();
	double secs = (double)(c1 - c0) / CLOCKS_PER_SEC;
	double frames = attr_num(m.buf, "data-frames"), elided = attr_num(m.buf, "data-elided");
	fprintf(stderr,
		"test_render: 100k stacks: %.2f s CPU, %zu bytes, %.0f frames drawn, %.0f "
		"elided\n",
		secs, m.len, frames, elided);
	/* CPU time, not wall time; generous against a 2-core CI box */
	ck_assert_msg(secs < 4.0, "rendering 100k stacks took %.2f s", secs);
	ck_assert_msg(elided > 0, "tiny frames must be elided");
	/* each drawn frame is at least 0.1 px wide, so a row holds at most
	 * 11800 of them; the file is bounded by rows x width, not stacks */
	ck_assert(frames <= 32.0 * 11800.0);
	ck_assert_msg(m.len < 40u * 1024 * 1024, "output %zu bytes", m.len);
	free(m.buf);
	tp_free(&t);
}
END_TEST

/* ---- --emit: files for the xmllint suite ----------------------------------------- */

static int emit(const char *dir)
{
	struct tprof t, b;
	struct render_opts o;
	struct pc_set s;
	struct pc_report_event rep;
	struct pagesize_summary ps;
	struct ps_event e;
	char path[4096], stack[256];
	FILE *f;
	int err = 0;

	mkdir(dir, 0777);
	tp_init(&t, "cycles<\x01>");
	snprintf(stack, sizeof(stack), "main;k:%s", hostile);
	tp_stack(&t, stack, 4, 40);
	tp_stack(&t, "main;ok", 6, 60);
	tp_init(&b, "cycles<\x01>");
	tp_stack(&b, stack, 8, 80);
	tp_stack(&b, "main;ok", 2, 20);
	o = ropts(&t.p);
	o.subtitle = "period <10> & \x02 cycles";
	snprintf(path, sizeof(path), "%s/hostile.svg", dir);
	if (!(f = fopen(path, "w")))
		return 1;
	err |= render_flamegraph_svg(f, &t.p, &o);
	err |= fclose(f);
	snprintf(path, sizeof(path), "%s/hostile_diff.svg", dir);
	if (!(f = fopen(path, "w")))
		return 1;
	err |= render_diff_flamegraph_svg(f, &b.p, &t.p, &o);
	err |= fclose(f);
	html_set(&s, &rep);
	ps_fill(&ps, &e);
	struct html_input in = {
		.title = hostile, .set = &s, .reports = &rep, .top = 10, .pagesize = &ps};
	snprintf(path, sizeof(path), "%s/hostile.html", dir);
	if (!(f = fopen(path, "w")))
		return 1;
	err |= render_html(f, &in);
	err |= fclose(f);
	snprintf(path, sizeof(path), "%s/pagesize.svg", dir);
	if (!(f = fopen(path, "w")))
		return 1;
	err |= render_pagesize_svg(f, &ps);
	err |= fclose(f);
	pc_report__free(&rep);
	pc_set__free(&s);
	tp_free(&t);
	tp_free(&b);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--emit")) {
		emitting = 1;
		return emit(argv[2]);
	}

	Suite *s = suite_create("render");
	TCase *tc = pp_tcase(s, "escape", NULL, NULL,
			     PP_TESTS(test_escape_buf_truncates, test_labels, test_numbers,
				      test_round_like_libm, test_colors, test_script_embeddable));
	tcase_add_loop_test(tc, test_escape_table, 0,
			    (int)(sizeof(esc_cases) / sizeof(esc_cases[0])));
	pp_tcase(s, "flamegraph", NULL, NULL,
		 PP_TESTS(test_tree_merge, test_svg_frames_and_percentages, test_by_samples,
			  test_determinism, test_elision, test_empty_profile, test_hostile_svg));
	pp_tcase(s, "diff", NULL, NULL, PP_TESTS(test_diff_colours));
	pp_tcase(s, "pagesize_html", NULL, NULL,
		 PP_TESTS(test_pagesize_chart, test_html_page, test_html_source_split));
	tc = pp_tcase(s, "scale", NULL, NULL, PP_TESTS(test_big_profile_bounded));
	tcase_set_timeout(tc, 60);

	return pp_check_run(s);
}
