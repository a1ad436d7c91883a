// SPDX-License-Identifier: MIT
/*
 * pmuconv unit tests. Parsers and encoders are tested from tables that give
 * the source line, the input and the expected output (or expected skip
 * count); symbol lookup runs on ELF files built here with gcc/objcopy.
 */
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/pmuconv/atomicfile.h"
#include "host/pmuconv/demangle.h"
#include "host/pmuconv/folded.h"
#include "host/pmuconv/input.h"
#include "host/pmuconv/inputs.h"
#include "host/pmuconv/msort.h"
#include "host/pmuconv/pcagg.h"
#include "host/pmuconv/report.h"
#include "host/pmuconv/symbolize.h"
#include "host/pmuconv/unwind.h"
#include "lib/pmufile/cpu_sse42.h"
#include "lib/pmufile/pmufile.h"
#include "check_main.h"
#include "one_event_writer.h"
#include "tmpdir.h"

/* ---- escaping --------------------------------------------------------- */

static const struct {
	int line;
	const char *in, *out;
} esc_cases[] = {
	{__LINE__, "plain", "plain"},
	{__LINE__, "a;b", "a:b"},
	{__LINE__, ";;", "::"},
	{__LINE__, "tab\there", "tab?here"},
	{__LINE__, "nl\nx\r", "nl?x?"},
	{__LINE__, "del\x7f", "del?"},
	{__LINE__, "std::map<int, int>::find", "std::map<int, int>::find"},
	{__LINE__, "utf8 \xc3\xa9", "utf8 \xc3\xa9"},
};

START_TEST(test_escape)
{
	char buf[64];
	size_t n = pc_escape_name(buf, esc_cases[_i].in, strlen(esc_cases[_i].in));

	buf[n] = 0;
	ck_assert_msg(!strcmp(buf, esc_cases[_i].out), "line %d: got '%s'", esc_cases[_i].line,
		      buf);
}
END_TEST

START_TEST(test_intern)
{
	struct pc_strtab t = {0};
	int64_t a = pc_strtab__intern(&t, "foo", 3, PC_FRAME_USER);
	int64_t b = pc_strtab__intern(&t, "foobar", 3, PC_FRAME_USER);
	int64_t c = pc_strtab__intern(&t, "foo", 3, PC_FRAME_KERNEL);
	int64_t d = pc_strtab__intern(&t, "x;y", 3, PC_FRAME_USER);
	int64_t e = pc_strtab__intern(&t, "x:y", 3, PC_FRAME_USER);

	ck_assert_int_ge(a, 0);
	ck_assert_int_eq(a, b);
	ck_assert_int_ne(a, c);
	ck_assert_int_eq(d, e); /* escaping happens before interning */
	ck_assert_str_eq(t.names[d].name, "x:y");
	/* many names: rehash keeps ids stable */
	for (int i = 0; i < 5000; i++) {
		char nm[32];
		int l = snprintf(nm, sizeof(nm), "fn%d", i);
		ck_assert_int_eq(pc_strtab__intern(&t, nm, (size_t)l, 0),
				 i + 3 /* after foo, foo[k], x:y */);
	}
	ck_assert_int_eq(pc_strtab__intern(&t, "foo", 3, PC_FRAME_USER), a);
	pc_strtab__free(&t);
}
END_TEST

/* Names are found again by the caller's pointer (pc_strtab.recent): a
 * buffer reused for other bytes, kinds or an escaped name must still
 * get the right ids. */
START_TEST(test_intern_reused_buffer)
{
	struct pc_strtab t = {0};
	char buf[16];

	memcpy(buf, "alpha", 6);
	int64_t a = pc_strtab__intern(&t, buf, 5, PC_FRAME_USER);
	ck_assert_int_eq(pc_strtab__intern(&t, buf, 5, PC_FRAME_USER), a);
	memcpy(buf, "bravo", 6); /* same pointer and length, other bytes */
	int64_t b = pc_strtab__intern(&t, buf, 5, PC_FRAME_USER);
	ck_assert_int_ne(a, b);
	ck_assert_str_eq(t.names[b].name, "bravo");
	ck_assert_int_ne(pc_strtab__intern(&t, buf, 5, PC_FRAME_KERNEL), b);
	ck_assert_int_eq(pc_strtab__intern(&t, buf, 4, PC_FRAME_USER),
			 pc_strtab__intern(&t, "brav", 4, PC_FRAME_USER));
	memcpy(buf, "x;y", 4); /* stored escaped: never the same bytes */
	int64_t e = pc_strtab__intern(&t, buf, 3, PC_FRAME_USER);
	ck_assert_int_eq(pc_strtab__intern(&t, buf, 3, PC_FRAME_USER), e);
	ck_assert_str_eq(t.names[e].name, "x:y");
	memcpy(buf, "x:y", 4);
	ck_assert_int_eq(pc_strtab__intern(&t, buf, 3, PC_FRAME_USER), e);
	memcpy(buf, "alpha", 6);
	ck_assert_int_eq(pc_strtab__intern(&t, buf, 5, PC_FRAME_USER), a);
	pc_strtab__free(&t);
}
END_TEST

/* msort.h: the same order as glibc's qsort (a stable merge sort) on
 * random, sorted, reversed and duplicate-heavy input, equal keys kept in
 * input order (the converter's outputs depend on both). */
struct ms_el {
	uint32_t key, seq;
};
static int ms_cmp(const void *pa, const void *pb)
{
	const struct ms_el *a = pa, *b = pb;

	return a->key < b->key ? -1 : a->key > b->key;
}
PC_DEFINE_MSORT(ms_sort, struct ms_el, ms_cmp)

START_TEST(test_msort_stable)
{
	static const size_t sizes[] = {0, 1, 2, 7, 8, 9, 16, 17, 100, 1000, 4099};
	struct ms_el *v = malloc(4099 * sizeof(*v)), *w = malloc(4099 * sizeof(*w));
	uint32_t x = 12345;

	ck_assert(v && w);
	for (size_t si = 0; si < PC_ARRAY_SIZE(sizes); si++)
		for (int kind = 0; kind < 4; kind++) {
			size_t n = sizes[si];

			for (size_t i = 0; i < n; i++) {
				x = x * 1103515245u + 12345u;
				v[i].key = kind == 0   ? (x >> 16) % 64 /* many equal keys */
					   : kind == 1 ? (uint32_t)i
					   : kind == 2 ? (uint32_t)(n - i)
						       : x >> 8;
				v[i].seq = (uint32_t)i;
			}
			memcpy(w, v, n * sizeof(*v));
			ms_sort(v, n);
			for (size_t i = 1; i < n; i++) {
				ck_assert_uint_le(v[i - 1].key, v[i].key);
				if (v[i - 1].key == v[i].key)
					ck_assert_uint_lt(v[i - 1].seq, v[i].seq);
			}
			if (n)
				qsort(w, n, sizeof(*w), ms_cmp);
			ck_assert_int_eq(memcmp(v, w, n * sizeof(*v)), 0);
		}
	free(v);
	free(w);
}
END_TEST

/* folded_write builds lines in 64 KiB chunks: lines across chunk ends,
 * a name longer than half a chunk (written straight through), kernel
 * marks, zero counts and UINT64_MAX, against the line-by-line fprintf
 * reference. */
