/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kproto: small static guest tools that drive /dev/pmuprof through the raw
 * ioctl ABI (include/uapi/pmuprof.h) for the kernel VM scenarios, without
 * pmuctl. Not installed, not a user interface.
 */
#ifndef KP_COMMON_H
#define KP_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "uapi/pmuprof.h"

struct kp_errname {
	int err;
	const char *name;
};

static const struct kp_errname kp_errnames[] = {
	{0, "OK"},
	{EINVAL, "EINVAL"},
	{ENODEV, "ENODEV"},
	{ENOSPC, "ENOSPC"},
	{E2BIG, "E2BIG"},
	{EBUSY, "EBUSY"},
	{EPERM, "EPERM"},
	{EFAULT, "EFAULT"},
	{ENOTTY, "ENOTTY"},
	{ESRCH, "ESRCH"},
	{EAGAIN, "EAGAIN"},
	{ENOMEM, "ENOMEM"},
	{EOPNOTSUPP, "EOPNOTSUPP"},
	{EACCES, "EACCES"},
	{EIO, "EIO"},
};

static inline const char *kp_errname(int err)
{
	for (size_t i = 0; i < sizeof(kp_errnames) / sizeof(kp_errnames[0]); i++)
		if (kp_errnames[i].err == err)
			return kp_errnames[i].name;
	return "E?";
}

static inline int kp_errnum(const char *name)
{
	for (size_t i = 0; i < sizeof(kp_errnames) / sizeof(kp_errnames[0]); i++)
		if (!strcmp(kp_errnames[i].name, name))
			return kp_errnames[i].err;
	return -1;
}

/* Check one record header read from the device; NULL if fine, else why. */
static inline const char *kp_record_problem(const struct pmuprof_record_header *h, size_t avail)
{
	if (avail < sizeof(*h))
		return "truncated header";
	if (h->size < sizeof(*h) || h->size % 8)
		return "size not a multiple of 8 or below the header";
	if (h->size > avail)
		return "record crosses the end of the read() buffer";
	if (h->size > PMUPROF_MAX_RECORD)
		return "record larger than PMUPROF_MAX_RECORD";
	switch (h->type) {
	case PMUPROF_REC_SAMPLE: {
		const struct pmuprof_sample *s = (const void *)h;
		size_t want;

		if (h->size < sizeof(*s))
			return "sample smaller than struct pmuprof_sample";
		want = sizeof(*s) + (size_t)(s->nr_kstack + s->nr_ustack) * 8;
		if (s->sample_flags & PMUPROF_SF_ADDR)
			want += sizeof(struct pmuprof_sample_addr);
		if (want != h->size)
			return "sample size does not match its stack counts";
		if (s->nr_kstack > PMUPROF_MAX_DEPTH || s->nr_ustack > PMUPROF_MAX_DEPTH)
			return "stack deeper than PMUPROF_MAX_DEPTH";
		return NULL;
	}
	case PMUPROF_REC_LOST:
		return h->size == sizeof(struct pmuprof_lost) ? NULL : "LOST record of wrong size";
	case PMUPROF_REC_THROTTLE:
	case PMUPROF_REC_UNTHROTTLE:
	case PMUPROF_REC_PERIOD:
		return h->size == sizeof(struct pmuprof_throttle) ? NULL : "THROTTLE of wrong size";
	default:
		return "unknown record type";
	}
}

#endif
