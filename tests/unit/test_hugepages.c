// SPDX-License-Identifier: MIT
/*
 * Unit tests of pmuconv's huge-page answer (issue 17): data accesses
 * attributed to recorded mappings (edges, unmapped addresses, kernel
 * addresses, a pid that exec()s over the same range, a [heap] that grows),
 * the distinct-page estimate on synthetic samples with a known answer, and
 * the verdict rules on hand-built per-mapping tables, which events count
 * page walks (by name, libpfm4 name and raw encoding), and the verdict's
 * walk prediction for them.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/pmuconv/input.h"
#include "host/pmuconv/pagemap.h"
#include "host/pmuconv/pagesize.h"
#include "host/pmuconv/verdict.h"
#include "host/pmuconv/pcagg.h"
#include "host/pmuconv/tlbevent.h"
#include "host/pmuconv/tlbinfo.h"
#include "host/pmuconv/util.h"
#include "lib/pmufile/pmufile.h"
#include "check_main.h"
#include "one_event_writer.h"

/* ---- the distinct-page estimate --------------------------------------- */

START_TEST(test_density_full_coverage)
{
	/* 4 pages, each sampled 3 times: every page seen, nothing unseen */
	uint64_t k[12];
	struct ps_density d;

	for (int i = 0; i < 12; i++)
		k[i] = (uint64_t)(i % 4) * 7;
	ps_density__estimate(k, 12, 0, &d);
	ck_assert_uint_eq(d.seen, 4);
	ck_assert_uint_eq(d.once, 0);
	ck_assert_uint_eq(d.estimate, 4);
	ck_assert(d.coverage == 1.0);
	ck_assert_int_eq(d.confidence, PS_CONF_HIGH);
}
END_TEST

START_TEST(test_density_chao1)
{
	/* counts 1,1,1,2,2,5: seen 6, f1 3, f2 2, n 12:
	 * Chao1 = 6 + 3*2/(2*3) = 7; coverage 1 - 3/12 = 0.75 */
	uint64_t k[] = {10, 20, 30, 40, 40, 50, 50, 60, 60, 60, 60, 60};
	struct ps_density d;

	ps_density__estimate(k, PC_ARRAY_SIZE(k), 0, &d);
	ck_assert_uint_eq(d.seen, 6);
	ck_assert_uint_eq(d.once, 3);
	ck_assert_uint_eq(d.twice, 2);
	ck_assert_uint_eq(d.estimate, 7);
	ck_assert(d.coverage > 0.7499 && d.coverage < 0.7501);
	ck_assert_int_eq(d.confidence, PS_CONF_MEDIUM);
}
END_TEST

START_TEST(test_density_uniform_sparse)
{
	/* 1000 samples, uniform over 16384 pages (a 64 MiB buffer): almost
	 * every page seen once; the estimate is capped by the mapping and the
	 * confidence is low (coverage near 0) */
	uint64_t k[1000], x = 12345;
	struct ps_density d;

	for (int i = 0; i < 1000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		k[i] = (x >> 33) % 16384;
	}
	ps_density__estimate(k, 1000, 16384, &d);
	ck_assert_uint_ge(d.seen, 950);
	ck_assert_uint_eq(d.estimate, 16384);
	ck_assert_int_eq(d.confidence, PS_CONF_LOW);
	/* the same 1000 samples over 4 pages (a small array): fully covered */
	for (int i = 0; i < 1000; i++)
		k[i] %= 4;
	ps_density__estimate(k, 1000, 4, &d);
	ck_assert_uint_eq(d.seen, 4);
	ck_assert_uint_eq(d.estimate, 4);
	ck_assert_int_eq(d.confidence, PS_CONF_HIGH);
	/* nothing sampled */
	ps_density__estimate(k, 0, 4, &d);
	ck_assert_uint_eq(d.seen, 0);
	ck_assert_uint_eq(d.estimate, 0);
	ck_assert_int_eq(d.confidence, PS_CONF_LOW);
}
END_TEST

/* ---- mapping attribution ---------------------------------------------- */

