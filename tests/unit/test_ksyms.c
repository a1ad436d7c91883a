// SPDX-License-Identifier: MIT
/*
 * pmuctl's on-demand kernel symbols (userspace/pmuctl/ksyms.c): a kallsyms
 * snapshot with aliases, data symbols, module symbols and the KASLR anchors;
 * sample records with kernel and user addresses go through ksyms__see() and
 * a lib/pmufile writer, and the file read back must (a) carry only the lines
 * the samples need, and (b) resolve every address of the samples, and every
 * address one below, exactly as the whole snapshot does (the lookup of
 * pmuconv: last text symbol at or below, bounded by the next one).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/pmufile/pmufile.h"
#include "userspace/pmuctl/ksyms.h"
#include "check_main.h"
#include "tmpdir.h"

static char dir[256];
static char errbuf[1024];

/* Types t/T/w/W are text; d/D/b/r/A are not and must never be written. */
static const char kallsyms[] = "0000000000000000 A fixed_percpu_data\n"
			       "ffffffff81000000 T _text\n"
			       "ffffffff81000000 T startup_64\n"
			       "ffffffff81001000 T _stext\n"
			       "ffffffff81001000 t alias_b\n"
			       "ffffffff81001000 t alias_a\n"
			       "ffffffff81001100 T vfs_read\n"
			       "ffffffff81001180 d some_data\n"
			       "ffffffff81001200 T ksys_read\n"
			       "ffffffff81001300 W weak_fn\n"
			       "ffffffff81001400 T schedule\n"
			       "ffffffff81001500 T never_hit\n"
			       "ffffffff81001600 T _etext\n"
			       "ffffffff82000000 D jiffies\n"
			       "ffffffffc0001000 t mod_fn\t[mymod]\n"
			       "ffffffffc0001080 t mod_next\t[mymod]\n"
			       "ffffffffc0002000 t mod_last\t[mymod]";

static void setup(void)
{
	char path[300];

	pp_tmpdir(dir, sizeof(dir), "test_ksyms");
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	pp_write_text(path, kallsyms);
}

static void teardown(void)
{
	pp_rm_tree(dir);
}

/* A SAMPLE record with ip and a kernel and a user stack into buf. */
static size_t put_sample(uint8_t *buf, uint64_t ip, bool kernel, const uint64_t *ks, unsigned nk,
			 const uint64_t *us, unsigned nu)
{
	struct pmuprof_sample *s = (void *)buf;
	uint64_t *p = (uint64_t *)(s + 1);

	memset(s, 0, sizeof(*s));
	s->hdr.type = PMUPROF_REC_SAMPLE;
	s->hdr.misc = kernel ? PMUPROF_MISC_KERNEL : PMUPROF_MISC_USER;
	s->ip = ip;
	s->pid = 42;
	s->tid = 42;
	s->nr_kstack = (uint16_t)nk;
	s->nr_ustack = (uint16_t)nu;
	memcpy(p, ks, nk * 8);
	memcpy(p + nk, us, nu * 8);
	s->hdr.size = (uint32_t)(sizeof(*s) + (nk + nu) * 8);
	return s->hdr.size;
}

/* The lookup pmuconv does (host/pmuconv/symbolize.c sym__kernel): the last
 * text line at or below a among the lines of text, bounded by the next
 * distinct address; among several names at one address the smallest by
 * (T before others, name). Returns the name, "" if none. */
static const char *lookup(const char *text, uint64_t a, char *out, size_t outlen)
{
	uint64_t best = 0, next = UINT64_MAX;
	bool have = false;
	const char *p = text;

	out[0] = '\0';
	/* pass 1: the address of the covering symbol and the next one */
	while (*p) {
		unsigned long long v;
		char type, name[128];
		int used = 0;

		if (sscanf(p, "%llx %c %127s%n", &v, &type, name, &used) == 3 &&
		    strchr("tTwW", type) && v) {
			if (v <= a && (!have || v > best)) {
				best = v;
				have = true;
			}
		}
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	if (!have)
		return out;
	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned long long v;
		char type, name[128];

		if (sscanf(p, "%llx %c %127s", &v, &type, name) == 3 && strchr("tTwW", type) &&
		    v > best && v < next)
			next = v;
	}
	if (a >= next)
		return out;
	/* pass 2: the name pmuconv picks at best */
	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned long long v;
		char type, name[128];

		if (sscanf(p, "%llx %c %127s", &v, &type, name) != 3 || !strchr("tTwW", type) ||
		    v != best)
			continue;
		char key[130];

		snprintf(key, sizeof(key), "%c%s", type == 'T' ? '0' : '1', name);
		if (!out[0] || strcmp(key, out) < 0)
			snprintf(out, outlen, "%s", key);
	}
	return out;
}

