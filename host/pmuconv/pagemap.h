/* SPDX-License-Identifier: MIT */
/* Per-mapping page-size tables: data accesses attributed to the recorded
 * mappings, and the distinct-page estimate (pagemap.c says how). */
#ifndef PMUCONV_PAGEMAP_H
#define PMUCONV_PAGEMAP_H

#include "pagesize_types.h"

struct ps_maps;
struct ps_maps *ps_maps__new(void);
void ps_maps__free(struct ps_maps *m);
int ps_maps__add(struct ps_maps *m, const struct pc_access *x);
/* Fill e->maps (and other_*) for event index ev, view e->view. */
int ps_maps__fill(const struct ps_maps *m, uint32_t ev, struct ps_event *e);
/* The kind of a recorded mapping's path (NULL path: kernel/unmapped by addr). */
int ps_map_kind_of(const char *path);
/* Distinct keys in keys[0..n) (sorted in place), estimated; cap: the most
 * there can be (0: no limit). */
void ps_density__estimate(uint64_t *keys, size_t n, uint64_t cap, struct ps_density *d);

#endif
