/* SPDX-License-Identifier: MIT */
/*
 * One resolved pmuprof sample at a time, in file order: what `pmuconv
 * script` prints and what the perf-style `report --sort` table groups by
 * (process, thread, CPU, time, every frame's symbol and DSO, page sizes,
 * NUMA nodes).
 * The profile pipeline (input_pmufile.c) merges identical stacks before
 * symbolizing for speed and so drops these per-sample fields; this walk
 * keeps them, at the cost of resolving every frame of every sample kept.
 * The filters are the same (pc_filter): event, pid, comm, CPU list, time
 * range, --dso/--symbol on the sampled IP, --kernel-only/--user-only.
 */
#ifndef PMUCONV_SAMPLEWALK_H
#define PMUCONV_SAMPLEWALK_H

#include "input.h"
#include "nodemap.h"
#include "where.h"

struct pc_rec_frame {
	uint64_t ip;
	struct pc_where w;
};

struct pc_rec {
	uint32_t event; /* index into pc_walk_info.events */
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t time_ns, period;
	char comm[17];
	bool kernel_mode;
	bool has_addr; /* carried a data-address part */
	uint64_t data_addr;
	uint8_t data_page, code_page; /* enum ps_page; data_page PS_NONE: no access */
	/* the data access's physical address (0: not recorded) and NUMA nodes
	 * (nodemap.h): of the page it hit and of the sampling CPU, -1 unknown
	 * (node_why says why for the data node) */
	uint64_t data_phys;
	int32_t data_node, cpu_node;
	uint8_t node_why;		   /* enum pc_node_why */
	const struct pc_rec_frame *frames; /* innermost first */
	uint32_t nr;
};

#define PC_WALK_MAX_EVENTS 64
struct pc_walk_info {
	uint32_t nr_events;
	char events[PC_WALK_MAX_EVENTS][128]; /* names, by event index */
	bool has_stacks;		      /* recorded with call stacks (-g) */
	bool has_addr, has_code_page;	      /* recorded with data addresses / code pages */
	bool has_phys;			      /* with physical addresses (privileged) */
	struct pc_nodemap *nodes;	      /* the recorded node map (counts lookups) */
};

#define PC_WALK_STOP 1
struct pc_walk_ops {
	/* once, after the file's metadata is read; 0, a negative errno, or
	 * PC_WALK_STOP: nothing to do, the walk ends there without an error */
	int (*begin)(void *ctx, const struct pc_walk_info *info);
	/* each sample the filters keep; 0 or a negative errno (stops the walk) */
	int (*sample)(void *ctx, const struct pc_rec *r);
	/* no warnings about damage or missing binaries (a second pass after
	 * pc_load() has given them) */
	bool quiet;
	/* frames of their own for functions inlined at user frames (DWARF,
	 * srcinline.h), before the frame they are inlined in, at its address,
	 * unless --no-inline: what perf script prints */
	bool inline_frames;
	/* the consumer reads no frames: r->nr is 0 and nothing is symbolized
	 * (except the sampled IP when --dso/--symbol must match it); the mode
	 * filters (--user-only, --kernel-only) are then the consumer's job */
	bool no_frames;
};

/* Walk the pmuprof file at path. Returns 0, or a negative errno with err
 * filled (not a pmuprof file, damage without --salvage, no such event). */
int pc_walk_samples(const char *path, const struct pc_load_opts *o, const struct pc_walk_ops *ops,
		    void *ctx, char *err, size_t errlen);

#endif