START_TEST(test_folded_chunks)
{
	static char longname[40001];
	struct pc_name names[3] = {{.name = "main", .kind = PC_FRAME_USER},
				   {.name = longname, .kind = PC_FRAME_USER},
				   {.name = "do_syscall_64", .kind = PC_FRAME_KERNEL}};
	uint32_t fr[5] = {0, 2, 0, 1, 2};
	struct pc_stack st[400];
	struct pc_profile p = {.names = names, .nr_names = 3, .stacks = st, .nr_stacks = 400};
	char *got = NULL, *want = NULL;
	size_t gl = 0, wl = 0;

	memset(longname, 'x', sizeof(longname) - 1);
	for (size_t i = 0; i < 400; i++) {
		st[i].nr = (uint32_t)(i % 6); /* 0..5 frames: fr's prefixes */
		st[i].frames = fr;
		st[i].samples = i;
		st[i].weight = i == 7 ? UINT64_MAX : i * 1000003u;
	}
	for (int annotate = 0; annotate < 2; annotate++)
		for (int by_samples = 0; by_samples < 2; by_samples++) {
			FILE *f = open_memstream(&got, &gl), *r = open_memstream(&want, &wl);

			ck_assert_int_eq(folded_write(f, &p, annotate, by_samples), 0);
			for (size_t i = 0; i < 400; i++) {
				uint64_t n = by_samples ? st[i].samples : st[i].weight;
				if (!n)
					continue;
				for (uint32_t k = 0; k < st[i].nr; k++)
					fprintf(r, "%s%s%s", k ? ";" : "", names[fr[k]].name,
						annotate && names[fr[k]].kind == PC_FRAME_KERNEL
							? "_[k]"
							: "");
				fprintf(r, " %llu\n", (unsigned long long)n);
			}
			fclose(f);
			fclose(r);
			ck_assert_uint_gt(gl, 3 * 65536);
			ck_assert_uint_eq(gl, wl);
			ck_assert(!memcmp(got, want, gl));
			free(got);
			free(want);
		}
}
END_TEST

START_TEST(test_agg_merge_sort)
{
	struct pc_agg *a = calloc(1, sizeof(*a));
	uint32_t s1[] = {0, 1, 2}, s2[] = {0, 1}, s3[] = {0, 2};

	pc_strtab__intern(&a->names, "root", 4, PC_FRAME_PROCESS);
	pc_strtab__intern(&a->names, "b", 1, PC_FRAME_USER);
	pc_strtab__intern(&a->names, "a", 1, PC_FRAME_USER);
	ck_assert_int_eq(pc_agg__add(a, s1, 3, 1, 10), 0);
	ck_assert_int_eq(pc_agg__add(a, s2, 2, 1, 20), 0);
	ck_assert_int_eq(pc_agg__add(a, s1, 3, 2, 30), 0);
	ck_assert_int_eq(pc_agg__add(a, s3, 2, 1, 5), 0);
	ck_assert_int_eq(pc_agg__finish(a), 0);
	ck_assert_uint_eq(a->prof.nr_stacks, 3);
	ck_assert_uint_eq(a->prof.total_samples, 5);
	ck_assert_uint_eq(a->prof.total_weight, 65);
	/* sorted by folded text: root;a  <  root;b  <  root;b;a */
	ck_assert_uint_eq(a->prof.stacks[0].nr, 2);
	ck_assert_uint_eq(a->prof.stacks[0].frames[1], 2);
	ck_assert_uint_eq(a->prof.stacks[1].weight, 20);
	ck_assert_uint_eq(a->prof.stacks[2].samples, 3);
	ck_assert_uint_eq(a->prof.stacks[2].weight, 40);
	pc_agg__free(a);
}
END_TEST

/* ---- parsers ---------------------------------------------------------- */

/* Render every event of a set as "[event unit]\n" + folded (annotated,
 * weights) + "skipped=N filtered=M\n". */
static char *render_set(struct pc_set *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (size_t i = 0; i < s->nr; i++) {
		fprintf(f, "[%s %s]\n", s->ev[i]->prof.event, s->ev[i]->prof.unit);
		folded_write(f, &s->ev[i]->prof, 1, 0);
	}
	fprintf(f, "skipped=%llu filtered=%llu\n", (unsigned long long)s->acct.skipped,
		(unsigned long long)s->acct.filtered);
	fclose(f);
	return buf;
}

static char *parse_with(int fmt, const char *in, const struct pc_filter *flt)
{
	struct pc_set s = {0};
	struct pc_filter f = {0};
	struct pc_stream st;
	int r;

	if (flt)
		f = *flt;
	pc_set__stream(&s, &f, &st);
	if (fmt == PC_FMT_PERFSCRIPT)
		r = input_perfscript_parse(&s, in, strlen(in), &f, &st);
	else if (fmt == PC_FMT_STAP)
		r = input_stap_parse(&s, in, strlen(in), &f, &st);
	else
		r = input_folded_parse(&s, in, strlen(in), &f, &st);
	ck_assert_int_eq(r, 0);
	ck_assert_int_eq(pc_set__finish(&s), 0);
	char *out = render_set(&s);
	pc_set__free(&s);
	return out;
}

static const struct parse_case {
	int line;
	int fmt;
	struct pc_filter f;
	const char *in, *want;
} parse_cases[] = {
	/* perf script with callchains, kernel + user, two events */
	{__LINE__,
	 PC_FMT_PERFSCRIPT,
	 {0},
	 "prog 10/11 [001] 5.000100: 2000 cycles:u: \n"
	 "\tffffffff81001000 native_write_msr+0x6 ([kernel.kallsyms])\n"
	 "\tffffffffc0102000 xfs_read+0x10 ([xfs])\n"
	 "\t55d0c0de1234 leaf+0x1a (/usr/bin/prog)\n"
	 "\t55d0c0de0000 main+0x2a (/usr/bin/prog)\n"
	 "\n"
	 "prog 10/11 [000] 5.000200: 3000 instructions: \n"
	 "\t55d0c0de0000 main+0x2a (/usr/bin/prog)\n"
	 "\n",
	 "[cycles:u events]\nprog;main;leaf;xfs_read [xfs]_[k];native_write_msr_[k] 2000\n"
	 "[instructions events]\nprog;main 3000\nskipped=0 filtered=0\n"},
	/* no callchain: frame on the header line, comm right-aligned with spaces */
	{__LINE__,
	 PC_FMT_PERFSCRIPT,
	 {0},
	 "     Web Content  4242 [003]  1.5:     250000 cpu-clock:  7f00001234 js::Run+0x5 "
	 "(/usr/lib/libxul.so)\n"
	 "     Web Content  4242 [003]  1.6:     250000 cpu-clock:  7f00001234 js::Run+0x9 "
	 "(/usr/lib/libxul.so)\n",
	 "[cpu-clock ns]\nWeb Content;js::Run 500000\nskipped=0 filtered=0\n"},
	/* unknown symbols, ';' in a name, C++ with spaces, no period field */
	{__LINE__,
	 PC_FMT_PERFSCRIPT,
	 {0},
	 "a.out 7 12.0: cycles: \n"
	 "\t401000 [unknown] (/tmp/a.out)\n"
	 "\t401100 std::vector<int, std::allocator<int> >::at+0x1 (/tmp/a.out)\n"
	 "\t401200 we;ird (/tmp/a.out)\n\n",
	 "[cycles samples]\na.out;we:ird;std::vector<int, std::allocator<int> >::at;[unknown] 1\n"
	 "skipped=0 filtered=0\n"},
	/* filters: pid and cpu; garbage line is counted, not fatal */
	{__LINE__,
	 PC_FMT_PERFSCRIPT,
	 {.has_pid = true, .pid = 10},
	 "p 10 [0] 1.0: 5 ev: \n\t1 f (x)\n\n"
	 "q 11 [0] 1.0: 5 ev: \n\t1 g (x)\n\n"
	 "this is garbage\n",
	 "[ev events]\np;f 5\nskipped=1 filtered=1\n"},
	{__LINE__,
	 PC_FMT_PERFSCRIPT,
	 {.mode = PC_MODE_KERNEL_ONLY},
	 "p 1 1.0: 7 ev: \n\tffffffff81000000 kf+0x1 ([kernel.kallsyms])\n\t400000 uf (x)\n\n"
	 "p 1 1.0: 7 ev: \n\t400000 uf (x)\n\n",
	 "[ev events]\np;kf_[k] 7\nskipped=0 filtered=1\n"},
	{__LINE__,
	 PC_FMT_PERFSCRIPT,
	 {.weight = PC_WEIGHT_SAMPLES, .no_process = true},
	 "p 1 1.0: 7 ev: \n\t400000 uf (x)\n\np 1 1.0: 9 ev: \n\t400000 uf (x)\n\n",
	 "[ev samples]\nuf 2\nskipped=0 filtered=0\n"},
	/* stap multi-line with counts */
	{__LINE__,
	 PC_FMT_STAP,
	 {0},
	 " 0xffffffff8103ce3b : native_safe_halt+0xb/0x10 [kernel]\n"
	 " 0xffffffff8101c6a3 : default_idle+0x53/0x1d0 [kernel]\n"
	 " 0x00000000004005d4 : main+0x14/0x20 [/usr/bin/prog]\n"
	 " 12\n\n"
	 " 0xffffffffc0001000 : ext4_sync+0x1/0x9 [ext4]\n"
	 " 0x00007f0000001234 [/usr/lib/libc.so.6+0x1234]\n"
	 " 3\n",
	 "[stap samples]\nlibc.so.6+0x1234;ext4_sync [ext4]_[k] 3\n"
	 "main;default_idle_[k];native_safe_halt_[k] 12\nskipped=0 filtered=0\n"},
	/* stap '!'-separated one-line stacks */
	{__LINE__,
	 PC_FMT_STAP,
	 {0},
	 "leaf+0x1/0x2 [/bin/x]!mid+0x3/0x4 [/bin/x]!main+0x5/0x6 [/bin/x]\t7\n"
	 "leaf+0x1/0x2 [/bin/x]!mid+0x3/0x4 [/bin/x]!main+0x5/0x6 [/bin/x] 2\n"
	 "a!b\n5\n",
	 "[stap samples]\nb;a 5\nmain;mid;leaf 9\nskipped=0 filtered=0\n"},
	{__LINE__, PC_FMT_STAP, {0}, "42\nnoise line\n", "[stap samples]\nskipped=2 filtered=0\n"},
	/* folded round trip with kernel annotation */
	{__LINE__,
	 PC_FMT_FOLDED,
	 {0},
	 "a;b;c_[k] 5\na;b 3\n# comment\nbad line\na;b 1\n",
	 "[folded samples]\na;b 4\na;b;c_[k] 5\nskipped=1 filtered=0\n"},
	{__LINE__,
	 PC_FMT_FOLDED,
	 {.mode = PC_MODE_USER_ONLY},
	 "a;k_[k] 5\nx_[k] 2\n",
	 "[folded samples]\na 5\nskipped=0 filtered=2\n"},
};

