/* SPDX-License-Identifier: MIT */
/*
 * IA32_PERFEVTSELx decoding for `pmuctl encode` and the fixed-counter check.
 * Every hardware fact comes from kernel/include/pmuprof/x86_pmu_regs.h (the
 * one place the SDM layouts live); this file only combines them.
 */
#ifndef PMUCTL_EVTSEL_H
#define PMUCTL_EVTSEL_H

#include <stdint.h>
#include "pmuprof/x86_pmu_regs.h"
#include "pmuprof/fixed_counters.h"

/* Bits user space may set in pmuprof_event_config.config (ABI comment):
 * everything but PC, INT, EN and the reserved high half. */
#define EVTSEL_USER_BITS                                                                           \
	(X86_EVTSEL_EVENT_MASK | X86_EVTSEL_UMASK_MASK | X86_EVTSEL_USR | X86_EVTSEL_OS |          \
	 X86_EVTSEL_EDGE | X86_EVTSEL_ANY | X86_EVTSEL_INV | X86_EVTSEL_CMASK_MASK)

struct evtsel_fields {
	unsigned int event, umask, cmask;
	unsigned int usr, os, edge, any, inv;
	uint64_t other; /* bits outside the user fields (pmuprof rejects them) */
};

static inline void evtsel__decode(uint64_t v, struct evtsel_fields *f)
{
	union x86_perfevtsel r = {.full = v};

	f->event = (unsigned int)r.split.event;
	f->umask = (unsigned int)r.split.umask;
	f->cmask = (unsigned int)r.split.cmask;
	f->usr = (unsigned int)r.split.usr;
	f->os = (unsigned int)r.split.os;
	f->edge = (unsigned int)r.split.edge;
	f->any = (unsigned int)r.split.any;
	f->inv = (unsigned int)r.split.inv;
	f->other = v & ~EVTSEL_USER_BITS;
}

/* Encodings a fixed-function counter counts, as event|umask. */
struct evtsel_fixed {
	uint64_t event_umask;
	uint8_t counter;    /* IA32_FIXED_CTRn */
	uint8_t fixed_only; /* pseudo encoding (event 00H): no general-purpose fallback */
};

/* The one list of fixed-counter facts (include/pmuprof/fixed_counters.h). */
#define EVTSEL_FIXED_ROW(only, enc, ctr, name) {enc, ctr, only},
static const struct evtsel_fixed evtsel_fixed_table[] = {
	X86_FIXED_ARCH_EVENTS(EVTSEL_FIXED_ROW, 0)
		X86_FIXED_PSEUDO_EVENTS_UNPLANNED(EVTSEL_FIXED_ROW, 1)
			X86_FIXED_PSEUDO_EVENTS(EVTSEL_FIXED_ROW, 1)};

/* The fixed-table entry for config, or NULL (cmask/inv/edge/any disqualify). */
static inline const struct evtsel_fixed *evtsel__fixed(uint64_t config)
{
	unsigned int i;

	if (config & (X86_EVTSEL_CMASK_MASK | X86_EVTSEL_INV | X86_EVTSEL_EDGE | X86_EVTSEL_ANY))
		return NULL;
	for (i = 0; i < sizeof(evtsel_fixed_table) / sizeof(evtsel_fixed_table[0]); i++)
		if (evtsel_fixed_table[i].event_umask == (config & X86_EVTSEL_EVENT_UMASK))
			return &evtsel_fixed_table[i];
	return NULL;
}

#endif /* PMUCTL_EVTSEL_H */
