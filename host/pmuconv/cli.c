// SPDX-License-Identifier: MIT
/* Subcommand table and option parsing shared by the subcommands. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>

#define COMMON_INPUT_HELP                                                                          \
	"Input options:\n"                                                                         \
	"  --input-format FMT  auto (default), pmuprof, perf-script, stap, folded\n"               \
	"  --symfs DIR         look binaries and debug files up under DIR\n"                       \
	"  --vmlinux FILE      kernel symbols from this ELF image instead of kallsyms\n"           \
	"  --salvage           report what precedes damage in a truncated/corrupt file\n"          \
	"  --event-name NAME   event name for stap/folded input (default stap/folded)\n"           \
	"  --no-offsets        print unresolved user frames as [unknown], not bin+0xoff\n"         \
	"  --progress/--no-progress  force progress on stderr (default: if a terminal)\n"          \
	"  -q, --quiet         no warnings\n"
#define FILTER_HELP                                                                                \
	"Filters:\n"                                                                               \
	"  -p, --pid PID       only this process (tgid)\n"                                         \
	"  --comm NAME         only samples whose thread name is NAME\n"                           \
	"  -C, --cpu N         only samples taken on CPU N\n"                                      \
	"  --kernel-only       keep only kernel frames (drop samples without any)\n"               \
	"  --user-only         keep only user frames (drop samples without any)\n"                 \
	"  --weight W          period (default): estimated event counts = sum of sample\n"         \
	"                      periods; samples: one per sample\n"

const struct pc_cmd pc_cmds[] = {
	{"folded", cmd_folded, "folded stacks, one file per event",
	 "usage: pmuconv folded FILE [-e EVENT] [-o OUT] [options]\n"
	 "Write folded stacks (root;...;leaf COUNT, root first; the root is the process\n"
	 "name) for flamegraph.pl, inferno or speedscope. COUNT is the weight (see\n"
	 "--weight); the unit is printed on stderr. Events are never mixed: with one\n"
	 "event (or -e) the stacks go to OUT (default stdout); with several, -o names a\n"
	 "directory that gets one EVENT.folded file per event.\n"
	 "  -e, --event EVENT   only this event\n"
	 "  -o, --output OUT    output file, or directory for several events\n"
	 "  --annotate-kernel   suffix kernel frames with _[k] (FlameGraph colouring)\n"
	 "  --no-process        do not put the process name at the root\n" FILTER_HELP
		 COMMON_INPUT_HELP},
	{"report", cmd_report, "accounting header and top tables per event",
	 "usage: pmuconv report FILE [--json] [--top N] [options]\n"
	 "Accounting (duration, samples, lost and lost %, throttling, events and periods),\n"
	 "then per event the top functions by self and total share with samples and\n"
	 "estimated counts, and breakdowns by process and CPU.\n"
	 "  --json              machine-readable output\n"
	 "  -n, --top N         rows per table (default 20)\n"
	 "  -e, --event EVENT   only this event\n"
	 "  -o, --output OUT    write to OUT instead of stdout\n" FILTER_HELP COMMON_INPUT_HELP},
	{"pagesize", cmd_pagesize, "4K/2M/1G shares of data and code accesses",
	 "usage: pmuconv pagesize FILE [--json] [-o OUT] [--svg FILE] [options]\n"
	 "Per event, the shares of samples whose data access (and whose code) sat on 4K,\n"
	 "2M, 1G or unknown pages, with the top symbols and processes per page size.\n"
	 "Needs a recording made with `pmuctl record --data-addr`. With --user-only or\n"
	 "--kernel-only only the samples taken in user or kernel mode are counted.\n"
	 "  --json              machine-readable output\n"
	 "  --svg FILE          also write the bar chart (when the renderer is built)\n"
	 "  -e, --event EVENT   only this event\n"
	 "  -o, --output OUT    write to OUT instead of stdout\n" FILTER_HELP COMMON_INPUT_HELP},
	{"diff", cmd_diff, "functions that grew or shrank between two recordings",
	 "usage: pmuconv diff A B [-e EVENT] [--json] [--svg FILE] [options]\n"
	 "Compare two recordings of the same event: per function, the self and total\n"
	 "shares (normalised by each recording's total) in A and B and the change, largest\n"
	 "changes first. --svg writes a differential flamegraph (renderer needed).\n"
	 "  -e, --event EVENT   event to compare (needed when a file has several)\n"
	 "  -n, --top N         rows (default 30)\n"
	 "  --json              machine-readable output\n"
	 "  -o, --output OUT    table to OUT instead of stdout\n" FILTER_HELP COMMON_INPUT_HELP},
	{"flamegraph", cmd_flamegraph, "one interactive SVG per event (renderer)",
	 "usage: pmuconv flamegraph FILE -o DIR [-e EVENT] [options]\n"
	 "Write DIR/EVENT.svg for every event (or only -e EVENT).\n"
	 "  --width PX is not configurable yet; frames use the weight (see --weight)\n" FILTER_HELP
		 COMMON_INPUT_HELP},
	{"html", cmd_html, "one self-contained HTML report (renderer)",
	 "usage: pmuconv html FILE -o report.html [options]\n" FILTER_HELP COMMON_INPUT_HELP},
};

const size_t pc_nr_cmds = PC_ARRAY_SIZE(pc_cmds);

const struct pc_cmd *pc_find_cmd(const char *name)
{
	for (size_t i = 0; i < pc_nr_cmds; i++)
		if (!strcmp(pc_cmds[i].name, name))
			return &pc_cmds[i];
	return NULL;
}

enum {
	LO_WEIGHT = 256,
	LO_COMM,
	LO_KONLY,
	LO_UONLY,
	LO_ANNOTATE,
	LO_NOPROC,
	LO_FORMAT,
	LO_SYMFS,
	LO_VMLINUX,
	LO_SALVAGE,
	LO_EVNAME,
	LO_NOOFF,
	LO_PROGRESS,
	LO_NOPROGRESS,
	LO_JSON,
	LO_DEBUGDIR,
	LO_SVG,
};

const char *pc_cli_svg; /* --svg FILE (pagesize, diff) */