static size_t put_sample(uint8_t *buf, uint32_t pid, uint64_t t, int kernel, uint64_t addr,
			 uint8_t page)
{
	struct pmuprof_sample *s = (struct pmuprof_sample *)buf;
	struct pmuprof_sample_addr *ad = (struct pmuprof_sample_addr *)(s + 1);

	memset(s, 0, sizeof(*s) + sizeof(*ad));
	s->hdr.type = PMUPROF_REC_SAMPLE;
	s->hdr.misc = kernel ? PMUPROF_MISC_KERNEL : PMUPROF_MISC_USER;
	s->hdr.size = (uint32_t)(sizeof(*s) + sizeof(*ad));
	s->time_ns = t;
	s->ip = kernel ? 0xffffffff81000000ull : 0x400100;
	s->period = 1000;
	s->pid = s->tid = pid;
	s->sample_flags = PMUPROF_SF_ADDR;
	snprintf(s->comm, sizeof(s->comm), "app");
	ad->data_addr = addr;
	ad->data_page = page;
	ad->code_page = PMUPROF_PAGE_4K;
	ad->addr_status = PMUPROF_ADDR_OK;
	ad->addr_source = PMUPROF_ADDR_SRC_DECODE;
	return s->hdr.size;
}

static void put_map(struct pmufile_writer *w, int32_t pid, uint64_t t, uint64_t start, uint64_t end,
		    const char *path)
{
	struct pmufile_mmap m = {0};

	m.pid = pid;
	m.time_ns = t;
	m.start = start;
	m.end = end;
	m.prot = 3;
	snprintf(m.path, sizeof(m.path), "%s", path);
	ck_assert_int_eq(pmufile_writer__mmap(w, &m), 0);
}

static const struct ps_mapping *find_map(const struct ps_event *e, const char *name)
{
	for (size_t i = 0; i < e->nr_maps; i++)
		if (!strcmp(e->maps[i].name, name))
			return &e->maps[i];
	return NULL;
}

/*
 * pid 10 runs /bin/old [0x400000, 0x500000) (maps at t=100), exec()s
 * /bin/new at t=500 over part of the same range, [0x400000, 0x480000) (new
 * maps at t=500 and t=900); its [heap] is recorded small at t=500 and grown
 * at t=900. Samples:
 *   t=200 0x400000 (first byte of /bin/old)           -> /bin/old
 *   t=200 0x4fffff (last byte of /bin/old)            -> /bin/old
 *   t=200 0x500000 (its end: exclusive)               -> [unmapped]
 *   t=600 0x400010 (same range, after exec)           -> /bin/new
 *   t=600 0x47ffff (last byte of /bin/new)            -> /bin/new
 *   t=700 0x1400000 x3 (beyond the t=500 heap, inside the t=900 one) -> [heap]
 *   t=700 0x1000000 (heap start)                      -> [heap]
 *   t=700 kernel mode, 0xffff888000001000             -> [kernel], kernel view
 *   t=700 pid 11, 0x400000 (no maps for pid 11)        -> [unmapped]
 */