START_TEST(test_parse)
{
	const struct parse_case *c = &parse_cases[_i];
	char *out = parse_with(c->fmt, c->in, &c->f);

	ck_assert_msg(!strcmp(out, c->want), "line %d:\n--- got\n%s--- want\n%s", c->line, out,
		      c->want);
	free(out);
}
END_TEST

/* Hostile inputs must not crash and must stay bounded. */
START_TEST(test_parse_hostile)
{
	size_t n = 200000;
	char *deep = malloc(n * 4 + 16);
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += (size_t)sprintf(deep + k, "f%zu;", i % 7);
	sprintf(deep + k - 1, " 1\n");
	char *out = parse_with(PC_FMT_FOLDED, deep, NULL);
	ck_assert_ptr_nonnull(strstr(out, " 1\n"));
	free(out);
	/* huge counts do not overflow into nonsense */
	out = parse_with(PC_FMT_FOLDED, "a 99999999999999999999999\n", NULL);
	ck_assert_ptr_nonnull(strstr(out, "skipped=1"));
	free(out);
	out = parse_with(PC_FMT_PERFSCRIPT, "\t\t\n\t1 f (x\n(((\n", NULL);
	free(out);
	free(deep);
}
END_TEST

static const struct {
	int line;
	const char *in;
	int want;
} detect_cases[] = {
	{__LINE__, "a;b 1\n", PC_FMT_FOLDED},
	{__LINE__, "main 5\n", PC_FMT_FOLDED},
	{__LINE__, "prog 1 [000] 1.0: 1 cycles: \n\t1 f (x)\n", PC_FMT_PERFSCRIPT},
	{__LINE__, "        prog  1  1.0: 1 cpu-clock:  400 f (x)\n", PC_FMT_PERFSCRIPT},
	{__LINE__, " 0xffffffff8103ce3b : native_safe_halt+0xb/0x10 [kernel]\n 1\n", PC_FMT_STAP},
	{__LINE__, "a+0x1/0x2 [k]!b+0x1/0x2 [k]\t3\n", PC_FMT_STAP},
	{__LINE__, "PMUPROF\0\1\2", PC_FMT_PMUPROF},
	{__LINE__, "hello world\n", -EINVAL},
};

START_TEST(test_detect)
{
	char err[256];
	size_t len = detect_cases[_i].want == PC_FMT_PMUPROF ? 10 : strlen(detect_cases[_i].in);
	int r = pc_detect_format(detect_cases[_i].in, len, err, sizeof(err));

	ck_assert_msg(r == detect_cases[_i].want, "line %d: got %d", detect_cases[_i].line, r);
}
END_TEST

/* ---- report ----------------------------------------------------------- */

START_TEST(test_report_self_total)
{
	struct pc_set s = {0};
	struct pc_filter f = {0};
	struct pc_report_event r;
	/* recursion: a;b;a counts a's total once */
	const char *in = "a;b;a 6\na;c 4\n";
	struct pc_stream out;

	pc_set__stream(&s, &f, &out);
	ck_assert_int_eq(input_folded_parse(&s, in, strlen(in), &f, &out), 0);
	ck_assert_int_eq(pc_set__finish(&s), 0);
	ck_assert_int_eq(pc_report__build(&r, s.ev[0]), 0);
	ck_assert_uint_eq(r.nr_funcs, 3);
	ck_assert_str_eq(r.funcs[0].name, "a"); /* self 6 */
	ck_assert_uint_eq(r.funcs[0].self_weight, 6);
	ck_assert_uint_eq(r.funcs[0].total_weight, 10);
	ck_assert_str_eq(r.funcs[1].name, "c");
	ck_assert_str_eq(r.by_total[0]->name, "a");
	ck_assert_str_eq(r.by_total[1]->name, "b");
	ck_assert_uint_eq(r.by_total[1]->total_weight, 6);
	ck_assert_uint_eq(r.by_total[1]->self_weight, 0);
	pc_report__free(&r);
	pc_set__free(&s);
}
END_TEST

/* ---- native input: the raw stack table -------------------------------- */

/* P: the CRC-32C polynomial with its x^32 term, in the bit order of the
 * crc32 instruction. Frame words that differ by a multiple of it (an XOR of
 * shifted copies) leave every crc32 lane, so the hardware stack hash,
 * unchanged: a collision anyone can build, which the table must resolve by
 * comparing the whole stack. */
#define CRC32C_P 0x105ec76f1ull

static const uint64_t coll_x[4] = {0, CRC32C_P, CRC32C_P << 1, CRC32C_P ^ (CRC32C_P << 1)};

