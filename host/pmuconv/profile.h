/* SPDX-License-Identifier: MIT */
/*
 * The in-memory profile: what the profile builder (pcagg.c) makes of any
 * input's sample stream (pmuprof files, perf script text, stap stacks,
 * folded text) and every output consumes (folded, report, flamegraph SVG,
 * HTML, diff). One profile = one event; events are never mixed.
 *
 * Frames are interned strings (each unique name stored once) so memory
 * grows with unique stacks and names, not with samples.
 */
#ifndef PMUCONV_PROFILE_H
#define PMUCONV_PROFILE_H

#include <stddef.h>
#include <stdint.h>

enum pc_frame_kind {
	PC_FRAME_USER = 0,
	PC_FRAME_KERNEL = 1,
	PC_FRAME_UNKNOWN = 2, /* unresolved: "[unknown]" or "bin+0xoff" */
	PC_FRAME_PROCESS = 3, /* synthetic root frame naming the process */
};

struct pc_name {
	const char *name; /* escaped for folded output: no ';', no newline */
	uint8_t kind;	  /* enum pc_frame_kind */
	/* "file:line" where the function is defined (DWARF debug info, pmuprof
	 * input), or NULL: the flamegraph's and HTML report's tooltips */
	const char *src;
};

/* One unique stack, root first (frames[0] is the outermost caller). */
struct pc_stack {
	uint32_t nr;
	uint32_t *frames; /* indices into pc_profile.names */
	uint64_t samples; /* how many samples had exactly this stack */
	uint64_t weight;  /* estimated event count (sum of periods) */
};

struct pc_profile {
	char event[128]; /* event name as recorded */
	char unit[32];	 /* what weight counts: "cycles", "ns", "samples" */
	uint64_t period; /* configured period (0 if freq mode / unknown) */
	int freq_mode;	 /* 1 if periods varied (frequency mode) */
	size_t nr_names;
	struct pc_name *names;
	size_t nr_stacks;
	struct pc_stack *stacks;
	uint64_t total_samples;
	uint64_t total_weight;
};

#endif /* PMUCONV_PROFILE_H */