START_TEST(test_attribution)
{
	char dir[] = "/tmp/test_hugepages.XXXXXX", path[64], err[512];
	struct pmufile_writer *w;
	uint8_t buf[8192];
	size_t len = 0;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.pmu", dir);
	w = one_event_writer(path, PMUPROF_CF_DATA_ADDR | PMUPROF_CF_CODE_PAGE, "dtlb-load-misses");
	put_map(w, 10, 100, 0x400000, 0x500000, "/bin/old");
	put_map(w, 10, 500, 0x400000, 0x480000, "/bin/new");
	put_map(w, 10, 500, 0x1000000, 0x1001000, "[heap]");
	put_map(w, 10, 900, 0x400000, 0x480000, "/bin/new");
	put_map(w, 10, 900, 0x1000000, 0x1800000, "[heap]");
	len += put_sample(buf + len, 10, 200, 0, 0x400000, PMUPROF_PAGE_4K);
	len += put_sample(buf + len, 10, 200, 0, 0x4fffff, PMUPROF_PAGE_4K);
	len += put_sample(buf + len, 10, 200, 0, 0x500000, PMUPROF_PAGE_UNKNOWN);
	len += put_sample(buf + len, 10, 600, 0, 0x400010, PMUPROF_PAGE_4K);
	len += put_sample(buf + len, 10, 600, 0, 0x47ffff, PMUPROF_PAGE_2M);
	for (int i = 0; i < 3; i++)
		len += put_sample(buf + len, 10, 700, 0, 0x1400000, PMUPROF_PAGE_4K);
	len += put_sample(buf + len, 10, 700, 0, 0x1000000, PMUPROF_PAGE_4K);
	len += put_sample(buf + len, 10, 700, 1, 0xffff888000001000ull, PMUPROF_PAGE_1G);
	len += put_sample(buf + len, 11, 700, 0, 0x400000, PMUPROF_PAGE_4K);
	ck_assert_int_eq(pmufile_writer__records(w, buf, len), 0);
	ck_assert_int_eq(pmufile_writer__close(w, 1, 1000, err, sizeof(err)), 0);

	struct pc_set set = {0};
	struct pc_load_opts o = {.format = PC_FMT_PMUPROF};
	struct pagesize_acc *acc = pagesize_acc__new(PC_MODE_ALL, false);
	ck_assert_ptr_nonnull(acc);
	o.also = pagesize_acc__consumer(acc);
	ck_assert_msg(pc_load(&set, path, &o, err, sizeof(err)) == 0, "%s", err);
	struct pagesize_summary *s = pagesize_acc__summarize(acc, &set);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->nr_events, 2); /* user and kernel views */
	const struct ps_event *u = &s->events[0], *k = &s->events[1];
	ck_assert_int_eq(u->view, PS_VIEW_USER);
	ck_assert_int_eq(k->view, PS_VIEW_KERNEL);
	ck_assert_uint_eq(u->data.total_samples, 10);
	ck_assert_uint_eq(k->data.total_samples, 1);

	const struct ps_mapping *m = find_map(u, "/bin/old");
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->samples, 2);
	ck_assert_uint_eq(m->start, 0x400000);
	ck_assert_uint_eq(m->end, 0x500000);
	ck_assert_int_eq(m->kind, PS_MAP_FILE);
	ck_assert_ptr_nonnull(m = find_map(u, "/bin/new"));
	ck_assert_uint_eq(m->samples, 2);
	ck_assert_uint_eq(m->page_samples[PS_4K], 1);
	ck_assert_uint_eq(m->page_samples[PS_2M], 1);
	ck_assert_ptr_nonnull(m = find_map(u, "[heap]"));
	ck_assert_uint_eq(m->samples, 4);
	ck_assert_int_eq(m->kind, PS_MAP_HEAP);
	ck_assert_uint_eq(m->end, 0x1800000); /* the largest extent recorded */
	ck_assert_uint_eq(m->pages_4k.seen, 2);
	ck_assert_uint_eq(m->regions_2m.seen, 2);
	ck_assert_ptr_nonnull(m = find_map(u, "[unmapped]"));
	ck_assert_uint_eq(m->samples, 2); /* the end address, and pid 11 */
	ck_assert_ptr_null(find_map(u, "[kernel]"));
	ck_assert_ptr_nonnull(m = find_map(k, "[kernel]"));
	ck_assert_uint_eq(m->samples, 1);
	ck_assert_int_eq(m->kind, PS_MAP_KERNEL);
	ck_assert_uint_eq(k->nr_maps, 1);

	pagesize_summary__free(s);
	pagesize_acc__free(acc);
	pc_set__free(&set);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* ---- verdict rules ----------------------------------------------------- */

static struct ps_mapping mk_map(const char *name, int kind, uint64_t start, uint64_t end,
				uint64_t n4k, uint64_t n2m, uint64_t n1g, uint64_t pages4k,
				uint64_t regions2m)
{
	struct ps_mapping m = {0};

	snprintf(m.name, sizeof(m.name), "%s", name);
	m.kind = kind;
	m.start = start;
	m.end = end;
	m.page_samples[PS_4K] = m.page_weight[PS_4K] = n4k;
	m.page_samples[PS_2M] = m.page_weight[PS_2M] = n2m;
	m.page_samples[PS_1G] = m.page_weight[PS_1G] = n1g;
	m.samples = m.weight = n4k + n2m + n1g;
	m.pages_4k = (struct ps_density){
		.estimate = pages4k, .seen = pages4k, .cap = (end - start) >> 12};
	m.regions_2m = (struct ps_density){.estimate = regions2m, .seen = regions2m};
	return m;
}

