// SPDX-License-Identifier: MIT
/*
 * pscheck: host-side checker for the page-size VM scenarios (issue 6,
 * tests/vm/scenarios/pagesize_*.sh). It reads a `pmuctl record --data-addr`
 * file through lib/pmufile and compares every sample of the pagesizes
 * workload with what the guest itself said is true:
 *
 *   --workload WL   the workload's stdout: its "buffer phase=end" lines
 *                   (name, actual page size, [start,end), accesses, loop_ns)
 *                   and "pagesizes: pid=P"
 *   --smaps FILE    /proc/PID/smaps of the workload, captured while it ran:
 *                   the page size backing its text (KernelPageSize, and
 *                   FilePmdMapped/AnonHugePages/ShmemPmdMapped for THP)
 *   --ktext FILE    pskwalk's map of the kernel text as the guest's own page
 *                   tables map it: lines "kmap START END 4K|2M|1G"
 *
 * Checks (one line each: "PASS NAME detail", "FAIL NAME detail" or
 * "SKIP NAME detail"; exit 0 if nothing FAILed, 1 otherwise, 2 on bad input):
 *   addr-in-buffers  >= --min-in-buffers % (default 95) of the workload's
 *                    user-mode samples with a decoded data address lie in
 *                    one of its buffers
 *   data-page        each such in-buffer sample's data page size is the
 *                    buffer's real page size (all of them)
 *   phys-present     the in-buffer samples carry a physical address
 *   phys-offset      PA mod page size == VA mod page size (all of them)
 *   phys-stable      all samples in one page of a buffer give the same
 *                    physical page (the translation did not wander)
 *   code-page-user   user-mode samples whose IP is in the workload's text
 *                    report the page size smaps gives for that text
 *   code-page-kernel kernel-mode samples whose IP is in the kernel text
 *                    report the page size pskwalk found for that address
 * and "EXPECT" lines with the truth for the share comparisons made by the
 * scenario's host script against `pmuconv pagesize`:
 *   EXPECT page=4K|2M|1G access_pct=X time_pct=Y
 *   EXPECT-CODE mode=user|kernel page=4K|2M|1G truth_pct=X unverified_pct=Y
 * (code: the share of the workload's user/kernel samples whose IP the guest's
 * truth puts on that page size; unverified: IPs outside both texts)
 * (access_pct from the workload's access counts, time_pct from the time it
 * spent in each buffer's loop; -1 when the workload did not report it).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pmufile/pmufile.h"
#include "tests/tools/common.h"
#include "tests/tools/opts.h"

#define MAX_BUFS  8
#define MAX_KMAP  4096
#define MAX_UTEXT 64

static const char *const page_name[] = {"unknown", "4K", "2M", "1G"};
static const unsigned int page_shift[] = {0, 12, 21, 30};

struct wbuf {
	char name[16];
	char actual[16];
	uint64_t start, end, accesses, loop_ns;
	unsigned int page; /* enum pmuprof_page_size, UNKNOWN if mixed */
	/* checking state */
	uint64_t hits;
	uint64_t *pa_page; /* per page of the buffer: PA of the page + 1, 0 = unseen */
	size_t nr_pages;
};

struct range {
	uint64_t start, end;
	unsigned int page;
};

struct ctx {
	int32_t pid;
	struct wbuf buf[MAX_BUFS];
	int nr_buf;
	struct range kmap[MAX_KMAP];
	int nr_kmap;
	struct range utext[MAX_UTEXT];
	int nr_utext;
	/* counts */
	uint64_t samples, pid_samples, user, kernel;
	uint64_t user_addr, in_buf, not_in_buf, not_in_buf_shown;
	uint64_t data_page_bad, phys_missing, phys_with, phys_offset_bad, phys_unstable;
	uint64_t utext_ok, utext_bad, utext_unverified;
	uint64_t ktext_ok, ktext_bad, ktext_outside;
	uint64_t utext_by[4], ktext_by[4];
	uint64_t utruth_by[4], ktruth_by[4], u_code, k_code; /* truth per IP, for the shares */
	unsigned int shown;
};

static unsigned int page_from_name(const char *s)
{
	if (!strcmp(s, "4k"))
		return PMUPROF_PAGE_4K;
	if (!strcmp(s, "2m") || !strcmp(s, "thp"))
		return PMUPROF_PAGE_2M;
	if (!strcmp(s, "1g"))
		return PMUPROF_PAGE_1G;
	return PMUPROF_PAGE_UNKNOWN;
}

