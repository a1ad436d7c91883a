/* SPDX-License-Identifier: MIT */
/*
 * Building struct pc_profile (profile.h): name interning, the unique-stack
 * table, per-CPU tallies, and the set of per-event profiles one input
 * produces together with its accounting header.
 *
 * Cost model: adding a sample whose stack is already known costs one hash
 * over its frame ids and one compare; memory grows only with unique stacks
 * and unique names.
 */
#ifndef PMUCONV_PCAGG_H
#define PMUCONV_PCAGG_H

#include <stdbool.h>
#include <stdint.h>
#include "filterspec.h"
#include "hashtab.h"
#include "sample.h"
#include "util.h"

#define PC_STRTAB_RECENT 256 /* names interned lately, by the caller's pointer */
struct pc_strtab {
	struct pc_arena arena;
	struct pc_name *names;
	uint64_t *hashes;
	size_t nr, cap;
	struct pc_htab index; /* hash -> id */
	/* direct-mapped: a hit is checked against the stored name's bytes */
	struct {
		const char *s;
		uint32_t len, id1; /* id + 1; 0: empty */
	} recent[PC_STRTAB_RECENT];
};
/* Intern (s, len, kind); the stored name is escaped for folded output
 * (';' -> ':', control characters -> '?'). Returns the id or a negative errno. */
int64_t pc_strtab__intern(struct pc_strtab *t, const char *s, size_t len, int kind);
void pc_strtab__free(struct pc_strtab *t);
/* Give name id its source position (copied) unless it has one. 0 or -ENOMEM. */
int pc_strtab__set_src(struct pc_strtab *t, uint32_t id, const char *src);
/* Escape in place into dst (dst may be s); returns the new length. */
size_t pc_escape_name(char *dst, const char *s, size_t len);

struct pc_stackent {
	uint64_t hash;
	size_t off; /* into pool */
	uint32_t nr;
	uint64_t samples, weight;
};

struct pc_tally {
	uint64_t samples, weight;
};

#define PC_NR_SOURCES 8 /* > PMUPROF_SOURCE__MAX, append-only enum */

/* Per-event accounting (what the report header prints). */
struct pc_event_acct {
	uint64_t samples; /* samples of this event read from the input */
	uint64_t kept;	  /* after filters */
	uint64_t weight;  /* sum of weights kept */
	uint64_t lost;	  /* from the trailer / stats; has_lost says if known */
	uint64_t throttled;
	uint64_t unthrottled; /* UNTHROTTLE records: rate raised back one step */
	uint64_t period_changes;
	uint32_t source; /* enum pmuprof_source, 0 if unknown */
	int weight_is_period;
	/* pmuprof input: the event's raw encoding (IA32_PERFEVTSELx bits, 0 if
	 * none, e.g. cpu-clock) and libpfm4's name for it ("" if none) */
	uint64_t config;
	char resolved[256];
	/* pmuprof input: samples read per sample source (enum pmuprof_source):
	 * a cpu-clock event mixes NMI_IPI and TIMER samples (the sender plan) */
	uint64_t by_source[PC_NR_SOURCES];
};

struct pc_agg {
	uint32_t index;		/* in its pc_set (pc_sample.event) */
	struct pc_profile prof; /* event/unit/period/freq_mode set by the input */
	struct pc_event_acct acct;
	struct pc_strtab names;
	struct pc_stackent *ents;
	size_t nr_ents, cap_ents;
	struct pc_htab ents_index; /* hash -> ent */
	uint32_t *pool;
	size_t pool_nr, pool_cap;
	struct pc_tally *cpus; /* indexed by cpu */
	size_t nr_cpus;
	bool finished;
};

int pc_agg__add(struct pc_agg *a, const uint32_t *frames, uint32_t nr, uint64_t samples,
		uint64_t weight);
int pc_agg__add_cpu(struct pc_agg *a, uint32_t cpu, uint64_t samples, uint64_t weight);
/* Fill a->prof (names, stacks sorted by folded text, totals). Idempotent. */
int pc_agg__finish(struct pc_agg *a);
void pc_agg__free(struct pc_agg *a);

