/* SPDX-License-Identifier: MIT */
/* What every subcommand shares (option parsing, loading inputs, opening
 * outputs), and the subcommands' entry points (cmd_<name>.c) for main.c. */
#ifndef PMUCONV_CLI_H
#define PMUCONV_CLI_H

#include <stdio.h>
#include "atomicfile.h"
#include "input.h"

/* The input when none is named, as perf report reads perf.data. */
#define PC_DEFAULT_INPUT "pmuprof.data"

/* Which options a subcommand accepts. */
enum {
	OPT_EVENT = 1u << 0,	/* -e EVENT */
	OPT_OUTPUT = 1u << 1,	/* -o OUT, --svg FILE */
	OPT_FILTER = 1u << 2,	/* --pid --comm --cpu --kernel-only --user-only */
	OPT_WEIGHT = 1u << 3,	/* --weight */
	OPT_INPUT = 1u << 4,	/* --input-format --symfs --buildid-dir --vmlinux --salvage
				   --event-name --no-offsets --no-demangle --no-inline --call-graph */
	OPT_JSON = 1u << 5,	/* --json */
	OPT_TOP = 1u << 6,	/* --top N */
	OPT_ANNOTATE = 1u << 7, /* --annotate-kernel, --no-process */
	OPT_SORT = 1u << 8,	/* --sort --percent-limit --callers --callees (report) */
	/* what every command that reads samples into profiles takes */
	OPT_PROFILE = OPT_EVENT | OPT_OUTPUT | OPT_FILTER | OPT_WEIGHT | OPT_INPUT,
};

#define COMMON_INPUT_HELP                                                                          \
	"Input options:\n"                                                                         \
	"  --input-format FMT  auto (default), pmuprof, perf-script, stap, folded\n"               \
	"  --symfs DIR         look binaries and debug files up under DIR\n"                       \
	"  --buildid-dir DIR   look binaries and debug files up by build-id in DIR/.build-id/\n"   \
	"                      (perf's ~/.debug); for both, DIR may be a 'pmuconv archive' tar\n"  \
	"  --vmlinux FILE      kernel symbols from this ELF image instead of kallsyms\n"           \
	"  --salvage           report what precedes damage in a truncated/corrupt file\n"          \
	"  --event-name NAME   event name for stap/folded input (default stap/folded)\n"           \
	"  --no-offsets        print unresolved user frames as [unknown], not bin+0xoff\n"         \
	"  --no-demangle       keep C++/Rust symbol names mangled (default: demangled)\n"          \
	"  --no-inline         no frames for inlined functions (default: from DWARF debug info)\n" \
	"  --call-graph fp|dwarf  user stacks of --call-graph dwarf recordings: unwind the\n"      \
	"                      stack copies (dwarf, default) or use the frame-pointer walk\n"      \
	"  --progress/--no-progress  force progress on stderr (default: if a terminal)\n"          \
	"  -q, --quiet         no warnings\n"
#define FILTER_HELP                                                                                \
	"Filters:\n"                                                                               \
	"  -p, --pid PID       only this process (tgid)\n"                                         \
	"  --comm NAME         only samples whose thread name is NAME\n"                           \
	"  -C, --cpu LIST      only samples taken on these CPUs (e.g. 0-3,7)\n"                    \
	"  --time START,END    only samples taken in this range: seconds as 'pmuconv\n"            \
	"                      script' prints them; START, or ,END: open (pmuprof input)\n"        \
	"  -d, --dso DSO       only samples whose IP is in DSO: a recorded path, its file\n"       \
	"                      name, [kernel.kallsyms] or [module] (pmuprof input)\n"              \
	"  -S, --symbol SYM    only samples whose IP is in function SYM (pmuprof input)\n"         \
	"  --kernel-only       keep only kernel frames (drop samples without any)\n"               \
	"  --user-only         keep only user frames (drop samples without any)\n"                 \
	"  --weight W          period (default): estimated event counts = sum of sample\n"         \
	"                      periods; samples: one per sample\n"

struct pc_cli {
	struct pc_load_opts load;
	const char *out;
	const char *svg; /* --svg FILE */
	int json;
	size_t top;
	int annotate_kernel;
	const char *sort;     /* --sort KEYS */
	double percent_limit; /* --percent-limit PCT: hide rows below */
	const char *callers;  /* --callers SYM */
	const char *callees;  /* --callees SYM */
	int npos;
	const char *pos[4]; /* none given: PC_DEFAULT_INPUT (diff: its .old too) */
};

/* A subcommand's name and full --help text, for messages. */
struct pc_cmd_help {
	const char *name;
	const char *usage;
};

/* Returns PC_CLI_RUN, or the exit code to return: 0 after --help, 2 on a
 * usage error (said on stderr). */
#define PC_CLI_RUN (-1)
int pc_cli_parse(struct pc_cli *c, int argc, char **argv, unsigned allowed,
		 const struct pc_cmd_help *cmd, int min_pos, int max_pos);
/* Take a subcommand's own flags (names[], NULL-terminated; no arguments)
 * out of argv before pc_cli_parse() sees it, setting set[k] for each found
 * (none after "--"); returns the new argc. */
int pc_cli_take_flags(int argc, char **argv, const char *const *names, bool *set);
/* Load input positional #i into s, printing the error; 0 or exit code 1. */
int pc_cli_load(struct pc_cli *c, struct pc_set *s, int i);
/* Open -o OUT (or stdout); NULL after printing an error. */
FILE *pc_cli_open_out(const char *path);
int pc_cli_close_out(FILE *f, const char *path);
/* Close a file a renderer wrote, saying why if it failed (err: what the
 * renderer returned); 0 or exit code 1. */
int pc_cli_close_rendered(FILE *f, const char *path, int err);
/* An output that appears whole or not at all: opens a temporary file
 * beside path (path "-": stdout); pc_cli_commit() closes it and renames it
 * to path when ok (and every write succeeded), else removes it. Both print
 * their errors; open returns 0 or exit code 1, commit 0 or 1. */
struct pc_out {
	FILE *f;
	const char *path;
	struct pc_atomic a; /* a.tmp NULL for stdout */
};
int pc_cli_open_atomic(struct pc_out *o, const char *path);
int pc_cli_commit(struct pc_out *o, int ok);
/* "not built" message for a missing renderer; returns exit code 3. */
int pc_cli_not_built(const char *what);
/* mkdir -p for one level (an existing directory is fine); 0 or exit code 1. */
int pc_cli_mkdir(const char *dir);

int cmd_folded(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_pagesize(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_pprof(int argc, char **argv);
int cmd_speedscope(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_perfdata(int argc, char **argv);

#endif