static void add_map(struct ps_event *e, struct ps_mapping m)
{
	e->maps[e->nr_maps++] = m;
	for (int p = 0; p < PS__NR; p++) {
		e->data.samples[p] += m.page_samples[p];
		e->data.weight[p] += m.page_weight[p];
	}
	e->data.total_samples += m.samples;
	e->data.total_weight += m.weight;
	e->has_maps = true;
}

static const struct ps_verdict_item *item_for(const struct ps_event *e, const char *name)
{
	for (size_t i = 0; i < e->verdict.nr; i++)
		if (!strcmp(e->maps[e->verdict.item[i].map].name, name))
			return &e->verdict.item[i];
	return NULL;
}

START_TEST(test_verdict_rules)
{
	static struct ps_event e;
	const struct ps_tlb *t = ps_tlb_for("unknown CPU");
	const struct ps_verdict_item *it;
	uint64_t b = 0x7f0000000000ull;

	memset(&e, 0, sizeof(e));
	snprintf(e.event, sizeof(e.event), "cpu-clock");
	snprintf(e.unit, sizeof(e.unit), "ns");
	e.view = PS_VIEW_USER;
	/* a 64 MiB anonymous buffer on 4K pages, 16384 pages touched: candidate */
	add_map(&e, mk_map("[anon]", PS_MAP_ANON, b + 0x1000, b + 0x1000 + (64ull << 20), 400, 0, 0,
			   16384, 33));
	/* a small array, hot (30 %), 4 pages: fits the TLB */
	add_map(&e, mk_map("/bin/app", PS_MAP_FILE, 0x600000, 0x604000, 300, 0, 0, 4, 1));
	/* a hugetlb buffer on 2M pages: already huge */
	add_map(&e, mk_map("/anon_hugepage (deleted)", PS_MAP_HUGETLB, b + (1ull << 30),
			   b + (1ull << 30) + (8ull << 20), 0, 200, 0, 100, 4));
	/* a 1 MiB anonymous buffer, 256 pages touched: too small for a 2M page */
	add_map(&e, mk_map("[anon]", PS_MAP_ANON, b + (2ull << 30), b + (2ull << 30) + (1ull << 20),
			   0, 0, 0, 0, 0));
	e.maps[3].page_samples[PS_4K] = e.maps[3].page_weight[PS_4K] = 0;
	/* a file mapping on 4K, 200 pages: file-backed (below the share: 5 %) */
	add_map(&e, mk_map("/data/file", PS_MAP_FILE, 0x10000000, 0x20000000, 50, 0, 0, 200, 2));
	ps_verdict__decide(&e, t);

	ck_assert_int_eq(e.verdict.answer, PSA_LIKELY);
	ck_assert(e.verdict.time_event);
	ck_assert_uint_eq(e.verdict.nr, 3); /* the ones with >= 10 % of the samples */
	it = &e.verdict.item[0];
	ck_assert_uint_eq(it->map, 0);
	ck_assert_int_eq(it->kind, PSV_CANDIDATE);
	ck_assert_uint_eq(it->huge_start, b + (2ull << 20)); /* rounded up to 2 MiB */
	ck_assert_uint_eq(it->huge_end, b + (64ull << 20));  /* rounded down */
	ck_assert_uint_eq(it->tlb_4k, 16384);
	ck_assert_uint_eq(it->tlb_2m, 33);
	ck_assert_ptr_nonnull(it = item_for(&e, "/bin/app"));
	ck_assert_int_eq(it->kind, PSV_FITS_TLB);
	ck_assert_ptr_nonnull(it = item_for(&e, "/anon_hugepage (deleted)"));
	ck_assert_int_eq(it->kind, PSV_ALREADY_HUGE);
	ck_assert_int_eq(it->huge_page, PS_2M);
	ck_assert_ptr_null(item_for(&e, "/data/file"));

	/* without the candidate: the large mappings are already huge */
	memset(&e, 0, sizeof(e));
	snprintf(e.event, sizeof(e.event), "dtlb-load-misses");
	snprintf(e.unit, sizeof(e.unit), "events");
	add_map(&e, mk_map("[anon]", PS_MAP_ANON, b, b + (64ull << 20), 10, 390, 0, 9000, 32));
	add_map(&e, mk_map("[heap]", PS_MAP_HEAP, 0x1000000, 0x1003000, 5, 0, 0, 3, 1));
	ps_verdict__decide(&e, t);
	ck_assert_int_eq(e.verdict.answer, PSA_ALREADY_HUGE);
	ck_assert(!e.verdict.time_event);
	ck_assert_uint_eq(e.verdict.nr, 1);

	/* on 4K but too small, file-backed, stack: no candidate */
	memset(&e, 0, sizeof(e));
	snprintf(e.event, sizeof(e.event), "dtlb-load-misses");
	add_map(&e, mk_map("[anon]", PS_MAP_ANON, b + 0x1000, b + 0x201000, 100, 0, 0, 512, 2));
	add_map(&e, mk_map("/data/file", PS_MAP_FILE, 0x10000000, 0x20000000, 100, 0, 0, 9000, 60));
	add_map(&e, mk_map("[stack]", PS_MAP_STACK, 0x7ffe00000000ull, 0x7ffe00800000ull, 100, 0, 0,
			   2000, 4));
	ps_verdict__decide(&e, t);
	ck_assert_int_eq(e.verdict.answer, PSA_NO_CANDIDATE);
	ck_assert_int_eq(item_for(&e, "[anon]")->kind, PSV_TOO_SMALL);
	ck_assert_int_eq(item_for(&e, "/data/file")->kind, PSV_FILE_BACKED);
	ck_assert_int_eq(item_for(&e, "[stack]")->kind, PSV_NOT_ELIGIBLE);

	/* mostly unmapped at sample time: not judged */
	memset(&e, 0, sizeof(e));
	snprintf(e.event, sizeof(e.event), "dtlb-load-misses");
	add_map(&e, mk_map("[anon]", PS_MAP_ANON, b, b + (64ull << 20), 10, 0, 0, 9000, 32));
	e.maps[0].page_samples[PS_UNKNOWN] = 90;
	e.maps[0].samples += 90;
	ps_verdict__decide(&e, t);
	ck_assert_uint_eq(e.verdict.nr, 0);
	ck_assert_int_eq(e.verdict.answer, PSA_NO_CANDIDATE);

	/* an input without memory maps (perf script text) is not judged */
	memset(&e, 0, sizeof(e));
	e.data.total_samples = 10;
	ps_verdict__decide(&e, t);
	ck_assert_int_eq(e.verdict.answer, PSA_NO_MAPS);

	/* the kernel view is not judged; an empty view has no data */
	e.view = PS_VIEW_KERNEL;
	ps_verdict__decide(&e, t);
	ck_assert_int_eq(e.verdict.answer, PSA_KERNEL_VIEW);
	memset(&e, 0, sizeof(e));
	ps_verdict__decide(&e, t);
	ck_assert_int_eq(e.verdict.answer, PSA_NO_DATA);
}
END_TEST

