/* SPDX-License-Identifier: MIT */
/*
 * Event names -> pmuprof event configs: pmuprof's generic names (mapped per
 * CPU model through libpfm4 names, table-driven), libpfm4 names for the
 * running (or LIBPFM_FORCE_PMU-forced) CPU, raw rNNNN encodings, cpu-clock.
 * Works without the module; nothing here opens /dev/pmuprof.
 */
#ifndef PMUCTL_EVENTS_H
#define PMUCTL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <perfmon/pfmlib.h>

#define EV_NAME_MAX	128
#define EV_RESOLVED_MAX 256
#define EV_CPU_CLOCK	"cpu-clock" /* the NMI-IPI timer event: no PMU needed */

struct pmuctl_event {
	char name[EV_NAME_MAX];		/* as typed, without "/PERIOD" */
	char resolved[EV_RESOLVED_MAX]; /* libpfm4 fully qualified name, "raw", "cpu-clock" */
	const char *generic;		/* generic name used, or NULL */
	uint64_t config;		/* IA32_PERFEVTSELx bits pmuprof accepts (no EN/INT) */
	uint64_t period;		/* from "/PERIOD", 0 if not given */
	unsigned int source;		/* enum pmuprof_source */
	int fixed;			/* fixed counter that can count it, or -1 */
	bool fixed_only;		/* pseudo encoding: only that fixed counter */
	char unit[32];			/* what a period counts: "events", "cycles", "ns" */
};

/* Initialise libpfm4 (honours LIBPFM_FORCE_PMU). Idempotent. */
int events__init(char *err, size_t errlen);
/* libpfm4 name of the core PMU names resolve against ("skl", ...), or NULL;
 * and that PMU's libpfm4 description (NULL: none). */
const char *events__pmu_name(void);
const pfm_pmu_info_t *events__core_pmu(void);
/* libpfm4's description of event IDX, or of its attribute I (zeroed and its
 * size set first, as libpfm4 asks): true when libpfm4 gave one. */
bool events__info(int idx, pfm_event_info_t *ei);
bool events__attr_info(int idx, int i, pfm_event_attr_info_t *ai);

/*
 * Resolve "NAME[/PERIOD]". A ":p" (":pp", ":ppp") modifier requests PEBS:
 * source PMUPROF_SOURCE_PEBS instead of PMUPROF_SOURCE_PMU. Returns 0, or:
 *   -EINVAL  malformed (bad period, period 0, bad raw value, bad modifier)
 *   -ENOENT  unknown name (err lists the closest known names)
 *   -ENODEV  a hardware event but libpfm4 knows no core PMU for this CPU
 *   -EOPNOTSUPP  a generic name with no mapping on this CPU model
 * err always gets one line saying what is wrong and what to do.
 */
int events__resolve(const char *spec, struct pmuctl_event *ev, char *err, size_t errlen);

/* Up to max closest known names to name (edit distance), best first;
 * returns how many. Names point into static/libpfm storage. */
int events__suggest(const char *name, const char **out, int max);

/* Case-insensitive edit distance (exposed for tests). */
unsigned int events__distance(const char *a, const char *b);

/* Generic names: count, name, and its libpfm4 name on the
 * current PMU (NULL when unmapped). */
int events__generic_count(void);
const char *events__generic_name(int i);
const char *events__generic_desc(int i);
const char *events__generic_mapping(int i);

/* events_list.c: */
/* Why the hardware events libpfm4 lists for this CPU cannot be used by
 * pmuprof whatever the module says (an AMD PMU: pmuprof programs Intel's
 * architectural PMU only), or NULL. */
const char *events__hw_unusable(void);
/* `pmuctl list`: print events whose names match pattern (NULL = all);
 * returns the number printed. hidden_why non-NULL: the hardware events are
 * not usable here for that reason and only cpu-clock is listed, followed by
 * one line saying how many were left out and that --all shows them. */
int events__list(FILE *out, const char *pattern, bool verbose, const char *hidden_why);

/*
 * Counter budget of a session: fixed-counter events take their fixed counter
 * when this CPU has it and it is free, the rest need general-purpose
 * counters. 0, or -EINVAL with one line in err. Non-PMU events are ignored.
 */
int events__check_counters(const struct pmuctl_event *ev, int n, unsigned int nr_gp,
			   unsigned int nr_fixed, char *err, size_t errlen);

/* Glob or case-insensitive substring match (exposed for tests). */
bool events__match(const char *pattern, const char *name);

#endif /* PMUCTL_EVENTS_H */
