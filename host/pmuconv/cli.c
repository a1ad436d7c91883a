// SPDX-License-Identifier: MIT
/* What every subcommand shares: option parsing, loading inputs, opening outputs. */
#include "cli.h"
#include "symfs_tar.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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
	LO_NODEMANGLE,
	LO_BUILDIDDIR,
	LO_TIME,
	LO_PCTLIMIT,
	LO_CALLERS,
	LO_CALLEES,
	LO_CALLGRAPH,
};

/* optarg as a number in [min, max], or say what was wrong (usage error). */
static int num_arg(const struct pc_cmd_help *cmd, const char *opt, const char *what, uint64_t min,
		   uint64_t max, uint64_t *v)
{
	if (!pc_parse_u64(optarg, v) && *v >= min && *v <= max)
		return 0;
	fprintf(stderr, "pmuconv %s: %s wants %s, got '%s'\n", cmd->name, opt, what, optarg);
	return 2;
}

int pc_cli_parse(struct pc_cli *c, int argc, char **argv, unsigned allowed,
		 const struct pc_cmd_help *cmd, int min_pos, int max_pos)
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
		{"no-demangle", no_argument, 0, LO_NODEMANGLE},
		{"buildid-dir", required_argument, 0, LO_BUILDIDDIR},
		{"time", required_argument, 0, LO_TIME},
		{"dso", required_argument, 0, 'd'},
		{"dsos", required_argument, 0, 'd'},
		{"symbol", required_argument, 0, 'S'},
		{"symbols", required_argument, 0, 'S'},
		{"sort", required_argument, 0, 's'},
		{"percent-limit", required_argument, 0, LO_PCTLIMIT},
		{"callers", required_argument, 0, LO_CALLERS},
		{"callees", required_argument, 0, LO_CALLEES},
		{"call-graph", required_argument, 0, LO_CALLGRAPH},
		{0, 0, 0, 0},
	};
	struct pc_filter *f = &c->load.filter;
	char err[512] = "";
	uint64_t v;
	int o;

	memset(c, 0, sizeof(*c));
	c->top = 20;
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, "e:o:p:C:n:s:d:S:qh", lopts, NULL)) != -1) {
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
			if (num_arg(cmd, "--pid", "a process id", 0, INT32_MAX, &v))
				return 2;
			f->has_pid = true;
			f->pid = (int32_t)v;
			break;
		case 'C':
			need = OPT_FILTER;
			if (pc_cpuset__parse(&f->cpus, optarg, err, sizeof(err))) {
				fprintf(stderr, "pmuconv %s: --cpu: %s\n", cmd->name, err);
				return 2;
			}
			f->has_cpu = true;
			break;
		case LO_TIME:
			need = OPT_FILTER;
			if (pc_time_range__parse(optarg, &f->time_start, &f->time_end, err,
						 sizeof(err))) {
				fprintf(stderr, "pmuconv %s: --time: %s\n", cmd->name, err);
				return 2;
			}
			f->has_time = true;
			break;
		case 'd':
			need = OPT_FILTER;
			f->dso = optarg;
			break;
		case 'S':
			need = OPT_FILTER;
			f->symbol = optarg;
			break;
		case 's':
			need = OPT_SORT;
			c->sort = optarg;
			break;
		case LO_PCTLIMIT: {
			char *end;
			need = OPT_SORT;
			errno = 0;
			c->percent_limit = strtod(optarg, &end);
			if (*end == '%')
				end++;
			if (errno || end == optarg || *end || !(c->percent_limit >= 0) ||
			    c->percent_limit > 100) {
				fprintf(stderr,
					"pmuconv %s: --percent-limit wants a percentage from 0 to "
					"100, got '%s'\n",
					cmd->name, optarg);
				return 2;
			}
			break;
		}
		case LO_CALLERS:
			need = OPT_SORT;
			c->callers = optarg;
			break;
		case LO_CALLEES:
			need = OPT_SORT;
			c->callees = optarg;
			break;
		case 'n':
			need = OPT_TOP;
			if (num_arg(cmd, "--top", "a positive count", 1, UINT64_MAX, &v))
				return 2;
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
		case LO_CALLGRAPH:
			need = OPT_INPUT;
			if (strcmp(optarg, "fp") && strcmp(optarg, "dwarf")) {
				fprintf(stderr,
					"pmuconv %s: --call-graph '%s': want fp (the recorded "
					"frame-pointer walk) or dwarf (unwind the stack copies, "
					"the "
					"default)\n",
					cmd->name, optarg);
				return 2;
			}
			f->call_graph_fp = !strcmp(optarg, "fp");
			break;
		case LO_NODEMANGLE:
			need = OPT_INPUT;
			c->load.sym.no_demangle = 1;
			f->no_demangle = true;
			break;
		case LO_BUILDIDDIR:
			need = OPT_INPUT;
			c->load.sym.buildid_dir = optarg;
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
			c->svg = optarg;
			break;
		default:
			fprintf(stderr, "pmuconv %s: unknown option or missing argument: %s\n",
				cmd->name, argv[optind - 1]);
			fprintf(stderr, "see 'pmuconv %s --help'\n", cmd->name);
			return 2;
		}
		if (need && !(allowed & need)) {
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
