/* SPDX-License-Identifier: MIT */
/*
 * The data node of a sample: which NUMA node owns the physical page a
 * sample's data access hit, and which node the sampling CPU is on, from the
 * node map the recording carries (NUMA frame, lib/pmufile/numa.c). Exact and
 * offline: the map is the machine's sysfs memory blocks at record time.
 * Every lookup is counted, and so is every reason a node stays unknown:
 *   no_map      the recording has no NUMA frame (older pmuctl, no NUMA kernel)
 *   no_phys     the sample has no physical address (an unprivileged session
 *               hides them: docs/HUGEPAGES.md "NUMA placement") and the module
 *               gave no node (a module from before 2026-11-26)
 *   outside     the address lies outside every recorded range (a hole, device
 *               memory, a block that straddles two nodes)
 */
#ifndef PMUCONV_NODEMAP_H
#define PMUCONV_NODEMAP_H

#include <stdbool.h>
#include <stdint.h>

struct pmufile_numa;

enum pc_node_why {
	PC_NODE_OK = 0,
	PC_NODE_NO_MAP = 1,
	PC_NODE_NO_PHYS = 2,
	PC_NODE_OUTSIDE = 3,
	PC_NODE__NR = 4,
};

enum pc_locality {
	PC_LOC_LOCAL = 0,   /* data node == the sampling CPU's node */
	PC_LOC_REMOTE = 1,  /* another node */
	PC_LOC_UNKNOWN = 2, /* either node unknown */
	PC_LOC__NR = 3,
};

struct pc_nodemap {
	const struct pmufile_numa *numa; /* NULL: the recording has none */
	uint64_t lookups;
	uint64_t unknown[PC_NODE__NR]; /* [PC_NODE_OK] unused */
};

/* numa may be NULL (no map: every node unknown, counted as no_map). */
void pc_nodemap__init(struct pc_nodemap *m, const struct pmufile_numa *numa);
/* The node of a sample's data page, or -1 with *why (may be NULL) saying
 * why; counted. phys: its physical address (0: not recorded), resolved
 * with the recorded map (offline, exact); knode1: the node + 1 the module
 * put in the sample (pmuprof_sample_addr.data_node1, 0 unknown), used when
 * there is no physical address to resolve (an unprivileged session) or no
 * map (a machine without sysfs memory blocks). */
int32_t pc_nodemap__data_node(struct pc_nodemap *m, uint64_t phys, unsigned int knode1,
			      enum pc_node_why *why);
/* The node of CPU cpu, -1 if the map does not know it. */
int32_t pc_nodemap__cpu_node(const struct pc_nodemap *m, uint32_t cpu);
/* Local, remote or unknown, from the two nodes. */
enum pc_locality pc_nodemap__locality(int32_t data_node, int32_t cpu_node);
/* Nodes in the map (0 without one) and the id of the i-th, ascending. */
uint32_t pc_nodemap__nr_nodes(const struct pc_nodemap *m);
int32_t pc_nodemap__node_id(const struct pc_nodemap *m, uint32_t i);
/* Position of node in the map's list, or -1. */
int pc_nodemap__node_index(const struct pc_nodemap *m, int32_t node);
/* Short names for the unknown reasons: "no node map", "no physical address",
 * "outside every recorded range". */
const char *pc_nodemap__why_name(enum pc_node_why why);

#endif
