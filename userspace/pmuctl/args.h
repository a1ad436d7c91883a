/* SPDX-License-Identifier: MIT */
/* Small argument parsers for pmuctl record (unit-tested in tests/unit/test_events.c). */
#ifndef PMUCTL_ARGS_H
#define PMUCTL_ARGS_H

#include <stdint.h>

/* "0-3,5,7-8" -> bits in mask[nwords]; -EINVAL on syntax, -ERANGE when a
 * CPU is >= max_cpus. Returns the number of CPUs set. */
int args__cpulist(const char *s, unsigned long long *mask, unsigned int nwords,
		  unsigned int max_cpus);
/* "65536", "64K", "2M", "1G" (binary units) -> bytes; -EINVAL on syntax. */
int args__size(const char *s, uint64_t *out);
/* Positive integer (decimal or 0x hex), > 0; -EINVAL otherwise. */
int args__u64(const char *s, uint64_t *out);
/* Seconds, fractional allowed ("2", "0.5") -> ns; must be > 0. */
int args__duration(const char *s, uint64_t *ns);

#endif
