/* SPDX-License-Identifier: GPL-2.0 */
/*
 * relfuzz tools (issue 8): shared helpers for the reliability guest tools.
 * Not installed, not a user interface.
 */
#ifndef REL_COMMON_H
#define REL_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "uapi/pmuprof.h"

static inline double rel_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* xorshift64*: deterministic per seed, so a failure can be replayed. */
static inline uint64_t rel_rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static inline const char *rel_errname(int err)
{
	switch (err) {
	case 0:
		return "OK";
	case EINVAL:
		return "EINVAL";
	case ENODEV:
		return "ENODEV";
	case ENOSPC:
		return "ENOSPC";
	case E2BIG:
		return "E2BIG";
	case EBUSY:
		return "EBUSY";
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case EFAULT:
		return "EFAULT";
	case ENOTTY:
		return "ENOTTY";
	case ESRCH:
		return "ESRCH";
	case EAGAIN:
		return "EAGAIN";
	case ENOMEM:
		return "ENOMEM";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case EINTR:
		return "EINTR";
	case ESPIPE:
		return "ESPIPE";
	case ENODATA:
		return "ENODATA";
	default:
		return "E?";
	}
}

/* A cpu-clock (NMI-IPI) configuration that CONFIGURE accepts. */
static inline void rel_clock_config(struct pmuprof_config *c, uint64_t period_ns, uint32_t ring)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->nr_events = 1;
	c->flags = PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK;
	c->ring_size = ring;
	c->events[0].source = PMUPROF_SOURCE_NMI_IPI;
	c->events[0].period = period_ns;
}

static inline int rel_stats(int fd, struct pmuprof_stats *st, struct pmuprof_cpu_stats *cpus,
			    uint32_t nr)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	st->cpu_stats_size = sizeof(struct pmuprof_cpu_stats);
	st->nr_cpus = cpus ? nr : 0;
	st->cpus_ptr = (uintptr_t)cpus;
	return ioctl(fd, PMUPROF_IOC_GET_STATS, st) ? -errno : 0;
}

/* Tallies of records read from the device. */
struct rel_tally {
	uint64_t samples, lost, lost_records, throttles, records, bytes;
	uint64_t ev_samples[PMUPROF_MAX_EVENTS], ev_lost_unknown;
	const char *bad; /* first malformed record, NULL if none */
};

/* Walk one read() buffer; returns 0, or -1 on a malformed record. */
static inline int rel_tally_buf(struct rel_tally *t, const char *buf, size_t n)
{
	size_t off = 0;

	while (off < n) {
		const struct pmuprof_record_header *h = (const void *)(buf + off);

		if (n - off < sizeof(*h) || h->size < sizeof(*h) || h->size % 8 ||
		    h->size > n - off || h->size > PMUPROF_MAX_RECORD) {
			t->bad = "record header out of bounds";
			return -1;
		}
		switch (h->type) {
		case PMUPROF_REC_SAMPLE: {
			const struct pmuprof_sample *s = (const void *)h;
			size_t want;

			if (h->size < sizeof(*s)) {
				t->bad = "short sample";
				return -1;
			}
			want = sizeof(*s) + ((size_t)s->nr_kstack + s->nr_ustack) * 8 +
			       (s->sample_flags & PMUPROF_SF_ADDR
					? sizeof(struct pmuprof_sample_addr)
					: 0);
			if (want != h->size || s->event >= PMUPROF_MAX_EVENTS) {
				t->bad = "sample size/event inconsistent";
				return -1;
			}
			t->samples++;
			t->ev_samples[s->event]++;
			break;
		}
		case PMUPROF_REC_LOST:
			if (h->size != sizeof(struct pmuprof_lost)) {
				t->bad = "LOST of wrong size";
				return -1;
			}
			t->lost += ((const struct pmuprof_lost *)h)->lost;
			t->lost_records++;
			break;
		case PMUPROF_REC_THROTTLE:
		case PMUPROF_REC_UNTHROTTLE:
		case PMUPROF_REC_PERIOD:
			t->throttles++;
			break;
		default:
			t->bad = "unknown record type";
			return -1;
		}
		t->records++;
		off += h->size;
	}
	t->bytes += n;
	return 0;
}

#endif