/* What every input honours. */
enum pc_weight { PC_WEIGHT_PERIOD = 0, PC_WEIGHT_SAMPLES = 1 };
enum pc_mode_filter { PC_MODE_ALL = 0, PC_MODE_KERNEL_ONLY = 1, PC_MODE_USER_ONLY = 2 };
struct pc_filter {
	const char *event; /* NULL = all events */
	bool has_pid;
	int32_t pid;
	const char *comm;
	bool has_cpu;
	struct pc_cpuset cpus; /* --cpu LIST */
	bool has_time;	       /* --time START,END: sample times, inclusive */
	uint64_t time_start, time_end;
	const char *dso;    /* --dso: the sampled IP's binary (path or base name) */
	const char *symbol; /* --symbol: the sampled IP's function */
	int mode;	    /* enum pc_mode_filter */
	int weight;	    /* enum pc_weight */
	bool no_process;    /* omit the process root frame */
	bool annotate_node; /* a leaf pseudo-frame "[node N]" per data access (pcagg.c) */
	bool salvage;
	bool no_demangle;   /* text inputs: keep mangled names (sym_opts has its own) */
	bool call_graph_fp; /* --call-graph fp: ignore user stack copies (pmuprof input) */
};

/* Accounting header of one input. */
struct pc_accounting {
	char source[1024];  /* file name */
	const char *format; /* "pmuprof", "perf-script", "stap", "folded" */
	uint32_t version;   /* pmuprof format version, 0 otherwise */
	char hostname[65], kernel[65], cpu_model[64];
	uint32_t cpu_vendor, cpu_family; /* pmuprof input: enum pmuprof_cpu_vendor; 0 unknown */
	char cmdline[512];
	bool has_time;
	uint64_t duration_ns;
	uint64_t samples; /* sample records/stacks read */
	bool has_lost;
	uint64_t lost;
	bool has_throttle;
	uint64_t throttled;
	uint64_t unthrottled; /* pmuprof input: UNTHROTTLE records */
	uint64_t missed;      /* pmuprof input: cpu-clock samples due, never taken */
	/* pmuprof input: PEBS records whose data address the module checked
	 * against the decoder (STATS): agree, disagree, n/a, undecodable */
	uint64_t pebs_check[4];
	uint64_t skipped;     /* lines/records that could not be parsed */
	char first_skip[256]; /* first skipped line/record: where and why */
	bool truncated;	      /* salvage: data ended early */
	char damage[256];
	uint64_t filtered;		   /* samples removed by --pid/--comm/--cpu/mode filters */
	bool has_pages;			   /* the format can carry page sizes (pmuprof) */
	bool has_data_addr, has_code_page; /* recorded with them (pmuprof config flags) */
	/* samples with a user stack copy (--call-graph dwarf), by how their
	 * unwind went: enum unw_outcome (unwind.h) */
	uint64_t unwind[5];
	bool unwind_ignored; /* --call-graph fp: copies present but not used */
};

struct pc_set {
	struct pc_accounting acct;
	const struct pc_filter *filter; /* what pc_set__consume applies */
	size_t nr;
	struct pc_agg **ev;
	bool has_cpu, has_process; /* does the input carry per-cpu / process data */
};

struct pc_agg *pc_set__event(struct pc_set *s, const char *name); /* find or add */
struct pc_agg *pc_set__find(const struct pc_set *s, const char *name);
int pc_set__finish(struct pc_set *s);
void pc_set__free(struct pc_set *s);
void pc_set__skip(struct pc_set *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The profile builder, the stream's first consumer (ctx: the pc_set):
 * interns the frames into the sample's event (in the order given, then the
 * process), applies --kernel-only/--user-only and --no-process from
 * set->filter, and adds the stack root first. 0 or a negative errno. */
int pc_set__consume(void *set, const struct pc_sample *s);
/* Start a stream whose first consumer builds s's profiles under filter f. */
void pc_set__stream(struct pc_set *s, const struct pc_filter *f, struct pc_stream *st);

#endif
