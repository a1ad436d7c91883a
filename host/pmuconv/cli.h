/* SPDX-License-Identifier: MIT */
/* Command-line options shared by the subcommands (main.c parses them). */
#ifndef PMUCONV_CLI_H
#define PMUCONV_CLI_H

#include <stdio.h>
#include "input.h"

/* Which options a subcommand accepts. */
enum {
	OPT_EVENT = 1u << 0,	/* -e EVENT */
	OPT_OUTPUT = 1u << 1,	/* -o OUT */
	OPT_FILTER = 1u << 2,	/* --pid --comm --cpu --kernel-only --user-only */
	OPT_WEIGHT = 1u << 3,	/* --weight */
	OPT_INPUT = 1u << 4,	/* --input-format --symfs --vmlinux --salvage --event-name */
	OPT_JSON = 1u << 5,	/* --json */
	OPT_TOP = 1u << 6,	/* --top N */
	OPT_ANNOTATE = 1u << 7, /* --annotate-kernel, --no-process */
};

struct pc_cli {
	struct pc_load_opts load;
	const char *out;
	int json;
	size_t top;
	int annotate_kernel;
	int npos;
	const char *pos[4];
};

struct pc_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage; /* full --help text */
};

/* Returns 0 to run, 1 if --help was printed, or 2 on a usage error. */
int pc_cli_parse(struct pc_cli *c, int argc, char **argv, unsigned allowed,
		 const struct pc_cmd *cmd, int min_pos, int max_pos);
/* Load input positional #i into s, printing the error; 0 or exit code 1. */
int pc_cli_load(struct pc_cli *c, struct pc_set *s, int i);
/* Open -o OUT (or stdout); NULL after printing an error. */
FILE *pc_cli_open_out(const char *path);
int pc_cli_close_out(FILE *f, const char *path);

int cmd_folded(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_pagesize(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_html(int argc, char **argv);
const struct pc_cmd *pc_find_cmd(const char *name);
extern const struct pc_cmd pc_cmds[];
extern const size_t pc_nr_cmds;

/* Write one profile as folded text; annotate: add "_[k]" to kernel frames;
 * by_samples: print sample counts instead of weights. Skips zero counts. */
int folded_write(FILE *out, const struct pc_profile *p, int annotate, int by_samples);

struct render_opts;
/* Title, subtitle (period, samples) and unit label for one event's graph. */
void pc_render_opts(struct render_opts *ro, const struct pc_agg *a, char *sub, size_t sublen,
		    char *unit, size_t unitlen);
extern const char *pc_cli_svg; /* --svg FILE */

#endif
