// SPDX-License-Identifier: MIT
/*
 * NUMA placement (issue 20), host side:
 *  - the node map lookup (lib/pmufile/numa.c, host/pmuconv/nodemap.c): holes
 *    between ranges, nodes with several ranges, addresses outside every range
 *    and samples without a physical address reported as unknown and counted;
 *  - the NUMA frame: written and read back, bad layouts refused with a message,
 *    a file without the frame read as before (no map);
 *  - pmuctl's sysfs reader (userspace/pmuctl/numa.c) on a fake
 *    /sys/devices/system tree: blocks merged into ranges, a hole, a block
 *    listed under two nodes left out, CPUs per node.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/pmuconv/nodemap.h"
#include "lib/pmufile/format.h"
#include "lib/pmufile/pmufile.h"
#include "userspace/pmuctl/numa.h"
#include "tmpdir.h"

#define G (1ull << 30)

/* node 0: [0, 1G) and [4G, 5G), CPUs 0 and 2; node 1: [1G, 2G), CPU 1;
 * node 3: CPU 3, no memory; [2G, 4G) is a hole */
static int32_t nodes[] = {0, 1, 3};
static int32_t cpu_node[] = {0, 1, 0, 3, -1};
static struct pmufile_numa_range ranges[] = {
	{0, 1 * G, 0, 0},
	{1 * G, 2 * G, 1, 0},
	{4 * G, 5 * G, 0, 0},
};
static const struct pmufile_numa layout = {
	.nr_nodes = 3,
	.nr_cpus = 5,
	.nr_ranges = 3,
	.block_size = 128u << 20,
	.nodes = nodes,
	.cpu_node = cpu_node,
	.ranges = ranges,
};

