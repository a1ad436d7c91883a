/* SPDX-License-Identifier: MIT */
/* Loading an input: format names, autodetection, and pc_load(), which runs
 * the right parser with the profile builder and the caller's consumer. */
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

struct pc_load_opts {
	int format; /* PC_FMT_* */
	struct pc_filter filter;
	struct sym_opts sym;
	struct pc_consumer also; /* a consumer besides the profile builder, or fn NULL */
	const char *event_name;	 /* name for folded/stap input events */
};

/* Spool a pmuprof file read from standard input (in) into an unlinked
 * temporary file that becomes standard input; path receives the name to
 * open it by (again: "/dev/stdin"). 0 or a negative errno with err filled. */
int pc_stdin_spool(const struct pc_input_buf *in, char *path, size_t pathlen, char *err,
		   size_t errlen);

/* Load any input into s (its profiles, finished) and feed o->also. Returns 0
 * or a negative errno with err filled. */
int pc_load(struct pc_set *s, const char *path, const struct pc_load_opts *o, char *err,
	    size_t errlen);

#endif