static unsigned int page_from_label(const char *s)
{
	for (unsigned int p = 1; p < 4; p++)
		if (!strcmp(s, page_name[p]))
			return p;
	return PMUPROF_PAGE_UNKNOWN;
}

/* "key=value" from a line of key=value words; copies up to n-1 chars. */
static bool kv(const char *line, const char *key, char *out, size_t n)
{
	size_t kl = strlen(key);

	for (const char *p = line; (p = strstr(p, key)); p++) {
		if ((p == line || p[-1] == ' ') && p[kl] == '=') {
			size_t i = 0;
			p += kl + 1;
			while (p[i] && p[i] != ' ' && p[i] != '\n' && i + 1 < n) {
				out[i] = p[i];
				i++;
			}
			out[i] = 0;
			return true;
		}
	}
	return false;
}

static uint64_t kv_u64(const char *line, const char *key, bool *ok)
{
	char v[64];

	if (!kv(line, key, v, sizeof(v))) {
		*ok = false;
		return 0;
	}
	return strtoull(v, NULL, 0);
}

static int load_workload(struct ctx *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f) {
		fprintf(stderr, "pscheck: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	c->pid = -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "pagesizes: pid=", 15)) {
			c->pid = (int32_t)strtol(line + 15, NULL, 10);
			continue;
		}
		if (strncmp(line, "buffer phase=end ", 17) || c->nr_buf >= MAX_BUFS)
			continue;
		struct wbuf *b = &c->buf[c->nr_buf];
		bool ok = true;
		memset(b, 0, sizeof(*b));
		if (!kv(line, "name", b->name, sizeof(b->name)) ||
		    !kv(line, "actual", b->actual, sizeof(b->actual)))
			ok = false;
		b->start = kv_u64(line, "start", &ok);
		b->end = kv_u64(line, "end", &ok);
		b->accesses = kv_u64(line, "accesses", &ok);
		bool has_ns = true;
		b->loop_ns = kv_u64(line, "loop_ns", &has_ns); /* older workloads: absent */
		if (!ok || b->end <= b->start) {
			fprintf(stderr, "pscheck: %s: cannot parse: %s", path, line);
			fclose(f);
			return -EINVAL;
		}
		b->page = page_from_name(b->actual);
		if (b->page != PMUPROF_PAGE_UNKNOWN) {
			b->nr_pages =
				(size_t)((b->end - b->start + (1ull << page_shift[b->page]) - 1) >>
					 page_shift[b->page]);
			b->pa_page = calloc(b->nr_pages, sizeof(*b->pa_page));
			if (!b->pa_page) {
				fclose(f);
				return -ENOMEM;
			}
		}
		c->nr_buf++;
	}
	fclose(f);
	if (c->pid < 0 || !c->nr_buf) {
		fprintf(stderr,
			"pscheck: %s: no \"pagesizes: pid=\" line or no \"buffer phase=end\" "
			"lines (did the workload finish?)\n",
			path);
		return -EINVAL;
	}
	return 0;
}

/* Executable mappings of the workload from its smaps and the page size that
 * backs each (UNKNOWN when partly huge: then it cannot be checked per IP). */
