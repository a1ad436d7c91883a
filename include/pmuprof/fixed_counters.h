/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the fixed-function counters count (SDM vol. 3B table 20-2), one row
 * a line, for the module's planner (kernel/pmu/pmu_events.c) and pmuctl's
 * counter check (userspace/pmuctl/evtsel.h):
 *   X(arg, event|umask, IA32_FIXED_CTRn, name)
 * `arg` is handed to every row, so one list serves tables and constant
 * lookups alike. Not ABI.
 */
#ifndef PMUPROF_FIXED_COUNTERS_H
#define PMUPROF_FIXED_COUNTERS_H

#include "pmuprof/x86_pmu_regs.h"

/* Architectural events a fixed counter counts too (a GP counter can as well). */
#define X86_FIXED_ARCH_EVENTS(X, arg)                                                              \
	X(arg, X86_ARCH_EV_INSTRUCTIONS, X86_FIXED_CTR_INSTRUCTIONS, "INST_RETIRED.ANY")           \
	X(arg, X86_ARCH_EV_CORE_CYCLES, X86_FIXED_CTR_CORE_CYCLES, "CPU_CLK_UNHALTED.THREAD")      \
	X(arg, X86_ARCH_EV_REF_CYCLES, X86_FIXED_CTR_REF_CYCLES, "CPU_CLK_UNHALTED.REF_TSC")

/* Event-00H pseudo-encodings (umask = counter + 1) only their fixed counter
 * counts, which the module plans... */
#define X86_FIXED_PSEUDO_EVENTS(X, arg)                                                            \
	X(arg, X86_FIXED_PSEUDO_REF_TSC, X86_FIXED_CTR_REF_CYCLES, "CPU_CLK_UNHALTED.REF_TSC")     \
	X(arg, X86_FIXED_PSEUDO_SLOTS, X86_FIXED_CTR_SLOTS, "TOPDOWN.SLOTS")
/* ...and which it refuses today (kernel/pmu/pmu.c check_encoding: "event
 * select 00H is not an event"), though libpfm4 emits the first for Ice
 * Lake's INST_RETIRED.PREC_DIST: pmuctl still names their counter. */
#define X86_FIXED_PSEUDO_EVENTS_UNPLANNED(X, arg)                                                  \
	X(arg, X86_EVTSEL_ENCODE(0, X86_FIXED_CTR_INSTRUCTIONS + 1), X86_FIXED_CTR_INSTRUCTIONS,   \
	  "INST_RETIRED.PREC_DIST")                                                                \
	X(arg, X86_EVTSEL_ENCODE(0, X86_FIXED_CTR_CORE_CYCLES + 1), X86_FIXED_CTR_CORE_CYCLES,     \
	  "CPU_CLK_UNHALTED.THREAD")

/* The fixed counter that also counts architectural event `eu`, or -1 (a
 * constant expression). */
#define X86_FIXED_ROW_COUNTER_(eu, enc, ctr, name) (eu) == (enc) ? (ctr):
#define X86_FIXED_ARCH_COUNTER(eu)		   (X86_FIXED_ARCH_EVENTS(X86_FIXED_ROW_COUNTER_, eu) - 1)

#endif /* PMUPROF_FIXED_COUNTERS_H */
