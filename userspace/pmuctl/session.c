/* SPDX-License-Identifier: MIT */
/* pmuctl: a sampling session through /dev/pmuprof (session.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "device.h"
#include "session.h"
#include "util.h"

#define NS_PER_SEC 1000000000ull

static int setup_events(struct session *s, struct record_opts *o)
{
	const struct pmuprof_info *in = &s->info;
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
		struct pmuctl_event *ev = &s->ev[i];
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
		    !(in->sources & (1u << PMUPROF_SOURCE_PEBS)) &&
		    (in->flags & PMUPROF_INFO_PEBS_KPTI)) {
			pmuctl_err(
				"event '%s' asks for precise sampling (PEBS), which pmuprof "
				"refuses here: kernel page-table isolation (KPTI) is on, and the "
				"CPU would write PEBS records through the user page tables, where "
				"the module's buffers are not mapped; boot with pti=off to use "
				"precise events, or drop the :p modifier",
				ev->name);
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
		s->cfg.events[i].source = ev->source;
		s->cfg.events[i].config = ev->config;
		if (ev->period || o->count) {
			s->cfg.events[i].period = ev->period ? ev->period : o->count;
			min = ev->source == PMUPROF_SOURCE_NMI_IPI
				      ? (in->min_clock_period_ns ? in->min_clock_period_ns
								 : PMUPROF_MIN_CLOCK_PERIOD_NS)
				      : (in->min_pmu_period ? in->min_pmu_period
							    : PMUPROF_MIN_PMU_PERIOD);
			if (s->cfg.events[i].period < min) {
				pmuctl_err("event '%s': period %" PRIu64
					   " is below the module's minimum of %" PRIu64
					   " %s (shorter periods risk NMI storms)",
					   ev->name, (uint64_t)s->cfg.events[i].period, min,
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
				s->cfg.events[i].period = NS_PER_SEC / hz;
			} else {
				s->cfg.events[i].period = hz;
				s->cfg.events[i].flags |= PMUPROF_EVF_FREQ;
			}
		}
	}
	if (events__check_counters(s->ev, o->nr_events, in->nr_gp, in->nr_fixed, err, sizeof(err)) <
	    0) {
		pmuctl_err("%s", err);
		return -EINVAL;
	}
	s->nr_ev = o->nr_events;
	return 0;
}

static int setup_config(struct session *s, const struct record_opts *o)
{
	struct pmuprof_config *c = &s->cfg;
	int n;

	c->size = sizeof(*c);
	c->nr_events = (uint32_t)s->nr_ev;
	c->stack_depth = o->depth;
	if (o->callgraph)
		c->flags |= PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK;
	if (o->ustack_copy) {
		/* the fp walk stays on: pmuconv's fallback where CFI is missing */
		c->flags |= PMUPROF_CF_USTACK_COPY;
		c->ustack_copy_size = o->ustack_copy;
		if (!o->ring_size) {
			/* room for 64 of the largest records per CPU (at least the
			 * default ring), so a burst does not lose samples at once */
			uint64_t want =
				64 * ((uint64_t)PMUPROF_MAX_RECORD_NO_COPY +
				      sizeof(struct pmuprof_sample_ustack) + o->ustack_copy);
			uint64_t ring = PMUPROF_RING_DEFAULT;

			while (ring < want &&
			       ring < (s->info.ring_max ? s->info.ring_max : PMUPROF_RING_MAX))
				ring <<= 1;
			c->ring_size = (uint32_t)ring;
		}
	}
	if (o->user_only)
		c->flags |= PMUPROF_CF_EXCLUDE_KERNEL;
	if (o->kernel_only)
		c->flags |= PMUPROF_CF_EXCLUDE_USER;
	if (o->data_addr) {
		c->flags |= PMUPROF_CF_DATA_ADDR | PMUPROF_CF_CODE_PAGE;
		if (s->info.flags & PMUPROF_INFO_PRIVILEGED)
			c->flags |= PMUPROF_CF_PHYS_ADDR;
	}
	if (o->depth && s->info.max_depth && o->depth > s->info.max_depth) {
		pmuctl_err("--depth %u: the module allows at most %u frames", o->depth,
			   s->info.max_depth);
		return -EINVAL;
	}
	if (o->ring_size) {
		if ((s->info.ring_min && o->ring_size < s->info.ring_min) ||
		    (s->info.ring_max && o->ring_size > s->info.ring_max)) {
			pmuctl_err("--ring-size %" PRIu64 ": the module takes %u..%u bytes per CPU",
				   o->ring_size, s->info.ring_min, s->info.ring_max);
			return -EINVAL;
		}
		c->ring_size = (uint32_t)o->ring_size;
	}
	if (o->cpus_given) {
		unsigned int max = s->info.nr_cpus ? s->info.nr_cpus : PMUPROF_MAX_CPUS;

		n = args__cpulist(o->cpus, c->cpu_mask, PMUPROF_MAX_CPUS / 64, max);
		if (n <= 0) {
			pmuctl_err("-C %s: %s", o->cpus,
				   n == -ERANGE ? "a CPU number is beyond this machine's CPUs"
						: "give a CPU list such as 0-3,6");
			return -EINVAL;
		}
		c->target = PMUPROF_TARGET_CPUS;
	}
	if (o->cpus_given && (o->pid > 0 || o->command)) {
		/* as perf: the process (tree), only while on those CPUs */
		if (!(s->info.flags & PMUPROF_INFO_PID_CPUS)) {
			pmuctl_err("-C with %s: this pmuprof module cannot restrict a process to "
				   "CPUs; load the module built with this pmuctl, or drop -C",
				   o->command ? "COMMAND" : "-p");
			return -EOPNOTSUPP;
		}
		c->target = PMUPROF_TARGET_PID;
		c->pid = o->pid; /* COMMAND: filled in once forked */
		if (record_opts__inherit(o))
			c->flags |= PMUPROF_CF_INHERIT;
	} else if (o->cpus_given) {
		/* TARGET_CPUS, set above */
	} else if (o->pid > 0 || o->command) {
		c->target = PMUPROF_TARGET_PID;
		c->pid = o->pid; /* COMMAND: filled in once forked */
		if (record_opts__inherit(o))
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
int session__configure(struct session *s, bool inherit_asked)
{
	int e;

	if (ioctl(s->fd, PMUPROF_IOC_CONFIGURE, &s->cfg) == 0)
		return 0;
	e = errno;
	if ((s->cfg.flags & PMUPROF_CF_INHERIT) && (e == EINVAL || e == EOPNOTSUPP)) {
		s->cfg.flags &= ~PMUPROF_CF_INHERIT;
		if (ioctl(s->fd, PMUPROF_IOC_CONFIGURE, &s->cfg) == 0) {
			if (inherit_asked) {
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
		s->cfg.flags |= PMUPROF_CF_INHERIT; /* not the cause: report the first error */
	}
	pmuctl_err("configuring the module failed: %s: %s", strerror(e),
		   device__ioctl_hint(e, &s->info));
	return -e;
}

/* execvp's lookup: COMMAND is a path, or an executable file in $PATH. */
static int command_errno(const char *cmd)
{
	const char *path = getenv("PATH"), *p;
	char full[PATH_MAX];
	int e = ENOENT;

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0 ? 0 : errno;
	for (p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; p;) {
		const char *colon = strchr(p, ':');
		int n = colon ? (int)(colon - p) : (int)strlen(p);
		struct stat st;

		snprintf(full, sizeof(full), "%.*s/%s", n, n ? p : ".", cmd);
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access(full, X_OK) == 0)
				return 0;
			e = EACCES;
		}
		p = colon ? colon + 1 : NULL;
	}
	return e;
}

static int precheck(const struct record_opts *o)
{
	unsigned long long mask[PMUPROF_MAX_CPUS / 64];
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char err[1024];
	int i, n, e;

	for (i = 0; i < o->nr_events; i++) {
		struct pmuctl_event ev;
		int ret = events__resolve(o->events[i], &ev, err, sizeof(err));

		/* unknown or malformed whatever the module offers; the rest
		 * (no PMU, PEBS, periods) is judged against GET_INFO */
		if (ret == -ENOENT || ret == -EINVAL) {
			pmuctl_err("%s", err);
			return ret;
		}
	}
	if (o->cpus_given) {
		n = args__cpulist(o->cpus, mask, PMUPROF_MAX_CPUS / 64,
				  ncpu > 0 && ncpu < PMUPROF_MAX_CPUS ? (unsigned int)ncpu
								      : PMUPROF_MAX_CPUS);
		if (n <= 0) {
			pmuctl_err("-C %s: %s", o->cpus,
				   n == -ERANGE ? "a CPU number is beyond this machine's CPUs"
						: "give a CPU list such as 0-3,6");
			return -EINVAL;
		}
	}
	if (o->pid > 0 && kill(o->pid, 0) < 0 && errno == ESRCH) {
		pmuctl_err("-p %d: no such process", o->pid);
		return -ESRCH;
	}
	if (o->command && (e = command_errno(o->command[0])) != 0) {
		pmuctl_err("cannot run '%s': %s", o->command[0], strerror(e));
		return -e;
	}
	return 0;
}

int session__open(struct session *s, struct record_opts *o)
{
	int ret = precheck(o);

	if (ret < 0)
		return ret;
	s->fd = device__open(O_NONBLOCK);
	if (s->fd < 0)
		return s->fd;
	if (device__info(s->fd, &s->info) < 0 || setup_events(s, o) < 0 || setup_config(s, o) < 0)
		return -EINVAL;
	return 0;
}

int session__start(struct session *s)
{
	int e;

	if (ioctl(s->fd, PMUPROF_IOC_START, 0) == 0)
		return 0;
	e = errno;
	pmuctl_err("starting the session failed: %s: %s", strerror(e),
		   device__ioctl_hint(e, &s->info));
	return -e;
}

int session__stop(struct session *s)
{
	return ioctl(s->fd, PMUPROF_IOC_STOP, 0) < 0 ? -errno : 0;
}

int session__stats(struct session *s, struct pmuprof_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	st->cpu_stats_size = sizeof(struct pmuprof_cpu_stats);
	return ioctl(s->fd, PMUPROF_IOC_GET_STATS, st) < 0 ? -errno : 0;
}

void session__close(struct session *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}
