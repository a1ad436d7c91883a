/* SPDX-License-Identifier: MIT */
/*
 * `pmuconv report --callers SYM` / `--callees SYM`: the distinct call chains
 * through one function, from a finished profile's stacks, with their shares
 * of the event: callers read outward from SYM to the thread's root
 * ("SYM <- caller <- ... <- main"), callees inward from SYM to the sampled
 * leaf ("SYM -> callee -> ..."), as perf report's caller/callee graphs of
 * one symbol (-g caller/callee --symbol-filter) flattened to one line each.
 */
#ifndef PMUCONV_CALLCHAINS_H
#define PMUCONV_CALLCHAINS_H

#include <stdbool.h>
#include <stdio.h>
#include "pcagg.h"

/* For every event of s; rows below percent_limit are left out. Returns the
 * number of stacks that contained sym (0: the caller says so), or a
 * negative errno. */
long report_print_chains(FILE *out, const struct pc_set *s, const char *sym, bool callers,
			 double percent_limit);

#endif
