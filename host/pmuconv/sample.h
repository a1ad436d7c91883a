/* SPDX-License-Identifier: MIT */
/*
 * The sample stream: what every input produces and every consumer reads the
 * same way. An input announces its events in a pc_set (pcagg.h), then emits
 * a pc_sample per sample or per group of identical ones (the native input
 * merges equal raw stacks before symbolizing). Consumers: the profile
 * builder (pcagg.c) and the page-size accumulator (pagesize.c). Inputs
 * apply --pid/--comm/--cpu and keep the accounting (per-event, per-CPU).
 */
#ifndef PMUCONV_SAMPLE_H
#define PMUCONV_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "profile.h"

#define PC_MAX_FRAMES 4096 /* frames kept per stack; deeper stacks are cut */

/* Page sizes, as the page-size breakdown counts them. */
enum ps_page {
	PS_4K = 0,
	PS_2M = 1,
	PS_1G = 2,
	PS_UNKNOWN = 3, /* not mapped, or the page walk failed */
	PS__NR = 4,
	PS_NONE = 0xff, /* pc_sample.data_page: the instruction accessed no data */
};

/* The mapped file (or the kernel) a frame's address fell in: what the
 * exporters (pprof) write as a mapping. Valid until the load returns. */
struct pc_map {
	uint64_t start, limit; /* [start, limit) virtual */
	uint64_t offset;       /* file offset of start */
	const char *file;      /* "" anonymous, "[vdso]" etc. as recorded */
	const uint8_t *build_id;
	uint32_t build_id_size;
};

struct pc_frame {
	const char *name; /* len bytes, not NUL-terminated; valid during the emit */
	uint32_t len;
	uint8_t kind;	/* enum pc_frame_kind of the name */
	uint8_t kernel; /* on the kernel side of the stack (--kernel-only/--user-only) */
	/* pmuprof input: the address as recorded (0 if the input has none) and
	 * the mapping it fell in (NULL if none was recorded) */
	uint64_t addr;
	const struct pc_map *map;
	/* "file:line" of the function's definition (NUL-terminated), or NULL;
	 * the first one given for a name is kept with it */
	const char *src;
};

struct pc_addr_part {
	uint64_t samples, weight;
	uint8_t status;		      /* enum pmuprof_addr_status */
	uint8_t data_page, code_page; /* enum ps_page */
	const char *ip_name;	      /* symbol of the sampled IP, when data_page != PS_NONE */
	uint16_t data_node1;	      /* NUMA node of the data page + 1 (nodemap.h); 0: unknown */
};

struct pc_sample {
	uint32_t event;	  /* index into the pc_set's events */
	uint64_t samples; /* identical samples this stands for */
	uint64_t weight;  /* their summed weight (periods, or 1 each) */
	const struct pc_frame *frames;
	uint32_t nr;
	bool root_first;  /* frames[0] is the root (folded input); else the leaf */
	const char *comm; /* process name (comm_len bytes), or NULL if the input has none */
	uint32_t comm_len;
	bool kernel_mode; /* the sample interrupted kernel mode (pmuprof input) */
	/* how the samples that carried a data-address part (pmuprof --data-addr)
	 * split by address status and page sizes */
	const struct pc_addr_part *addr;
	uint32_t nr_addr;
	/* has_ids: pid, tid and cpu are this sample's (pmuprof input, when a
	 * consumer wants_ids: the input then keeps samples of different
	 * threads and CPUs apart) */
	bool has_ids;
	int32_t pid;
	uint32_t tid, cpu;
};

/* A recorded memory mapping (pmuprof MMAP frames), as an access names it.
 * path points into the input and is valid during the callback only. */
struct pc_mapping {
	int32_t pid;
	uint32_t prot;
	uint64_t start, end, pgoff; /* [start, end) */
	const char *path;	    /* "" anonymous; "[heap]", "[stack]"... as in maps */
};

/* One sample's data access, for consumers that want the addresses (the
 * per-mapping page-size tables): pmuprof input only, after its samples. */
struct pc_access {
	uint32_t event; /* index into the pc_set's events */
	int32_t pid;
	bool kernel_mode; /* the sample interrupted kernel mode */
	uint8_t page;	  /* enum ps_page of the data access */
	uint64_t addr, weight;
	const struct pc_mapping *map; /* the recorded mapping covering addr, or NULL */
};

struct pc_consumer {
	int (*fn)(void *ctx, const struct pc_sample *s); /* 0 or a negative errno */
	void *ctx;
	bool wants_addr; /* reads the data-address part: inputs must keep it apart */
	bool wants_ids;	 /* reads pid/tid/cpu: inputs must keep them apart */
	/* optional: every data access (implies wants_addr); 0 or a negative errno */
	int (*access)(void *ctx, const struct pc_access *a);
};

#define PC_MAX_CONSUMERS 4
struct pc_stream {
	struct pc_consumer to[PC_MAX_CONSUMERS];
	size_t nr;
	bool wants_addr; /* some consumer does */
	bool wants_ids;
	bool wants_access; /* some consumer has an access callback */
};

static inline void pc_stream__add(struct pc_stream *st, struct pc_consumer c)
{
	if (c.fn && st->nr < PC_MAX_CONSUMERS) {
		st->to[st->nr++] = c;
		st->wants_addr |= c.wants_addr || c.access;
		st->wants_ids |= c.wants_ids;
		st->wants_access |= c.access != NULL;
	}
}

static inline int pc_stream__emit_access(const struct pc_stream *st, const struct pc_access *a)
{
	int r = 0;

	for (size_t i = 0; i < st->nr && !r; i++)
		if (st->to[i].access)
			r = st->to[i].access(st->to[i].ctx, a);
	return r;
}

static inline int pc_stream__emit(const struct pc_stream *st, const struct pc_sample *s)
{
	int r = 0;

	for (size_t i = 0; i < st->nr && !r; i++)
		r = st->to[i].fn(st->to[i].ctx, s);
	return r;
}

#endif
