/* SPDX-License-Identifier: MIT */
/* The input parsers (input_*.c), for pc_load() and the tests: each announces
 * its events in s, fills s->acct, applies --pid/--comm/--cpu (f) and emits
 * its samples to `out`. Text parsers count bad lines in s->acct.skipped. */
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
