/* SPDX-License-Identifier: MIT */
/*
 * Per-event tables computed from a finished pc_agg: functions by self
 * (exclusive: leaf frame) and total (inclusive: anywhere in the stack,
 * recursion counted once), processes (the PROCESS root frames) and CPUs.
 * Used by `report` (text/JSON), `diff` and the renderers.
 */
#ifndef PMUCONV_REPORT_H
#define PMUCONV_REPORT_H

#include <stdio.h>
#include "pcagg.h"

struct pc_func_row {
	const char *name;
	int kind; /* enum pc_frame_kind */
	uint64_t self_samples, self_weight;
	uint64_t total_samples, total_weight;
};

struct pc_group_row {
	char name[64]; /* process name or "cpu N" */
	uint64_t samples, weight;
};

struct pc_report_event {
	const struct pc_agg *agg;
	struct pc_func_row *funcs; /* sorted by self weight, descending */
	size_t nr_funcs;
	struct pc_func_row **by_total; /* same rows sorted by total weight */
	struct pc_group_row *procs;    /* sorted by weight, descending */
	size_t nr_procs;
	struct pc_group_row *cpus; /* ascending cpu number, only CPUs with samples */
	size_t nr_cpus;
	uint64_t no_frame_samples, no_frame_weight; /* stacks with no function frame */
};

int pc_report__build(struct pc_report_event *r, const struct pc_agg *a);
void pc_report__free(struct pc_report_event *r);

/* Human text for a weight unit: "estimated cycles (sum of sample periods)". */
const char *pc_unit_label(const struct pc_agg *a, char *buf, size_t len);
struct render_opts;
/* Title, subtitle (period, samples) and unit label for one event's graph. */
void pc_render_opts(struct render_opts *ro, const struct pc_agg *a, char *sub, size_t sublen,
		    char *unit, size_t unitlen);

struct report_opts {
	size_t top; /* rows per table */
	int json;
	double percent_limit; /* rows below this share are left out (0: none) */
};
int report_print(FILE *out, const struct pc_set *s, const struct report_opts *o);
void report_print_accounting(FILE *out, const struct pc_set *s);

#endif
