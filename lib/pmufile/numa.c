// SPDX-License-Identifier: MIT
/*
 * The NUMA frame (docs/FORMAT.md, "NUMA"): the recording machine's node
 * layout (node of each CPU, node of each physical address range), its
 * checks, its encoding and decoding, and the lookups consumers resolve a
 * sample's physical data address and CPU with.
 *
 *   u32 nr_nodes, nr_cpus, nr_ranges, flags
 *   u64 block_size
 *   u32 nodes[nr_nodes]
 *   i32 cpu_node[nr_cpus]
 *   { u64 start, end; u32 node, reserved }[nr_ranges]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/pmufile/bsearch.h"
#include "lib/pmufile/format.h"
#include "lib/pmufile/pmufile.h"

#define NUMA_FIXED	 24u /* the four u32 and block_size */
#define NUMA_RANGE_BYTES 24u

static bool has_node(const struct pmufile_numa *n, int32_t node)
{
	size_t i = PMUFILE_PARTITION(n->nr_nodes, m, n->nodes[m] < node);

	return i < n->nr_nodes && n->nodes[i] == node;
}

const char *pmufile__numa_check(const struct pmufile_numa *n)
{
	static __thread char why[160];

	if (!n->nr_nodes || n->nr_nodes > PMUFILE_MAX_NUMA_NODES)
		return "node count must be 1..1024";
	if (n->nr_cpus > PMUPROF_MAX_CPUS)
		return "more CPUs than PMUPROF_MAX_CPUS (1024)";
	if (n->nr_ranges > PMUFILE_MAX_NUMA_RANGES)
		return "more than 16384 physical ranges";
	for (uint32_t i = 0; i < n->nr_nodes; i++) {
		if (n->nodes[i] < 0 || n->nodes[i] >= (int32_t)PMUFILE_MAX_NUMA_NODES ||
		    (i && n->nodes[i] <= n->nodes[i - 1])) {
			snprintf(why, sizeof(why),
				 "node id %" PRId32
				 " (entry %u) is not in 0..1023 or not ascending",
				 n->nodes[i], i);
			return why;
		}
	}
	for (uint32_t i = 0; i < n->nr_cpus; i++) {
		if (n->cpu_node[i] != -1 && !has_node(n, n->cpu_node[i])) {
			snprintf(why, sizeof(why),
				 "CPU %u is on node %" PRId32 ", not in the node list", i,
				 n->cpu_node[i]);
			return why;
		}
	}
	for (uint32_t i = 0; i < n->nr_ranges; i++) {
		const struct pmufile_numa_range *r = &n->ranges[i];

		if (r->start >= r->end || (i && r->start < n->ranges[i - 1].end)) {
			snprintf(why, sizeof(why),
				 "physical range %u [0x%" PRIx64 ", 0x%" PRIx64
				 ") is empty, or overlaps or precedes the one before",
				 i, r->start, r->end);
			return why;
		}
		if (!has_node(n, r->node)) {
			snprintf(why, sizeof(why),
				 "physical range %u names node %" PRId32 ", not in the node list",
				 i, r->node);
			return why;
		}
	}
	return NULL;
}

size_t pmufile__numa_size(const struct pmufile_numa *n)
{
	return NUMA_FIXED + 4u * n->nr_nodes + 4u * n->nr_cpus +
	       (size_t)NUMA_RANGE_BYTES * n->nr_ranges;
}

void pmufile__numa_encode(const struct pmufile_numa *n, uint8_t *p)
{
	pf_put32(p, n->nr_nodes);
	pf_put32(p + 4, n->nr_cpus);
	pf_put32(p + 8, n->nr_ranges);
	pf_put32(p + 12, n->flags);
	pf_put64(p + 16, n->block_size);
	p += NUMA_FIXED;
	for (uint32_t i = 0; i < n->nr_nodes; i++, p += 4)
		pf_put32(p, (uint32_t)n->nodes[i]);
	for (uint32_t i = 0; i < n->nr_cpus; i++, p += 4)
		pf_put32(p, (uint32_t)n->cpu_node[i]);
	for (uint32_t i = 0; i < n->nr_ranges; i++, p += NUMA_RANGE_BYTES) {
		pf_put64(p, n->ranges[i].start);
		pf_put64(p + 8, n->ranges[i].end);
		pf_put32(p + 16, (uint32_t)n->ranges[i].node);
		pf_put32(p + 20, 0);
	}
}