/* Write records through ksyms into a file, read its kallsyms text back. */
static char *round_trip(const uint8_t *recs, size_t len, size_t *written, size_t nsyms)
{
	struct pmufile_header h;
	struct pmufile_writer *w;
	struct pmufile *f;
	struct ksyms *ks;
	char path[300];
	char *text;

	memset(&h, 0, sizeof(h));
	snprintf(path, sizeof(path), "%s/r.pmu", dir);
	w = pmufile_writer__open(path, &h, errbuf, sizeof(errbuf));
	ck_assert_msg(w, "%s", errbuf);
	ks = ksyms__open(dir);
	ck_assert_ptr_nonnull(ks);
	ck_assert_uint_eq(ksyms__nr_symbols(ks), nsyms);
	ck_assert_int_eq(ksyms__flush(ks, w), 0); /* the anchors */
	/* in two halves: lines already written are not written again */
	ck_assert_int_eq(ksyms__see(ks, recs, len), 0);
	ck_assert_int_eq(ksyms__flush(ks, w), 0);
	ck_assert_int_eq(pmufile_writer__records(w, recs, len), 0);
	ck_assert_int_eq(ksyms__see(ks, recs, len), 0);
	ck_assert_int_eq(ksyms__flush(ks, w), 0);
	*written = ksyms__nr_written(ks);
	ksyms__free(ks);
	ck_assert_int_eq(pmufile_writer__close(w, 1, 1, errbuf, sizeof(errbuf)), 0);
	f = pmufile__open(path, 0, errbuf, sizeof(errbuf));
	ck_assert_msg(f, "%s", errbuf);
	text = strdup(f->kallsyms);
	pmufile__close(f);
	return text;
}

START_TEST(test_only_needed_lines)
{
	static const uint64_t k1[] = {0xffffffff81001210, 0xffffffff81001101};
	static const uint64_t u1[] = {0x401000, 0x7fff0000};
	static const uint64_t k2[] = {0xffffffffc0001010, 0xffffffff81001000};
	uint8_t recs[2048];
	size_t len = 0, written;
	char *text;

	/* a kernel sample in ksys_read called from vfs_read (return address
	 * vfs_read+1), a user sample, a module sample whose caller returns to
	 * the first byte of alias_a/alias_b (so the lookup at addr-1 lands in
	 * the symbol before: startup_64) */
	len += put_sample(recs + len, 0xffffffff81001210, true, k1, 2, u1, 2);
	len += put_sample(recs + len, 0x401234, false, NULL, 0, u1, 2);
	len += put_sample(recs + len, 0xffffffffc0001010, true, k2, 2, NULL, 0);
	text = round_trip(recs, len, &written, 14);
	ck_assert_str_eq(text, "ffffffff81000000 T _text\n"
			       "ffffffff81001000 T _stext\n"
			       "ffffffff81001600 T _etext\n"
			       "ffffffff81001200 T ksys_read\n"
			       "ffffffff81001300 W weak_fn\n"
			       "ffffffff81001100 T vfs_read\n"
			       "ffffffffc0001000 t mod_fn\t[mymod]\n"
			       "ffffffffc0001080 t mod_next\t[mymod]\n"
			       "ffffffff81001000 t alias_b\n"
			       "ffffffff81001000 t alias_a\n"
			       "ffffffff81000000 T startup_64\n");
	ck_assert_uint_eq(written, 11);
	free(text);
}
END_TEST

/* Every address of every sample, and one below it, resolves on the written
 * lines exactly as on the whole snapshot. */
