/* SPDX-License-Identifier: MIT */
/*
 * pmuctl: the machine's NUMA layout, read from sysfs at record time and
 * written into the data file (NUMA frame, docs/FORMAT.md) so pmuconv can
 * resolve each sample's physical data address to the node that owns it
 * offline, exactly, with no work in the NMI handler.
 *
 * Sources (SYSFS_ROOT defaults to /sys):
 *   devices/system/node/nodeN/            one directory per online node
 *   devices/system/node/nodeN/cpuM        the node's CPUs
 *   devices/system/node/nodeN/memoryK     the node's memory blocks: block K
 *                                         is [K * bs, (K + 1) * bs)
 *   devices/system/memory/block_size_bytes  bs, in hex
 * Adjacent blocks of one node are merged into one range. A block listed under
 * two nodes (a block that straddles a node boundary) is left out of the map:
 * addresses in it resolve to "unknown" rather than to a guess.
 */
#ifndef PMUCTL_NUMA_H
#define PMUCTL_NUMA_H

#include <stdio.h>

#include "lib/pmufile/pmufile.h"

/* Fill out (arrays allocated; pmufile__numa_free releases them). 0; -ENOENT
 * when the kernel has no node directory (no NUMA support: nothing to
 * record); -ENOMEM; -EINVAL with err saying what is wrong with the tree. */
int numa__read(const char *sysfs_root, struct pmufile_numa *out, char *err, size_t errlen);

/* The layout in words, one line per node, each line prefixed by `indent`:
 *   node 0: CPUs 0-1, 1.50 GiB in 1 range
 * (what `pmuctl info` prints and the VM tests read). */
void numa__print(FILE *out, const struct pmufile_numa *n, const char *indent);

#endif