START_TEST(test_lookup)
{
	ck_assert_ptr_null(pmufile__numa_check(&layout));
	ck_assert_int_eq(pmufile__numa_node_of(&layout, 0), 0);
	ck_assert_int_eq(pmufile__numa_node_of(&layout, 1 * G - 1), 0);
	ck_assert_int_eq(pmufile__numa_node_of(&layout, 1 * G), 1); /* edges */
	ck_assert_int_eq(pmufile__numa_node_of(&layout, 2 * G - 1), 1);
	ck_assert_int_eq(pmufile__numa_node_of(&layout, 2 * G), -1); /* the hole */
	ck_assert_int_eq(pmufile__numa_node_of(&layout, 3 * G), -1);
	ck_assert_int_eq(pmufile__numa_node_of(&layout, 4 * G), 0); /* second range */
	ck_assert_int_eq(pmufile__numa_node_of(&layout, 5 * G - 8), 0);
	ck_assert_int_eq(pmufile__numa_node_of(&layout, 5 * G), -1); /* past the end */
	ck_assert_int_eq(pmufile__numa_node_of(&layout, ~0ull), -1);
	ck_assert_int_eq(pmufile__numa_cpu_node(&layout, 2), 0);
	ck_assert_int_eq(pmufile__numa_cpu_node(&layout, 4), -1);  /* offline */
	ck_assert_int_eq(pmufile__numa_cpu_node(&layout, 99), -1); /* beyond the map */
	ck_assert_uint_eq(pmufile__numa_node_bytes(&layout, 0), 2 * G);
	ck_assert_uint_eq(pmufile__numa_node_bytes(&layout, 3), 0);
	char buf[64];
	pmufile__numa_cpulist(&layout, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0,2");
	pmufile__numa_cpulist(&layout, 7, buf, sizeof(buf));
	ck_assert_str_eq(buf, "none");

	/* one node without memory blocks: all memory is that node's */
	int32_t one[] = {0};
	struct pmufile_numa single = {.nr_nodes = 1, .nodes = one};
	ck_assert_int_eq(pmufile__numa_node_of(&single, 12345 * G), 0);
}
END_TEST

START_TEST(test_nodemap_counts)
{
	struct pc_nodemap m;
	enum pc_node_why why;

	pc_nodemap__init(&m, &layout);
	ck_assert_int_eq(pc_nodemap__data_node(&m, 4 * G + 4096, 0, &why), 0);
	ck_assert_int_eq(why, PC_NODE_OK);
	ck_assert_int_eq(pc_nodemap__data_node(&m, 3 * G, 0, &why), -1);
	ck_assert_int_eq(why, PC_NODE_OUTSIDE);
	ck_assert_int_eq(pc_nodemap__data_node(&m, 6 * G, 0, NULL), -1);
	ck_assert_int_eq(pc_nodemap__data_node(&m, 0, 0, &why), -1); /* 0: not recorded */
	ck_assert_int_eq(why, PC_NODE_NO_PHYS);
	ck_assert_int_eq(pc_nodemap__data_node(&m, 0, 0, &why), -1);
	ck_assert_int_eq(why, PC_NODE_NO_PHYS);
	ck_assert_uint_eq(m.lookups, 5);
	ck_assert_uint_eq(m.unknown[PC_NODE_OUTSIDE], 2);
	ck_assert_uint_eq(m.unknown[PC_NODE_NO_PHYS], 2);
	ck_assert_uint_eq(m.unknown[PC_NODE_NO_MAP], 0);
	/* the module's node (unprivileged: no physical address) */
	ck_assert_int_eq(pc_nodemap__data_node(&m, 0, 3 + 1, &why), 3);
	ck_assert_int_eq(why, PC_NODE_OK);
	/* both: the recorded map wins; outside it, the module's node */
	ck_assert_int_eq(pc_nodemap__data_node(&m, 1 * G, 0 + 1, &why), 1);
	ck_assert_int_eq(pc_nodemap__data_node(&m, 3 * G, 3 + 1, &why), 3);
	ck_assert_uint_eq(m.lookups, 8);
	ck_assert_uint_eq(m.unknown[PC_NODE_OUTSIDE], 2);
	ck_assert_int_eq(pc_nodemap__cpu_node(&m, 1), 1);
	ck_assert_uint_eq(pc_nodemap__nr_nodes(&m), 3);
	ck_assert_int_eq(pc_nodemap__node_index(&m, 3), 2);
	ck_assert_int_eq(pc_nodemap__node_index(&m, 2), -1);
	ck_assert_int_eq(pc_nodemap__locality(0, 0), PC_LOC_LOCAL);
	ck_assert_int_eq(pc_nodemap__locality(1, 0), PC_LOC_REMOTE);
	ck_assert_int_eq(pc_nodemap__locality(-1, 0), PC_LOC_UNKNOWN);
	ck_assert_int_eq(pc_nodemap__locality(0, -1), PC_LOC_UNKNOWN);

	/* no map recorded: unknown, counted as such */
	pc_nodemap__init(&m, NULL);
	ck_assert_int_eq(pc_nodemap__data_node(&m, 4096, 0, &why), -1);
	ck_assert_int_eq(why, PC_NODE_NO_MAP);
	ck_assert_uint_eq(m.unknown[PC_NODE_NO_MAP], 1);
	ck_assert_int_eq(pc_nodemap__data_node(&m, 4096, 2, &why), 1); /* the module's */
	ck_assert_int_eq(why, PC_NODE_OK);
	ck_assert_int_eq(pc_nodemap__cpu_node(&m, 0), -1);
}
END_TEST

START_TEST(test_bad_layouts)
{
	struct pmufile_numa n = layout;
	struct pmufile_numa_range r[3];
	int32_t nd[3];

	memcpy(r, ranges, sizeof(r));
	n.ranges = r;
	r[2].start = 1 * G + 4096; /* overlaps the range before */
	ck_assert_ptr_nonnull(strstr(pmufile__numa_check(&n), "overlaps"));
	memcpy(r, ranges, sizeof(r));
	r[1].node = 2; /* not in the node list */
	ck_assert_ptr_nonnull(strstr(pmufile__numa_check(&n), "node 2"));
	memcpy(r, ranges, sizeof(r));
	r[0].end = 0; /* empty */
	ck_assert_ptr_nonnull(pmufile__numa_check(&n));
	n.ranges = ranges;
	memcpy(nd, nodes, sizeof(nd));
	nd[1] = 0; /* not ascending */
	n.nodes = nd;
	ck_assert_ptr_nonnull(pmufile__numa_check(&n));
	n = layout;
	n.nr_nodes = 0;
	ck_assert_ptr_nonnull(pmufile__numa_check(&n));

	/* a payload too short for its counts, and one naming a bad node */
	uint8_t buf[512];
	char why[256];
	struct pmufile_numa out;

	ck_assert_uint_le(pmufile__numa_size(&layout), sizeof(buf));
	pmufile__numa_encode(&layout, buf);
	ck_assert_ptr_null(
		pmufile__numa_decode(buf, pmufile__numa_size(&layout), &out, why, sizeof(why)));
	ck_assert_int_eq(out.nr_ranges, 3);
	ck_assert_int_eq(out.ranges[2].start, 4 * G);
	pmufile__numa_free(&out);
	ck_assert_ptr_nonnull(
		pmufile__numa_decode(buf, pmufile__numa_size(&layout) - 8, &out, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "need"));
	ck_assert_ptr_null(out.ranges);
	pf_put32(buf + pmufile__numa_size(&layout) - 8, 9); /* last range: node 9 */
	ck_assert_ptr_nonnull(
		pmufile__numa_decode(buf, pmufile__numa_size(&layout), &out, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "node 9"));
}
END_TEST

static char dir[256];

static void mkdirs(const char *sub)
{
	char p[512], *s;

	snprintf(p, sizeof(p), "%s/%s", dir, sub);
	for (s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void put(const char *sub, const char *text)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, sub);
	pp_write_text(p, text);
}

START_TEST(test_sysfs)
{
	static const char *const dirs[] = {
		"devices/system/memory",
		/* node 0: blocks 0-2 and 5 (4 is a hole), block 6 also under node 1 */
		"devices/system/node/node0/cpu0", "devices/system/node/node0/memory0",
		"devices/system/node/node0/memory2", "devices/system/node/node0/memory1",
		"devices/system/node/node0/memory5", "devices/system/node/node0/memory6",
		/* node 1: blocks 3, 6, 7; CPUs 1-3 */
		"devices/system/node/node1/cpu1", "devices/system/node/node1/cpu3",
		"devices/system/node/node1/cpu2", "devices/system/node/node1/memory3",
		"devices/system/node/node1/memory6", "devices/system/node/node1/memory7",
		"devices/system/node/node1/memory_failure", /* not a block */
		"devices/system/node/node1/cpulist",	    /* not a CPU */
	};
	const uint64_t bs = 128u << 20;
	struct pmufile_numa n;
	char err[512], cpus[64];

	pp_tmpdir(dir, sizeof(dir), "test_numa");
	/* no node directory: a kernel without NUMA, nothing to record */
	ck_assert_int_eq(numa__read(dir, &n, err, sizeof(err)), -ENOENT);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		mkdirs(dirs[i]);
	put("devices/system/memory/block_size_bytes", "zz\n");
	ck_assert_int_eq(numa__read(dir, &n, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "block_size_bytes"));
	put("devices/system/memory/block_size_bytes", "8000000\n");
	ck_assert_int_eq(numa__read(dir, &n, err, sizeof(err)), 0);
	ck_assert_ptr_null(pmufile__numa_check(&n));
	ck_assert_uint_eq(n.block_size, bs);
	ck_assert_uint_eq(n.nr_nodes, 2);
	ck_assert_int_eq(n.nodes[0], 0);
	ck_assert_int_eq(n.nodes[1], 1);
	ck_assert_uint_eq(n.nr_cpus, 4);
	pmufile__numa_cpulist(&n, 1, cpus, sizeof(cpus));
	ck_assert_str_eq(cpus, "1-3");
	/* [0,3) node 0, [3,4) node 1, [5,6) node 0, 6 left out, [7,8) node 1 */
	ck_assert_uint_eq(n.nr_ranges, 4);
	ck_assert_uint_eq(n.ranges[0].start, 0);
	ck_assert_uint_eq(n.ranges[0].end, 3 * bs);
	ck_assert_int_eq(n.ranges[0].node, 0);
	ck_assert_uint_eq(n.ranges[1].start, 3 * bs);
	ck_assert_int_eq(n.ranges[1].node, 1);
	ck_assert_uint_eq(n.ranges[2].start, 5 * bs);
	ck_assert_uint_eq(n.ranges[2].end, 6 * bs);
	ck_assert_uint_eq(n.ranges[3].start, 7 * bs);
	ck_assert_int_eq(pmufile__numa_node_of(&n, 4 * bs), -1);     /* hole */
	ck_assert_int_eq(pmufile__numa_node_of(&n, 6 * bs + 8), -1); /* straddling block */
	ck_assert_uint_eq(pmufile__numa_node_bytes(&n, 0), 4 * bs);

	/* the layout in words, as pmuctl info prints it */
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	numa__print(mem, &n, "  ");
	fclose(mem);
	ck_assert_str_eq(text, "  node 0: CPUs 0, 0.50 GiB in 2 ranges\n"
			       "  node 1: CPUs 1-3, 0.25 GiB in 2 ranges\n");
	free(text);

	/* written into a file and read back; the last NUMA frame wins */
	char path[300];
	struct pmufile_header hdr = {.nr_cpus = 4, .page_size = 4096, .pid = -1};
	struct pmufile_writer *w;
	struct pmufile *f;

	snprintf(path, sizeof(path), "%s/numa.pmu", dir);
	w = pmufile_writer__open(path, &hdr, err, sizeof(err));
	ck_assert_ptr_nonnull(w);
	pmufile_writer__no_fsync(w);
	ck_assert_int_eq(pmufile_writer__numa(w, &layout), 0);
	ck_assert_int_eq(pmufile_writer__numa(w, &n), 0);
	struct pmufile_numa bad = n;
	bad.nr_nodes = 0;
	ck_assert_int_eq(pmufile_writer__numa(w, &bad), -EINVAL);
	ck_assert_int_eq(pmufile_writer__close(w, 1, 2, err, sizeof(err)), 0);
	f = pmufile__open(path, PMUFILE_OPEN_VERIFY, err, sizeof(err));
	ck_assert_msg(f != NULL, "%s", err);
	ck_assert(f->has_numa);
	ck_assert_uint_eq(f->numa.nr_ranges, 4);
	ck_assert_uint_eq(f->numa.ranges[3].start, 7 * bs);
	ck_assert_int_eq(pmufile__numa_cpu_node(&f->numa, 3), 1);
	pmufile__close(f);
	pmufile__numa_free(&n);

	/* a file without the frame: no map, read as before */
	w = pmufile_writer__open(path, &hdr, err, sizeof(err));
	ck_assert_ptr_nonnull(w);
	pmufile_writer__no_fsync(w);
	ck_assert_int_eq(pmufile_writer__close(w, 1, 2, err, sizeof(err)), 0);
	f = pmufile__open(path, PMUFILE_OPEN_VERIFY, err, sizeof(err));
	ck_assert_ptr_nonnull(f);
	ck_assert(!f->has_numa);
	ck_assert_uint_eq(f->numa.nr_nodes, 0);
	pmufile__close(f);
	pp_rm_tree(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("numa");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_nodemap_counts);
	tcase_add_test(tc, test_bad_layouts);
	tcase_add_test(tc, test_sysfs);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
