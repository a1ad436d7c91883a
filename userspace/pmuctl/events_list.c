/* SPDX-License-Identifier: MIT */
/*
 * `pmuctl list`: the events this CPU's core PMU offers (libpfm4) and the
 * generic names with their mapping here, matched against a pattern; and
 * why the hardware events are unusable on this CPU, if they are.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib.h>

#include "events.h"

bool events__match(const char *pattern, const char *name)
{
	if (!pattern || !*pattern)
		return true;
	if (strpbrk(pattern, "*?["))
		return fnmatch(pattern, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, pattern) != NULL;
}

static void print_wrapped(FILE *out, const char *indent, const char *text)
{
	fprintf(out, "%s%s\n", indent, text ? text : "");
}

/* A generic name's libpfm4 name if this PMU really knows it, else NULL. */
static const char *generic_usable(const pfm_pmu_info_t *core, int i)
{
	const char *map = events__generic_mapping(i);
	char q[EV_NAME_MAX * 2];

	if (!map)
		return NULL;
	snprintf(q, sizeof(q), "%s::%.*s", core->name, (int)strcspn(map, ":"), map);
	return pfm_find_event(q) >= 0 ? map : NULL;
}

const char *events__hw_unusable(void)
{
	const pfm_pmu_info_t *core = events__core_pmu();
	static char buf[256];

	/* libpfm4's AMD core PMUs are all named amd64_* (amd64_k8_*,
	 * amd64_fam10h.. amd64_fam19h_zen*) */
	if (core && !strncmp(core->name, "amd64", 5)) {
		snprintf(buf, sizeof(buf),
			 "this is an AMD CPU (libpfm4 PMU %s) and pmuprof programs only Intel's "
			 "architectural PMU",
			 core->name);
		return buf;
	}
	return NULL;
}

/* Events (with their unit masks) libpfm4 lists for the core PMU that match. */
static int count_hw(const char *pattern, bool verbose)
{
	const pfm_pmu_info_t *core = events__core_pmu();
	int n = 0, idx;

	for (idx = core ? core->first_event : -1; idx != -1; idx = pfm_get_event_next(idx)) {
		pfm_event_info_t ei;

		if (!events__info(idx, &ei))
			continue;
		n += !pattern || events__match(pattern, ei.name) ||
		     (verbose && ei.desc && events__match(pattern, ei.desc));
	}
	return n;
}

int events__list(FILE *out, const char *pattern, bool verbose, const char *hidden_why)
{
	const pfm_pmu_info_t *core = events__core_pmu();
	int printed = 0, i, idx;
	bool header = false;

	if (hidden_why) {
		int nhw = count_hw(pattern, verbose);

		if (events__match(pattern, EV_CPU_CLOCK)) {
			fprintf(out, "pmuprof generic events:\n  %-20s %-40s %s\n", EV_CPU_CLOCK,
				"NMI-IPI timer (no PMU needed)",
				"CPU time; period in ns, -F in Hz");
			printed++;
		}
		fprintf(out,
			"%sOnly cpu-clock is usable here: %s. Not listed: the %d generic hardware "
			"events and %d %s events; 'pmuctl list --all' lists them.\n",
			printed ? "\n" : "", hidden_why, events__generic_count(), nhw,
			core ? core->name : "hardware");
		return printed ? printed : 1;
	}
	for (i = 0; i < events__generic_count(); i++) {
		const char *map = core ? generic_usable(core, i) : NULL;

		if (!events__match(pattern, events__generic_name(i)) &&
		    !(map && events__match(pattern, map)))
			continue;
		if (!header) {
			fprintf(out, "pmuprof generic events%s%s%s:\n",
				core ? " (mapping for " : "", core ? core->name : "",
				core ? ")" : "");
			header = true;
		}
		fprintf(out, "  %-20s %-40s %s\n", events__generic_name(i),
			!core ? "(no PMU known to libpfm4)"
			: map ? map
			      : "(not available on this model)",
			events__generic_desc(i));
		printed++;
	}
	if (events__match(pattern, EV_CPU_CLOCK)) {
		if (!header)
			fprintf(out, "pmuprof generic events:\n");
		fprintf(out, "  %-20s %-40s %s\n", EV_CPU_CLOCK, "NMI-IPI timer (no PMU needed)",
			"CPU time; period in ns, -F in Hz");
		printed++;
	}
	if (!core) {
		fprintf(out,
			"\nlibpfm4 knows no core PMU for this CPU (a VM without a virtual PMU, "
			"or a CPU libpfm4 does not support); set LIBPFM_FORCE_PMU=NAME to list "
			"another model's events.\n");
		return printed;
	}
	header = false;
	for (idx = core->first_event; idx != -1; idx = pfm_get_event_next(idx)) {
		pfm_event_info_t ei;
		bool ev_match, shown = false;
		char full[EV_NAME_MAX * 2 + 2];

		if (!events__info(idx, &ei))
			continue;
		ev_match = events__match(pattern, ei.name) ||
			   (verbose && ei.desc && events__match(pattern, ei.desc));
		for (i = -1; i < ei.nattrs; i++) {
			pfm_event_attr_info_t ai;
			bool m = ev_match;

			if (i >= 0) {
				if (!events__attr_info(idx, i, &ai) || ai.type != PFM_ATTR_UMASK)
					continue;
				snprintf(full, sizeof(full), "%s:%s", ei.name, ai.name);
				m = m || events__match(pattern, full);
				snprintf(full, sizeof(full), "%s.%s", ei.name, ai.name);
				m = m || events__match(pattern, full);
			}
			if (!m)
				continue;
			if (!header) {
				fprintf(out, "%s%s events (libpfm4 PMU %s):\n", printed ? "\n" : "",
					core->desc, core->name);
				header = true;
			}
			if (!shown) {
				fprintf(out, "  %s\n", ei.name);
				print_wrapped(out, "      ", ei.desc);
				shown = true;
				printed++;
			}
			if (i >= 0)
				fprintf(out, "    :%-32s %s%s\n", ai.name, ai.desc ? ai.desc : "",
					ai.is_dfl ? " (default)" : "");
		}
	}
	return printed;
}
