/* SPDX-License-Identifier: MIT */
/*
 * NUMA placement of a pmuprof recording's data accesses (issue 20): per
 * event, the data page size x data node matrix (samples and shares) and the
 * local/remote split per page size (the sampling CPU's node against the node
 * owning the page), plus why nodes stayed unknown (nodemap.h). `pmuconv
 * pagesize` prints it after the page-size answer (text and --json), the HTML
 * report draws the matrix as a heat table. A recording without a node map
 * (older pmuctl, a kernel without NUMA) has no such section.
 */
#ifndef PMUCONV_NODETAB_H
#define PMUCONV_NODETAB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "input.h"
#include "nodemap.h"
#include "sample.h"

#define PC_NODETAB_MAX_EVENTS 64

struct pc_nodetab_event {
	char name[128];
	uint64_t samples, weight; /* with a data address */
	/* [page][column]: column = node index (nodes[]), nr_nodes = unknown */
	uint64_t *cell_samples, *cell_weight;
	uint64_t loc_samples[PS__NR][PC_LOC__NR], loc_weight[PS__NR][PC_LOC__NR];
	uint64_t why[PC_NODE__NR]; /* samples whose node is unknown, by reason */
};

struct pc_nodetab {
	bool has_map;  /* the recording carries a node map */
	bool has_phys; /* recorded with physical addresses */
	int mode;      /* enum pc_mode_filter the samples were kept by */
	uint32_t nr_nodes;
	int32_t *nodes;	      /* ids, ascending */
	uint64_t *node_bytes; /* memory per node */
	char **node_cpus;     /* "0-3" per node */
	uint32_t nr_events;
	struct pc_nodetab_event ev[PC_NODETAB_MAX_EVENTS];
};

/* Walk the pmuprof file at path with o's filters into t (zeroed by the
 * call). 0 (also for a file without a node map: t->has_map false), or a
 * negative errno with err filled. */
int pc_nodetab__load(struct pc_nodetab *t, const char *path, const struct pc_load_opts *o,
		     char *err, size_t errlen);
void pc_nodetab__free(struct pc_nodetab *t);

/* Share (0..1) of event e's weight in cell (page, column), of its row
 * (row_total) or of the whole event. */
uint64_t pc_nodetab__cell(const struct pc_nodetab *t, const struct pc_nodetab_event *e, int page,
			  uint32_t col, bool weight);

/* The section as text (after `pmuconv pagesize`'s; nothing without a map),
 * or as the value of the "numa" key of its JSON object (null without one). */
int pc_nodetab__print(FILE *out, const struct pc_nodetab *t);
json_t *pc_nodetab__json(const struct pc_nodetab *t);

#endif
