/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' reader of a kernel/nmi ring: the next SAMPLE record,
 * other records (LOST, THROTTLE, ...) consumed on the way.
 */
#ifndef PMUPROF_TESTS_RING_SAMPLE_H
#define PMUPROF_TESTS_RING_SAMPLE_H

#include "kernel/nmi/ring.h"

/* The next SAMPLE record of r, left in the ring (ring__consume it), or NULL. */
static inline const struct pmuprof_sample *ring_next_sample(struct ring *r)
{
	const struct pmuprof_record_header *h;

	while ((h = ring__peek(r)) != NULL) {
		if (h->type == PMUPROF_REC_SAMPLE)
			return (const void *)h;
		ring__consume(r, h);
	}
	return NULL;
}

#endif
