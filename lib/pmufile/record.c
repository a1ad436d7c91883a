// SPDX-License-Identifier: MIT
/*
 * The record ABI of include/uapi/pmuprof.h, checked in one place: the
 * writer (pmuctl's read() buffers), the reader (SAMPLES frames), pmuctl's
 * drain loop and the test tools that read /dev/pmuprof directly.
 */
#include "lib/pmufile/pmufile.h"

size_t pmufile__record_min(uint16_t type)
{
	switch (type) {
	case PMUPROF_REC_SAMPLE:
		return sizeof(struct pmuprof_sample);
	case PMUPROF_REC_LOST:
		return sizeof(struct pmuprof_lost);
	case PMUPROF_REC_THROTTLE:
	case PMUPROF_REC_UNTHROTTLE:
	case PMUPROF_REC_PERIOD:
		return sizeof(struct pmuprof_throttle);
	default:
		return sizeof(struct pmuprof_record_header);
	}
}

const char *pmufile__check_record(const void *rec, size_t avail, unsigned int checks)
{
	const struct pmuprof_record_header *h = rec;
	const struct pmuprof_sample *s = rec;
	struct pmufile_sample_view v;

	if (avail < sizeof(*h))
		return "truncated header";
	if (h->size < sizeof(*h) || h->size % 8)
		return "size not a multiple of 8 or below the header";
	if (h->size > avail)
		return "record crosses the end of the buffer";
	if (h->size > PMUPROF_MAX_RECORD)
		return "record larger than PMUPROF_MAX_RECORD";
	if (h->size < pmufile__record_min(h->type))
		return "record smaller than the fixed part of its type";
	if (!(checks & PMUFILE_CHECK_EXACT))
		return NULL;
	switch (h->type) {
	case PMUPROF_REC_SAMPLE:
		if (pmufile__sample_view_inline(h, &v))
			return "sample size does not match its parts";
		if (s->nr_kstack > PMUPROF_MAX_DEPTH || s->nr_ustack > PMUPROF_MAX_DEPTH)
			return "stack deeper than PMUPROF_MAX_DEPTH";
		return s->event < PMUPROF_MAX_EVENTS ? NULL
						     : "sample event beyond PMUPROF_MAX_EVENTS";
	case PMUPROF_REC_LOST:
	case PMUPROF_REC_THROTTLE:
	case PMUPROF_REC_UNTHROTTLE:
	case PMUPROF_REC_PERIOD:
		return h->size == pmufile__record_min(h->type) ? NULL : "record of the wrong size";
	default:
		return "unknown record type";
	}
}

void pmufile__count_record(struct pmufile_counts *n, const struct pmuprof_record_header *rec)
{
	const struct pmuprof_sample *s = (const void *)rec;

	n->records++;
	if (rec->type == PMUPROF_REC_SAMPLE) {
		n->samples++;
		if (s->event < PMUPROF_MAX_EVENTS)
			n->event_samples[s->event]++;
	} else if (rec->type == PMUPROF_REC_LOST) {
		n->lost += ((const struct pmuprof_lost *)rec)->lost;
		n->lost_records++;
	} else if (rec->type == PMUPROF_REC_THROTTLE) {
		n->throttled++;
	} else if (rec->type == PMUPROF_REC_UNTHROTTLE) {
		n->unthrottled++;
	} else if (rec->type == PMUPROF_REC_PERIOD) {
		n->periods++;
	}
}
