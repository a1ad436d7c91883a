// SPDX-License-Identifier: MIT
/*
 * perf.data writer unit tests: a file written through pd_writer is read
 * back field by field against the layout of perf's
 * perf.data-file-format.txt and <linux/perf_event.h> (header, attrs and ids,
 * a sample of every optional field, sample_id_all trailers, feature bitmap,
 * section table and strings), and the error paths leave no file behind.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/pmuconv/perfdata.h"
#include "host/pmuconv/util.h"
#include "check_main.h"
#include "tmpdir.h"

static char dir[64], path[128];
static uint8_t *buf;
static size_t len;

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/test_perfdata.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.data", dir);
	buf = NULL;
}

static void teardown(void)
{
	free(buf);
	pp_rm_tree(dir);
}

static void slurp(void)
{
	FILE *f = fopen(path, "rb");
	struct stat st;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fstat(fileno(f), &st), 0);
	len = (size_t)st.st_size;
	buf = malloc(len);
	ck_assert_uint_eq(fread(buf, 1, len, f), len);
	fclose(f);
}

static uint64_t u64(size_t off)
{
	uint64_t v;

	ck_assert_uint_le(off + 8, len);
	memcpy(&v, buf + off, 8);
	return v;
}

static uint32_t u32(size_t off)
{
	uint32_t v;

	ck_assert_uint_le(off + 4, len);
	memcpy(&v, buf + off, 4);
	return v;
}

/* Entries in the directory besides out.data (temporary files left). */
static int leftovers(void)
{
	char cmd[160];
	FILE *p;
	int n = 0, c;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -v '^out.data$'", dir);
	p = popen(cmd, "r");
	while ((c = fgetc(p)) != EOF)
		n += c == '\n';
	pclose(p);
	return n;
}

static const struct pd_event events[2] = {
	{.name = "cycles:u",
	 .type = PERF_TYPE_RAW,
	 .config = 0x3c,
	 .period = 100000,
	 .exclude_kernel = true},
	{.name = "cpu-clock",
	 .type = PERF_TYPE_SOFTWARE,
	 .config = PERF_COUNT_SW_CPU_CLOCK,
	 .period = 1000,
	 .freq = true},
};

#define ST_ADDR                                                                                    \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |                   \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR |   \
	 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)

