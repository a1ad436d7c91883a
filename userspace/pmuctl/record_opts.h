/* SPDX-License-Identifier: MIT */
/* pmuctl record: its command line, parsed and checked against itself. */
#ifndef PMUCTL_RECORD_OPTS_H
#define PMUCTL_RECORD_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "include/uapi/pmuprof.h"

#define DEFAULT_OUTPUT	"pmuprof.data"
#define DEFAULT_FREQ_HZ 1000 /* perf uses 4000; 1 kHz is kinder to VMs */

struct record_opts {
	const char *events[PMUPROF_MAX_EVENTS + 1]; /* point into ev_text */
	int nr_events;
	char ev_text[1024]; /* the -e lists, split here: argv stays intact for the header */
	size_t ev_used;
	uint64_t count;	      /* -c */
	uint64_t freq;	      /* -F */
	bool callgraph;	      /* kernel stacks + user stacks (fp walk) */
	uint32_t ustack_copy; /* --call-graph dwarf: user stack bytes per sample, else 0 */
	unsigned int depth;
	bool data_addr;
	bool all, cpus_given;
	const char *cpus;
	int pid;
	char **command;
	int inherit; /* -1: default (COMMAND yes, -p no), 0 --no-inherit, 1 --inherit */
	bool user_only, kernel_only;
	uint64_t duration_ns;
	uint64_t ring_size;
	const char *output;
	bool quiet;
};

/* 0, -1 after --help (printed), or EXIT_USAGE after a one-line message. */
int record_opts__parse(struct record_opts *o, int argc, char **argv);
/* Follow the process tree? COMMAND: yes unless --no-inherit; -p: only with --inherit. */
bool record_opts__inherit(const struct record_opts *o);

#endif
