/* SPDX-License-Identifier: MIT */
/*
 * pmuctl record: configure the module, start, drain the per-CPU rings into a
 * pmuprof data file (lib/pmufile) until the duration ends, COMMAND exits or
 * SIGINT/SIGTERM/SIGHUP arrives, then stop, drain what is left and close the file
 * with its trailer.
 *
 * The drain loop sleeps in poll() on the device and a signalfd (SIGINT,
 * SIGTERM, SIGHUP, SIGCHLD); the module wakes readers past its watermark, and a
 * 100 ms tick drains below it, so there is no busy loop. Every sample's pid goes through
 * procmaps__see() before the records are written, so a new process is snapshot within one drain of
 * its first sample. COMMAND is traced (PTRACE_SEIZE with exec/exit/fork/
 * vfork/clone events, which the kernel extends to every process and thread
 * it creates) so the maps of COMMAND and of all its descendants are also
 * captured right after exec and right before exit, when the mm is still
 * there: a child that lives shorter than a drain tick still symbolizes.
 *
 * COMMAND is recorded with its whole process tree (PMUPROF_CF_INHERIT, as
 * perf's default inherit) unless --no-inherit; -p PID follows only PID's
 * process unless --inherit.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/pmufile/pmufile.h"
#include "args.h"
#include "device.h"
#include "events.h"
#include "pmuctl.h"
#include "util.h"
#include "procmaps.h"

#define DEFAULT_OUTPUT	   "pmuprof.data"
#define DEFAULT_FREQ_HZ	   1000	      /* perf uses 4000; 1 kHz is kinder to VMs */
#define READ_BUF_SIZE	   (1u << 20) /* >= PMUPROF_READ_MIN */
#define STATUS_INTERVAL_MS 1000
#define DRAIN_TICK_MS	   100 /* drain at least this often (see run_loop) */
#define FINAL_DRAIN_POLLS  50  /* x 200 ms: give up on a stuck final drain */
#define CHILD_EXIT_WAIT_MS 2000
#define NS_PER_SEC	   1000000000ull

struct rec_opts {
	const char *events[PMUPROF_MAX_EVENTS + 1];
	int nr_events;
	uint64_t count; /* -c */
	uint64_t freq;	/* -F */
	bool callgraph;
	unsigned int depth;
	bool data_addr;
	bool all, cpus_given;
	const char *cpus;
	int pid;
	char **command;
	int inherit; /* -1: default (COMMAND yes, -p no), 0 --no-inherit, 1 --inherit */
	bool user_only, kernel_only;
	uint64_t duration_ns;
	uint64_t ring_size;
	const char *output;
	bool quiet;
};

struct recorder {
	struct rec_opts *o;
	int fd, sfd;
	struct pmuprof_info info;
	struct pmuctl_event ev[PMUPROF_MAX_EVENTS];
	int nr_ev;
	struct pmuprof_config cfg;
	struct pmufile_writer *w;
	struct procmaps *pm;
	uint8_t *buf;
	/* COMMAND */
	pid_t child;
	int go_fd, exec_fd;
	bool traced, child_done;
	int child_status;
	/* accounting */
	uint64_t samples, lost, throttles, unthrottles, records;
	uint64_t ev_samples[PMUPROF_MAX_EVENTS];
	uint64_t last_samples[PMUPROF_MAX_EVENTS];
	uint64_t start_mono, last_status;
	int write_err;
	bool status_shown;
	int stop_signal;
};

