/* SPDX-License-Identifier: MIT */
/*
 * Page-size breakdown of samples that carry a data address (pmuctl record
 * --data-addr): per event and per view (user-mode samples, kernel-mode
 * samples, or both together on request), the shares of samples on
 * 4K/2M/1G/unknown pages for the data access and for the code (IP) page,
 * the top functions with their accesses split by page size, the recorded
 * mappings the data addresses fall in (pagemap.c), the kernel's first-touch
 * page zeroing, and the verdict "would huge pages help?" (verdict.c).
 * The accumulator is a consumer of the sample stream (sample.h).
 *
 * struct pagesize_summary is what the renderers (render_pagesize_svg, the
 * HTML page) consume; everything in it is plain data owned by the summary.
 */
#ifndef PMUCONV_PAGESIZE_H
#define PMUCONV_PAGESIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "pagesize_types.h"
#include "psnames.h"

/* The accumulator; mode (enum pc_mode_filter): with --user-only or
 * --kernel-only only that view, else the user and the kernel views; with
 * together (pmuconv pagesize --together) one view of both. */
struct pagesize_acc;
struct pc_set;
struct pagesize_acc *pagesize_acc__new(int mode, bool together);
void pagesize_acc__free(struct pagesize_acc *a);
/* The stream consumer (ctx: the accumulator): samples and data accesses. */
struct pc_consumer pagesize_acc__consumer(struct pagesize_acc *a);
int pagesize_acc__consume(void *acc, const struct pc_sample *s);
int pagesize_acc__access(void *acc, const struct pc_access *x);
/* The summary of what was counted, for the events of s (loaded): NULL with
 * errno ENOMEM on failure. */
struct pagesize_summary *pagesize_acc__summarize(const struct pagesize_acc *a,
						 const struct pc_set *s);
void pagesize_summary__free(struct pagesize_summary *s);
int pagesize_print(FILE *out, const struct pagesize_summary *s, int json);

#endif
