/* SPDX-License-Identifier: MIT */
/*
 * A pmuprof recording as a perf.data file (`pmuconv perf-data`): events as
 * perf_event_attrs (PERF_TYPE_RAW with the recorded IA32_PERFEVTSELx
 * encoding, cpu-clock as PERF_TYPE_SOFTWARE/PERF_COUNT_SW_CPU_CLOCK), the
 * recorded processes and maps as FORK/COMM/MMAP2 records with build-ids, the
 * kernel image and modules as kernel MMAP records placed from the kallsyms
 * snapshot, samples with callchains (PERF_CONTEXT_KERNEL/USER; the user
 * part unwound from the stack copies of --call-graph dwarf recordings) and, for
 * --data-addr recordings, data address, physical address and page sizes;
 * LOST records as PERF_RECORD_LOST plus PERF_RECORD_LOST_SAMPLES. The
 * kallsyms snapshot goes to OUT.kallsyms for `perf report --kallsyms`.
 */
#ifndef PMUCONV_EXPORT_PERFDATA_H
#define PMUCONV_EXPORT_PERFDATA_H

#include <stdint.h>
#include "pcagg.h"
#include "symbolize.h"

struct pd_export_opts {
	const char *out;	   /* destination (written under a temporary name) */
	const struct pc_filter *f; /* -e --pid --comm --cpu --time --kernel/user-only --salvage */
	const char *symfs;	   /* build-ids of binaries the recording has none for */
	const char *kallsyms_out;  /* NULL: OUT.kallsyms when the recording has kallsyms */
	const char *version;	   /* HEADER_VERSION text */
	/* --call-graph dwarf recordings: where the binaries are for unwinding
	 * the stack copies into the user callchains (unwind.h; the FP walk
	 * with --call-graph fp, or NULL, or in builds without the unwinder) */
	const struct sym_opts *sym;
};

struct pd_export_stats {
	uint64_t samples, written, lost, filtered, maps, build_ids;
	char kallsyms_path[4200]; /* "" if none was written */
	bool truncated;		  /* --salvage: the input was damaged */
};

/* 0, or a negative errno with err filled (and no output file left). */
int perfdata_export(const char *in, const struct pd_export_opts *o, struct pd_export_stats *st,
		    char *err, size_t errlen);

#endif