START_TEST(test_names)
{
	ck_assert(ps_is_zeroing_fn("clear_page_erms"));
	ck_assert(ps_is_zeroing_fn("clear_huge_page"));
	ck_assert(ps_is_zeroing_fn("folio_zero_user"));
	ck_assert(!ps_is_zeroing_fn("copy_page"));
	ck_assert(ps_is_time_event("cpu-clock", "samples"));
	ck_assert(ps_is_time_event("anything", "ns"));
	ck_assert(!ps_is_time_event("dtlb-load-misses", "events"));
	ck_assert_int_eq(ps_map_kind_of(""), PS_MAP_ANON);
	ck_assert_int_eq(ps_map_kind_of("[heap]"), PS_MAP_HEAP);
	ck_assert_int_eq(ps_map_kind_of("[stack]"), PS_MAP_STACK);
	ck_assert_int_eq(ps_map_kind_of("[vdso]"), PS_MAP_SPECIAL);
	ck_assert_int_eq(ps_map_kind_of("/anon_hugepage (deleted)"), PS_MAP_HUGETLB);
	ck_assert_int_eq(ps_map_kind_of("/usr/lib/libc.so.6"), PS_MAP_FILE);
	ck_assert_str_eq(ps_tlb_for("Intel(R) Xeon(R)")->name, ps_tlb_table[0].name);
}
END_TEST

