/* SPDX-License-Identifier: MIT */
/*
 * The page-size answer's data (no code): the per-(event, view) summary that
 * pagesize.c builds from the sample stream, pagemap.c fills with the
 * per-mapping tables, verdict.c judges, and the printers and renderers read
 * (struct pagesize_summary). Everything in it is plain data owned by the
 * summary.
 */
#ifndef PMUCONV_PAGESIZE_TYPES_H
#define PMUCONV_PAGESIZE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sample.h"

/* Which samples a view counts. User and kernel are apart by default: a
 * kernel-mode sample's data address is the kernel's (e.g. clear_page_erms
 * zeroing a new page through the direct map, itself on 1G pages). */
enum ps_view { PS_VIEW_USER = 0, PS_VIEW_KERNEL = 1, PS_VIEW_ALL = 2, PS_VIEW__NR = 3 };

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

/* A function's data accesses: its share and their page sizes. */
struct ps_func {
	char name[256];
	uint64_t samples, weight;
	uint64_t page_samples[PS__NR];
};

/* Distinct pages (4K) or regions (2M) touched, estimated from the sampled
 * addresses: seen is what the samples show; estimate adds the unseen ones
 * (Chao1, bias-corrected: seen + f1(f1-1)/(2(f2+1)) with f1/f2 the pages
 * sampled once/twice), at most the mapping's own count. coverage is the
 * Good-Turing sample coverage 1 - f1/n: the share of accesses that fall in
 * pages the samples have seen; it grades the confidence. */
enum ps_confidence { PS_CONF_HIGH = 0, PS_CONF_MEDIUM = 1, PS_CONF_LOW = 2 };
struct ps_density {
	uint64_t samples, seen, once, twice, estimate, cap;
	double coverage;
	int confidence; /* enum ps_confidence */
};

enum ps_map_kind {
	PS_MAP_ANON = 0, /* anonymous (mmap, malloc's large blocks) */
	PS_MAP_HEAP,	 /* [heap] (brk) */
	PS_MAP_STACK,	 /* [stack] */
	PS_MAP_FILE,	 /* a named file */
	PS_MAP_HUGETLB,	 /* hugetlbfs (MAP_HUGETLB shows as /anon_hugepage) */
	PS_MAP_SPECIAL,	 /* [vdso], [vvar]... */
	PS_MAP_KERNEL,	 /* a kernel address: no process mapping */
	PS_MAP_UNMAPPED, /* no recorded mapping covers the address */
	PS_MAP__NR
};

struct ps_mapping {
	char name[256]; /* path, "[heap]", "[anon]", "[kernel]"... */
	int kind;	/* enum ps_map_kind */
	int32_t pid;
	uint64_t start, end; /* [start, end): the largest extent recorded */
	uint64_t samples, weight;
	uint64_t page_samples[PS__NR], page_weight[PS__NR];
	struct ps_density pages_4k, regions_2m;
};

#define PS_MAP_MAX 12

/* Verdict per mapping with a large share (verdict.c says the rules). */
enum ps_verdict_kind {
	PSV_CANDIDATE = 0, /* on 4K pages, big and eligible: try huge pages */
	PSV_ALREADY_HUGE,  /* already on 2M/1G pages */
	PSV_FITS_TLB,	   /* touches so few pages that the TLB holds them */
	PSV_FILE_BACKED,   /* a file mapping: THP's madvise does not apply */
	PSV_TOO_SMALL,	   /* holds no whole 2 MiB-aligned region */
	PSV_NOT_ELIGIBLE,  /* [vdso], [stack] and the like */
};
enum ps_answer {
	PSA_NO_DATA = 0,  /* no samples with a data address */
	PSA_LIKELY,	  /* at least one candidate */
	PSA_ALREADY_HUGE, /* the large mappings are already huge */
	PSA_NO_CANDIDATE, /* nothing large on 4K pages that huge pages could cover */
	PSA_KERNEL_VIEW,  /* the kernel's own accesses: not the program's pages */
	PSA_NO_MAPS,	  /* the input has no memory maps (perf script text) */
};
struct ps_verdict_item {
	int kind;   /* enum ps_verdict_kind */
	size_t map; /* index into ps_event.maps */
	double share;
	int huge_page;		       /* PS_2M or PS_1G when ALREADY_HUGE */
	uint64_t huge_start, huge_end; /* the 2 MiB-aligned part of the mapping */
	uint64_t tlb_4k, tlb_2m;       /* TLB entries the touched data needs */
	/* walk events (ps_event_kind_walks): the mapping's walks (estimated
	 * events), the share of them 2M pages would leave, and those left */
	uint64_t walks, walks_after;
	double remain;
};
struct ps_verdict {
	int answer;	 /* enum ps_answer */
	bool time_event; /* shares are of time (cpu-clock, cycles...) */
	int ev_kind;	 /* enum ps_ev_kind of the event */
	/* walk events: the view's walks with a data address (estimated events)
	 * and those the candidates on 2M pages would leave */
	uint64_t walks, walks_after;
	size_t nr;
	struct ps_verdict_item item[PS_MAP_MAX];
};

struct ps_event {
	char event[128];
	char unit[32];		 /* what weight counts */
	int kind;		 /* what the event counts: enum ps_ev_kind (tlbevent.c) */
	char walk_event[128];	 /* a time event: the recording's page-walk event, or "" */
	int view;		 /* enum ps_view */
	uint64_t all_samples;	 /* the event's samples in every mode (after filters) */
	uint64_t samples;	 /* the view's samples */
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
	/* top functions over all page sizes, by weight */
	struct ps_func funcs[PS_TOP_MAX];
	size_t nr_funcs;
	/* mappings by weight; the rest summed in other_* */
	struct ps_mapping maps[PS_MAP_MAX];
	size_t nr_maps, other_maps;
	uint64_t other_samples, other_weight;
	bool has_maps; /* the input delivered data addresses (pmuprof) */
	/* kernel first-touch zeroing (clear_page_erms & co) in this view */
	uint64_t zero_samples, zero_weight;
	char zero_fn[128]; /* the heaviest zeroing function */
	struct ps_verdict verdict;
};

/* TLB sizes the verdict measures reach against (tlbinfo.h). */
struct ps_tlb;

struct pagesize_summary {
	const char *source;
	char cpu_model[128];
	bool has_data_addr; /* recorded with PMUPROF_CF_DATA_ADDR */
	bool has_code_page; /* recorded with PMUPROF_CF_CODE_PAGE */
	const struct ps_tlb *tlb;
	double duration_s; /* run time of the recording, 0 if unknown */
	size_t nr_events;  /* one entry per (event, view) */
	struct ps_event *events;
};

#endif