START_TEST(test_same_resolution_as_full_snapshot)
{
	uint8_t recs[65536];
	uint64_t addrs[600];
	size_t len = 0, n = 0, written;
	unsigned seed = 12345;
	char *text;

	for (int s = 0; s < 60; s++) {
		uint64_t st[10];

		for (int i = 0; i < 10; i++) {
			seed = seed * 1103515245u + 12345u;
			/* below the kernel text up to ksys_read's end, and around
			 * and past the module (never schedule/never_hit, so the
			 * written lines are a true subset) */
			st[i] = (seed >> 8) % 2 ? 0xffffffff80fff000ull + (seed >> 12) % 0x2300
						: 0xffffffffc0000f00ull + (seed >> 12) % 0x1200;
			addrs[n++] = st[i];
		}
		len += put_sample(recs + len, st[0], true, st, 6, st + 6, 4);
	}
	text = round_trip(recs, len, &written, 14);
	ck_assert_uint_le(written, 12);
	ck_assert_ptr_null(strstr(text, "never_hit"));
	for (size_t i = 0; i < n; i++) {
		for (uint64_t d = 0; d < 2; d++) {
			char want[130], got[130];

			lookup(kallsyms, addrs[i] - d, want, sizeof(want));
			lookup(text, addrs[i] - d, got, sizeof(got));
			ck_assert_msg(!strcmp(want, got),
				      "0x%llx: full snapshot \"%s\", written \"%s\"",
				      (unsigned long long)(addrs[i] - d), want, got);
		}
	}
	free(text);
}
END_TEST

START_TEST(test_unreadable_or_unprivileged)
{
	static const uint64_t k[] = {0xffffffff81001210};
	uint8_t recs[256];
	size_t len = put_sample(recs, k[0], true, k, 1, NULL, 0), written;
	char path[300];
	struct ksyms *ks;
	char *text;

	/* no kallsyms at all: nothing is written, nothing fails */
	snprintf(path, sizeof(path), "%s/none", dir);
	ks = ksyms__open(path);
	ck_assert_ptr_nonnull(ks);
	ck_assert_uint_eq(ksyms__nr_symbols(ks), 0);
	ck_assert_int_eq(ksyms__see(ks, recs, len), 0);
	ksyms__free(ks);
	/* an unprivileged reader sees every address as 0: no symbols */
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	pp_write_text(path, "0000000000000000 T _text\n0000000000000000 T vfs_read\n");
	text = round_trip(recs, len, &written, 0);
	ck_assert_str_eq(text, "");
	ck_assert_uint_eq(written, 0);
	free(text);
}
END_TEST

/* A record the ABI says cannot exist (size not a multiple of 8) ends the
 * scan there, as pmuctl's drain loop does (pmufile__check_record): the
 * sample after it is not read. A good sample first is. */
START_TEST(test_bad_record_stops_scan)
{
	static const uint64_t k1[] = {0xffffffff81001210}, k2[] = {0xffffffff81001110};
	uint64_t words[128] = {0};
	uint8_t *recs = (uint8_t *)words;
	struct pmuprof_record_header *bad;
	struct pmufile_header h;
	struct pmufile_writer *w;
	struct ksyms *ks;
	char path[300];
	size_t len, anchors;

	memset(&h, 0, sizeof(h));
	snprintf(path, sizeof(path), "%s/bad.pmu", dir);
	w = pmufile_writer__open(path, &h, errbuf, sizeof(errbuf));
	ck_assert_msg(w, "%s", errbuf);
	ck_assert_ptr_nonnull(ks = ksyms__open(dir));
	ck_assert_int_eq(ksyms__flush(ks, w), 0);
	anchors = ksyms__nr_written(ks);
	len = put_sample(recs, k1[0], true, k1, 1, NULL, 0);
	bad = (void *)(recs + len);
	bad->type = 99;
	bad->size = 12;
	len += 12;
	len += put_sample(recs + len, k2[0], true, k2, 1, NULL, 0);
	ck_assert_uint_le(len, sizeof(words));
	ck_assert_int_eq(ksyms__see(ks, recs, len), 0);
	ck_assert_int_eq(ksyms__flush(ks, w), 0);
	/* ksys_read and the line after it (its end), not vfs_read */
	ck_assert_uint_eq(ksyms__nr_written(ks), anchors + 2);
	ksyms__free(ks);
	pmufile_writer__close(w, 1, 1, errbuf, sizeof(errbuf));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ksyms");
	pp_tcase(s, "core", setup, teardown,
		 PP_TESTS(test_only_needed_lines, test_same_resolution_as_full_snapshot,
			  test_unreadable_or_unprivileged, test_bad_record_stops_scan));
	return pp_check_run(s);
}
