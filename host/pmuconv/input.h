/* SPDX-License-Identifier: MIT */
/*
 * pmuconv inputs. Each parser fills a pc_set (one pc_agg per event) from a
 * memory buffer; text parsers never fail on bad lines, they count them in
 * set->acct.skipped (and remember the first) so callers can be loud.
 */
#ifndef PMUCONV_INPUT_H
#define PMUCONV_INPUT_H

#include "pcagg.h"
#include "symbolize.h"

enum pc_format {
	PC_FMT_AUTO = 0,
	PC_FMT_PMUPROF,
	PC_FMT_PERFSCRIPT,
	PC_FMT_STAP,
	PC_FMT_FOLDED,
};

const char *pc_format_name(int fmt);
int pc_format_parse(const char *s); /* -EINVAL if unknown */
/* Guess from content: a binary header means pmuprof; otherwise looks at the
 * first lines. Returns a PC_FMT_* or -EINVAL with a reason in err. */
int pc_detect_format(const char *buf, size_t len, char *err, size_t errlen);

int input_perfscript_parse(struct pc_set *s, const char *buf, size_t len,
			   const struct pc_filter *f);
int input_stap_parse(struct pc_set *s, const char *buf, size_t len, const struct pc_filter *f);
int input_folded_parse(struct pc_set *s, const char *buf, size_t len, const struct pc_filter *f);

struct pagesize_acc; /* pagesize.h */

struct pc_load_opts {
	int format; /* PC_FMT_* */
	struct pc_filter filter;
	struct sym_opts sym;
	struct pagesize_acc *pagesize; /* collect page-size data (native only), or NULL */
	const char *event_name;	       /* name for folded/stap input events */
};

/* Load any input into s. Returns 0 or a negative errno with err filled. */
int pc_load(struct pc_set *s, const char *path, const struct pc_load_opts *o, char *err,
	    size_t errlen);

/* Native pmuprof file (input_pmufile.c); -ENOSYS when built without lib/pmufile. */
int input_pmufile_load(struct pc_set *s, const char *path, const struct pc_load_opts *o, char *err,
		       size_t errlen);

#endif