START_TEST(test_stack_hash)
{
	pc_stack_hash_fn fns[2] = {pc_stack_hash_soft, pc_stack_hash_select()};
	uint64_t key[PC_STACK_KEY_WORDS] = {7 | 1ull << 32, 3 | 2ull << 16, 0x636f7270, 0};
	uint64_t w[40], h0, h;
	uint32_t seed = 1;

	for (size_t i = 0; i < PC_ARRAY_SIZE(w); i++) {
		seed = seed * 1103515245u + 12345u;
		w[i] = 0xffffffff81000000ull + (seed >> 4);
	}
	for (int f = 0; f < 2; f++) {
		for (size_t n = 0; n <= PC_ARRAY_SIZE(w); n++) {
			h0 = fns[f](key, w, n);
			ck_assert_uint_eq(fns[f](key, w, n), h0); /* a function of its input */
			if (n)					  /* one more or one less word */
				ck_assert_uint_ne(fns[f](key, w, n - 1), h0);
			/* every bit of every word and key word counts (a single
			 * flipped bit changes one lane's CRC, or one multiply input) */
			for (size_t i = 0; i < n; i++)
				for (int b = 0; b < 64; b += 7) {
					w[i] ^= 1ull << b;
					h = fns[f](key, w, n);
					w[i] ^= 1ull << b;
					ck_assert_msg(h != h0, "fn %d n %zu word %zu bit %d", f, n,
						      i, b);
				}
			for (int i = 0; i < PC_STACK_KEY_WORDS; i++) {
				key[i] ^= 1ull << (i * 13 % 64);
				h = fns[f](key, w, n);
				key[i] ^= 1ull << (i * 13 % 64);
				ck_assert_uint_ne(h, h0);
			}
		}
	}
	/* low bits index the table: 4096 stacks that differ only in their
	 * last frame by 16 bytes spread over 4096 buckets */
	for (int f = 0; f < 2; f++) {
		static uint16_t bucket[4096];
		uint16_t most = 0;

		memset(bucket, 0, sizeof(bucket));
		for (uint64_t i = 0; i < 4096; i++) {
			w[31] = 0x400000 + 16 * i;
			uint16_t c = ++bucket[fns[f](key, w, 32) & 4095];
			most = c > most ? c : most;
		}
		ck_assert_msg(most <= 12, "fn %d: %u stacks in one bucket", f, most);
	}
#if defined(__x86_64__)
	/* PMUCONV_HASH_SOFT forces the portable hash; SSE4.2 selects the other */
	setenv("PMUCONV_HASH_SOFT", "1", 1);
	ck_assert(pc_stack_hash_select() == pc_stack_hash_soft);
	unsetenv("PMUCONV_HASH_SOFT");
	__builtin_cpu_init();
	/* glibc's feature bits (cpu_sse42.h) agree with libgcc's CPUID */
	ck_assert_int_eq(pmuprof_cpu_sse42(), __builtin_cpu_supports("sse4.2") != 0);
	if (__builtin_cpu_supports("sse4.2")) {
		ck_assert(pc_stack_hash_select() != pc_stack_hash_soft);
		/* the colliding frames of coll_x collide in the hardware hash only */
		uint64_t s0;

		w[0] = 0x7f0000000000ull;
		h0 = fns[1](key, w, 2);
		s0 = fns[0](key, w, 2);
		for (int i = 1; i < 4; i++) {
			w[0] = 0x7f0000000000ull ^ coll_x[i];
			ck_assert_uint_eq(fns[1](key, w, 2), h0);
			ck_assert_uint_ne(fns[0](key, w, 2), s0);
		}
	}
#endif
}
END_TEST

static size_t put_user_sample(uint8_t *buf, uint32_t pid, const char *comm, uint64_t t,
			      const uint64_t *u, uint16_t nu)
{
	struct pmuprof_sample *s = (struct pmuprof_sample *)buf;

	memset(s, 0, sizeof(*s));
	s->hdr.type = PMUPROF_REC_SAMPLE;
	s->hdr.misc = PMUPROF_MISC_USER;
	s->hdr.size = (uint32_t)(sizeof(*s) + nu * sizeof(uint64_t));
	s->time_ns = t;
	s->ip = u[0];
	s->period = 1000;
	s->pid = s->tid = pid;
	s->nr_ustack = nu;
	snprintf(s->comm, sizeof(s->comm), "%s", comm);
	memcpy(s + 1, u, nu * sizeof(uint64_t));
	return s->hdr.size;
}

/* Four stacks with one hardware hash (coll_x) and 1, 2, 3, 4 samples, read
 * with each stack hash: four lines with those counts either way. */
START_TEST(test_native_stack_collisions)
{
	char dir[] = "/tmp/test_pmuconv.XXXXXX", path[64], err[512];
	struct pmufile_process proc = {0};
	struct pmufile_mmap mm = {0};
	struct pmufile_writer *w;
	uint8_t buf[4096];
	size_t len = 0;
	uint64_t t = 100;
	static const char want[] = "[cycles samples]\n"
				   "proc;libx.so+0x1000;libx.so+0x0 1\n"
				   "proc;libx.so+0x1000;libx.so+0x105ec76f1 2\n"
				   "proc;libx.so+0x1000;libx.so+0x20bd8ede2 3\n"
				   "proc;libx.so+0x1000;libx.so+0x30e349b13 4\n"
				   "skipped=0 filtered=0\n";

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/c.pmu", dir);
	w = one_event_writer(path, PMUPROF_CF_USTACK, "cycles");
	proc.pid = 7;
	snprintf(proc.comm, sizeof(proc.comm), "proc");
	ck_assert_int_eq(pmufile_writer__process(w, &proc), 0);
	mm.pid = 7;
	mm.start = 0x7f0000000000ull;
	mm.end = 0x7f0400000000ull;
	snprintf(mm.path, sizeof(mm.path), "/nonexistent/libx.so");
	ck_assert_int_eq(pmufile_writer__mmap(w, &mm), 0);
	/* interleaved: stack i gets i + 1 samples */
	for (int round = 0; round < 4; round++)
		for (int i = round; i < 4; i++) {
			uint64_t u[2] = {0x7f0000000000ull ^ coll_x[i], 0x7f0000001000ull};
			len += put_user_sample(buf + len, 7, "proc", t++, u, 2);
		}
	ck_assert_int_eq(pmufile_writer__records(w, buf, len), 0);
	ck_assert_int_eq(pmufile_writer__close(w, 1, t, err, sizeof(err)), 0);

	for (int soft = 0; soft < 2; soft++) {
		struct pc_set set = {0};
		struct pc_load_opts o = {.format = PC_FMT_PMUPROF};

		o.filter.weight = PC_WEIGHT_SAMPLES;
		if (soft)
			setenv("PMUCONV_HASH_SOFT", "1", 1);
		ck_assert_msg(pc_load(&set, path, &o, err, sizeof(err)) == 0, "%s", err);
		unsetenv("PMUCONV_HASH_SOFT");
		char *out = render_set(&set);
		ck_assert_str_eq(out, want);
		free(out);
		pc_set__free(&set);
	}
	unlink(path);
	rmdir(dir);
}
END_TEST

/* ---- symbols ---------------------------------------------------------- */

/* mangled name -> expected demangling (NULL: left as is). The C++ names are
 * what g++ 12 emits; the Rust ones follow rustc's legacy and v0 schemes. */
static const struct {
	const char *in, *want;
} demangle_cases[] = {
	{"_ZN3geo3dotIdEET_RKNS_3VecIS1_EES5_",
	 "double geo::dot<double>(geo::Vec<double> const&, geo::Vec<double> const&)"},
	{"_ZN3geo6detail3AccpLEl", "geo::detail::Acc::operator+=(long)"},
	{"_ZNKSt6vectorIiSaIiEE4sizeEv", "std::vector<int, std::allocator<int> >::size() const"},
	{"_ZN12_GLOBAL__N_113hidden_helperEi", "(anonymous namespace)::hidden_helper(int)"},
	{"_ZN7mycrate5inner4work17h0123456789abcdefE", "mycrate::inner::work"},
	{"_RNvXs_Cs1234_7mycrateAhj4_NtNtCs5678_4core3fmt5Debug3fmt",
	 "<[u8; 4] as core::fmt::Debug>::fmt"},
	{"main", NULL},
	{"_start", NULL},
	{"_Z", NULL},		  /* a prefix alone */
	{"_ZN3geo3dotIdE", NULL}, /* cut short */
	{"", NULL},
};

START_TEST(test_demangle)
{
	char *got = pc_demangle(demangle_cases[_i].in);

	if (demangle_cases[_i].want)
		ck_assert_pstr_eq(got, demangle_cases[_i].want);
	else
		ck_assert_ptr_null(got);
	free(got);
}
END_TEST

START_TEST(test_crc32)
{
	ck_assert_uint_eq(sym_crc32(0, "123456789", 9), 0xcbf43926u);
	ck_assert_uint_eq(sym_crc32(0, "", 0), 0);
}
END_TEST