/* ---------------------------------------------------------------- */
/* Options                                                           */
/* ---------------------------------------------------------------- */
enum {
	OPT_DEPTH = 256,
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
		"                     [--data-addr] [-a | -C CPUS | -p PID | -- COMMAND ARGS...]\n"
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
		"  -c, --count PERIOD    sample every PERIOD events (ns for cpu-clock)\n"
		"  -F, --freq HZ         sample at about HZ per second (default %d)\n"
		"  -g, --call-graph      record kernel and user call stacks\n"
		"      --depth N         frames per stack (default %d, at most %d)\n"
		"      --data-addr       record data addresses and page sizes\n"
		"  -a, --all-cpus        every CPU, every process\n"
		"  -C, --cpu CPUS        these CPUs only (e.g. 0-3,6)\n"
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

static int add_events(struct rec_opts *o, char *arg)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nr_events >= PMUPROF_MAX_EVENTS)
			return pmuctl_usage_error("record", "too many events (at most %d)",
						  PMUPROF_MAX_EVENTS);
		o->events[o->nr_events++] = tok;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct rec_opts *o)
{
	static const struct option opts[] = {
		{"event", required_argument, NULL, 'e'},
		{"count", required_argument, NULL, 'c'},
		{"freq", required_argument, NULL, 'F'},
		{"call-graph", no_argument, NULL, 'g'},
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
	ntargets = o->all + o->cpus_given + (o->pid > 0) + (o->command != NULL);
	if (ntargets == 0)
		return pmuctl_usage_error(
			"record", "nothing to record: give -a, -C CPUS, -p PID or -- COMMAND");
	if (ntargets > 1)
		return pmuctl_usage_error("record",
					  "-a, -C, -p and COMMAND exclude each other; pick one");
	if (o->inherit >= 0 && !(o->pid > 0) && !o->command)
		return pmuctl_usage_error("record",
					  "--%s needs -p PID or COMMAND (-a and -C "
					  "record every process anyway)",
					  o->inherit ? "inherit" : "no-inherit");
	if (o->depth && !o->callgraph)
		pmuctl_warn("--depth without -g: no call stacks are recorded");
	return 0;
}

/* Follow the process tree? COMMAND: yes unless --no-inherit; -p: only with --inherit. */
static bool want_inherit(const struct rec_opts *o)
{
	if (o->command)
		return o->inherit != 0;
	return o->pid > 0 && o->inherit == 1;
}

/* ---------------------------------------------------------------- */
/* Events -> configuration                                           */
/* ---------------------------------------------------------------- */
static int setup_events(struct recorder *r)
{
	struct rec_opts *o = r->o;
	const struct pmuprof_info *in = &r->info;
	bool pmu_ok =
		in->pmu_status == PMUPROF_PMU_OK && (in->sources & (1u << PMUPROF_SOURCE_PMU));
	unsigned int i;
	char err[1024];
	const char *dflt[1];

	if (o->nr_events == 0) {
		dflt[0] = pmu_ok ? "cycles" : "cpu-clock";
		if (!pmu_ok)
			pmuctl_note("no hardware PMU here (%s); sampling cpu-clock instead",
				    device__pmu_reason(in));
		o->events[0] = dflt[0];
		o->nr_events = 1;
	}
	if ((unsigned int)o->nr_events > in->max_events && in->max_events) {
		pmuctl_err("too many events: %d given, the module takes at most %u", o->nr_events,
			   in->max_events);
		return -EINVAL;
	}
	for (i = 0; i < (unsigned int)o->nr_events; i++) {
		struct pmuctl_event *ev = &r->ev[i];
		uint64_t min;

		int rret = events__resolve(o->events[i], ev, err, sizeof(err));

		if (rret < 0) {
			/* A known hardware event on a machine without a usable PMU:
			 * the missing PMU is the real cause, say that. */
			if (!pmu_ok && rret != -ENOENT && rret != -EINVAL)
				pmuctl_err("event '%s' needs the hardware PMU, which is unusable "
					   "here: "
					   "%s; use -e cpu-clock",
					   o->events[i], device__pmu_reason(in));
			else
				pmuctl_err("%s", err);
			return -EINVAL;
		}
		if ((ev->source == PMUPROF_SOURCE_PMU || ev->source == PMUPROF_SOURCE_PEBS) &&
		    !pmu_ok) {
			pmuctl_err("event '%s' needs the hardware PMU, which is unusable here: %s; "
				   "use -e cpu-clock",
				   ev->name, device__pmu_reason(in));
			return -ENODEV;
		}
		if (ev->source == PMUPROF_SOURCE_PEBS &&
		    !(in->sources & (1u << PMUPROF_SOURCE_PEBS))) {
			pmuctl_err(
				"event '%s' asks for precise sampling (PEBS), which this machine "
				"does not offer (no PEBS, or page-table isolation is on: see the "
				"module's load message in dmesg); drop the :p modifier",
				ev->name);
			return -ENODEV;
		}
		if (ev->source == PMUPROF_SOURCE_NMI_IPI &&
		    !(in->sources & (1u << PMUPROF_SOURCE_NMI_IPI)) &&
		    !(in->sources & (1u << PMUPROF_SOURCE_TIMER))) {
			pmuctl_err("event '%s': the module reports no usable timer sample source "
				   "on this machine",
				   ev->name);
			return -ENODEV;
		}
		/* Period: /PERIOD, else -c, else a rate (-F or the default). */
		r->cfg.events[i].source = ev->source;
		r->cfg.events[i].config = ev->config;
		if (ev->period || o->count) {
			r->cfg.events[i].period = ev->period ? ev->period : o->count;
			min = ev->source == PMUPROF_SOURCE_NMI_IPI
				      ? (in->min_clock_period_ns ? in->min_clock_period_ns
								 : PMUPROF_MIN_CLOCK_PERIOD_NS)
				      : (in->min_pmu_period ? in->min_pmu_period
							    : PMUPROF_MIN_PMU_PERIOD);
			if (r->cfg.events[i].period < min) {
				pmuctl_err("event '%s': period %" PRIu64
					   " is below the module's minimum of %" PRIu64
					   " %s (shorter periods risk NMI storms)",
					   ev->name, (uint64_t)r->cfg.events[i].period, min,
					   ev->source == PMUPROF_SOURCE_NMI_IPI ? "ns" : "events");
				return -EINVAL;
			}
		} else {
			uint64_t hz = o->freq ? o->freq : DEFAULT_FREQ_HZ;
			uint64_t max = in->max_freq_hz ? in->max_freq_hz : PMUPROF_MAX_FREQ_HZ;

			if (hz > max) {
				pmuctl_err("-F %" PRIu64 ": above the module's maximum of %" PRIu64
					   " Hz",
					   hz, max);
				return -EINVAL;
			}
			if (ev->source == PMUPROF_SOURCE_NMI_IPI) {
				r->cfg.events[i].period = NS_PER_SEC / hz;
			} else {
				r->cfg.events[i].period = hz;
				r->cfg.events[i].flags |= PMUPROF_EVF_FREQ;
			}
		}
	}
	if (events__check_counters(r->ev, o->nr_events, in->nr_gp, in->nr_fixed, err, sizeof(err)) <
	    0) {
		pmuctl_err("%s", err);
		return -EINVAL;
	}
	r->nr_ev = o->nr_events;
	return 0;
}

static int setup_config(struct recorder *r)
{
	struct rec_opts *o = r->o;
	struct pmuprof_config *c = &r->cfg;
	int n;

	c->size = sizeof(*c);
	c->nr_events = (uint32_t)r->nr_ev;
	c->stack_depth = o->depth;
	if (o->callgraph)
		c->flags |= PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK;
	if (o->user_only)
		c->flags |= PMUPROF_CF_EXCLUDE_KERNEL;
	if (o->kernel_only)
		c->flags |= PMUPROF_CF_EXCLUDE_USER;
	if (o->data_addr) {
		c->flags |= PMUPROF_CF_DATA_ADDR | PMUPROF_CF_CODE_PAGE;
		if (r->info.flags & PMUPROF_INFO_PRIVILEGED)
			c->flags |= PMUPROF_CF_PHYS_ADDR;
	}
	if (o->depth && r->info.max_depth && o->depth > r->info.max_depth) {
		pmuctl_err("--depth %u: the module allows at most %u frames", o->depth,
			   r->info.max_depth);
		return -EINVAL;
	}
	if (o->ring_size) {
		if ((r->info.ring_min && o->ring_size < r->info.ring_min) ||
		    (r->info.ring_max && o->ring_size > r->info.ring_max)) {
			pmuctl_err("--ring-size %" PRIu64 ": the module takes %u..%u bytes per CPU",
				   o->ring_size, r->info.ring_min, r->info.ring_max);
			return -EINVAL;
		}
		c->ring_size = (uint32_t)o->ring_size;
	}
	if (o->cpus_given) {
		unsigned int max = r->info.nr_cpus ? r->info.nr_cpus : PMUPROF_MAX_CPUS;

		n = args__cpulist(o->cpus, c->cpu_mask, PMUPROF_MAX_CPUS / 64, max);
		if (n <= 0) {
			pmuctl_err("-C %s: %s", o->cpus,
				   n == -ERANGE ? "a CPU number is beyond this machine's CPUs"
						: "give a CPU list such as 0-3,6");
			return -EINVAL;
		}
		c->target = PMUPROF_TARGET_CPUS;
	} else if (o->pid > 0 || o->command) {
		c->target = PMUPROF_TARGET_PID;
		c->pid = o->pid; /* COMMAND: filled in once forked */
		if (want_inherit(o))
			c->flags |= PMUPROF_CF_INHERIT;
	} else {
		c->target = PMUPROF_TARGET_ALL;
	}
	if (o->pid > 0 && kill(o->pid, 0) < 0 && errno == ESRCH) {
		pmuctl_err("-p %d: no such process", o->pid);
		return -ESRCH;
	}
	return 0;
}

/*
 * CONFIGURE. A module older than PMUPROF_CF_INHERIT rejects the flag as
 * unknown (EINVAL): when a second try without it works, COMMAND's default
 * tree recording falls back to COMMAND's own process with a warning, and an
 * explicit --inherit fails with a clear message.
 */
static int configure(struct recorder *r)
{
	int e;

	if (ioctl(r->fd, PMUPROF_IOC_CONFIGURE, &r->cfg) == 0)
		return 0;
	e = errno;
	if ((r->cfg.flags & PMUPROF_CF_INHERIT) && (e == EINVAL || e == EOPNOTSUPP)) {
		r->cfg.flags &= ~PMUPROF_CF_INHERIT;
		if (ioctl(r->fd, PMUPROF_IOC_CONFIGURE, &r->cfg) == 0) {
			if (r->o->inherit == 1) {
				pmuctl_err(
					"the loaded pmuprof module cannot follow child processes "
					"(no PMUPROF_CF_INHERIT): load the module that matches "
					"this pmuctl, or drop --inherit");
				return -EOPNOTSUPP;
			}
			pmuctl_warn("the loaded pmuprof module cannot follow child processes (no "
				    "PMUPROF_CF_INHERIT): recording COMMAND's own process only; "
				    "load the module that matches this pmuctl");
			return 0;
		}
		r->cfg.flags |= PMUPROF_CF_INHERIT; /* not the cause: report the first error */
	}
	pmuctl_err("configuring the module failed: %s: %s", strerror(e),
		   device__ioctl_hint(e, &r->info));
	return -e;
}

/* ---------------------------------------------------------------- */
/* COMMAND                                                           */
/* ---------------------------------------------------------------- */
static int fork_command(struct recorder *r)
{
	int go[2], ex[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0) {
		pmuctl_err("pipe: %s", strerror(errno));
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		pmuctl_err("fork: %s", strerror(errno));
		return -errno;
	}
	if (pid == 0) {
		sigset_t all;
		char c;
		int e;

		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		signal(SIGPIPE, SIG_DFL);
		close(go[1]);
		close(ex[0]);
		/* Wait for "go": recording has started. EOF means pmuctl gave up. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(r->o->command[0], r->o->command);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	r->child = pid;
	r->go_fd = go[1];
	r->exec_fd = ex[0];
	r->cfg.pid = pid;
	/* Trace it to see exec/exit (for maps) of it and of everything it
	 * creates: the options pass on to auto-attached tracees, and CLONE
	 * makes its threads tracees too, so a child forked by any thread
	 * (not only the main one) is traced from its first instruction. */
	if (ptrace(PTRACE_SEIZE, pid, NULL,
		   (void *)(long)(PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT | PTRACE_O_TRACEFORK |
				  PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE)) == 0)
		r->traced = true;
	else
		pmuctl_warn("cannot trace COMMAND (%s): its maps are captured when samples "
			    "arrive only; short-lived processes may lack them",
			    strerror(errno));
	return 0;
}

static void abandon_command(struct recorder *r)
{
	if (r->child <= 0)
		return;
	if (r->go_fd >= 0)
		close(r->go_fd); /* EOF: the child exits without running COMMAND */
	r->go_fd = -1;
	kill(r->child, SIGKILL);
	waitpid(r->child, NULL, 0);
	r->child = 0;
}

/* Start COMMAND; wait until exec succeeded (the CLOEXEC pipe closes) or failed. */
static int release_command(struct recorder *r)
{
	int e = 0;
	ssize_t n;

	if (write(r->go_fd, "g", 1) != 1) {
		pmuctl_err("cannot start COMMAND: %s", strerror(errno));
		return -EIO;
	}
	close(r->go_fd);
	r->go_fd = -1;
	do
		n = read(r->exec_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(r->exec_fd);
	r->exec_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		pmuctl_err("cannot run '%s': %s", r->o->command[0], strerror(e));
		return -e;
	}
	return 0;
}

/* The process (thread group) of thread `tid`, from /proc; -1 if gone. */
static int tgid_of(pid_t tid)
{
	char path[64], buf[1024];
	const char *t;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	t = strstr(buf, "\nTgid:");
	return t ? atoi(t + 6) : -1;
}

/* Handle ptrace stops and exits of COMMAND and its traced descendants. */
static int reap_children(struct recorder *r)
{
	int st, ret = 0;
	pid_t p;

	while ((p = waitpid(-1, &st, WNOHANG | __WALL)) > 0) {
		if (WIFSTOPPED(st)) {
			int event = (st >> 16) & 0xff, sig = WSTOPSIG(st);
			uint64_t now = now_ns(CLOCK_MONOTONIC);

			if (event == PTRACE_EVENT_EXEC || event == PTRACE_EVENT_EXIT) {
				/* Maps belong to the process: an exec is reported
				 * under the leader's id; a non-leader thread's exit
				 * is not the process's last look (the leader's is). */
				int tgid = tgid_of(p);

				if (tgid > 0 && (event == PTRACE_EVENT_EXEC || tgid == (int)p))
					ret = procmaps__snapshot(r->pm, tgid,
								 event == PTRACE_EVENT_EXIT, now);
				sig = 0;
			} else if (event) {
				sig = 0; /* fork/vfork/clone/group-stop events */
			} else if (sig == SIGTRAP) {
				sig = 0;
			}
			ptrace(PTRACE_CONT, p, NULL, (void *)(long)sig);
			if (ret < 0)
				break;
			continue;
		}
		if (p == r->child) {
			r->child_done = true;
			r->child_status = st;
		}
	}
	return ret;
}

/* ---------------------------------------------------------------- */
/* Drain                                                             */
/* ---------------------------------------------------------------- */
/* Account and snapshot; stop at a record the ABI says cannot exist. */
static void scan_records(struct recorder *r, const uint8_t *buf, size_t len)
{
	size_t off = 0;
	uint64_t now = now_ns(CLOCK_MONOTONIC);

	while (off + sizeof(struct pmuprof_record_header) <= len) {
		const struct pmuprof_record_header *h = (const void *)(buf + off);

		if (h->size < sizeof(*h) || h->size % 8 || h->size > len - off)
			break; /* the writer validates and reports it */
		r->records++;
		if (h->type == PMUPROF_REC_SAMPLE && h->size >= sizeof(struct pmuprof_sample)) {
			const struct pmuprof_sample *s = (const void *)h;
			char comm[17];

			r->samples++;
			if (s->event < PMUPROF_MAX_EVENTS)
				r->ev_samples[s->event]++;
			memcpy(comm, s->comm, 16);
			comm[16] = '\0';
			if (!r->write_err) {
				int ret = procmaps__see(r->pm, (int)s->pid, comm, now);

				if (ret < 0)
					r->write_err = ret;
			}
		} else if (h->type == PMUPROF_REC_LOST && h->size >= sizeof(struct pmuprof_lost)) {
			r->lost += ((const struct pmuprof_lost *)h)->lost;
		} else if (h->type == PMUPROF_REC_THROTTLE) {
			r->throttles++;
		} else if (h->type == PMUPROF_REC_UNTHROTTLE) {
			r->unthrottles++;
		}
		off += h->size;
	}
}

/* One read(); >0 bytes handled, 0 end of stream, -EAGAIN nothing now. */
static ssize_t drain_once(struct recorder *r)
{
	ssize_t n = read(r->fd, r->buf, READ_BUF_SIZE);
	int ret;

	if (n < 0)
		return errno == EINTR ? -EAGAIN : -errno;
	if (n == 0)
		return 0;
	scan_records(r, r->buf, (size_t)n);
	if (!r->write_err) {
		ret = pmufile_writer__records(r->w, r->buf, (size_t)n);
		if (ret < 0)
			r->write_err = ret;
	}
	return n;
}

static void human_bytes(uint64_t b, char *out, size_t len)
{
	if (b >= (1ull << 30))
		snprintf(out, len, "%.2f GiB", (double)b / (1ull << 30));
	else if (b >= (1ull << 20))
		snprintf(out, len, "%.2f MiB", (double)b / (1ull << 20));
	else if (b >= (1ull << 10))
		snprintf(out, len, "%.1f KiB", (double)b / (1ull << 10));
	else
		snprintf(out, len, "%" PRIu64 " B", b);
}

static void status_line(struct recorder *r, uint64_t now)
{
	double dt = (double)(now - r->last_status) / 1e9;
	char line[512], sz[32];
	size_t used;
	int i;

	if (dt <= 0)
		return;
	used = (size_t)snprintf(line, sizeof(line), "recording %.0fs",
				(double)(now - r->start_mono) / 1e9);
	for (i = 0; i < r->nr_ev && used < sizeof(line); i++) {
		used += (size_t)snprintf(line + used, sizeof(line) - used, "  %s %.0f/s",
					 r->ev[i].name,
					 (double)(r->ev_samples[i] - r->last_samples[i]) / dt);
		r->last_samples[i] = r->ev_samples[i];
	}
	human_bytes(pmufile_writer__bytes(r->w), sz, sizeof(sz));
	if (used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "  lost %" PRIu64 "  %s", r->lost, sz);
	fprintf(stderr, "\r\033[K%s", line);
	r->status_shown = true;
	r->last_status = now;
}

static int run_loop(struct recorder *r)
{
	uint64_t deadline = r->o->duration_ns ? r->start_mono + r->o->duration_ns : 0;
	bool tty = !r->o->quiet && isatty(STDERR_FILENO);

	r->last_status = r->start_mono;
	for (;;) {
		struct pollfd pfd[2] = {{.fd = r->fd, .events = POLLIN},
					{.fd = r->sfd, .events = POLLIN}};
		uint64_t now = now_ns(CLOCK_MONOTONIC);
		/* Wake at least every DRAIN_TICK_MS: the module wakes us only past
		 * its watermark, and a short-lived process must be seen (and its
		 * maps read) while it is still alive. */
		int timeout = DRAIN_TICK_MS, n;

		if (deadline) {
			uint64_t left_ms;

			if (now >= deadline)
				break;
			left_ms = (deadline - now + 999999) / 1000000;
			if (left_ms < (uint64_t)timeout)
				timeout = (int)left_ms;
		}
		n = poll(pfd, 2, timeout);
		if (n < 0 && errno != EINTR) {
			pmuctl_err("poll: %s", strerror(errno));
			return -errno;
		}
		if (n > 0 && (pfd[1].revents & POLLIN)) {
			struct signalfd_siginfo si;

			while (read(r->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				if (si.ssi_signo == SIGCHLD) {
					if (reap_children(r) < 0 && !r->write_err)
						r->write_err = -EIO;
				} else {
					r->stop_signal = (int)si.ssi_signo;
				}
			}
		}
		if (n == 0 || (pfd[0].revents & (POLLIN | POLLERR | POLLHUP))) {
			ssize_t got = -EAGAIN;
			int rounds = 0;

			/* Bounded: signals and the deadline are checked between rounds. */
			while (rounds++ < 16 && (got = drain_once(r)) > 0 && !r->write_err)
				;
			if (got == 0)
				break; /* session ended under us (e.g. module unload) */
			if (got < 0 && got != -EAGAIN) {
				pmuctl_err("read %s: %s", PMUPROF_DEVICE, strerror((int)-got));
				return (int)got;
			}
		}
		if (r->write_err || r->stop_signal || r->child_done)
			break;
		if (tty &&
		    now_ns(CLOCK_MONOTONIC) - r->last_status >= STATUS_INTERVAL_MS * 1000000ull)
			status_line(r, now_ns(CLOCK_MONOTONIC));
	}
	if (r->status_shown)
		fprintf(stderr, "\r\033[K");
	return 0;
}

/* After STOP: read what is left until end of stream. */
static int final_drain(struct recorder *r)
{
	int idle = 0;

	for (;;) {
		ssize_t got = drain_once(r);

		if (got > 0) {
			idle = 0;
			continue;
		}
		if (got == 0)
			return 0;
		if (got != -EAGAIN) {
			pmuctl_err("read %s after stop: %s", PMUPROF_DEVICE, strerror((int)-got));
			return (int)got;
		}
		if (++idle > FINAL_DRAIN_POLLS) {
			pmuctl_warn(
				"the module did not end the stream after STOP; the file may miss "
				"the last records");
			return 0;
		}
		struct pollfd pfd = {.fd = r->fd, .events = POLLIN};

		poll(&pfd, 1, 200);
	}
}

/* ---------------------------------------------------------------- */
/* File                                                              */
/* ---------------------------------------------------------------- */
static void fill_header(struct recorder *r, struct pmufile_header *h, int argc, char **argv)
{
	struct utsname u;
	size_t used = 0;
	int i;
	FILE *f;

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0) {
		snprintf(h->kernel_release, sizeof(h->kernel_release), "%s", u.release);
		snprintf(h->hostname, sizeof(h->hostname), "%s", u.nodename);
	}
	used = (size_t)snprintf(h->cmdline, sizeof(h->cmdline), "pmuctl");
	for (i = 0; i < argc && used < sizeof(h->cmdline); i++)
		used += (size_t)snprintf(h->cmdline + used, sizeof(h->cmdline) - used, " %s",
					 argv[i]);
	h->cpu_vendor = r->info.vendor;
	h->cpu_family = r->info.family;
	h->cpu_model = r->info.model;
	h->cpu_stepping = r->info.stepping;
	memcpy(h->cpu_vendor_string, r->info.vendor_string, sizeof(h->cpu_vendor_string));
	h->cpu_vendor_string[sizeof(h->cpu_vendor_string) - 1] = '\0';
	f = fopen("/proc/cpuinfo", "re");
	if (f) {
		char line[512];

		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (!strncmp(line, "model name", 10) && colon) {
				colon++;
				while (*colon == ' ')
					colon++;
				colon[strcspn(colon, "\n")] = '\0';
				snprintf(h->cpu_model_name, sizeof(h->cpu_model_name), "%.63s",
					 colon);
				break;
			}
		}
		fclose(f);
	}
	h->nr_cpus = r->info.nr_cpus;
	h->page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	h->start_realtime_ns = now_ns(CLOCK_REALTIME);
	h->start_session_ns = now_ns(CLOCK_MONOTONIC);
	h->config_flags = r->cfg.flags;
	h->stack_depth = r->cfg.stack_depth ? r->cfg.stack_depth : PMUPROF_DEFAULT_DEPTH;
	h->target = r->cfg.target;
	h->pid = r->cfg.target == PMUPROF_TARGET_PID ? r->cfg.pid : -1;
	h->info = r->info;
}

static int write_events(struct recorder *r)
{
	int i, ret;

	for (i = 0; i < r->nr_ev; i++) {
		struct pmufile_event e;

		memset(&e, 0, sizeof(e));
		e.index = (uint32_t)i;
		e.source = r->cfg.events[i].source;
		e.flags = r->cfg.events[i].flags;
		e.config = r->cfg.events[i].config;
		e.period = r->cfg.events[i].period;
		snprintf(e.name, sizeof(e.name), "%s", r->ev[i].name);
		if (r->ev[i].source == PMUPROF_SOURCE_PMU || r->ev[i].source == PMUPROF_SOURCE_PEBS)
			snprintf(e.resolved, sizeof(e.resolved), "%s", r->ev[i].resolved);
		snprintf(e.unit, sizeof(e.unit), "%s", r->ev[i].unit);
		ret = pmufile_writer__event(r->w, &e);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void rename_old(const char *path)
{
	char old[4096];
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return;
	snprintf(old, sizeof(old), "%s.old", path);
	if (rename(path, old) != 0)
		pmuctl_warn("cannot rename %s to %s: %s (it will be overwritten)", path, old,
			    strerror(errno));
}

static void summary(struct recorder *r, const struct pmuprof_stats *st, bool have_stats,
		    uint64_t bytes, double secs)
{
	char sz[32];
	uint64_t total_lost = r->lost, throttled = r->throttles, raised = r->unthrottles;
	int i;

	if (have_stats) {
		if (st->total.lost > total_lost)
			total_lost = st->total.lost;
		if (st->total.throttled > throttled)
			throttled = st->total.throttled;
		if (st->total.unthrottled > raised)
			raised = st->total.unthrottled;
	}
	human_bytes(bytes, sz, sizeof(sz));
	fprintf(stderr, "pmuctl: recorded %.2f s: %" PRIu64 " samples, %s written to %s\n", secs,
		r->samples, sz, r->o->output);
	for (i = 0; i < r->nr_ev; i++) {
		fprintf(stderr, "  %-28s %10" PRIu64 " samples  (%s %" PRIu64 " %s)", r->ev[i].name,
			r->ev_samples[i],
			r->cfg.events[i].flags & PMUPROF_EVF_FREQ ? "target" : "period",
			(uint64_t)r->cfg.events[i].period,
			r->cfg.events[i].flags & PMUPROF_EVF_FREQ ? "Hz" : r->ev[i].unit);
		if (have_stats && st->event_lost[i])
			fprintf(stderr, ", lost %" PRIu64, (uint64_t)st->event_lost[i]);
		fputc('\n', stderr);
	}
	fprintf(stderr,
		"  lost %" PRIu64 " samples (%.2f %%), throttled %" PRIu64
		" times, %zu processes\n",
		total_lost,
		r->samples + total_lost
			? 100.0 * (double)total_lost / (double)(r->samples + total_lost)
			: 0.0,
		throttled, procmaps__nr_processes(r->pm));
	if (total_lost)
		fprintf(stderr,
			"pmuctl: WARNING: %" PRIu64
			" samples (%.2f %%) were LOST because the rings "
			"overflowed: the profile under-counts; record with a larger --ring-size, a "
			"longer period (-c) or a lower -F\n",
			total_lost, 100.0 * (double)total_lost / (double)(r->samples + total_lost));
	if (throttled)
		fprintf(stderr,
			"pmuctl: warning: the module throttled sampling %" PRIu64 " times because "
			"handlers took too long (and raised the rate back %" PRIu64 " times when "
			"they were cheap again); periods in the file are the ones used\n",
			throttled, raised);
}

/* ---------------------------------------------------------------- */
/* record                                                            */
/* ---------------------------------------------------------------- */
int cmd_record(int argc, char **argv)
{
	struct rec_opts o;
	struct recorder r;
	struct pmufile_header *hdr = NULL;
	struct pmuprof_stats st;
	bool have_stats = false, started = false;
	sigset_t mask;
	char err[1024];
	int ret, rc = EXIT_FAIL;
	uint64_t end_mono;

	ret = parse_opts(argc, argv, &o);
	if (ret < 0)
		return 0; /* --help */
	if (ret > 0)
		return ret;
	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.fd = r.sfd = r.go_fd = r.exec_fd = -1;

	if (events__init(err, sizeof(err)) < 0) {
		pmuctl_err("%s", err);
		return EXIT_FAIL;
	}
	/* Signals go through the loop's signalfd from here on. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	/* A closed terminal (SIGHUP) stops the recording like SIGTERM: the
	 * default action would kill pmuctl and leave a file without trailer. */
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	r.sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r.sfd < 0) {
		pmuctl_err("signalfd: %s", strerror(errno));
		return EXIT_FAIL;
	}

	r.fd = device__open(O_NONBLOCK);
	if (r.fd < 0)
		goto out;
	if (device__info(r.fd, &r.info) < 0)
		goto out;
	if (setup_events(&r) < 0 || setup_config(&r) < 0)
		goto out;
	if (o.command && fork_command(&r) < 0)
		goto out;
	if (configure(&r) < 0)
		goto out;

	r.buf = malloc(READ_BUF_SIZE);
	hdr = calloc(1, sizeof(*hdr));
	if (!r.buf || !hdr) {
		pmuctl_err("out of memory");
		goto out;
	}
	rename_old(o.output);
	fill_header(&r, hdr, argc, argv);
	r.w = pmufile_writer__open(o.output, hdr, err, sizeof(err));
	if (!r.w) {
		pmuctl_err("%s", err);
		goto out;
	}
	r.pm = procmaps__new(r.w, NULL);
	if (!r.pm) {
		pmuctl_err("out of memory");
		goto out_abort;
	}
	ret = write_events(&r);
	if (ret == 0)
		ret = kallsyms__write(r.w, NULL, NULL);
	if (ret == 0 && o.pid > 0)
		ret = procmaps__snapshot(r.pm, o.pid, false, now_ns(CLOCK_MONOTONIC));
	if (ret < 0) {
		r.write_err = ret;
		goto finish;
	}

	if (ioctl(r.fd, PMUPROF_IOC_START, 0) < 0) {
		int e = errno;

		pmuctl_err("starting the session failed: %s: %s", strerror(e),
			   device__ioctl_hint(e, &r.info));
		goto out_abort;
	}
	started = true;
	r.start_mono = now_ns(CLOCK_MONOTONIC);
	if (!o.quiet)
		pmuctl_note("recording to %s; stop with Ctrl-C%s", o.output,
			    o.duration_ns ? " or wait for --duration" : "");
	if (o.command) {
		if (release_command(&r) < 0) {
			ioctl(r.fd, PMUPROF_IOC_STOP, 0);
			goto out_abort;
		}
		if (!r.traced)
			procmaps__snapshot(r.pm, r.child, false, now_ns(CLOCK_MONOTONIC));
		reap_children(&r);
	}
	if (run_loop(&r) < 0)
		r.write_err = r.write_err ? r.write_err : -EIO;

finish:
	if (started && ioctl(r.fd, PMUPROF_IOC_STOP, 0) < 0)
		pmuctl_warn("STOP failed: %s", strerror(errno));
	end_mono = now_ns(CLOCK_MONOTONIC);
	if (started && !r.write_err)
		final_drain(&r);
	/* COMMAND still running (duration or signal): end it, catching its exit maps. */
	if (r.child > 0 && !r.child_done) {
		uint64_t until = now_ns(CLOCK_MONOTONIC) + CHILD_EXIT_WAIT_MS * 1000000ull;

		kill(r.child, SIGTERM);
		while (!r.child_done && now_ns(CLOCK_MONOTONIC) < until) {
			struct pollfd pfd = {.fd = r.sfd, .events = POLLIN};
			struct signalfd_siginfo si;

			if (poll(&pfd, 1, 100) > 0)
				while (read(r.sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
					;
			reap_children(&r);
		}
		if (!r.child_done) {
			kill(r.child, SIGKILL);
			pmuctl_warn("COMMAND (pid %d) did not exit on SIGTERM; killed it", r.child);
		}
	}
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	st.cpu_stats_size = sizeof(struct pmuprof_cpu_stats);
	if (ioctl(r.fd, PMUPROF_IOC_GET_STATS, &st) == 0) {
		have_stats = true;
		if (!r.write_err && (ret = pmufile_writer__stats(r.w, &st)) < 0)
			r.write_err = ret;
	}
	if (r.write_err) {
		pmuctl_err("writing %s failed: %s; recording stopped. %s is INCOMPLETE (no "
			   "trailer): free space and record again (pmuconv --salvage reads what "
			   "was written)",
			   o.output, strerror(-r.write_err), o.output);
		pmufile_writer__abort(r.w);
		r.w = NULL;
		goto out;
	}
	{
		uint64_t bytes = pmufile_writer__bytes(r.w);

		ret = pmufile_writer__close(r.w, now_ns(CLOCK_REALTIME), end_mono, err,
					    sizeof(err));
		r.w = NULL;
		if (ret < 0) {
			pmuctl_err("finishing %s failed: %s; the file is INCOMPLETE", o.output,
				   err);
			goto out;
		}
		{
			struct stat sb;

			/* the file's size when it is a regular file (includes the
			 * trailer); a device (-o /dev/vdX) keeps the writer's count */
			if (stat(o.output, &sb) == 0 && S_ISREG(sb.st_mode))
				bytes = (uint64_t)sb.st_size;
		}
		summary(&r, &st, have_stats, bytes, (double)(end_mono - r.start_mono) / 1e9);
	}
	if (r.stop_signal)
		pmuctl_note("stopped by %s; %s is complete", strsignal(r.stop_signal), o.output);
	rc = 0;
	if (o.command && r.child_done && WIFEXITED(r.child_status) &&
	    WEXITSTATUS(r.child_status) != 0)
		pmuctl_note("COMMAND exited with status %d", WEXITSTATUS(r.child_status));
	goto out;

out_abort:
	if (r.w) {
		pmufile_writer__abort(r.w);
		r.w = NULL;
		unlink(o.output); /* nothing was recorded: leave no half file behind */
	}
out:
	abandon_command(&r);
	procmaps__free(r.pm);
	if (r.fd >= 0)
		close(r.fd);
	if (r.sfd >= 0)
		close(r.sfd);
	free(r.buf);
	free(hdr);
	return rc;
}
