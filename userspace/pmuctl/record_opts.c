/* SPDX-License-Identifier: MIT */
/* pmuctl record: options (record_opts.h). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "record_opts.h"
#include "util.h"

enum {
	OPT_DEPTH = 256,
	OPT_CALL_GRAPH,
	OPT_DATA_ADDR,
	OPT_DURATION,
	OPT_RING_SIZE,
	OPT_INHERIT,
	OPT_NO_INHERIT,
};

static void help(FILE *out)
{
	fprintf(out,
		"usage: pmuctl record [-e EVENT[/PERIOD]]... [-c PERIOD | -F HZ] [-g] [--depth N]\n"
		"                     [--data-addr] [-a | [-C CPUS] [-p PID | -- COMMAND "
		"ARGS...]]\n"
		"                     [--inherit | --no-inherit] [-u | -k] [--duration SEC]\n"
		"                     [--ring-size BYTES] [-o FILE]\n\n"
		"Record samples into a pmuprof data file (default " DEFAULT_OUTPUT
		"; an existing one\n"
		"is renamed to " DEFAULT_OUTPUT
		".old). Stops at --duration, when COMMAND exits, or on\n"
		"SIGINT/SIGTERM/SIGHUP, and always finishes the file.\n\n"
		"  -e, --event EVENT[/PERIOD]  event to sample (repeat or comma-separate): a "
		"generic\n"
		"                        name (cycles, instructions, ref-cycles, llc-references,\n"
		"                        llc-misses, branches, branch-misses, dtlb-load-misses,\n"
		"                        dtlb-store-misses, itlb-misses), a libpfm4 name, rNNNN,\n"
		"                        or cpu-clock (NMI-IPI timer, no PMU needed). Default:\n"
		"                        cycles, or cpu-clock where there is no PMU.\n"
		"                        Modifiers: :u / :k user or kernel mode only; :p (also\n"
		"                        :pp, :ppp: one level) precise sampling with PEBS, the\n"
		"                        exact IP and, for loads and stores, the exact data\n"
		"                        address (Intel PMU with usable PEBS only; refused\n"
		"                        elsewhere), e.g. -e mem_inst_retired:all_loads:pp\n"
		"  -c, --count PERIOD    sample every PERIOD events (ns for cpu-clock)\n"
		"  -F, --freq HZ         sample at about HZ per second (default %d)\n"
		"  -g                    record kernel and user call stacks (user: frame "
		"pointers)\n"
		"      --call-graph MODE fp: as -g; dwarf[,SIZE]: also the user registers and "
		"SIZE\n"
		"                        bytes of user stack per sample (default 8192, at most\n"
		"                        65536), unwound offline with DWARF CFI: for code built\n"
		"                        without frame pointers (perf's --call-graph dwarf)\n"
		"      --depth N         frames per stack (default %d, at most %d)\n"
		"      --data-addr       record data addresses and page sizes\n"
		"  -a, --all-cpus        every CPU, every process\n"
		"  -C, --cpu CPUS        these CPUs only (e.g. 0-3,6); with -p or COMMAND, that\n"
		"                        process only while it runs on them (as perf)\n"
		"  -p, --pid PID         this process and its threads\n"
		"  -- COMMAND ARGS...    run COMMAND and record it with all its child\n"
		"                        processes (started after recording starts)\n"
		"      --inherit         with -p: also PID's descendants (children existing\n"
		"                        now and later); the default for COMMAND\n"
		"      --no-inherit      with COMMAND: only COMMAND's own process and threads\n"
		"  -u, --user-only       only samples in user mode\n"
		"  -k, --kernel-only     only samples in kernel mode\n"
		"      --duration SEC    stop after SEC seconds\n"
		"      --ring-size BYTES ring per CPU, power of two (e.g. 4M)\n"
		"  -o, --output FILE     data file\n"
		"  -q, --quiet           no live status line\n"
		"  -h, --help            this text\n\n"
		"Exit status: 0 when the file is complete; 1 on an error (one line says what\n"
		"and what to do); 2 on bad flags. See pmuctl(1).\n",
		DEFAULT_FREQ_HZ, PMUPROF_DEFAULT_DEPTH, PMUPROF_MAX_DEPTH);
}

/* Split a comma-separated -e list in a copy: argv is recorded in the data
 * file's header as given. */