int pc_cli_parse(struct pc_cli *c, int argc, char **argv, unsigned allowed,
		 const struct pc_cmd *cmd, int min_pos, int max_pos)
{
	static const struct option lopts[] = {
		{"event", required_argument, 0, 'e'},
		{"output", required_argument, 0, 'o'},
		{"pid", required_argument, 0, 'p'},
		{"cpu", required_argument, 0, 'C'},
		{"top", required_argument, 0, 'n'},
		{"quiet", no_argument, 0, 'q'},
		{"help", no_argument, 0, 'h'},
		{"weight", required_argument, 0, LO_WEIGHT},
		{"comm", required_argument, 0, LO_COMM},
		{"kernel-only", no_argument, 0, LO_KONLY},
		{"user-only", no_argument, 0, LO_UONLY},
		{"annotate-kernel", no_argument, 0, LO_ANNOTATE},
		{"no-process", no_argument, 0, LO_NOPROC},
		{"input-format", required_argument, 0, LO_FORMAT},
		{"symfs", required_argument, 0, LO_SYMFS},
		{"vmlinux", required_argument, 0, LO_VMLINUX},
		{"salvage", no_argument, 0, LO_SALVAGE},
		{"event-name", required_argument, 0, LO_EVNAME},
		{"no-offsets", no_argument, 0, LO_NOOFF},
		{"progress", no_argument, 0, LO_PROGRESS},
		{"no-progress", no_argument, 0, LO_NOPROGRESS},
		{"json", no_argument, 0, LO_JSON},
		{"debug-dir", required_argument, 0, LO_DEBUGDIR},
		{"svg", required_argument, 0, LO_SVG},
		{0, 0, 0, 0},
	};
	struct pc_filter *f = &c->load.filter;
	uint64_t v;
	int o;

	memset(c, 0, sizeof(*c));
	c->top = 20;
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "e:o:p:C:n:qh", lopts, NULL)) != -1) {
		unsigned need = 0;
		switch (o) {
		case 'h':
			fputs(cmd->usage, stdout);
			return 1;
		case 'q':
			pc_quiet = 1;
			break;
		case 'e':
			need = OPT_EVENT;
			f->event = optarg;
			break;
		case 'o':
			need = OPT_OUTPUT;
			c->out = optarg;
			break;
		case 'p':
			need = OPT_FILTER;
			if (pc_parse_u64(optarg, &v) || v > INT32_MAX) {
				fprintf(stderr, "pmuconv %s: --pid wants a process id, got '%s'\n",
					cmd->name, optarg);
				return 2;
			}
			f->has_pid = true;
			f->pid = (int32_t)v;
			break;
		case 'C':
			need = OPT_FILTER;
			if (pc_parse_u64(optarg, &v) || v > 65535) {
				fprintf(stderr, "pmuconv %s: --cpu wants a CPU number, got '%s'\n",
					cmd->name, optarg);
				return 2;
			}
			f->has_cpu = true;
			f->cpu = (uint32_t)v;
			break;
		case 'n':
			need = OPT_TOP;
			if (pc_parse_u64(optarg, &v) || !v) {
				fprintf(stderr,
					"pmuconv %s: --top wants a positive count, got '%s'\n",
					cmd->name, optarg);
				return 2;
			}
			c->top = (size_t)v;
			break;
		case LO_WEIGHT:
			need = OPT_WEIGHT;
			if (!strcmp(optarg, "period"))
				f->weight = PC_WEIGHT_PERIOD;
			else if (!strcmp(optarg, "samples"))
				f->weight = PC_WEIGHT_SAMPLES;
			else {
				fprintf(stderr,
					"pmuconv %s: --weight is 'period' or 'samples', not '%s'\n",
					cmd->name, optarg);
				return 2;
			}
			break;
		case LO_COMM:
			need = OPT_FILTER;
			f->comm = optarg;
			break;
		case LO_KONLY:
			need = OPT_FILTER;
			f->mode = PC_MODE_KERNEL_ONLY;
			break;
		case LO_UONLY:
			need = OPT_FILTER;
			f->mode = PC_MODE_USER_ONLY;
			break;
		case LO_ANNOTATE:
			need = OPT_ANNOTATE;
			c->annotate_kernel = 1;
			break;
		case LO_NOPROC:
			need = OPT_ANNOTATE;
			f->no_process = true;
			break;
		case LO_FORMAT:
			need = OPT_INPUT;
			c->load.format = pc_format_parse(optarg);
			if (c->load.format < 0) {
				fprintf(stderr,
					"pmuconv %s: unknown --input-format '%s' (auto, pmuprof, "
					"perf-script, stap, folded)\n",
					cmd->name, optarg);
				return 2;
			}
			break;
		case LO_SYMFS:
			need = OPT_INPUT;
			c->load.sym.symfs = optarg;
			break;
		case LO_VMLINUX:
			need = OPT_INPUT;
			c->load.sym.vmlinux = optarg;
			break;
		case LO_DEBUGDIR:
			need = OPT_INPUT;
			c->load.sym.debug_dir = optarg;
			break;
		case LO_SALVAGE:
			need = OPT_INPUT;
			f->salvage = true;
			break;
		case LO_EVNAME:
			need = OPT_INPUT;
			c->load.event_name = optarg;
			break;
		case LO_NOOFF:
			need = OPT_INPUT;
			c->load.sym.no_offsets = 1;
			break;
		case LO_PROGRESS:
			pc_progress_mode = 1;
			break;
		case LO_NOPROGRESS:
			pc_progress_mode = -1;
			break;
		case LO_JSON:
			need = OPT_JSON;
			c->json = 1;
			break;
		case LO_SVG:
			need = OPT_OUTPUT;
			pc_cli_svg = optarg;
			break;
		default:
			fprintf(stderr, "pmuconv %s: unknown option or missing argument: %s\n",
				cmd->name, argv[optind - 1]);
			fprintf(stderr, "see 'pmuconv %s --help'\n", cmd->name);
			return 2;
		}
		if (need && !(allowed & need)) {
			fprintf(stderr,
				"pmuconv %s: option %s does not apply here; see 'pmuconv %s "
				"--help'\n",
				cmd->name, argv[optind - 1], cmd->name);
			return 2;
		}
	}
	if (f->mode && f->mode != PC_MODE_KERNEL_ONLY && f->mode != PC_MODE_USER_ONLY)
		return 2;
	for (; optind < argc; optind++) {
		if (c->npos >= max_pos) {
			fprintf(stderr, "pmuconv %s: too many arguments ('%s'); see --help\n",
				cmd->name, argv[optind]);
			return 2;
		}
		c->pos[c->npos++] = argv[optind];
	}
	if (c->npos < min_pos) {
		fprintf(stderr, "pmuconv %s: missing input file\n%s", cmd->name, cmd->usage);
		return 2;
	}
	return 0;
}

