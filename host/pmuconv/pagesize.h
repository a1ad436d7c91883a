/* SPDX-License-Identifier: MIT */
/*
 * Page-size breakdown of samples that carry a data address (pmuctl record
 * --data-addr): per event, the shares of samples on 4K/2M/1G/unknown pages
 * for the data access and for the code (IP) page, with the top symbols and
 * processes per page size. The accumulator is a consumer of the sample
 * stream (sample.h), so it counts whatever input carries the address part
 * (today pmuprof files; perf script and stap have no page sizes).
 *
 * struct pagesize_summary is what the renderer (render_pagesize_svg) and the
 * HTML page consume; everything in it is plain data owned by the summary.
 */
#ifndef PMUCONV_PAGESIZE_H
#define PMUCONV_PAGESIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "sample.h"

extern const char *const ps_page_names[PS__NR]; /* "4K", "2M", "1G", "unknown" */

struct ps_split {
	uint64_t samples[PS__NR];
	uint64_t weight[PS__NR]; /* estimated event counts (sum of periods) */
	uint64_t total_samples, total_weight;
};

struct ps_top {
	char name[256];
	uint64_t samples, weight;
};

#define PS_TOP_MAX 10

struct ps_event {
	char event[128];
	char unit[32];		 /* what weight counts */
	uint64_t samples;	 /* all samples of the event (after filters) */
	uint64_t with_addr;	 /* samples that carried the address part */
	uint64_t no_data_access; /* ...whose instruction had no data address */
	uint64_t addr_status[8]; /* per enum pmuprof_addr_status, samples */
	struct ps_split data;	 /* over samples with a data address */
	struct ps_split code;	 /* over samples with the address part */
	/* top symbols / processes per data page size, by weight, descending */
	struct ps_top top_syms[PS__NR][PS_TOP_MAX];
	size_t nr_top_syms[PS__NR];
	struct ps_top top_procs[PS__NR][PS_TOP_MAX];
	size_t nr_top_procs[PS__NR];
};

struct pagesize_summary {
	const char *source;
	bool has_data_addr; /* recorded with PMUPROF_CF_DATA_ADDR */
	bool has_code_page; /* recorded with PMUPROF_CF_CODE_PAGE */
	size_t nr_events;
	struct ps_event *events;
};

/* The accumulator; mode (enum pc_mode_filter): with --user-only or
 * --kernel-only only the samples taken in that mode count. */
struct pagesize_acc;
struct pc_set;
struct pagesize_acc *pagesize_acc__new(int mode);
void pagesize_acc__free(struct pagesize_acc *a);
/* The stream consumer (ctx: the accumulator); wants the address part. */
int pagesize_acc__consume(void *acc, const struct pc_sample *s);
/* The summary of what was counted, for the events of s (loaded): NULL with
 * errno ENOMEM on failure. */
struct pagesize_summary *pagesize_acc__summarize(const struct pagesize_acc *a,
						 const struct pc_set *s);
void pagesize_summary__free(struct pagesize_summary *s);
int pagesize_print(FILE *out, const struct pagesize_summary *s, int json);

#endif
