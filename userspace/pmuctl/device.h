/* SPDX-License-Identifier: MIT */
/* Opening /dev/pmuprof and talking to it, with errors a user can act on. */
#ifndef PMUCTL_DEVICE_H
#define PMUCTL_DEVICE_H

#include <stddef.h>
#include "include/uapi/pmuprof.h"

/* Open the device (O_NONBLOCK optional). On failure prints one line naming
 * the cause and the fix, returns -errno. */
int device__open(int flags);
/* GET_INFO; prints an error and returns -errno on failure. */
int device__info(int fd, struct pmuprof_info *info);
/* Explain why the PMU source is unusable, "" when it is usable. */
const char *device__pmu_reason(const struct pmuprof_info *info);
/* Message for an ioctl failure (CONFIGURE/START) by errno. */
const char *device__ioctl_hint(int err, const struct pmuprof_info *info);

#endif
