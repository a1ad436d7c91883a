// SPDX-License-Identifier: MIT
/* What every subcommand shares: option parsing, loading inputs, opening outputs. */
#include "cli.h"
#include "symfs_tar.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* What an option does: store its argument or a constant into a field of
 * struct pc_cli, or one of the actions that check their argument. */
enum opt_kind {
	K_STR,	/* const char *field = optarg */
	K_TRUE, /* bool field = true */
	K_INT,	/* int field = v */
	K_HELP,
	K_QUIET,
	K_PROGRESS, /* pc_progress_mode = v */
	K_PID,
	K_CPU,
	K_TIME,
	K_TOP,
	K_WEIGHT,
	K_PCTLIMIT,
	K_FORMAT,
	K_CALLGRAPH,
	K_NODEMANGLE,
};

#define F(field) offsetof(struct pc_cli, field)
/* Every option of every subcommand; need: the OPT_* a subcommand must allow. */
static const struct pc_opt {
	const char *name;
	int has_arg;
	char short_name; /* 0: long only */
	unsigned need;
	enum opt_kind kind;
	int v;
	size_t off;
} opts[] = {
	{"event", required_argument, 'e', OPT_EVENT, K_STR, 0, F(load.filter.event)},
	{"output", required_argument, 'o', OPT_OUTPUT, K_STR, 0, F(out)},
	{"pid", required_argument, 'p', OPT_FILTER, K_PID, 0, 0},
	{"cpu", required_argument, 'C', OPT_FILTER, K_CPU, 0, 0},
	{"top", required_argument, 'n', OPT_TOP, K_TOP, 0, 0},
	{"quiet", no_argument, 'q', 0, K_QUIET, 0, 0},
	{"help", no_argument, 'h', 0, K_HELP, 0, 0},
	{"weight", required_argument, 0, OPT_WEIGHT, K_WEIGHT, 0, 0},
	{"comm", required_argument, 0, OPT_FILTER, K_STR, 0, F(load.filter.comm)},
	{"kernel-only", no_argument, 0, OPT_FILTER, K_INT, PC_MODE_KERNEL_ONLY,
	 F(load.filter.mode)},
	{"user-only", no_argument, 0, OPT_FILTER, K_INT, PC_MODE_USER_ONLY, F(load.filter.mode)},
	{"annotate-kernel", no_argument, 0, OPT_ANNOTATE, K_INT, 1, F(annotate_kernel)},
	{"no-process", no_argument, 0, OPT_ANNOTATE, K_TRUE, 0, F(load.filter.no_process)},
	{"annotate-node", no_argument, 0, OPT_ANNOTATE, K_TRUE, 0, F(load.filter.annotate_node)},
	{"input-format", required_argument, 0, OPT_INPUT, K_FORMAT, 0, 0},
	{"symfs", required_argument, 0, OPT_INPUT, K_STR, 0, F(load.sym.symfs)},
	{"vmlinux", required_argument, 0, OPT_INPUT, K_STR, 0, F(load.sym.vmlinux)},
	{"salvage", no_argument, 0, OPT_INPUT, K_TRUE, 0, F(load.filter.salvage)},
	{"event-name", required_argument, 0, OPT_INPUT, K_STR, 0, F(load.event_name)},
	{"no-offsets", no_argument, 0, OPT_INPUT, K_INT, 1, F(load.sym.no_offsets)},
	{"progress", no_argument, 0, 0, K_PROGRESS, 1, 0},
	{"no-progress", no_argument, 0, 0, K_PROGRESS, -1, 0},
	{"json", no_argument, 0, OPT_JSON, K_INT, 1, F(json)},
	{"debug-dir", required_argument, 0, OPT_INPUT, K_STR, 0, F(load.sym.debug_dir)},
	{"svg", required_argument, 0, OPT_OUTPUT, K_STR, 0, F(svg)},
	{"no-demangle", no_argument, 0, OPT_INPUT, K_NODEMANGLE, 0, 0},
	{"no-inline", no_argument, 0, OPT_INPUT, K_INT, 1, F(load.sym.no_inline)},
	{"buildid-dir", required_argument, 0, OPT_INPUT, K_STR, 0, F(load.sym.buildid_dir)},
	{"time", required_argument, 0, OPT_FILTER, K_TIME, 0, 0},
	{"dso", required_argument, 'd', OPT_FILTER, K_STR, 0, F(load.filter.dso)},
	{"dsos", required_argument, 'd', OPT_FILTER, K_STR, 0, F(load.filter.dso)},
	{"symbol", required_argument, 'S', OPT_FILTER, K_STR, 0, F(load.filter.symbol)},
	{"symbols", required_argument, 'S', OPT_FILTER, K_STR, 0, F(load.filter.symbol)},
	{"sort", required_argument, 's', OPT_SORT, K_STR, 0, F(sort)},
	{"percent-limit", required_argument, 0, OPT_SORT, K_PCTLIMIT, 0, 0},
	{"callers", required_argument, 0, OPT_SORT, K_STR, 0, F(callers)},
	{"callees", required_argument, 0, OPT_SORT, K_STR, 0, F(callees)},
	{"call-graph", required_argument, 0, OPT_INPUT, K_CALLGRAPH, 0, 0},
};
#undef F

