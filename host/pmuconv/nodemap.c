// SPDX-License-Identifier: MIT
/* The data node of a sample, from the recorded node map (nodemap.h). */
#include "nodemap.h"

#include <stddef.h>

#include "lib/pmufile/pmufile.h"

void pc_nodemap__init(struct pc_nodemap *m, const struct pmufile_numa *numa)
{
	*m = (struct pc_nodemap){.numa = numa};
}

int32_t pc_nodemap__data_node(struct pc_nodemap *m, uint64_t phys, unsigned int knode1,
			      enum pc_node_why *why)
{
	enum pc_node_why w = PC_NODE_OK;
	int32_t node = -1;

	m->lookups++;
	if (phys && m->numa) /* the recorded map: exact, the preferred source */
		node = pmufile__numa_node_of(m->numa, phys);
	if (node < 0 && knode1)
		node = (int32_t)knode1 - 1; /* the module's own lookup */
	if (node >= 0)
		w = PC_NODE_OK;
	else if (!m->numa)
		w = PC_NODE_NO_MAP;
	else if (!phys)
		w = PC_NODE_NO_PHYS;
	else
		w = PC_NODE_OUTSIDE;
	if (w != PC_NODE_OK)
		m->unknown[w]++;
	if (why)
		*why = w;
	return node;
}

int32_t pc_nodemap__cpu_node(const struct pc_nodemap *m, uint32_t cpu)
{
	return m->numa ? pmufile__numa_cpu_node(m->numa, cpu) : -1;
}

uint32_t pc_nodemap__nr_nodes(const struct pc_nodemap *m)
{
	return m->numa ? m->numa->nr_nodes : 0;
}

int32_t pc_nodemap__node_id(const struct pc_nodemap *m, uint32_t i)
{
	return m->numa && i < m->numa->nr_nodes ? m->numa->nodes[i] : -1;
}

int pc_nodemap__node_index(const struct pc_nodemap *m, int32_t node)
{
	uint32_t n = pc_nodemap__nr_nodes(m);

	for (uint32_t i = 0; i < n; i++)
		if (pc_nodemap__node_id(m, i) == node)
			return (int)i;
	return -1;
}

enum pc_locality pc_nodemap__locality(int32_t data_node, int32_t cpu_node)
{
	if (data_node < 0 || cpu_node < 0)
		return PC_LOC_UNKNOWN;
	return data_node == cpu_node ? PC_LOC_LOCAL : PC_LOC_REMOTE;
}

const char *pc_nodemap__why_name(enum pc_node_why why)
{
	static const char *const names[PC_NODE__NR] = {
		[PC_NODE_OK] = "known",
		[PC_NODE_NO_MAP] = "no node map",
		[PC_NODE_NO_PHYS] = "no physical address",
		[PC_NODE_OUTSIDE] = "outside every recorded range",
	};

	return (unsigned)why < PC_NODE__NR ? names[why] : "?";
}
