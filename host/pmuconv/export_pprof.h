/* SPDX-License-Identifier: MIT */
/*
 * The pprof exporter: a consumer of the sample stream that keeps what
 * profile.proto needs (locations with mappings and functions, labels per
 * sample), then writes one gzip-compressed Profile for every event of a
 * pc_set (one sample type per event).
 */
#ifndef PMUCONV_EXPORT_PPROF_H
#define PMUCONV_EXPORT_PPROF_H

#include <stdio.h>
#include "pcagg.h"

struct pprof_acc;

/* mode: enum pc_mode_filter (--kernel-only/--user-only drop frames here as
 * in the profile builder). NULL on ENOMEM. */
struct pprof_acc *pprof_acc__new(int mode);
void pprof_acc__free(struct pprof_acc *p); /* accepts NULL */
/* The stream consumer (ctx: the pprof_acc); wants addresses and ids. */
int pprof_acc__consume(void *ctx, const struct pc_sample *s);
static inline struct pc_consumer pprof_acc__consumer(struct pprof_acc *p)
{
	return (struct pc_consumer){
		.fn = pprof_acc__consume, .ctx = p, .wants_addr = true, .wants_ids = true};
}
/* Write the profile of s's events (names, units, periods, accounting) and
 * the samples seen, gzip-compressed, to out. 0 or a negative errno
 * (-EIO: the output failed). */
int pprof_acc__write(struct pprof_acc *p, const struct pc_set *s, FILE *out);
/* Samples written (after splitting by labels), for the summary line. */
size_t pprof_acc__nr_samples(const struct pprof_acc *p);

#endif