/* optarg as a number in [min, max], or say what was wrong (usage error). */
static int num_arg(const struct pc_cmd_help *cmd, const char *opt, const char *what, uint64_t min,
		   uint64_t max, uint64_t *v)
{
	if (!pc_parse_u64(optarg, v) && *v >= min && *v <= max)
		return 0;
	fprintf(stderr, "pmuconv %s: %s wants %s, got '%s'\n", cmd->name, opt, what, optarg);
	return 2;
}

/* getopt_long's answer as a row of opts[] (long-only options answer 256 + row). */
static const struct pc_opt *find_opt(int o)
{
	for (size_t i = 0; i < PC_ARRAY_SIZE(opts); i++)
		if (o == (opts[i].short_name ? opts[i].short_name : 256 + (int)i))
			return &opts[i];
	return NULL;
}

/* Apply one option; 0, 1 after --help, 2 on a usage error (said). */
static int apply(struct pc_cli *c, const struct pc_opt *op, const struct pc_cmd_help *cmd)
{
	struct pc_filter *f = &c->load.filter;
	char err[512] = "", *end;
	uint64_t v;

	switch (op->kind) {
	case K_STR:
		*(const char **)((char *)c + op->off) = optarg;
		break;
	case K_TRUE:
		*(bool *)((char *)c + op->off) = true;
		break;
	case K_INT:
		*(int *)((char *)c + op->off) = op->v;
		break;
	case K_HELP:
		fputs(cmd->usage, stdout);
		return 0;
	case K_QUIET:
		pc_quiet = 1;
		break;
	case K_PROGRESS:
		pc_progress_mode = op->v;
		break;
	case K_PID:
		if (num_arg(cmd, "--pid", "a process id", 0, INT32_MAX, &v))
			return 2;
		f->has_pid = true;
		f->pid = (int32_t)v;
		break;
	case K_CPU:
		if (pc_cpuset__parse(&f->cpus, optarg, err, sizeof(err))) {
			fprintf(stderr, "pmuconv %s: --cpu: %s\n", cmd->name, err);
			return 2;
		}
		f->has_cpu = true;
		break;
	case K_TIME:
		if (pc_time_range__parse(optarg, &f->time_start, &f->time_end, err, sizeof(err))) {
			fprintf(stderr, "pmuconv %s: --time: %s\n", cmd->name, err);
			return 2;
		}
		f->has_time = true;
		break;
	case K_TOP:
		if (num_arg(cmd, "--top", "a positive count", 1, UINT64_MAX, &v))
			return 2;
		c->top = (size_t)v;
		break;
	case K_WEIGHT:
		if (!strcmp(optarg, "period"))
			f->weight = PC_WEIGHT_PERIOD;
		else if (!strcmp(optarg, "samples"))
			f->weight = PC_WEIGHT_SAMPLES;
		else {
			fprintf(stderr, "pmuconv %s: --weight is 'period' or 'samples', not '%s'\n",
				cmd->name, optarg);
			return 2;
		}
		break;
	case K_PCTLIMIT:
		errno = 0;
		c->percent_limit = strtod(optarg, &end);
		if (*end == '%')
			end++;
		if (errno || end == optarg || *end || !(c->percent_limit >= 0) ||
		    c->percent_limit > 100) {
			fprintf(stderr,
				"pmuconv %s: --percent-limit wants a percentage from 0 to 100, got "
				"'%s'\n",
				cmd->name, optarg);
			return 2;
		}
		break;
	case K_FORMAT:
		if ((c->load.format = pc_format_parse(optarg)) < 0) {
			fprintf(stderr,
				"pmuconv %s: unknown --input-format '%s' (auto, pmuprof, "
				"perf-script, stap, folded)\n",
				cmd->name, optarg);
			return 2;
		}
		break;
	case K_CALLGRAPH:
		if (strcmp(optarg, "fp") && strcmp(optarg, "dwarf")) {
			fprintf(stderr,
				"pmuconv %s: --call-graph '%s': want fp (the recorded "
				"frame-pointer "
				"walk) or dwarf (unwind the stack copies, the default)\n",
				cmd->name, optarg);
			return 2;
		}
		f->call_graph_fp = !strcmp(optarg, "fp");
		break;
	case K_NODEMANGLE:
		c->load.sym.no_demangle = 1;
		f->no_demangle = true;
		break;
	}
	return PC_CLI_RUN;
}

