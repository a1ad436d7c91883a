/* SPDX-License-Identifier: MIT */
/*
 * Filter arguments as perf users type them: CPU lists ("0-3,7", as perf's
 * -C and cpuset's cpus files) and time ranges ("START,END" in seconds of the
 * recording's clock, as `pmuconv script` prints sample times; either side
 * may be left empty, as in perf's --time), and event names in the
 * spellings perf and libpfm4 users type. Parsers fill err with what was
 * wrong and what is expected.
 */
#ifndef PMUCONV_FILTERSPEC_H
#define PMUCONV_FILTERSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PC_MAX_CPUS 4096 /* CPU numbers a list may name: 0 .. PC_MAX_CPUS - 1 */

struct pc_cpuset {
	uint64_t bits[PC_MAX_CPUS / 64];
};

static inline bool pc_cpuset__has(const struct pc_cpuset *s, uint32_t cpu)
{
	return cpu < PC_MAX_CPUS && (s->bits[cpu / 64] >> (cpu % 64) & 1);
}

/* "N", "N-M" and comma-separated lists of them. 0 or -EINVAL. */
int pc_cpuset__parse(struct pc_cpuset *s, const char *text, char *err, size_t errlen);

/* "START,END", "START," or ",END": seconds with up to 9 decimals; an open
 * side is 0 / UINT64_MAX. Bounds are inclusive; END covers every time
 * `pmuconv script` prints as it (microseconds: "2.5" ends at 2.500000999
 * s, "2.5000001" at 2.5000001). 0 or -EINVAL. */
int pc_time_range__parse(const char *text, uint64_t *start_ns, uint64_t *end_ns, char *err,
			 size_t errlen);

/*
 * Whether `-e want` names, loosely, an event recorded as `name` (as typed
 * at record time) with libpfm4's fully qualified name `resolved` ("" if
 * none): ignoring case, perf's '.' against libpfm4's ':' between event and
 * umask, privilege/precision modifiers (u, k, h, p, pp, ppp, "upp"...) and
 * `resolved`'s PMU prefix ("skl::") and attribute settings ("k=1"), want
 * is the same event and umask as `name` or as `resolved`. Callers try the
 * exact name first.
 */
bool pc_event__matches(const char *want, const char *name, const char *resolved);

struct pmufile;
struct pmufile_event;
/* Whether -e want (NULL: every event) keeps the pmuprof file's event ev:
 * the events named exactly want, or if none is, those it matches loosely
 * (pc_event__matches). */
bool pc_event__wanted(const struct pmufile *f, const struct pmufile_event *ev, const char *want);

#endif
