// SPDX-License-Identifier: MIT
/*
 * What an event counts, for the page-size answer. In order:
 *   - the raw encoding on an Intel family-6 CPU, looked up by event select
 *     and umask in tlbinfo.h's table (named, generic and raw events alike;
 *     CMASK, INV or EDGE change what a count means: then "other");
 *   - libpfm4's resolved name ("skl::DTLB_LOAD_MISSES:WALK_COMPLETED_4K:..."),
 *     then the name as recorded, against the table's names ('.' and ':'
 *     alike, any case), and the generic names pmuctl and perf give the
 *     load/store walk events (dtlb-load-misses, dTLB-load-misses);
 *   - time events (cpu-clock, cycles...: ps_is_time_event below).
 */
#include "tlbevent.h"
#include "tlbinfo.h"
#include "util.h"

#include "uapi/pmuprof.h"
#include "pmuprof/x86_pmu_regs.h"

#include <ctype.h>
#include <string.h>

/* Events whose samples measure time rather than TLB misses. */
bool ps_is_time_event(const char *event, const char *unit)
{
	static const char *const time_events[] = {"cpu-clock",	"task-clock", "cycles",
						  "cpu-cycles", "ref-cycles", "cpu_clk_unhalted"};

	if (!strcmp(unit, "ns"))
		return true;
	for (size_t i = 0; i < PC_ARRAY_SIZE(time_events); i++)
		if (!strncmp(event, time_events[i], strlen(time_events[i])))
			return true;
	return false;
}

/* Does spelled (the user's or libpfm4's name, perhaps with a "pmu::" prefix
 * and ":mod" suffixes) name the table entry `name` (EVENT:UMASK)? */
static bool names(const char *spelled, const char *name)
{
	const char *p = strstr(spelled, "::");
	size_t i = 0;

	p = p ? p + 2 : spelled;
	for (; name[i]; i++) {
		char a = p[i] == '.' ? ':' : (char)toupper((unsigned char)p[i]);
		if (a != name[i])
			return false;
	}
	return p[i] == '\0' || p[i] == ':' || p[i] == '.' || p[i] == '/';
}

static int by_name(const char *spelled)
{
	static const struct {
		const char *name;
		int kind;
	} generic[] = {{"dtlb-load-misses", PS_EV_WALKS},
		       {"dtlb-store-misses", PS_EV_WALKS},
		       {"dtlb-loads", PS_EV_ACCESSES},
		       {"dtlb-stores", PS_EV_ACCESSES}};

	if (!spelled || !spelled[0])
		return PS_EV_OTHER;
	for (size_t i = 0; i < PC_ARRAY_SIZE(ps_tlb_events); i++)
		if (names(spelled, ps_tlb_events[i].name))
			return ps_tlb_events[i].kind;
	for (size_t i = 0; i < PC_ARRAY_SIZE(generic); i++) {
		size_t n = strlen(generic[i].name);
		if (!strncasecmp(spelled, generic[i].name, n) &&
		    (spelled[n] == '\0' || spelled[n] == ':' || spelled[n] == '/'))
			return generic[i].kind;
	}
	return PS_EV_OTHER;
}

int ps_event_kind(const char *name, const char *resolved, uint64_t config, uint32_t cpu_vendor,
		  uint32_t cpu_family, const char *unit)
{
	int k;

	if (config && cpu_vendor == PMUPROF_VENDOR_INTEL && cpu_family == 6) {
		if (config & (X86_EVTSEL_CMASK_MASK | X86_EVTSEL_INV | X86_EVTSEL_EDGE))
			return PS_EV_OTHER;
		uint8_t sel = (uint8_t)(config & X86_EVTSEL_EVENT_MASK);
		uint8_t umask =
			(uint8_t)((config & X86_EVTSEL_UMASK_MASK) >> X86_EVTSEL_UMASK_SHIFT);
		for (size_t i = 0; i < PC_ARRAY_SIZE(ps_tlb_events); i++)
			if (ps_tlb_events[i].select == sel && ps_tlb_events[i].umask == umask)
				return ps_tlb_events[i].kind;
		return ps_is_time_event(name, unit ? unit : "") ? PS_EV_TIME : PS_EV_OTHER;
	}
	if ((k = by_name(resolved)) != PS_EV_OTHER || (k = by_name(name)) != PS_EV_OTHER)
		return k;
	return ps_is_time_event(name, unit ? unit : "") ? PS_EV_TIME : PS_EV_OTHER;
}

static const char *const kind_names[PS_EV__NR] = {"other",    "time",	  "walks",     "walks-4k",
						  "walks-2m", "walks-1g", "stlb-hits", "accesses"};
static const char *const kind_phrases[PS_EV__NR] = {
	"an event that is neither a TLB-miss nor a time event",
	"a time event",
	"page walks (DTLB misses that walked the page tables)",
	"page walks of 4K pages",
	"page walks of 2M pages",
	"page walks of 1G pages",
	"first-level DTLB misses that hit the STLB (no walk)",
	"memory accesses (every load or store, not misses)"};

const char *ps_event_kind_name(int kind)
{
	return kind >= 0 && kind < PS_EV__NR ? kind_names[kind] : "other";
}

const char *ps_event_kind_phrase(int kind)
{
	return kind >= 0 && kind < PS_EV__NR ? kind_phrases[kind] : kind_phrases[0];
}

bool ps_event_kind_walks(int kind)
{
	return kind == PS_EV_WALKS || kind == PS_EV_WALKS_4K;
}