/* ---- which events count page walks ------------------------------------ */

START_TEST(test_event_kinds)
{
	enum { I = PMUPROF_VENDOR_INTEL, A = PMUPROF_VENDOR_AMD };
	static const struct {
		const char *name, *resolved;
		uint64_t config;
		uint32_t vendor, family;
		const char *unit;
		int kind;
	} t[] = {
		/* pmuprof recordings on Intel family 6: by encoding */
		{"dtlb-load-misses:u", "skl::DTLB_LOAD_MISSES:WALK_COMPLETED:k=0:u=1", 0x10e08, I,
		 6, "events", PS_EV_WALKS},
		{"DTLB_LOAD_MISSES.MISS_CAUSES_A_WALK", "", 0x30108, I, 6, "events", PS_EV_WALKS},
		{"DTLB_LOAD_MISSES.WALK_COMPLETED_4K:u", "skl::DTLB_LOAD_MISSES:WALK_COMPLETED_4K",
		 0x10208, I, 6, "events", PS_EV_WALKS_4K},
		{"r0408:u", "raw 0x10408", 0x10408, I, 6, "events", PS_EV_WALKS_2M},
		{"r0808", "raw 0x808", 0x808, I, 6, "events", PS_EV_WALKS_1G},
		{"r11d0:u", "raw 0x111d0", 0x111d0, I, 6, "events", PS_EV_WALKS},
		{"r0e49", "raw 0xe49", 0xe49, I, 6, "events", PS_EV_WALKS},
		{"r2008", "raw 0x2008", 0x2008, I, 6, "events", PS_EV_STLB_HIT},
		{"MEM_INST_RETIRED.ALL_LOADS:u", "", 0x181d0, I, 6, "events", PS_EV_ACCESSES},
		{"r1000e08", "raw 0x1000e08", 0x1000e08, I, 6, "events", PS_EV_OTHER}, /* CMASK */
		{"r800e08", "raw 0x800e08", 0x800e08, I, 6, "events", PS_EV_OTHER},    /* INV */
		{"instructions:u", "skl::INST_RETIRED:ANY_P", 0x100c0, I, 6, "events", PS_EV_OTHER},
		{"cycles", "skl::UNHALTED_CORE_CYCLES", 0x3003c, I, 6, "cycles", PS_EV_TIME},
		{"cpu-clock", "cpu-clock", 0, I, 6, "ns", PS_EV_TIME},
		/* elsewhere, and text inputs: by libpfm4 name, then by name */
		{"r0e08", "raw 0xe08", 0xe08, A, 23, "events", PS_EV_OTHER},
		{"x", "glm::MEM_UOPS_RETIRED:DTLB_MISS_LOADS:k=1", 0, 0, 0, "events", PS_EV_WALKS},
		{"dTLB-load-misses", "", 0, 0, 0, "samples", PS_EV_WALKS},
		{"dtlb_load_misses.walk_completed", "", 0, 0, 0, "events", PS_EV_WALKS},
		{"dtlb_load_misses.walk_completed_4k:u", "", 0, 0, 0, "events", PS_EV_WALKS_4K},
		{"cpu/dtlb_load_misses.walk_completed_2m_4m/", "", 0, 0, 0, "events", PS_EV_OTHER},
		{"dtlb_load_misses.walk_completed_4kx", "", 0, 0, 0, "events", PS_EV_OTHER},
		{"dtlb_store_misses.stlb_hit", "", 0, 0, 0, "events", PS_EV_STLB_HIT},
		{"task-clock", "", 0, 0, 0, "ns", PS_EV_TIME},
		{"", "", 0, 0, 0, "events", PS_EV_OTHER},
	};

	for (size_t i = 0; i < PC_ARRAY_SIZE(t); i++) {
		int k = ps_event_kind(t[i].name, t[i].resolved, t[i].config, t[i].vendor,
				      t[i].family, t[i].unit);
		ck_assert_msg(k == t[i].kind, "row %zu (%s): kind %s, expected %s", i, t[i].name,
			      ps_event_kind_name(k), ps_event_kind_name(t[i].kind));
	}
	ck_assert(ps_event_kind_walks(PS_EV_WALKS) && ps_event_kind_walks(PS_EV_WALKS_4K));
	ck_assert(!ps_event_kind_walks(PS_EV_WALKS_2M) && !ps_event_kind_walks(PS_EV_ACCESSES));
}
END_TEST

