/* SPDX-License-Identifier: MIT */
/*
 * Page-size breakdown of samples that carry a data address (pmuctl record
 * --data-addr): per event, the shares of samples on 4K/2M/1G/unknown pages
 * for the data access and for the code (IP) page, with the top symbols and
 * processes per page size. Built from pmuprof files only (perf script and
 * stap have no page sizes).
 *
 * struct pagesize_summary is what the renderer (render_pagesize_svg) and the
 * HTML page consume; everything in it is plain data owned by the summary.
 */
#ifndef PMUCONV_PAGESIZE_H
#define PMUCONV_PAGESIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum ps_page {
	PS_4K = 0,
	PS_2M = 1,
	PS_1G = 2,
	PS_UNKNOWN = 3, /* not mapped, or the page walk failed */
	PS__NR = 4,
};
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

/* Collection during the native pass (input_pmufile.c). */
struct pagesize_acc;
struct pagesize_acc *pagesize_acc__new(void);
void pagesize_acc__free(struct pagesize_acc *a);
struct pmufile_sample_view;
/* Count one sample (ev: event index; weight already chosen by --weight). */
int pagesize_acc__add(struct pagesize_acc *a, uint32_t ev, const struct pmufile_sample_view *v,
		      uint64_t weight);

/* Leaf symbol resolver the summary uses (input_pmufile.c provides it with
 * the same cache as the stacks). kernel: the IP was a kernel address. */
typedef const char *(*ps_resolve_fn)(void *ctx, int32_t pid, uint64_t ip, uint64_t t, int kernel);
/* Resolve leaf symbols and build the summary (kept in the accumulator until
 * taken). Returns 0 or a negative errno. */
int pagesize_acc__summarize(struct pagesize_acc *a, ps_resolve_fn resolve, void *ctx,
			    const char *source, bool has_data_addr, bool has_code_page,
			    const char *const *event_names, const char *const *units,
			    size_t nr_events);
/* Move the summary out of the accumulator (NULL if none was built). */
struct pagesize_summary *pagesize_take_summary(struct pagesize_acc *a);
void pagesize_summary__free(struct pagesize_summary *s);
int pagesize_print(FILE *out, const struct pagesize_summary *s, int json);

#endif