START_TEST(test_kallsyms)
{
	static const char ks[] = "ffffffff81000000 T _stext\n"
				 "ffffffff81000100 t foo\n"
				 "ffffffff81000200 T bar\n"
				 "ffffffff81000280 D some_data\n"
				 "ffffffffc0001000 t modfn\t[mymod]\n"
				 "garbage line\n";
	struct symbolizer *s = sym__new(NULL);
	struct sym_result r;

	ck_assert_int_eq(sym__load_kallsyms(s, ks, strlen(ks)), 4);
	r = sym__kernel(s, 0xffffffff81000150ull);
	ck_assert_str_eq(r.name, "foo");
	ck_assert_int_eq(r.kind, PC_FRAME_KERNEL);
	ck_assert_str_eq(sym__kernel(s, 0xffffffff81000200ull).name, "bar");
	ck_assert_str_eq(sym__kernel(s, 0xffffffffc0001010ull).name, "modfn [mymod]");
	r = sym__kernel(s, 0xffffffff80000000ull);
	ck_assert_str_eq(r.name, "[unknown]");
	ck_assert_int_eq(r.kind, PC_FRAME_UNKNOWN);
	sym__free(s);

	/* an unprivileged snapshot (all zero) gives no symbols */
	s = sym__new(NULL);
	ck_assert_int_eq(sym__load_kallsyms(s, "0000000000000000 T a\n0000000000000000 t b\n", 42),
			 0);
	ck_assert_str_eq(sym__kernel(s, 0xffffffff81000150ull).name, "[unknown]");
	sym__free(s);
}
END_TEST

static char tmpdir[256];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Build libt.so (with a static function only .symtab knows), its stripped
 * twin with a debuglink, and a build-id debug tree. */
static void build_elves(void)
{
	FILE *f;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_pmuconv.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	char src[512];
	snprintf(src, sizeof(src), "%s/libt.c", tmpdir);
	f = fopen(src, "w");
	ck_assert_ptr_nonnull(f);
	fputs("__attribute__((noinline)) int pc_alpha(int x) { return x * 3 + 1; }\n"
	      "__attribute__((noinline)) static int pc_hidden(int x) { return x - 2 + pc_alpha(x); "
	      "}\n"
	      "int (*pc_hidden_ptr)(int) = pc_hidden;\n",
	      f);
	fclose(f);
	ck_assert_int_eq(sh("cd %s && gcc -shared -fPIC -O1 -g -Wl,--build-id -o libt.so libt.c && "
			    "objcopy --only-keep-debug libt.so libt.debug && "
			    "objcopy --strip-all --add-gnu-debuglink=libt.debug libt.so "
			    "libt_stripped.so && objcopy --strip-all libt.so libt_nodbg.so && "
			    "id=$(readelf -n libt.so | awk '/Build ID/{print $3}') && "
			    "mkdir -p dbg/.build-id/$(echo $id | cut -c1-2) && "
			    "cp libt.debug dbg/.build-id/$(echo $id | cut -c1-2)/$(echo $id | "
			    "cut -c3-).debug && cp libt_nodbg.so libt_bid.so",
			    tmpdir),
			 0);
}

/* File offset of `addr` in its mapping, from /proc/self/maps (the kernel's
 * view, independent of the code under test). */
static uint64_t file_offset(const void *addr, char *path, size_t plen)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	uint64_t a = (uint64_t)(uintptr_t)addr, off = UINT64_MAX;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, pg;
		char p[512] = "";
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %511s", &s, &e, &pg, p) < 3)
			continue;
		if (a >= s && a < e) {
			off = a - s + pg;
			snprintf(path, plen, "%s", p);
			break;
		}
	}
	if (f)
		fclose(f);
	return off;
}

START_TEST(test_elf_symbols)
{
	char lib[512], path[512], p2[512], p3[512], p4[512];
	struct sym_stats st;

	build_elves();
	snprintf(lib, sizeof(lib), "%s/libt.so", tmpdir);
	void *h = dlopen(lib, RTLD_NOW);
	ck_assert_ptr_nonnull(h);
	void *alpha = dlsym(h, "pc_alpha");
	void **hp = dlsym(h, "pc_hidden_ptr");
	ck_assert_ptr_nonnull(alpha);
	ck_assert_ptr_nonnull(hp);
	uint64_t off_a = file_offset(alpha, path, sizeof(path));
	uint64_t off_h = file_offset(*hp, path, sizeof(path));
	ck_assert_uint_ne(off_a, UINT64_MAX);
	ck_assert_str_eq(path, lib);

	struct symbolizer *s = sym__new(NULL);
	ck_assert_str_eq(sym__user(s, lib, NULL, 0, off_a, 0).name, "pc_alpha");
	ck_assert_str_eq(sym__user(s, lib, NULL, 0, off_a + 1, 0).name, "pc_alpha");
	ck_assert_str_eq(sym__user(s, lib, NULL, 0, off_h, 0).name, "pc_hidden");
	/* stripped: the static function only resolves through the debuglink */
	snprintf(p2, sizeof(p2), "%s/libt_stripped.so", tmpdir);
	ck_assert_str_eq(sym__user(s, p2, NULL, 0, off_h, 0).name, "pc_hidden");
	/* stripped without a debug file: .dynsym has pc_alpha, not pc_hidden */
	snprintf(p3, sizeof(p3), "%s/libt_nodbg.so", tmpdir);
	ck_assert_str_eq(sym__user(s, p3, NULL, 0, off_a, 0).name, "pc_alpha");
	struct sym_result r = sym__user(s, p3, NULL, 0, off_h, 0);
	char want[64];
	snprintf(want, sizeof(want), "libt_nodbg.so+0x%llx", (unsigned long long)off_h);
	ck_assert_str_eq(r.name, want);
	ck_assert_int_eq(r.kind, PC_FRAME_UNKNOWN);
	/* a return address just past a function's end belongs to the caller;
	 * an unresolved one is still shown at its own offset */
	ck_assert_str_eq(sym__user(s, lib, NULL, 0, off_a + 1, 1).name, "pc_alpha");
	snprintf(want, sizeof(want), "libt_nodbg.so+0x%llx", (unsigned long long)off_h + 1);
	ck_assert_str_eq(sym__user(s, p3, NULL, 0, off_h + 1, 1).name, want);
	/* missing binary: never dropped */
	ck_assert_str_eq(sym__user(s, "/nonexistent/libz.so", NULL, 0, 0x10, 0).name,
			 "libz.so+0x10");
	/* build-id mismatch: warned and counted, symbols still used */
	uint8_t bogus[20];
	memset(bogus, 0xaa, sizeof(bogus));
	ck_assert_str_eq(sym__user(s, lib, bogus, sizeof(bogus), off_a, 0).name, "pc_alpha");
	sym__stats(s, &st);
	ck_assert_uint_eq(st.build_id_mismatch, 1);
	ck_assert_uint_ge(st.debuglink_used, 1);
	sym__free(s);

	/* /usr/lib/debug/.build-id lookup (debug_dir redirected) */
	struct sym_opts o = {0};
	snprintf(p4, sizeof(p4), "%s/dbg", tmpdir);
	o.debug_dir = p4;
	s = sym__new(&o);
	snprintf(p3, sizeof(p3), "%s/libt_bid.so", tmpdir);
	ck_assert_str_eq(sym__user(s, p3, NULL, 0, off_h, 0).name, "pc_hidden");
	sym__stats(s, &st);
	ck_assert_uint_eq(st.buildid_dir_used, 1);
	sym__free(s);

	/* --symfs: the recorded path is looked up under the root */
	o = (struct sym_opts){.symfs = tmpdir};
	s = sym__new(&o);
	ck_assert_str_eq(sym__user(s, "/libt.so", NULL, 0, off_a, 0).name, "pc_alpha");
	sym__free(s);

	/* --vmlinux: kernel symbols from an ELF .symtab (no kallsyms: no
	 * relocation); the link-time address is runtime - load base */
	Dl_info di;
	ck_assert_int_ne(dladdr(alpha, &di), 0);
	uint64_t link_alpha = (uint64_t)(uintptr_t)alpha - (uint64_t)(uintptr_t)di.dli_fbase;
	o = (struct sym_opts){.vmlinux = lib};
	s = sym__new(&o);
	struct sym_result kr = sym__kernel(s, link_alpha + 1);
	ck_assert_str_eq(kr.name, "pc_alpha");
	ck_assert_int_eq(kr.kind, PC_FRAME_KERNEL);
	sym__free(s);

	dlclose(h);
	sh("rm -rf %s", tmpdir);
}
END_TEST

/* One symbol per address from a table with many symbols sharing each
 * address, in shuffled order (symtab_finish's radix sort by address and
 * choice of the preferred one, through kallsyms): the symbol found at and
 * just after each address is the least by (global 'T' first, then name),
 * compared here with a brute-force reference. */