START_TEST(test_remain_on_2m)
{
	/* 2M regions within the STLB: compulsory walks only, N2/N4 */
	ck_assert_double_eq_tol(ps_remain_on_2m(16384, 32, 1536), 32.0 / 16384, 1e-12);
	/* beyond it: the uniform miss rates' ratio */
	ck_assert_double_eq_tol(ps_remain_on_2m(1u << 20, 2048, 1536),
				(1 - 1536.0 / 2048) / (1 - 1536.0 / (1u << 20)), 1e-12);
	/* nothing known, or no fewer entries: nothing saved */
	ck_assert_double_eq(ps_remain_on_2m(0, 0, 1536), 1.0);
	ck_assert_double_eq(ps_remain_on_2m(10, 10, 1536), 1.0);
}
END_TEST

START_TEST(test_verdict_walks)
{
	static struct ps_event e;
	const struct ps_tlb *t = ps_tlb_for(NULL);
	const struct ps_verdict_item *it;
	uint64_t b = 0x7f0000000000ull;

	memset(&e, 0, sizeof(e));
	snprintf(e.event, sizeof(e.event), "dtlb-load-misses:u");
	snprintf(e.unit, sizeof(e.unit), "events");
	e.kind = PS_EV_WALKS;
	/* 900 walks on a 64 MiB buffer on 4K pages (16384 pages, 32 regions),
	 * 100 on a small array that fits the TLB */
	add_map(&e, mk_map("[anon]", PS_MAP_ANON, b, b + (64ull << 20), 900, 0, 0, 16384, 32));
	add_map(&e, mk_map("/bin/app", PS_MAP_FILE, 0x600000, 0x604000, 100, 0, 0, 4, 1));
	ps_verdict__decide(&e, t);
	ck_assert_int_eq(e.verdict.answer, PSA_LIKELY);
	ck_assert(!e.verdict.time_event);
	ck_assert_uint_eq(e.verdict.walks, 1000);
	ck_assert_ptr_nonnull(it = item_for(&e, "[anon]"));
	ck_assert_uint_eq(it->walks, 900);
	ck_assert_uint_eq(it->walks_after, 2); /* 900 * 32/16384 = 1.76 */
	ck_assert_uint_eq(e.verdict.walks_after, 102);
	ck_assert_double_eq_tol(ps_verdict__reduction(&e.verdict), 89.8, 1e-9);
	ck_assert_uint_eq(item_for(&e, "/bin/app")->walks, 0);

	/* the same table of a time event predicts no walks */
	e.kind = PS_EV_TIME;
	ps_verdict__decide(&e, t);
	ck_assert_int_eq(e.verdict.answer, PSA_LIKELY);
	ck_assert(e.verdict.time_event);
	ck_assert_uint_eq(e.verdict.walks, 0);
	ck_assert_double_eq(ps_verdict__reduction(&e.verdict), 0.0);

	/* weighted by samples (--weight samples: no periods) */
	e.kind = PS_EV_WALKS_4K;
	e.data.total_weight = 0;
	e.maps[0].weight = e.maps[1].weight = 0;
	ps_verdict__decide(&e, t);
	ck_assert_uint_eq(e.verdict.walks, 1000);
	ck_assert_uint_eq(e.verdict.walks_after, 102);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("hugepages");
	pp_tcase(s, "core", NULL, NULL,
		 PP_TESTS(test_density_full_coverage, test_density_chao1,
			  test_density_uniform_sparse, test_attribution, test_verdict_rules,
			  test_names, test_event_kinds, test_remain_on_2m, test_verdict_walks));
	return s;
}

int main(void)
{
	pc_quiet = 1;
	return pp_check_run(suite());
}
