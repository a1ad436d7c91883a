/* SPDX-License-Identifier: MIT */
/*
 * The input parsers (input_*.c), called by pc_load() (input.c) and the
 * tests. Each announces its events in s, fills s->acct, and emits its
 * samples to `out` (sample.h); text parsers never fail on bad lines, they
 * count them in s->acct.skipped (and remember the first) so callers can be
 * loud. --pid/--comm/--cpu (f) are applied here; `out` applies the rest.
 */
#ifndef PMUCONV_INPUTS_H
#define PMUCONV_INPUTS_H

#include "pcagg.h"
#include "symbolize.h"

int input_perfscript_parse(struct pc_set *s, const char *buf, size_t len, const struct pc_filter *f,
			   const struct pc_stream *out);
int input_stap_parse(struct pc_set *s, const char *buf, size_t len, const struct pc_filter *f,
		     const struct pc_stream *out);
int input_folded_parse(struct pc_set *s, const char *buf, size_t len, const struct pc_filter *f,
		       const struct pc_stream *out);
/* Native pmuprof file; -ENOSYS when built without lib/pmufile. */
int input_pmufile_load(struct pc_set *s, const char *path, const struct pc_filter *f,
		       const struct sym_opts *sym, const struct pc_stream *out, char *err,
		       size_t errlen);

#endif