START_TEST(test_symtab_one_per_addr)
{
	enum { N = 3000, ADDRS = 700 };
	static char text[N * 48];
	static uint64_t addr[N];
	static char name[N][16];
	static int rank[N];
	struct sym_opts so = {.no_demangle = 1};
	struct symbolizer *s = sym__new(&so);
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t len = 0;

	ck_assert_ptr_nonnull(s);
	for (int i = 0; i < N; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		/* addresses across 3 bytes, and one far below (all bytes vary) */
		addr[i] = 0xffffffff81000000ull + (seed >> 33) % ADDRS * 0x1230;
		if (i == 17)
			addr[i] = 0x00ffffffffff0000ull; /* below the others by its top byte only */
		rank[i] = (seed >> 20 & 3) == 0 ? 0 : 1;
		snprintf(name[i], sizeof(name[i]), "f%u_%d", (unsigned)(seed >> 40) % 50, i % 7);
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%016llx %c %s\n",
					(unsigned long long)addr[i], rank[i] ? "tWw"[i % 3] : 'T',
					name[i]);
	}
	int distinct = 0;
	for (int i = 0; i < N; i++) {
		int j = 0;
		while (j < i && addr[j] != addr[i])
			j++;
		distinct += j == i;
	}
	ck_assert_int_eq(sym__load_kallsyms(s, text, len), distinct); /* one per address */
	for (int i = 0; i < N; i++) {
		int best = i;
		uint64_t next = UINT64_MAX;
		for (int j = 0; j < N; j++) {
			if (addr[j] > addr[i] && addr[j] < next)
				next = addr[j];
			if (addr[j] == addr[i] &&
			    (rank[j] < rank[best] ||
			     (rank[j] == rank[best] && strcmp(name[j], name[best]) < 0)))
				best = j;
		}
		ck_assert_str_eq(sym__kernel(s, addr[i]).name, name[best]);
		if (next != UINT64_MAX)
			ck_assert_str_eq(sym__kernel(s, next - 1).name, name[best]);
	}
	ck_assert_str_eq(sym__kernel(s, 0x3fffff).name, "[unknown]");
	sym__free(s);
}
END_TEST

/* sym__binary_loads: the ELF type and PT_LOAD headers the symbolizer read
 * when it opened the binary (the unwinder and the inline lookups take them
 * instead of opening the file again) are the file's own, in header order;
 * a missing binary has none. */
START_TEST(test_binary_loads)
{
	char self[PATH_MAX];
	struct sym_opts so = {0};
	struct symbolizer *sym = sym__new(&so);
	struct sym_load sl[16];
	uint16_t type = 0;
	size_t nr = 99, want = 0;
	int fd;
	Elf *e;
	GElf_Ehdr eh;
	size_t nph;

	ck_assert_ptr_nonnull(sym);
	ck_assert_ptr_nonnull(realpath("/proc/self/exe", self));
	ck_assert(sym__binary_loads(sym, self, NULL, 0, &type, &nr, sl, 16));
	elf_version(EV_CURRENT);
	fd = open(self, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(gelf_getehdr(e, &eh));
	ck_assert_uint_eq(type, eh.e_type);
	ck_assert_int_eq(elf_getphdrnum(e, &nph), 0);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		ck_assert_ptr_nonnull(gelf_getphdr(e, (int)i, &ph));
		if (ph.p_type != PT_LOAD)
			continue;
		ck_assert_uint_lt(want, nr);
		ck_assert_uint_eq(sl[want].off, ph.p_offset);
		ck_assert_uint_eq(sl[want].filesz, ph.p_filesz);
		ck_assert_uint_eq(sl[want].vaddr, ph.p_vaddr);
		ck_assert_uint_eq(sl[want].align, ph.p_align);
		want++;
	}
	ck_assert_uint_gt(want, 1);
	ck_assert_uint_eq(nr, want);
	elf_end(e);
	close(fd);
	/* only max of them copied; nr still says how many */
	memset(sl, 0xee, sizeof(sl));
	ck_assert(sym__binary_loads(sym, self, NULL, 0, &type, &nr, sl, 1));
	ck_assert_uint_eq(nr, want);
	ck_assert_uint_ne(sl[1].off, sl[0].off);
	ck_assert_uint_eq(sl[1].vaddr, 0xeeeeeeeeeeeeeeeeull);
	ck_assert(!sym__binary_loads(sym, "/nonexistent/pmuconv-test/app", NULL, 0, &type, &nr, sl,
				     16));
	sym__free(sym);
}
END_TEST

/* The unwinder where it cannot unwind: a pid without recorded mappings,
 * and one whose only binary is missing. Either the recorded FP walk is
 * used (FP fallback), or the sample keeps its pc and is marked truncated
 * ("no CFI"); out[] is never overrun, whatever max is. */
START_TEST(test_unwind_edges)
{
	uint64_t buf[(sizeof(struct pmuprof_sample) + 3 * 8 + sizeof(struct pmuprof_sample_ustack) +
		      64) / 8 +
		     1];
	struct pmuprof_sample *smp = (void *)buf;
	struct pmuprof_sample_ustack *u;
	struct pmufile_mmap mm;
	struct pmufile f;
	struct sym_opts so = {0};
	struct symbolizer *sym = sym__new(&so);
	struct unwinder *uw;
	struct pmufile_sample_view v;
	enum unw_outcome oc;
	uint64_t out[8];
	static const uint64_t fp[3] = {0x401000, 0x401234, 0x401468};

	memset(&f, 0, sizeof(f));
	memset(&mm, 0, sizeof(mm));
	mm.pid = 7;
	mm.prot = 5; /* r-x */
	mm.start = 0x400000;
	mm.end = 0x500000;
	snprintf(mm.path, sizeof(mm.path), "/nonexistent/pmuconv-test/app");
	f.mmaps = &mm;
	f.nr_mmaps = 1;
	ck_assert_ptr_nonnull(sym);
	uw = unw__new(&f, sym);
	ck_assert_ptr_nonnull(uw);
	for (int pid = 7; pid <= 99; pid += 92) {
		for (int nu = 0; nu <= 3; nu += 3) {
			memset(buf, 0, sizeof(buf));
			smp->hdr.type = PMUPROF_REC_SAMPLE;
			smp->hdr.size = (uint16_t)(sizeof(*smp) + nu * 8 + sizeof(*u) + 64);
			smp->pid = smp->tid = (uint32_t)pid;
			smp->sample_flags = PMUPROF_SF_USTACK_COPY;
			smp->nr_ustack = (uint16_t)nu;
			memcpy(smp + 1, fp, nu * 8);
			u = (void *)((char *)(smp + 1) + nu * 8);
			u->regs[PMUPROF_UREG_IP] = 0x401000;
			u->regs[PMUPROF_UREG_SP] = 0x7ffc0000;
			u->size = u->valid = 64;
			ck_assert_int_eq(pmufile__sample_view(&smp->hdr, &v), 0);
			ck_assert_ptr_nonnull(v.ucopy);
			for (uint32_t max = 0; max <= 8; max++) {
				memset(out, 0xee, sizeof(out));
				uint32_t n = unw__sample(uw, &v, out, max, &oc);
				ck_assert_uint_le(n, max);
				for (uint32_t i = max; i < 8; i++)
					ck_assert_uint_eq(out[i], 0xeeeeeeeeeeeeeeeeull);
				if (nu == 3 && max) {
					ck_assert_int_eq(oc, UNW_FP);
					ck_assert_uint_eq(n, max < 3 ? max : 3);
					ck_assert_uint_eq(out[0], fp[0]);
				} else if (max >= 2) {
					ck_assert_int_eq(oc, UNW_NO_CFI);
					ck_assert_uint_eq(n, 2);
					ck_assert_uint_eq(out[0], 0x401000);
					ck_assert_uint_eq(out[1], UNW_TRUNCATED_ADDR);
				}
			}
		}
	}
	ck_assert_str_eq(unw__outcome_name(UNW_SHORT), "stopped: copy too small");
	unw__free(uw);
	sym__free(sym);
}
END_TEST

