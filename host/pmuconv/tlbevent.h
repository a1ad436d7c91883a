/* SPDX-License-Identifier: MIT */
/* What an event counts, for the page-size answer: time, page walks (of any
 * or one page size), STLB hits, accesses, or something else (tlbevent.c). */
#ifndef PMUCONV_TLBEVENT_H
#define PMUCONV_TLBEVENT_H

#include <stdbool.h>
#include <stdint.h>

/* name: as recorded (the user's spelling: "dtlb-load-misses:u", a libpfm4
 * name with '.' or ':', "r0208:u", perf's "dTLB-load-misses"); resolved:
 * libpfm4's fully qualified name or ""; config: the raw encoding or 0;
 * cpu_vendor/cpu_family: enum pmuprof_cpu_vendor and the family, 0 if
 * unknown; unit: what a period counts ("ns" is time). Returns an enum
 * ps_ev_kind (tlbinfo.h). */
int ps_event_kind(const char *name, const char *resolved, uint64_t config, uint32_t cpu_vendor,
		  uint32_t cpu_family, const char *unit);
/* Events whose samples measure time (cpu-clock, cycles...; unit "ns"). */
bool ps_is_time_event(const char *event, const char *unit);
/* "walks", "walks-4k", ... for JSON; a phrase for text ("page walks of 4K
 * pages"). */
const char *ps_event_kind_name(int kind);
const char *ps_event_kind_phrase(int kind);
/* Kinds whose samples are page walks that huge pages can remove: all walks,
 * or the walks of 4K pages. */
bool ps_event_kind_walks(int kind);

#endif
