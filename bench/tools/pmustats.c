// SPDX-License-Identifier: GPL-2.0
/*
 * pmustats: the session statistics of pmuprof data files, for bench/.
 *
 *   pmustats FILE...
 *
 * For each file prints one line of key=value pairs from its stats frame
 * (GET_STATS at the end of the recording, summed over CPUs) and from a pass
 * over its samples:
 *   file= captured= samples= lost= nmis= throttled= handler_min_ns=
 *   handler_mean_ns= handler_max_ns= hist_runs= p50_ns= p50_hi_ns= p99_ns=
 *   p99_hi_ns= rec_samples= kmode= avg_kframes= avg_uframes= with_addr=
 *   duration_s=
 * The percentiles come from the handler-time histogram (pmuprof_hist_bucket
 * in include/uapi/pmuprof.h: log2 with 4 linear sub-buckets), so each is a
 * bucket [pNN_ns, pNN_hi_ns): about 25 % resolution. min/max/mean are exact.
 * A file without a stats frame prints stats=none. Exit 1 if a file cannot be
 * read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/pmufile/pmufile.h"

struct walk {
	uint64_t samples, kmode, kframes, uframes, with_addr;
	uint64_t t_min, t_max;
};

static int on_record(void *ctx, const struct pmuprof_record_header *rec)
{
	struct walk *w = ctx;
	struct pmufile_sample_view v;

	if (rec->type != PMUPROF_REC_SAMPLE || pmufile__sample_view(rec, &v) != 0)
		return 0;
	w->samples++;
	if (v.s->hdr.misc & PMUPROF_MISC_KERNEL)
		w->kmode++;
	w->kframes += v.s->nr_kstack;
	w->uframes += v.s->nr_ustack;
	if (v.addr)
		w->with_addr++;
	if (!w->t_min || v.s->time_ns < w->t_min)
		w->t_min = v.s->time_ns;
	if (v.s->time_ns > w->t_max)
		w->t_max = v.s->time_ns;
	return 0;
}

/* Bucket holding the q-quantile (0 < q <= 1) of the histogram. */
static unsigned int quantile_bucket(const __u64 *hist, uint64_t total, double q)
{
	uint64_t need = (uint64_t)((double)total * q + 0.999999), cum = 0;
	unsigned int b;

	if (need == 0)
		need = 1;
	for (b = 0; b < PMUPROF_HIST_BUCKETS; b++) {
		cum += hist[b];
		if (cum >= need)
			return b;
	}
	return PMUPROF_HIST_BUCKETS - 1;
}

static uint64_t bucket_hi(unsigned int b)
{
	return b + 1 < PMUPROF_HIST_BUCKETS ? pmuprof_hist_lower(b + 1) : 0;
}

static int one(const char *path)
{
	char err[512] = "";
	struct pmufile *f = pmufile__open(path, PMUFILE_OPEN_SALVAGE, err, sizeof(err));
	const struct pmuprof_cpu_stats *t;
	struct walk w;
	uint64_t runs = 0;
	unsigned int b, b50, b99;

	if (!f) {
		fprintf(stderr, "pmustats: %s: %s\n", path, err);
		return 1;
	}
	memset(&w, 0, sizeof(w));
	if (pmufile__for_each_record(f, on_record, &w, err, sizeof(err)) != 0)
		fprintf(stderr, "pmustats: %s: %s (counting what precedes it)\n", path, err);
	printf("file=%s", path);
	if (f->has_stats) {
		t = &f->stats.total;
		for (b = 0; b < PMUPROF_HIST_BUCKETS; b++)
			runs += t->hist[b];
		printf(" captured=%" PRIu64 " samples=%" PRIu64 " lost=%" PRIu64 " nmis=%" PRIu64
		       " throttled=%" PRIu64 " handler_min_ns=%" PRIu64 " handler_mean_ns=%" PRIu64
		       " handler_max_ns=%" PRIu64 " hist_runs=%" PRIu64,
		       (uint64_t)t->captured, (uint64_t)t->samples, (uint64_t)t->lost,
		       (uint64_t)t->nmis_handled, (uint64_t)t->throttled,
		       (uint64_t)t->handler_ns_min,
		       t->nmis_handled ? (uint64_t)(t->handler_ns_total / t->nmis_handled) : 0,
		       (uint64_t)t->handler_ns_max, runs);
		if (runs) {
			b50 = quantile_bucket(t->hist, runs, 0.50);
			b99 = quantile_bucket(t->hist, runs, 0.99);
			printf(" p50_ns=%" PRIu64 " p50_hi_ns=%" PRIu64 " p99_ns=%" PRIu64
			       " p99_hi_ns=%" PRIu64,
			       (uint64_t)pmuprof_hist_lower(b50), bucket_hi(b50),
			       (uint64_t)pmuprof_hist_lower(b99), bucket_hi(b99));
		}
	} else {
		printf(" stats=none");
	}
	printf(" rec_samples=%" PRIu64 " kmode=%" PRIu64 " avg_kframes=%.1f avg_uframes=%.1f"
	       " with_addr=%" PRIu64 " duration_s=%.3f\n",
	       w.samples, w.kmode, w.samples ? (double)w.kframes / (double)w.samples : 0.0,
	       w.samples ? (double)w.uframes / (double)w.samples : 0.0, w.with_addr,
	       w.t_max > w.t_min ? (double)(w.t_max - w.t_min) / 1e9 : 0.0);
	pmufile__close(f);
	return 0;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout, "usage: pmustats FILE...\n");
		return argc < 2 ? 2 : 0;
	}
	for (i = 1; i < argc; i++)
		rc |= one(argv[i]);
	return rc;
}