const char *pmufile__numa_decode(const uint8_t *p, size_t len, struct pmufile_numa *out, char *why,
				 size_t whylen)
{
	struct pmufile_numa n = {0};
	const char *bad;

	memset(out, 0, sizeof(*out));
	if (len < NUMA_FIXED) {
		pmufile__set_err(why, whylen, "payload is %zu bytes, expected at least %u", len,
				 NUMA_FIXED);
		return why;
	}
	n.nr_nodes = pf_get32(p);
	n.nr_cpus = pf_get32(p + 4);
	n.nr_ranges = pf_get32(p + 8);
	n.flags = pf_get32(p + 12);
	n.block_size = pf_get64(p + 16);
	if (n.nr_nodes > PMUFILE_MAX_NUMA_NODES || n.nr_cpus > PMUPROF_MAX_CPUS ||
	    n.nr_ranges > PMUFILE_MAX_NUMA_RANGES) {
		pmufile__set_err(why, whylen,
				 "%u nodes, %u CPUs, %u ranges; expected at most %u, %u, %u",
				 n.nr_nodes, n.nr_cpus, n.nr_ranges, PMUFILE_MAX_NUMA_NODES,
				 PMUPROF_MAX_CPUS, PMUFILE_MAX_NUMA_RANGES);
		return why;
	}
	if (pmufile__numa_size(&n) > len) {
		pmufile__set_err(
			why, whylen,
			"%u nodes, %u CPUs and %u ranges need %zu bytes but the payload has %zu",
			n.nr_nodes, n.nr_cpus, n.nr_ranges, pmufile__numa_size(&n), len);
		return why;
	}
	n.nodes = calloc(n.nr_nodes ? n.nr_nodes : 1, sizeof(*n.nodes));
	n.cpu_node = calloc(n.nr_cpus ? n.nr_cpus : 1, sizeof(*n.cpu_node));
	n.ranges = calloc(n.nr_ranges ? n.nr_ranges : 1, sizeof(*n.ranges));
	if (!n.nodes || !n.cpu_node || !n.ranges) {
		pmufile__numa_free(&n);
		pmufile__set_err(why, whylen, "out of memory");
		return why;
	}
	p += NUMA_FIXED;
	for (uint32_t i = 0; i < n.nr_nodes; i++, p += 4)
		n.nodes[i] = (int32_t)pf_get32(p);
	for (uint32_t i = 0; i < n.nr_cpus; i++, p += 4)
		n.cpu_node[i] = (int32_t)pf_get32(p);
	for (uint32_t i = 0; i < n.nr_ranges; i++, p += NUMA_RANGE_BYTES) {
		n.ranges[i].start = pf_get64(p);
		n.ranges[i].end = pf_get64(p + 8);
		n.ranges[i].node = (int32_t)pf_get32(p + 16);
	}
	bad = pmufile__numa_check(&n);
	if (bad) {
		pmufile__set_err(why, whylen, "%s", bad);
		pmufile__numa_free(&n);
		return why;
	}
	*out = n;
	return NULL;
}

int pmufile__numa_node_of(const struct pmufile_numa *n, uint64_t phys)
{
	size_t lo;

	/* one node and no memory blocks in sysfs (no memory hotplug): all
	 * memory is that node's */
	if (n->nr_nodes == 1 && !n->nr_ranges)
		return n->nodes[0];
	/* the last range starting at or below phys, if it covers phys */
	lo = PMUFILE_PARTITION(n->nr_ranges, i, n->ranges[i].start <= phys);
	if (lo && phys < n->ranges[lo - 1].end)
		return n->ranges[lo - 1].node;
	return -1;
}

int pmufile__numa_cpu_node(const struct pmufile_numa *n, uint32_t cpu)
{
	return cpu < n->nr_cpus ? n->cpu_node[cpu] : -1;
}

uint64_t pmufile__numa_node_bytes(const struct pmufile_numa *n, int32_t node)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < n->nr_ranges; i++)
		if (n->ranges[i].node == node)
			sum += n->ranges[i].end - n->ranges[i].start;
	return sum;
}

void pmufile__numa_cpulist(const struct pmufile_numa *n, int32_t node, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (uint32_t c = 0; c < n->nr_cpus && used < len; c++) {
		uint32_t e = c;

		if (n->cpu_node[c] != node)
			continue;
		while (e + 1 < n->nr_cpus && n->cpu_node[e + 1] == node)
			e++;
		used += (size_t)snprintf(buf + used, len - used, e > c ? "%s%u-%u" : "%s%u",
					 used ? "," : "", c, e);
		c = e;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

void pmufile__numa_free(struct pmufile_numa *n)
{
	if (!n)
		return;
	free(n->nodes);
	free(n->cpu_node);
	free(n->ranges);
	memset(n, 0, sizeof(*n));
}