/* Two functions of this binary for test_unwind_shared_sets to unwind
 * through: a sample stopped at leaf's entry, called from caller. */
static __attribute__((noinline)) int shared_leaf(volatile int *x)
{
	return *x * 3 + 1;
}

static __attribute__((noinline)) int shared_caller(volatile int *x)
{
	int r = shared_leaf(x);
	return r + shared_leaf(x) * 2;
}

/* This test binary's executable mapping holding shared_leaf and
 * shared_caller (in /proc/self/maps): its start, end, file offset, path. */
static void self_text(uint64_t *lo, uint64_t *hi, uint64_t *off, char *self)
{
	char line[PATH_MAX + 256], path[PATH_MAX];
	uint64_t ip = (uint64_t)(uintptr_t)&shared_leaf, ra = (uint64_t)(uintptr_t)&shared_caller;
	unsigned long long a, b, o;
	FILE *maps = fopen("/proc/self/maps", "r");
	bool found = false;

	ck_assert_ptr_nonnull(realpath("/proc/self/exe", self));
	ck_assert_ptr_nonnull(maps);
	while (!found && fgets(line, sizeof(line), maps)) {
		char prot[8];
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &a, &b, prot, &o, path) ==
			    5 &&
		    prot[2] == 'x' && !strcmp(path, self) && ip >= a && ip < b && ra >= a && ra < b)
			found = true;
	}
	fclose(maps);
	ck_assert(found);
	*lo = a;
	*hi = b;
	*off = o;
}

/* Unwind a sample of pid stopped at shared_leaf's entry (+ d), called from
 * shared_caller (+ d): registers and a 64-byte copy whose first word is
 * the return address. */
static uint32_t leaf_sample(struct unwinder *uw, int pid, uint64_t d, uint64_t *out, uint32_t max,
			    enum unw_outcome *oc)
{
	uint64_t buf[(sizeof(struct pmuprof_sample) + sizeof(struct pmuprof_sample_ustack) + 64) /
			     8 +
		     1];
	struct pmuprof_sample *smp = (void *)buf;
	struct pmuprof_sample_ustack *u = (void *)(smp + 1);
	struct pmufile_sample_view v;
	uint64_t ra = (uint64_t)(uintptr_t)&shared_caller + 1 + d; /* ra - 1: its entry */

	memset(buf, 0, sizeof(buf));
	smp->hdr.type = PMUPROF_REC_SAMPLE;
	smp->hdr.size = (uint16_t)(sizeof(*smp) + sizeof(*u) + 64);
	smp->pid = smp->tid = (uint32_t)pid;
	smp->sample_flags = PMUPROF_SF_USTACK_COPY;
	u->regs[PMUPROF_UREG_IP] = (uint64_t)(uintptr_t)&shared_leaf + d;
	u->regs[PMUPROF_UREG_SP] = 0x7ffc0000;
	u->size = u->valid = 64;
	memcpy(u + 1, &ra, 8);
	ck_assert_int_eq(pmufile__sample_view(&smp->hdr, &v), 0);
	ck_assert_ptr_nonnull(v.ucopy);
	return unw__sample(uw, &v, out, max, oc);
}

/* pids 7 .. 6 + n map path's text as this process does, pid 7 + k at
 * start + shift[k]. */
static void leaf_maps(struct pmufile *f, struct pmufile_mmap *mm, int n, const uint64_t *shift,
		      const char *path)
{
	uint64_t lo, hi, off;
	char self[PATH_MAX];

	self_text(&lo, &hi, &off, self);
	memset(f, 0, sizeof(*f));
	memset(mm, 0, (size_t)n * sizeof(*mm));
	for (int i = 0; i < n; i++) { /* sorted by pid, then start */
		mm[i].pid = 7 + i;
		mm[i].prot = 5; /* r-x */
		mm[i].start = lo + shift[i];
		mm[i].end = hi + shift[i];
		mm[i].pgoff = off;
		snprintf(mm[i].path, sizeof(mm[i].path), "%s", path ? path : self);
	}
	f->mmaps = mm;
	f->nr_mmaps = (size_t)n;
}

/* Map sets that report the same files at the same addresses share one
 * Dwfl (and memo): pids 7 and 8 map this binary alike, pid 9 the same
 * file 1 TiB higher. Each pid's sample stopped at shared_leaf's entry
 * unwinds to its caller at its own addresses: pid 9 sharing pid 7's Dwfl
 * would find no module at its pc, and a set not shared would open a
 * second Dwfl for pid 8. */
START_TEST(test_unwind_shared_sets)
{
	const uint64_t delta = 1ull << 40, shift[3] = {0, 0, delta};
	const uint64_t ip = (uint64_t)(uintptr_t)&shared_leaf;
	const uint64_t ra = (uint64_t)(uintptr_t)&shared_caller + 1;
	static struct pmufile_mmap mm[3];
	struct pmufile f;
	struct sym_opts so = {0};
	struct symbolizer *sym = sym__new(&so);
	struct unwinder *uw;
	enum unw_outcome oc, oc7 = UNW__NR;
	uint64_t out[16], out7[16];
	uint32_t n7 = 0;
	const size_t want_dwfls[3] = {1, 1, 2};

	ck_assert_ptr_nonnull(sym);
	leaf_maps(&f, mm, 3, shift, NULL);
	uw = unw__new(&f, sym);
	ck_assert_ptr_nonnull(uw);
	for (int pid = 7; pid <= 9; pid++) {
		uint64_t d = shift[pid - 7];
		uint32_t n = leaf_sample(uw, pid, d, out, 16, &oc);
		ck_assert_uint_eq(unw__nr_dwfls(uw), want_dwfls[pid - 7]);
		ck_assert_uint_ge(n, 2);
		ck_assert_uint_eq(out[0], ip + d);
		ck_assert_uint_eq(out[1], ra + d);
		if (pid == 7) {
			n7 = n;
			oc7 = oc;
			memcpy(out7, out, sizeof(out));
			continue;
		}
		ck_assert_uint_eq(n, n7);
		ck_assert_int_eq(oc, oc7);
		for (uint32_t i = 2; i < n; i++)
			ck_assert_uint_eq(out[i], out7[i] == UNW_TRUNCATED_ADDR || !out7[i]
							  ? out7[i]
							  : out7[i] + d);
	}
	unw__free(uw);
	sym__free(sym);
}
END_TEST

/* A planned file libdwfl does not take (here: deleted after the
 * symbolizer read it for pid 7's set) is left out: pid 8's set (another
 * layout, so its own Dwfl, not pid 7's) ends with none, and its sample
 * keeps its pc, marked truncated ("no CFI"); no crash, no stale module. */
START_TEST(test_unwind_set_refused)
{
	const uint64_t delta = 1ull << 40, shift[2] = {0, delta};
	static struct pmufile_mmap mm[2];
	char dir[256], self[PATH_MAX], cmd[PATH_MAX + 600];
	uint64_t lo, hi, off, out[16];
	struct pmufile f;
	struct sym_opts so = {0};
	struct symbolizer *sym = sym__new(&so);
	struct unwinder *uw;
	enum unw_outcome oc;
	uint32_t n;

	ck_assert_ptr_nonnull(sym);
	pp_tmpdir(dir, sizeof(dir), "test_pmuconv_refused");
	self_text(&lo, &hi, &off, self);
	const char *app = pp_tmp_path(dir, "app");
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", self, app);
	ck_assert_int_eq(system(cmd), 0);
	leaf_maps(&f, mm, 2, shift, app);
	uw = unw__new(&f, sym);
	ck_assert_ptr_nonnull(uw);
	n = leaf_sample(uw, 7, 0, out, 16, &oc);
	ck_assert_uint_ge(n, 2);
	ck_assert_uint_eq(out[1], (uint64_t)(uintptr_t)&shared_caller + 1);
	ck_assert_uint_eq(unw__nr_dwfls(uw), 1);
	ck_assert_int_eq(unlink(app), 0);
	n = leaf_sample(uw, 8, delta, out, 16, &oc);
	ck_assert_uint_eq(unw__nr_dwfls(uw), 1);
	ck_assert_int_eq(oc, UNW_NO_CFI);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(out[0], (uint64_t)(uintptr_t)&shared_leaf + delta);
	ck_assert_uint_eq(out[1], UNW_TRUNCATED_ADDR);
	unw__free(uw);
	sym__free(sym);
	pp_rm_tree(dir);
}
END_TEST