static int load_smaps(struct ctx *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	struct range *cur = NULL;
	unsigned long kps = 0, pmd = 0, rss = 0;

	if (!f) {
		fprintf(stderr, "pscheck: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	for (;;) {
		char *got = fgets(line, sizeof(line), f);
		unsigned long long s, e;
		char perms[8];
		unsigned long v;

		if (!got || sscanf(line, "%llx-%llx %7s", &s, &e, perms) == 3) {
			if (cur) { /* close the previous executable mapping */
				if (kps == 4 && pmd == 0)
					cur->page = PMUPROF_PAGE_4K;
				else if (kps == 2048 || (kps == 4 && pmd && pmd == rss))
					cur->page = PMUPROF_PAGE_2M;
				else if (kps == 1048576)
					cur->page = PMUPROF_PAGE_1G;
				else
					cur->page = PMUPROF_PAGE_UNKNOWN;
				printf("INFO utext %#llx-%#llx KernelPageSize=%lukB "
				       "pmd_mapped=%lukB "
				       "rss=%lukB -> %s\n",
				       (unsigned long long)cur->start, (unsigned long long)cur->end,
				       kps, pmd, rss, page_name[cur->page]);
				cur = NULL;
			}
			if (!got)
				break;
			if (strchr(perms, 'x') && strstr(line, "pagesizes") &&
			    c->nr_utext < MAX_UTEXT) {
				cur = &c->utext[c->nr_utext++];
				cur->start = s;
				cur->end = e;
				kps = pmd = rss = 0;
			}
			continue;
		}
		if (!cur)
			continue;
		if (sscanf(line, "KernelPageSize: %lu kB", &v) == 1)
			kps = v;
		else if (sscanf(line, "Rss: %lu kB", &v) == 1)
			rss = v;
		else if (sscanf(line, "FilePmdMapped: %lu kB", &v) == 1 ||
			 sscanf(line, "ShmemPmdMapped: %lu kB", &v) == 1 ||
			 sscanf(line, "AnonHugePages: %lu kB", &v) == 1)
			pmd += v;
	}
	fclose(f);
	if (!c->nr_utext) {
		fprintf(stderr, "pscheck: %s: no executable mapping of pagesizes\n", path);
		return -EINVAL;
	}
	return 0;
}

static int load_ktext(struct ctx *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];

	if (!f) {
		fprintf(stderr, "pscheck: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;
		char pg[16];

		if (sscanf(line, "kmap %llx %llx %15s", &s, &e, pg) != 3 || c->nr_kmap >= MAX_KMAP)
			continue;
		c->kmap[c->nr_kmap++] = (struct range){s, e, page_from_label(pg)};
	}
	fclose(f);
	if (!c->nr_kmap) {
		fprintf(stderr, "pscheck: %s: no \"kmap\" lines\n", path);
		return -EINVAL;
	}
	return 0;
}

static const struct range *find_range(const struct range *r, int n, uint64_t a)
{
	for (int i = 0; i < n; i++)
		if (a >= r[i].start && a < r[i].end)
			return &r[i];
	return NULL;
}

static void check_code(struct ctx *c, const struct pmufile_sample_view *v, bool kmode)
{
	const struct pmuprof_sample_addr *ad = v->addr;
	unsigned int got = ad->code_page < 4 ? ad->code_page : 0;
	const struct range *r;

	if (kmode) {
		if (!c->nr_kmap)
			return;
		c->k_code++;
		r = find_range(c->kmap, c->nr_kmap, v->s->ip);
		if (!r) {
			c->ktext_outside++;
			return;
		}
		c->ktruth_by[r->page]++;
		c->ktext_by[got]++;
		if (got == r->page) {
			c->ktext_ok++;
		} else {
			c->ktext_bad++;
			if (c->shown++ < 10)
				printf("INFO kernel ip %#" PRIx64 ": code page %s, the page tables "
				       "say %s\n",
				       (uint64_t)v->s->ip, page_name[got], page_name[r->page]);
		}
		return;
	}
	if (!c->nr_utext)
		return;
	c->u_code++;
	r = find_range(c->utext, c->nr_utext, v->s->ip);
	if (!r)
		return;
	c->utruth_by[r->page]++;
	c->utext_by[got]++;
	if (r->page == PMUPROF_PAGE_UNKNOWN)
		c->utext_unverified++;
	else if (got == r->page)
		c->utext_ok++;
	else
		c->utext_bad++;
}

static void check_data(struct ctx *c, const struct pmufile_sample_view *v)
{
	const struct pmuprof_sample_addr *ad = v->addr;
	uint64_t va = (uint64_t)ad->data_addr;
	struct wbuf *b = NULL;

	c->user_addr++;
	for (int i = 0; i < c->nr_buf; i++)
		if (va >= c->buf[i].start && va < c->buf[i].end)
			b = &c->buf[i];
	if (!b) {
		c->not_in_buf++;
		if (c->not_in_buf_shown++ < 5)
			printf("INFO outside the buffers: ip %#" PRIx64 " data %#" PRIx64
			       " page %s\n",
			       (uint64_t)v->s->ip, va,
			       page_name[ad->data_page < 4 ? ad->data_page : 0]);
		return;
	}
	c->in_buf++;
	b->hits++;
	if (b->page == PMUPROF_PAGE_UNKNOWN)
		return; /* mixed THP: no single truth */
	if (ad->data_page != b->page) {
		if (c->data_page_bad++ < 5)
			printf("INFO %s buffer: data %#" PRIx64 " reported on a %s page, the "
			       "buffer is on %s pages\n",
			       b->name, va, page_name[ad->data_page < 4 ? ad->data_page : 0],
			       page_name[b->page]);
	}
	if (!ad->data_phys) {
		c->phys_missing++;
		return;
	}
	c->phys_with++;
	uint64_t mask = (1ull << page_shift[b->page]) - 1;
	if ((ad->data_phys & mask) != (va & mask)) {
		if (c->phys_offset_bad++ < 5)
			printf("INFO %s buffer: VA %#" PRIx64 " PA %#" PRIx64
			       ": offsets within the %s page differ\n",
			       b->name, va, (uint64_t)ad->data_phys, page_name[b->page]);
	}
	size_t idx = (size_t)((va - b->start) >> page_shift[b->page]);
	uint64_t pa_page = (ad->data_phys & ~mask) + 1;
	if (idx < b->nr_pages) {
		if (!b->pa_page[idx])
			b->pa_page[idx] = pa_page;
		else if (b->pa_page[idx] != pa_page && c->phys_unstable++ < 5)
			printf("INFO %s buffer: VA page %#" PRIx64 " seen at PA %#" PRIx64
			       " and %#" PRIx64 "\n",
			       b->name, va & ~mask, b->pa_page[idx] - 1, pa_page - 1);
	}
}

static int on_record(void *arg, const struct pmuprof_record_header *rec)
{
	struct ctx *c = arg;
	struct pmufile_sample_view v;

	if (rec->type != PMUPROF_REC_SAMPLE || pmufile__sample_view(rec, &v))
		return 0;
	c->samples++;
	if ((int32_t)v.s->pid != c->pid)
		return 0;
	c->pid_samples++;
	bool kmode = v.s->hdr.misc & PMUPROF_MISC_KERNEL;
	if (kmode)
		c->kernel++;
	else
		c->user++;
	if (!v.addr)
		return 0;
	check_code(c, &v, kmode);
	if (!kmode && v.addr->addr_status == PMUPROF_ADDR_OK && v.addr->data_addr)
		check_data(c, &v);
	return 0;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static int nfail;

static void result(bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void result(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s %s ", ok ? "PASS" : "FAIL", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	nfail += !ok;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: pscheck FILE --workload WL.txt [--smaps SMAPS] [--ktext KTEXT]\n"
		   "               [--min-samples N] [--min-in-buffers PCT] [--min-kernel N]\n");
}

int main(int argc, char **argv)
{
	static struct ctx c;
	const char *wl = NULL, *smaps = NULL, *ktext = NULL;
	uint64_t min_samples = 500, min_kernel = 20;
	double min_in = 95.0;
	char err[512];
	int opt;
	static const struct option lo[] = {{"workload", required_argument, 0, 'w'},
					   {"smaps", required_argument, 0, 's'},
					   {"ktext", required_argument, 0, 'k'},
					   {"min-samples", required_argument, 0, 'n'},
					   {"min-in-buffers", required_argument, 0, 'i'},
					   {"min-kernel", required_argument, 0, 'K'},
					   {"help", no_argument, 0, 'h'},
					   {0, 0, 0, 0}};

	TT_OPTS(o, TT_STR('w', &wl), TT_STR('s', &smaps), TT_STR('k', &ktext),
		TT_U64('n', &min_samples), TT_DBL('i', &min_in), TT_U64('K', &min_kernel));

	opt = tt_opts_next(argc, argv, "h", lo, o, "pscheck");
	if (opt != -1) /* -h, or an option it does not know */
		return tt_usage(opt, usage);
	if (optind + 1 != argc || !wl) {
		usage(stderr);
		return 2;
	}
	if (load_workload(&c, wl) || (smaps && load_smaps(&c, smaps)) ||
	    (ktext && load_ktext(&c, ktext)))
		return 2;

	struct pmufile *f = pmufile__open(argv[optind], PMUFILE_OPEN_VERIFY, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "pscheck: %s\n", err);
		return 2;
	}
	if (pmufile__for_each_record(f, on_record, &c, err, sizeof(err))) {
		fprintf(stderr, "pscheck: %s\n", err);
		pmufile__close(f);
		return 2;
	}
	pmufile__close(f);

	/* truth for the share comparison */
	uint64_t acc_tot = 0, ns_tot = 0, acc_by[4] = {0}, ns_by[4] = {0};
	for (int i = 0; i < c.nr_buf; i++) {
		struct wbuf *b = &c.buf[i];
		acc_tot += b->accesses;
		ns_tot += b->loop_ns;
		acc_by[b->page] += b->accesses;
		ns_by[b->page] += b->loop_ns;
		printf("INFO buffer %s actual=%s [%#" PRIx64 ",%#" PRIx64 ") accesses=%" PRIu64
		       " loop_ns=%" PRIu64 " samples_in_buffer=%" PRIu64 "\n",
		       b->name, b->actual, b->start, b->end, b->accesses, b->loop_ns, b->hits);
	}
	for (unsigned int p = 0; p < 4; p++)
		if (acc_by[p] || ns_by[p])
			printf("EXPECT page=%s access_pct=%.2f time_pct=%.2f\n", page_name[p],
			       pct(acc_by[p], acc_tot), ns_tot ? pct(ns_by[p], ns_tot) : -1.0);
	/* truth for the code-page shares: by IP, from smaps / pskwalk; samples
	 * whose IP is in neither text (vdso, modules) have no truth here */
	for (unsigned int p = 1; p < 4; p++) {
		if (c.u_code)
			printf("EXPECT-CODE mode=user page=%s truth_pct=%.2f unverified_pct=%.2f\n",
			       page_name[p], pct(c.utruth_by[p], c.u_code),
			       pct(c.u_code - c.utruth_by[1] - c.utruth_by[2] - c.utruth_by[3] -
					   c.utruth_by[0],
				   c.u_code));
		if (c.k_code)
			printf("EXPECT-CODE mode=kernel page=%s truth_pct=%.2f "
			       "unverified_pct=%.2f\n",
			       page_name[p], pct(c.ktruth_by[p], c.k_code),
			       pct(c.ktext_outside + c.ktruth_by[0], c.k_code));
	}
	printf("INFO samples=%" PRIu64 " workload pid=%d: %" PRIu64 " (user %" PRIu64
	       ", kernel %" PRIu64 "), user with a data address %" PRIu64 "\n",
	       c.samples, c.pid, c.pid_samples, c.user, c.kernel, c.user_addr);

	if (c.user_addr < min_samples)
		result(false, "addr-in-buffers",
		       "only %" PRIu64 " user-mode samples of pid %d with a data address "
		       "(want >= %" PRIu64 ")",
		       c.user_addr, c.pid, min_samples);
	else
		result(pct(c.in_buf, c.user_addr) >= min_in, "addr-in-buffers",
		       "%" PRIu64 " of %" PRIu64 " (%.2f%%, want >= %.0f%%) user-mode data "
		       "addresses lie in the workload's buffers",
		       c.in_buf, c.user_addr, pct(c.in_buf, c.user_addr), min_in);
	result(c.in_buf && !c.data_page_bad, "data-page",
	       "%" PRIu64 " of %" PRIu64 " in-buffer samples on the wrong page size",
	       c.data_page_bad, c.in_buf);
	result(c.in_buf && pct(c.phys_with, c.in_buf) >= 99.0, "phys-present",
	       "%" PRIu64 " of %" PRIu64 " in-buffer samples carry a physical address", c.phys_with,
	       c.in_buf);
	result(c.phys_with && !c.phys_offset_bad, "phys-offset",
	       "%" PRIu64 " of %" PRIu64 " physical addresses disagree with the VA's "
	       "offset within the page",
	       c.phys_offset_bad, c.phys_with);
	result(c.phys_with && !c.phys_unstable, "phys-stable",
	       "%" PRIu64 " samples saw a buffer page at a different physical page",
	       c.phys_unstable);
	if (smaps) {
		uint64_t n = c.utext_ok + c.utext_bad;
		if (c.utext_unverified && !n)
			printf("SKIP code-page-user the workload's text is partly on huge pages; "
			       "no single truth per IP\n");
		else
			result(n >= min_samples && !c.utext_bad, "code-page-user",
			       "%" PRIu64 " of %" PRIu64 " user samples in the workload's text "
			       "agree with smaps (reported 4K %" PRIu64 ", 2M %" PRIu64
			       ", 1G %" PRIu64 ", unknown %" PRIu64 ")",
			       c.utext_ok, n, c.utext_by[1], c.utext_by[2], c.utext_by[3],
			       c.utext_by[0]);
	}
	if (ktext) {
		uint64_t n = c.ktext_ok + c.ktext_bad;
		result(n >= min_kernel && !c.ktext_bad, "code-page-kernel",
		       "%" PRIu64 " of %" PRIu64 " kernel samples in the kernel text agree with "
		       "the guest's page tables (reported 4K %" PRIu64 ", 2M %" PRIu64
		       ", 1G %" PRIu64 ", unknown %" PRIu64 "; %" PRIu64
		       " kernel samples outside the text, e.g. modules, not checked; want >= "
		       "%" PRIu64 " checked)",
		       c.ktext_ok, n, c.ktext_by[1], c.ktext_by[2], c.ktext_by[3], c.ktext_by[0],
		       c.ktext_outside, min_kernel);
	}
	for (int i = 0; i < c.nr_buf; i++)
		free(c.buf[i].pa_page);
	return nfail ? 1 : 0;
}
