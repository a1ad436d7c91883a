// SPDX-License-Identifier: MIT
/* pmuctl: the NUMA layout from sysfs (numa.h). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "numa.h"

struct block {
	uint64_t nr;
	int32_t node;
};

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_block(const void *a, const void *b)
{
	const struct block *x = a, *y = b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* "PREFIXdigits" -> the number, or -1 */
static long long suffix_num(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long long v;

	if (strncmp(name, prefix, n) || !name[n] || name[n] < '0' || name[n] > '9')
		return -1;
	v = strtoll(name + n, &end, 10);
	return *end ? -1 : v;
}

static int read_block_size(const char *root, uint64_t *bs)
{
	char path[4096], buf[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/memory/block_size_bytes", root);
	f = fopen(path, "re");
	*bs = 0;
	if (!f)
		return 0; /* no memory blocks (no memory hotplug): CPUs only */
	if (fgets(buf, sizeof(buf), f)) {
		char *end;

		*bs = strtoull(buf, &end, 16);
		if (end == buf || (*end && *end != '\n'))
			*bs = 0;
	}
	fclose(f);
	return *bs ? 0 : -EINVAL;
}

int numa__read(const char *root, struct pmufile_numa *out, char *err, size_t errlen)
{
	struct block *blocks = NULL;
	size_t nb = 0, capb = 0;
	char path[4096];
	DIR *d;
	struct dirent *de;
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!root)
		root = "/sys";
	if (read_block_size(root, &out->block_size)) {
		snprintf(err, errlen,
			 "%s/devices/system/memory/block_size_bytes: expected a hex number", root);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/devices/system/node", root);
	d = opendir(path);
	if (!d) {
		snprintf(err, errlen, "%s: %s (a kernel without NUMA support)", path,
			 strerror(errno));
		return -ENOENT;
	}
	out->nodes = calloc(PMUFILE_MAX_NUMA_NODES, sizeof(*out->nodes));
	out->cpu_node = malloc(PMUPROF_MAX_CPUS * sizeof(*out->cpu_node));
	if (!out->nodes || !out->cpu_node)
		goto fail_dir;
	for (int i = 0; i < PMUPROF_MAX_CPUS; i++)
		out->cpu_node[i] = -1;
	while ((de = readdir(d))) {
		long long node = suffix_num(de->d_name, "node");
		char npath[4096 + 260];
		struct dirent *e;
		DIR *nd;

		if (node < 0)
			continue;
		if (node >= PMUFILE_MAX_NUMA_NODES || out->nr_nodes == PMUFILE_MAX_NUMA_NODES) {
			snprintf(err, errlen, "%s/%s: node number beyond %u", path, de->d_name,
				 PMUFILE_MAX_NUMA_NODES - 1);
			ret = -EINVAL;
			goto fail_dir;
		}
		out->nodes[out->nr_nodes++] = (int32_t)node;
		snprintf(npath, sizeof(npath), "%s/%s", path, de->d_name);
		nd = opendir(npath);
		if (!nd)
			continue;
		while ((e = readdir(nd))) {
			long long cpu = suffix_num(e->d_name, "cpu");
			long long blk = suffix_num(e->d_name, "memory");

			if (cpu >= 0 && cpu < PMUPROF_MAX_CPUS) {
				out->cpu_node[cpu] = (int32_t)node;
				if ((uint32_t)cpu + 1 > out->nr_cpus)
					out->nr_cpus = (uint32_t)cpu + 1;
			} else if (blk >= 0 && out->block_size) {
				if (nb == capb) {
					struct block *nbk;

					capb = capb ? 2 * capb : 256;
					nbk = realloc(blocks, capb * sizeof(*blocks));
					if (!nbk) {
						closedir(nd);
						goto fail_dir;
					}
					blocks = nbk;
				}
				blocks[nb].nr = (uint64_t)blk;
				blocks[nb++].node = (int32_t)node;
			}
		}
		closedir(nd);
	}
	closedir(d);
	if (!out->nr_nodes) {
		snprintf(err, errlen, "%s: no nodeN directories", path);
		ret = -ENOENT;
		goto fail;
	}
	qsort(out->nodes, out->nr_nodes, sizeof(*out->nodes), cmp_i32);
	qsort(blocks, nb, sizeof(*blocks), cmp_block);
	out->ranges = calloc(nb ? nb : 1, sizeof(*out->ranges));
	if (!out->ranges)
		goto fail;
	for (size_t i = 0; i < nb; i++) {
		uint64_t start = blocks[i].nr * out->block_size;
		struct pmufile_numa_range *last =
			out->nr_ranges ? &out->ranges[out->nr_ranges - 1] : NULL;

		/* a block under two nodes: neither gets it */
		if ((i + 1 < nb && blocks[i + 1].nr == blocks[i].nr) ||
		    (i && blocks[i - 1].nr == blocks[i].nr))
			continue;
		if (last && last->node == blocks[i].node && last->end == start) {
			last->end += out->block_size;
			continue;
		}
		if (out->nr_ranges == PMUFILE_MAX_NUMA_RANGES) {
			snprintf(err, errlen, "more than %u separate physical ranges",
				 PMUFILE_MAX_NUMA_RANGES);
			ret = -EINVAL;
			goto fail;
		}
		out->ranges[out->nr_ranges].start = start;
		out->ranges[out->nr_ranges].end = start + out->block_size;
		out->ranges[out->nr_ranges++].node = blocks[i].node;
	}
	free(blocks);
	return 0;

fail_dir:
	closedir(d);
fail:
	free(blocks);
	pmufile__numa_free(out);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory reading the NUMA layout");
	return ret;
}

void numa__print(FILE *out, const struct pmufile_numa *n, const char *indent)
{
	for (uint32_t i = 0; i < n->nr_nodes; i++) {
		int32_t node = n->nodes[i];
		uint64_t bytes = pmufile__numa_node_bytes(n, node);
		unsigned int ranges = 0;
		char cpus[512];

		for (uint32_t r = 0; r < n->nr_ranges; r++)
			ranges += n->ranges[r].node == node;
		pmufile__numa_cpulist(n, node, cpus, sizeof(cpus));
		fprintf(out, "%snode %" PRId32 ": CPUs %s, %.2f GiB in %u range%s\n", indent, node,
			cpus, (double)bytes / (1u << 30), ranges, ranges == 1 ? "" : "s");
	}
}