START_TEST(test_layout)
{
	char err[256] = "";
	struct pd_writer *w = pd_writer__open(path, events, 2, ST_ADDR, err, sizeof(err));
	const uint64_t k[2] = {0xffffffff81000010ull, 0xffffffff81000020ull}, u[1] = {0x401000};
	struct pd_sample s = {.event = 1,
			      .misc = PERF_RECORD_MISC_KERNEL,
			      .pid = 10,
			      .tid = 11,
			      .cpu = 3,
			      .ip = k[0],
			      .time = 5000,
			      .period = 1000,
			      .addr = 0x7f0000001000,
			      .phys_addr = 0x12345000,
			      .data_page_size = 2 << 20,
			      .code_page_size = 4096,
			      .kstack = k,
			      .nr_kstack = 2,
			      .ustack = u,
			      .nr_ustack = 1};
	struct pd_sid sid = {.pid = 10, .tid = 11, .cpu = 3, .event = 0, .time = 4000};
	struct pd_meta m = {.hostname = "host",
			    .osrelease = "6.1",
			    .version = "v",
			    .arch = "x86_64",
			    .cmdline = "pmuctl record",
			    .nr_cpus_avail = 4,
			    .nr_cpus_online = 2};
	const uint8_t bid[20] = {0xab, 0xcd};

	ck_assert_msg(w, "%s", err);
	ck_assert_int_eq(pd_writer__comm(w, &sid, "app", false), 0);
	ck_assert_int_eq(pd_writer__sample(w, &s), 0);
	ck_assert_int_eq(pd_writer__lost(w, &sid, 7), 0);
	ck_assert_int_eq(pd_writer__lost_samples(w, &sid, 7), 0);
	ck_assert_int_eq(pd_writer__build_id(w, 10, false, bid, 20, "/bin/app"), 0);
	ck_assert_int_eq(pd_writer__close(w, &m, err, sizeof(err)), 0);
	ck_assert_int_eq(leftovers(), 0);
	slurp();

	/* header: magic, size, attr_size, attrs, data, event_types, features */
	ck_assert_int_eq(memcmp(buf, "PERFILE2", 8), 0);
	ck_assert_uint_eq(u64(8), 104);
	ck_assert_uint_eq(u64(16), PERF_ATTR_SIZE_VER7 + 16);
	ck_assert_uint_eq(u64(24), 104);
	ck_assert_uint_eq(u64(32), 2 * (PERF_ATTR_SIZE_VER7 + 16));
	uint64_t data = u64(40), data_size = u64(48);
	ck_assert_uint_eq(data, 104 + 2 * (PERF_ATTR_SIZE_VER7 + 16) + 2 * 8);
	uint64_t feat = u64(72);
	ck_assert_uint_eq(feat, 1u << PD_FEAT_BUILD_ID | 1u << PD_FEAT_HOSTNAME |
					1u << PD_FEAT_OSRELEASE | 1u << PD_FEAT_VERSION |
					1u << PD_FEAT_ARCH | 1u << PD_FEAT_NRCPUS |
					1u << PD_FEAT_CMDLINE | 1u << PD_FEAT_EVENT_DESC |
					1ull << PD_FEAT_SAMPLE_TIME);
	ck_assert_uint_eq(u64(80) | u64(88) | u64(96), 0);

	/* attrs: each perf_event_attr, then its ids section holding i + 1 */
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr a = {0};
		size_t off = 104 + (size_t)i * (PERF_ATTR_SIZE_VER7 + 16);
		memcpy(&a, buf + off, PERF_ATTR_SIZE_VER7);
		ck_assert_uint_eq(a.size, PERF_ATTR_SIZE_VER7);
		ck_assert_uint_eq(a.type, events[i].type);
		ck_assert_uint_eq(a.config, events[i].config);
		ck_assert_uint_eq(a.sample_period, events[i].period);
		ck_assert_uint_eq(a.freq, events[i].freq);
		ck_assert_uint_eq(a.exclude_kernel, events[i].exclude_kernel);
		ck_assert_uint_eq(a.sample_type, ST_ADDR | PERF_SAMPLE_IDENTIFIER);
		ck_assert_uint_eq(a.sample_id_all, 1);
		ck_assert_uint_eq(a.mmap2, i == 0);
		ck_assert_uint_eq(u64(off + PERF_ATTR_SIZE_VER7 + 8), 8);
		ck_assert_uint_eq(u64(u64(off + PERF_ATTR_SIZE_VER7)), (uint64_t)i + 1);
	}

	/* data: COMM, SAMPLE, LOST, LOST_SAMPLES, each with the sample_id_all trailer */
	size_t off = data;
	struct perf_event_header h;
	memcpy(&h, buf + off, 8);
	ck_assert_uint_eq(h.type, PERF_RECORD_COMM);
	ck_assert_uint_eq(h.size, 8 + 8 + 8 + 32); /* pid tid, "app" padded, sample_id */
	ck_assert_uint_eq(u32(off + 8), 10);
	ck_assert_str_eq((const char *)buf + off + 16, "app");
	ck_assert_uint_eq(u32(off + 24), 10); /* sample_id: pid, tid, time, cpu, id */
	ck_assert_uint_eq(u32(off + 28), 11);
	ck_assert_uint_eq(u64(off + 32), 4000);
	ck_assert_uint_eq(u32(off + 40), 3);
	ck_assert_uint_eq(u64(off + 48), 1);
	off += h.size;
	memcpy(&h, buf + off, 8);
	ck_assert_uint_eq(h.type, PERF_RECORD_SAMPLE);
	ck_assert_uint_eq(h.misc, PERF_RECORD_MISC_KERNEL);
	/* id ip pid/tid time addr cpu period nr [5 ips] phys dps cps */
	ck_assert_uint_eq(h.size, 8 + 8 * 8 + 5 * 8 + 3 * 8);
	const uint64_t want[] = {2,
				 k[0],
				 10 | (uint64_t)11 << 32,
				 5000,
				 0x7f0000001000,
				 3,
				 1000,
				 5,
				 PERF_CONTEXT_KERNEL,
				 k[0],
				 k[1],
				 PERF_CONTEXT_USER,
				 u[0],
				 0x12345000,
				 2 << 20,
				 4096};
	for (size_t i = 0; i < PC_ARRAY_SIZE(want); i++)
		ck_assert_msg(u64(off + 8 + 8 * i) == want[i], "sample word %zu: %#llx, want %#llx",
			      i, (unsigned long long)u64(off + 8 + 8 * i),
			      (unsigned long long)want[i]);
	off += h.size;
	memcpy(&h, buf + off, 8);
	ck_assert_uint_eq(h.type, PERF_RECORD_LOST);
	ck_assert_uint_eq(u64(off + 8), 1); /* id of event 0 */
	ck_assert_uint_eq(u64(off + 16), 7);
	off += h.size;
	memcpy(&h, buf + off, 8);
	ck_assert_uint_eq(h.type, PERF_RECORD_LOST_SAMPLES);
	ck_assert_uint_eq(u64(off + 8), 7);
	off += h.size;
	ck_assert_uint_eq(off, data + data_size);

	/* feature sections in bit order: BUILD_ID first, then HOSTNAME */
	size_t bid_off = (size_t)u64(off), bid_size = (size_t)u64(off + 8);
	memcpy(&h, buf + bid_off, 8);
	ck_assert_uint_eq(h.size, bid_size); /* one entry */
	ck_assert_uint_eq(h.misc, PERF_RECORD_MISC_USER | PD_MISC_BUILD_ID_SIZE);
	ck_assert_uint_eq(u32(bid_off + 8), 10);
	ck_assert_uint_eq(buf[bid_off + 12], 0xab);
	ck_assert_uint_eq(buf[bid_off + 12 + 20], 20); /* size byte */
	ck_assert_str_eq((const char *)buf + bid_off + 36, "/bin/app");
	size_t host_off = (size_t)u64(off + 16);
	ck_assert_uint_eq(host_off, bid_off + bid_size);
	ck_assert_uint_eq(u32(host_off), 64); /* perf_header_string: padded to 64 */
	ck_assert_str_eq((const char *)buf + host_off + 4, "host");
	/* NRCPUS (6th section): available, online */
	size_t nr_off = (size_t)u64(off + 5 * 16);
	ck_assert_uint_eq(u32(nr_off), 4);
	ck_assert_uint_eq(u32(nr_off + 4), 2);
	/* EVENT_DESC (8th): nr, attr size, attr, nr_ids, name, ids */
	size_t ed = (size_t)u64(off + 7 * 16);
	ck_assert_uint_eq(u32(ed), 2);
	ck_assert_uint_eq(u32(ed + 4), PERF_ATTR_SIZE_VER7);
	ck_assert_uint_eq(u32(ed + 8 + PERF_ATTR_SIZE_VER7), 1);
	ck_assert_str_eq((const char *)buf + ed + 8 + PERF_ATTR_SIZE_VER7 + 8, "cycles:u");
	/* SAMPLE_TIME (9th): first and last sample */
	size_t tm = (size_t)u64(off + 8 * 16);
	ck_assert_uint_eq(u64(tm), 5000);
	ck_assert_uint_eq(u64(tm + 8), 5000);
	ck_assert_uint_eq(tm + u64(off + 8 * 16 + 8), len);
}
END_TEST