/* PMUCONV_STATS=1: anonymous memory right after loading, when every table
 * is at its largest (for the benchmarks; VmHWM alone also counts the mapped
 * input file). */
static void print_stats(const char *path)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "RssAnon:", 8) || !strncmp(line, "VmHWM:", 6))
			fprintf(stderr, "pmuconv: stats: %s: %s", path, line);
	fclose(f);
}

int pc_cli_load(struct pc_cli *c, struct pc_set *s, int i)
{
	char err[512] = "";
	int r = pc_load(s, c->pos[i], &c->load, err, sizeof(err));

	if (r) {
		fprintf(stderr, "pmuconv: %s\n", err[0] ? err : strerror(-r));
		return 1;
	}
	if (getenv("PMUCONV_STATS"))
		print_stats(c->pos[i]);
	if (c->load.filter.event && s->nr == 0) {
		fprintf(stderr, "pmuconv: %s: no samples of event '%s' in this input\n", c->pos[i],
			c->load.filter.event);
		return 1;
	}
	return 0;
}

FILE *pc_cli_open_out(const char *path)
{
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "pmuconv: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

int pc_cli_close_out(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (f == stdout)
		bad |= fflush(f) != 0;
	else
		bad |= fclose(f) != 0;
	if (bad) {
		fprintf(stderr, "pmuconv: writing %s failed: %s\n", path ? path : "stdout",
			strerror(errno));
		return 1;
	}
	return 0;
}