int pc_cli_parse(struct pc_cli *c, int argc, char **argv, unsigned allowed,
		 const struct pc_cmd_help *cmd, int min_pos, int max_pos)
{
	struct option lopts[PC_ARRAY_SIZE(opts) + 1] = {{0}};
	struct pc_filter *f = &c->load.filter;
	const struct pc_opt *op;
	char err[512] = "";
	int o, r;

	for (size_t i = 0; i < PC_ARRAY_SIZE(opts); i++)
		lopts[i] = (struct option){opts[i].name, opts[i].has_arg, NULL,
					   opts[i].short_name ? opts[i].short_name : 256 + (int)i};
	memset(c, 0, sizeof(*c));
	c->top = 20;
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "e:o:p:C:n:s:d:S:qh", lopts, NULL)) != -1) {
		if (!(op = find_opt(o))) {
			fprintf(stderr, "pmuconv %s: unknown option or missing argument: %s\n",
				cmd->name, argv[optind - 1]);
			fprintf(stderr, "see 'pmuconv %s --help'\n", cmd->name);
			return 2;
		}
		if ((r = apply(c, op, cmd)) != PC_CLI_RUN)
			return r;
		if (op->need && !(allowed & op->need)) {
			/* the option itself, not its separate argument */
			const char *opt = optarg && optind >= 2 && optarg == argv[optind - 1]
						  ? argv[optind - 2]
						  : argv[optind - 1];
			fprintf(stderr,
				"pmuconv %s: option %s does not apply here; see 'pmuconv %s "
				"--help'\n",
				cmd->name, opt, cmd->name);
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
	if (c->npos == 0 && min_pos >= 1 && min_pos <= 2) {
		/* as perf: pmuctl record writes pmuprof.data here and keeps the one
		 * before as pmuprof.data.old (diff compares the two) */
		if (min_pos == 2)
			c->pos[c->npos++] = PC_DEFAULT_INPUT ".old";
		c->pos[c->npos++] = PC_DEFAULT_INPUT;
		for (int i = 0; i < c->npos; i++) {
			if (access(c->pos[i], F_OK) == 0)
				continue;
			fprintf(stderr,
				"pmuconv %s: no input file given and no %s in the current "
				"directory "
				"(pmuctl record writes it there); name a FILE, or - to read "
				"standard "
				"input\n",
				cmd->name, c->pos[i]);
			return 2;
		}
	}
	if (c->npos < min_pos) {
		fprintf(stderr, "pmuconv %s: missing input file\n%s", cmd->name, cmd->usage);
		return 2;
	}
	/* an archive (pmuconv archive) in place of a directory: unpack it */
	if ((c->load.sym.symfs &&
	     !(c->load.sym.symfs = pc_symfs_open(c->load.sym.symfs, err, sizeof(err)))) ||
	    (c->load.sym.buildid_dir && !(c->load.sym.buildid_dir = pc_symfs_open(
						  c->load.sym.buildid_dir, err, sizeof(err))))) {
		fprintf(stderr, "pmuconv %s: %s\n", cmd->name, err);
		return 2;
	}
	return PC_CLI_RUN;
}

int pc_cli_take_flags(int argc, char **argv, const char *const *names, bool *set)
{
	int n = 0;

	for (int i = 0; i < argc; i++) {
		size_t k = 0;

		if (i && !strcmp(argv[i], "--")) { /* the rest are operands */
			while (i < argc)
				argv[n++] = argv[i++];
			break;
		}
		while (i && names[k] && strcmp(argv[i], names[k]))
			k++;
		if (i && names[k])
			set[k] = true;
		else
			argv[n++] = argv[i];
	}
	return n;
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

int pc_cli_open_atomic(struct pc_out *o, const char *path)
{
	int e;

	o->path = path;
	o->a = (struct pc_atomic){.fd = -1};
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if ((e = pc_atomic__open(&o->a, path, 0666)) == -ENAMETOOLONG) {
		fprintf(stderr, "pmuconv: output path too long: %s\n", path);
		return 1;
	}
	if (e || !(o->f = fdopen(o->a.fd, "w"))) {
		fprintf(stderr, "pmuconv: cannot write %s: %s\n", path, strerror(e ? -e : errno));
		pc_atomic__discard(&o->a);
		return 1;
	}
	return 0;
}

int pc_cli_commit(struct pc_out *o, int ok)
{
	int bad, e;

	if (!o->f)
		return 1;
	if (!o->a.tmp) {
		bad = pc_cli_close_out(o->f, NULL);
		o->f = NULL;
		return bad || !ok;
	}
	bad = ferror(o->f) || fflush(o->f);
	if (bad && ok)
		fprintf(stderr, "pmuconv: writing %s failed: %s\n", o->path, strerror(errno));
	bad |= fclose(o->f) != 0;
	o->f = NULL;
	o->a.fd = -1; /* closed with o->f */
	if (ok && !bad && (e = pc_atomic__rename(&o->a))) {
		fprintf(stderr, "pmuconv: cannot rename %s to %s: %s\n", o->a.tmp, o->path,
			strerror(-e));
		bad = 1;
	}
	pc_atomic__discard(&o->a);
	return ok && !bad ? 0 : 1;
}

int pc_cli_close_rendered(FILE *f, const char *path, int err)
{
	if (err)
		fprintf(stderr, "pmuconv: %s: rendering failed: %s\n", path, strerror(-err));
	return pc_cli_close_out(f, path) || err ? 1 : 0;
}

int pc_cli_not_built(const char *what)
{
	fprintf(stderr,
		"pmuconv: %s: not built (this pmuconv has no %s renderer); use 'pmuconv folded' "
		"and FlameGraph/inferno, or 'pmuconv report'\n",
		what, what);
	return 3;
}

int pc_cli_mkdir(const char *dir)
{
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "pmuconv: cannot create directory %s: %s\n", dir, strerror(errno));
		return 1;
	}
	return 0;
}