START_TEST(test_errors_leave_nothing)
{
	char err[256] = "";
	struct pd_writer *w = pd_writer__open(path, events, 1, 0, err, sizeof(err));
	static uint64_t deep[9000];
	struct pd_sample s = {.kstack = deep, .nr_kstack = 9000};
	struct pd_meta m = {0};

	ck_assert_msg(w, "%s", err);
	/* a record perf's u16 size cannot hold: the error sticks */
	ck_assert_int_eq(pd_writer__sample(w, &s), -E2BIG);
	s.nr_kstack = 1;
	ck_assert_int_eq(pd_writer__sample(w, &s), -E2BIG);
	ck_assert_int_eq(pd_writer__close(w, &m, err, sizeof(err)), -E2BIG);
	ck_assert_ptr_nonnull(strstr(err, "does not fit"));
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_int_eq(leftovers(), 0);

	/* abort removes the temporary file */
	w = pd_writer__open(path, events, 1, 0, err, sizeof(err));
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(leftovers(), 1);
	pd_writer__abort(w);
	ck_assert_int_eq(leftovers(), 0);

	/* no events, unwritable directory: clear errors */
	ck_assert_ptr_null(pd_writer__open(path, events, 0, 0, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "no events"));
	ck_assert_ptr_null(
		pd_writer__open("/nonexistent/dir/x.data", events, 1, 0, err, sizeof(err)));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "cannot create /nonexistent/dir/x.data"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("perfdata");
	pp_tcase(s, "writer", setup, teardown, PP_TESTS(test_layout, test_errors_leave_nothing));
	return pp_check_run(s);
}