/* ---- write-to-temporary-and-rename ------------------------------------ */

/* Count the files in dir (. and .. excluded). */
static int nr_files(const char *dir)
{
	char cmd[300];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", dir);
	ck_assert_ptr_nonnull(p = popen(cmd, "r"));
	ck_assert_int_eq(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

START_TEST(test_atomic_file)
{
	char dir[] = "/tmp/test_atomic.XXXXXX", path[64], buf[32], *lng;
	struct pc_atomic a, z = {.fd = -1};
	struct stat st;
	mode_t um = umask(022);

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	/* the first version appears only at rename, with the mode open(2) gives */
	ck_assert_int_eq(pc_atomic__open(&a, path, 0666), 0);
	ck_assert_int_eq(write(a.fd, "one", 3), 3);
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_int_eq(nr_files(dir), 1);
	ck_assert_int_eq(close(a.fd), 0);
	a.fd = -1;
	ck_assert_int_eq(pc_atomic__rename(&a), 0);
	ck_assert_ptr_null(a.tmp);
	pc_atomic__discard(&a); /* after a rename: nothing to remove */
	slurp(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "one");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
	/* a discarded second version leaves the first whole and no temporary */
	ck_assert_int_eq(pc_atomic__open(&a, path, 0600), 0);
	ck_assert_int_eq(write(a.fd, "two", 3), 3);
	ck_assert_int_eq(fstat(a.fd, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	ck_assert_int_eq(nr_files(dir), 2);
	pc_atomic__discard(&a);
	ck_assert_int_eq(a.fd, -1);
	ck_assert_int_eq(nr_files(dir), 1);
	slurp(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "one");
	/* a rename that fails keeps the temporary for discard */
	ck_assert_int_eq(pc_atomic__open(&a, path, 0600), 0);
	a.path = dir; /* a directory: EISDIR */
	ck_assert_int_lt(pc_atomic__rename(&a), 0);
	ck_assert_ptr_nonnull(a.tmp);
	pc_atomic__discard(&a);
	ck_assert_int_eq(nr_files(dir), 1);
	/* a path that is not a regular file is written in place: a symlink to
	 * /dev/null stays one, the device stays a device (renaming over it
	 * replaced /dev/null by a file when pmuconv -o /dev/null ran as root) */
	snprintf(path, sizeof(path), "%s/null", dir);
	ck_assert_int_eq(symlink("/dev/null", path), 0);
	ck_assert_int_eq(pc_atomic__open(&a, path, 0666), 0);
	ck_assert_ptr_null(a.tmp);
	ck_assert_int_eq(write(a.fd, "three", 5), 5);
	ck_assert_int_eq(close(a.fd), 0);
	a.fd = -1;
	ck_assert_int_eq(pc_atomic__rename(&a), 0);
	pc_atomic__discard(&a);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(stat("/dev/null", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	ck_assert_int_eq(nr_files(dir), 2);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/out", dir);
	ck_assert_int_eq(pc_atomic__open(&a, dir, 0666), -EISDIR); /* a directory */
	pc_atomic__discard(&a);
	/* errors: -errno, nothing left behind, discard still safe */
	ck_assert_int_eq(pc_atomic__open(&a, "/nonexistent/dir/x", 0666), -ENOENT);
	ck_assert_ptr_null(a.tmp);
	pc_atomic__discard(&a);
	ck_assert_ptr_nonnull(lng = malloc(PATH_MAX + 1));
	memset(lng, 'x', PATH_MAX);
	lng[PATH_MAX] = 0;
	ck_assert_int_eq(pc_atomic__open(&a, lng, 0666), -ENAMETOOLONG);
	pc_atomic__discard(&a);
	pc_atomic__discard(&z);
	free(lng);
	umask(um);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* ---- --json values ------------------------------------------------------ */

static const struct {
	int line;
	double v;
	int decimals;
	const char *json; /* the JSON text python reads back as the printed value */
} real_cases[] = {
	{__LINE__, 29.41176470588, 4, "29.4118"}, /* printf's %.4f, not the double's 17 digits */
	{__LINE__, 123456789.123456, 6, "123456789.123456"}, /* 15 digits kept */
	{__LINE__, 100.0, 4, "100.0"},
	{__LINE__, 0.00004999, 4, "0.0"},
	{__LINE__, 2.0, 6, "2.0"},
	{__LINE__, -0.00001, 4, "-0.0"},
	{__LINE__, 1.0 / 0.0, 4, "null"}, /* a rate over a zero run time */
	{__LINE__, 0.0 / 0.0, 4, "null"},
};

static void json_is(json_t *j, const char *want, int line)
{
	char *got = json_dumps(j, JSON_ENCODE_ANY | PC_JSON_REALS);

	ck_assert_msg(got && !strcmp(got, want), "line %d: got %s, want %s", line, got, want);
	free(got);
	json_decref(j);
}

START_TEST(test_json_real)
{
	json_is(pc_json_real(real_cases[_i].v, real_cases[_i].decimals), real_cases[_i].json,
		real_cases[_i].line);
}
END_TEST

START_TEST(test_json_str)
{
	char path[] = "/tmp/test_json.XXXXXX", buf[64];
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w+");

	json_is(pc_json_str(NULL), "null", __LINE__);
	json_is(pc_json_str("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"", __LINE__);
	json_is(pc_json_str("utf8 \xc3\xa9"), "\"utf8 \xc3\xa9\"", __LINE__);
	json_is(pc_json_str("bad \xff\xc3 x"), "\"bad ?? x\"", __LINE__); /* not UTF-8 */
	json_is(pc_json_hex(0x7f0000001000ull), "\"0x7f0000001000\"", __LINE__);
	json_is(pc_json_hex(0), "\"0\"", __LINE__);
	/* dump: indented, one newline, the root freed; NULL root: -ENOMEM */
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(pc_json_dump(f, json_pack("{s:i}", "a", 1)), 0);
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = 0;
	ck_assert_str_eq(buf, "{\n \"a\": 1\n}\n");
	/* reals as the text shows them (PC_JSON_REALS), not 29.411799999999999 */
	rewind(f);
	ck_assert_int_eq(pc_json_dump(f, json_pack("{s:o}", "p", pc_json_real(29.41176470588, 4))),
			 0);
	fflush(f);
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = 0;
	ck_assert_str_eq(buf, "{\n \"p\": 29.4118\n}\n");
	ck_assert_int_eq(pc_json_dump(f, NULL), -ENOMEM);
	fclose(f);
	unlink(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pmuconv");
	TCase *t = pp_tcase(s, "core", NULL, NULL,
			    PP_TESTS(test_intern, test_intern_reused_buffer, test_msort_stable,
				     test_folded_chunks, test_agg_merge_sort, test_parse_hostile,
				     test_report_self_total, test_stack_hash,
				     test_native_stack_collisions, test_crc32, test_kallsyms,
				     test_unwind_edges, test_unwind_shared_sets,
				     test_unwind_set_refused, test_binary_loads,
				     test_symtab_one_per_addr, test_atomic_file, test_json_str));
	tcase_add_loop_test(t, test_escape, 0, (int)PC_ARRAY_SIZE(esc_cases));
	tcase_add_loop_test(t, test_parse, 0, (int)PC_ARRAY_SIZE(parse_cases));
	tcase_add_loop_test(t, test_detect, 0, (int)PC_ARRAY_SIZE(detect_cases));
	tcase_add_loop_test(t, test_demangle, 0, (int)PC_ARRAY_SIZE(demangle_cases));
	tcase_add_loop_test(t, test_json_real, 0, (int)PC_ARRAY_SIZE(real_cases));
	t = pp_tcase(s, "elf", NULL, NULL, PP_TESTS(test_elf_symbols));
	tcase_set_timeout(t, 60);
	return s;
}

int main(void)
{
	pc_quiet = 1;
	return pp_check_run(suite());
}