static int add_events(struct record_opts *o, const char *arg)
{
	size_t len = strlen(arg) + 1;
	char *save = NULL, *tok, *copy = o->ev_text + o->ev_used;

	if (len > sizeof(o->ev_text) - o->ev_used)
		return pmuctl_usage_error("record", "-e lists longer than %zu characters in all",
					  sizeof(o->ev_text) - 1);
	memcpy(copy, arg, len);
	o->ev_used += len;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nr_events >= PMUPROF_MAX_EVENTS)
			return pmuctl_usage_error("record", "too many events (at most %d)",
						  PMUPROF_MAX_EVENTS);
		o->events[o->nr_events++] = tok;
	}
	return 0;
}

int record_opts__parse(struct record_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{"event", required_argument, NULL, 'e'},
		{"count", required_argument, NULL, 'c'},
		{"freq", required_argument, NULL, 'F'},
		{"call-graph", required_argument, NULL, OPT_CALL_GRAPH},
		{"depth", required_argument, NULL, OPT_DEPTH},
		{"data-addr", no_argument, NULL, OPT_DATA_ADDR},
		{"all-cpus", no_argument, NULL, 'a'},
		{"cpu", required_argument, NULL, 'C'},
		{"pid", required_argument, NULL, 'p'},
		{"user-only", no_argument, NULL, 'u'},
		{"kernel-only", no_argument, NULL, 'k'},
		{"duration", required_argument, NULL, OPT_DURATION},
		{"ring-size", required_argument, NULL, OPT_RING_SIZE},
		{"inherit", no_argument, NULL, OPT_INHERIT},
		{"no-inherit", no_argument, NULL, OPT_NO_INHERIT},
		{"output", required_argument, NULL, 'o'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	uint64_t v;
	int c, ret, ntargets;

	memset(o, 0, sizeof(*o));
	o->pid = -1;
	o->inherit = -1;
	o->output = DEFAULT_OUTPUT;
	opterr = 0;
	optind = 1;
	/* '+': the first non-option starts COMMAND (as `perf record CMD`). */
	while ((c = getopt_long(argc, argv, "+:e:c:F:gaC:p:uko:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if ((ret = add_events(o, optarg)) != 0)
				return ret;
			break;
		case 'c':
			if (args__u64(optarg, &o->count) < 0)
				return pmuctl_usage_error(
					"record", "-c %s: the period must be a positive integer%s",
					optarg, !strcmp(optarg, "0") ? " (0 is invalid)" : "");
			break;
		case 'F':
			if (args__u64(optarg, &o->freq) < 0)
				return pmuctl_usage_error(
					"record",
					"-F %s: the frequency must be a positive integer (Hz)",
					optarg);
			break;
		case 'g':
			o->callgraph = true;
			break;
		case OPT_CALL_GRAPH:
			if (!strcmp(optarg, "fp")) {
				o->callgraph = true;
				break;
			}
			if (!strncmp(optarg, "dwarf", 5) && (!optarg[5] || optarg[5] == ',')) {
				v = PMUPROF_USTACK_COPY_DEFAULT;
				if (optarg[5] && (args__size(optarg + 6, &v) < 0 || !v || v % 8 ||
						  v > PMUPROF_USTACK_COPY_MAX))
					return pmuctl_usage_error(
						"record",
						"--call-graph %s: the stack size must be a "
						"multiple of "
						"8 bytes up to %u (e.g. dwarf,16384 or dwarf,16K)",
						optarg, PMUPROF_USTACK_COPY_MAX);
				o->callgraph = true;
				o->ustack_copy = (uint32_t)v;
				break;
			}
			return pmuctl_usage_error(
				"record",
				"--call-graph %s: give fp or dwarf[,SIZE] (lbr is not "
				"supported)",
				optarg);
		case OPT_DEPTH:
			if (args__u64(optarg, &v) < 0 || v > PMUPROF_MAX_DEPTH)
				return pmuctl_usage_error("record", "--depth %s: give 1..%d frames",
							  optarg, PMUPROF_MAX_DEPTH);
			o->depth = (unsigned int)v;
			break;
		case OPT_DATA_ADDR:
			o->data_addr = true;
			break;
		case 'a':
			o->all = true;
			break;
		case 'C':
			o->cpus_given = true;
			o->cpus = optarg;
			break;
		case 'p': {
			int pid = atoi_safe(optarg);

			if (pid <= 0)
				return pmuctl_usage_error("record", "-p %s: not a process id",
							  optarg);
			o->pid = pid;
			break;
		}
		case 'u':
			o->user_only = true;
			break;
		case 'k':
			o->kernel_only = true;
			break;
		case OPT_DURATION:
			if (args__duration(optarg, &o->duration_ns) < 0)
				return pmuctl_usage_error(
					"record",
					"--duration %s: give a positive number of seconds", optarg);
			break;
		case OPT_RING_SIZE:
			if (args__size(optarg, &o->ring_size) < 0 || o->ring_size == 0 ||
			    (o->ring_size & (o->ring_size - 1)))
				return pmuctl_usage_error(
					"record", "--ring-size %s: give a power of two, e.g. 4M",
					optarg);
			break;
		case OPT_INHERIT:
		case OPT_NO_INHERIT:
			if (o->inherit >= 0 && o->inherit != (c == OPT_INHERIT))
				return pmuctl_usage_error(
					"record", "--inherit and --no-inherit exclude each other");
			o->inherit = c == OPT_INHERIT;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			help(stdout);
			return -1;
		case ':':
			return pmuctl_usage_error("record", "option '%s' needs a value",
						  argv[optind - 1]);
		default:
			return pmuctl_usage_error("record", "unknown option '%s'",
						  argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->command = argv + optind;
	if (o->count && o->freq)
		return pmuctl_usage_error("record",
					  "-c and -F exclude each other: give a period or a rate");
	if (o->user_only && o->kernel_only)
		return pmuctl_usage_error("record", "-u and -k exclude each other");
	/* -C may narrow -p or COMMAND to those CPUs (as perf allows) */
	ntargets = o->all + (o->pid > 0) + (o->command != NULL);
	if (ntargets == 0 && !o->cpus_given)
		return pmuctl_usage_error(
			"record", "nothing to record: give -a, -C CPUS, -p PID or -- COMMAND");
	if (ntargets > 1 || (o->all && o->cpus_given))
		return pmuctl_usage_error("record", "-a, -p and COMMAND exclude each other, and "
						    "-a excludes -C; pick one (-C narrows -p "
						    "or COMMAND to those CPUs)");
	if (o->inherit >= 0 && !(o->pid > 0) && !o->command)
		return pmuctl_usage_error("record",
					  "--%s needs -p PID or COMMAND (-a and -C alone "
					  "record every process anyway)",
					  o->inherit ? "inherit" : "no-inherit");
	if (o->ustack_copy && o->ring_size &&
	    o->ring_size / 4 < PMUPROF_READ_MIN_COPY(o->ustack_copy)) {
		/* the module's rule (kernel/nmi/session.c): 4 of the largest records */
		uint64_t need = 4 * (uint64_t)PMUPROF_READ_MIN_COPY(o->ustack_copy), ring = 1;

		while (ring < need)
			ring <<= 1;
		return pmuctl_usage_error(
			"record",
			"a ring of %" PRIu64
			" bytes (--ring-size) is too small for --call-graph dwarf,%u: it "
			"must hold 4 of the largest samples (%" PRIu64 " bytes each); give "
			"--ring-size %" PRIu64 "K or more, or copy less stack",
			o->ring_size, o->ustack_copy,
			(uint64_t)PMUPROF_READ_MIN_COPY(o->ustack_copy), ring >> 10);
	}
	if (o->depth && !o->callgraph)
		pmuctl_warn("--depth without -g: no call stacks are recorded");
	return 0;
}

bool record_opts__inherit(const struct record_opts *o)
{
	if (o->command)
		return o->inherit != 0;
	return o->pid > 0 && o->inherit == 1;
}
