// SPDX-License-Identifier: GPL-2.0
/*
 * relfuzz: /dev/pmuprof abuse test (issue 8). Goes further than kproto's
 * ppfuzz: a deterministic boundary table checked in every session state,
 * then random calls from several threads racing START/STOP/read/poll/close,
 * fd sharing across fork() and dup(), O_NONBLOCK flips, pid targets that
 * exit while being configured, blocking reads that must stay interruptible.
 *
 *   relfuzz [-n CALLS] [-j THREADS] [-s SEED] [-t SECONDS]
 *
 * Phase 1 (boundary table, one thread): every case is issued in the states
 * IDLE, CONFIGURED, RUNNING and STOPPED. Each case names the errno it must
 * produce (or a set of acceptable outcomes); around every call that failed,
 * a GET_INFO snapshot (whole struct) and a GET_STATS snapshot (state,
 * configured periods, start/stop times) must be identical: an error changes
 * nothing. After the table in CONFIGURED state the session is started and
 * its samples must carry the period configured before the table (the
 * failed CONFIGUREs did not replace it).
 * Phase 2 (random, THREADS threads on one fd) for CALLS calls or SECONDS:
 * mutated CONFIGUREs, START, STOP, reads of random sizes and buffers, polls,
 * GET_INFO/GET_STATS of random sizes, unknown ioctl numbers, fcntl
 * O_NONBLOCK flips, dup()+close(), a fork()ed child issuing calls on the
 * inherited fd, second opens (must be EBUSY), pid targets that have just
 * exited. A call that must fail whatever the state (unknown ioctl, short
 * read, reserved bits) is checked to fail.
 * Phase 3: a blocking read() in a configured-but-idle session is
 * interrupted by a signal (EINTR, promptly); closing a RUNNING session from
 * a fork()ed sharer's last close stops it.
 * Phase 4: a clean session: samples + LOST == captured exactly, and
 * GET_INFO is identical to the snapshot taken before any abuse.
 *
 * Prints "relfuzz: calls=N checked=C state_checks=S invalid=I failures=F"
 * and exits 0 only if F == 0.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "tests/tools/common.h"
#include "tests/tools/opts.h"

static atomic_ulong n_calls, n_checked, n_state_checks, n_invalid;
static atomic_int failures;
static struct pmuprof_info info0;
static char *guard; /* a PROT_NONE page */

#define FAILF(...)                                                                                 \
	do {                                                                                       \
		if (atomic_fetch_add(&failures, 1) < 30) {                                         \
			printf("relfuzz: FAIL: " __VA_ARGS__);                                     \
			fflush(stdout);                                                            \
		}                                                                                  \
	} while (0)

/* ------------------------------------------------------------------ */
/* Snapshots                                                           */
/* ------------------------------------------------------------------ */
struct snap {
	struct pmuprof_info info;
	uint32_t state;
	uint64_t start_ns, stop_ns;
	uint64_t period[PMUPROF_MAX_EVENTS];
};

static int get_info(int fd, struct pmuprof_info *in)
{
	memset(in, 0, sizeof(*in));
	in->size = sizeof(*in);
	return ioctl(fd, PMUPROF_IOC_GET_INFO, in) ? -errno : 0;
}

static void take_snap(int fd, struct snap *s)
{
	struct pmuprof_stats st;

	memset(s, 0, sizeof(*s));
	if (get_info(fd, &s->info))
		FAILF("GET_INFO for a snapshot: %s\n", strerror(errno));
	if (tt_stats(fd, &st, NULL, 0))
		FAILF("GET_STATS for a snapshot: %s\n", strerror(errno));
	s->state = st.state;
	s->start_ns = st.start_ns;
	s->stop_ns = st.stop_ns;
	memcpy(s->period, st.event_period, sizeof(s->period));
}

/* In RUNNING the cpu-clock period may move (throttling): compare it only
 * when not running. nr_online may move with hotplug: not done here. */
static void cmp_snap(const struct snap *a, const struct snap *b, const char *what)
{
	atomic_fetch_add(&n_state_checks, 1);
	if (memcmp(&a->info, &b->info, sizeof(a->info)))
		FAILF("%s: failed call changed GET_INFO\n", what);
	if (a->state != b->state)
		FAILF("%s: failed call changed the state %u -> %u\n", what, a->state, b->state);
	if (a->start_ns != b->start_ns || a->stop_ns != b->stop_ns)
		FAILF("%s: failed call changed start/stop times\n", what);
	if (a->state != PMUPROF_STATE_RUNNING && memcmp(a->period, b->period, sizeof(a->period)))
		FAILF("%s: failed call changed the configured periods (%llu -> %llu)\n", what,
		      (unsigned long long)a->period[0], (unsigned long long)b->period[0]);
}

/* ------------------------------------------------------------------ */
/* Phase 1: the boundary table                                         */
/* ------------------------------------------------------------------ */
#define ANY_ERR	  (-1) /* must fail, any errno */
#define OK_OR_ERR (-2) /* outcome not predicted (checked for state only on error) */

struct ccase {
	const char *name;
	void (*mut)(struct pmuprof_config *c, int arg);
	int arg;
	int want; /* errno, 0 = success, ANY_ERR, OK_OR_ERR */
};

static int exited_pid, zombie_pid;

#define M(fn, body)                                                                                \
	static void fn(struct pmuprof_config *c, int a)                                            \
	{                                                                                          \
		(void)a;                                                                           \
		body;                                                                              \
	}
M(m_flags_bit, c->flags = 1u << a)
M(m_flags_excl_both, c->flags |= PMUPROF_CF_EXCLUDE_USER | PMUPROF_CF_EXCLUDE_KERNEL)
M(m_flags_phys_alone, c->flags = PMUPROF_CF_PHYS_ADDR)
M(m_evflag_bit, c->events[0].flags = 1u << a)
M(m_evfreq, (c->events[0].flags = PMUPROF_EVF_FREQ, c->events[0].period = (uint64_t)a))
M(m_evfreq_huge, (c->events[0].flags = PMUPROF_EVF_FREQ, c->events[0].period = ~0ull))
M(m_period, c->events[0].period = (uint64_t)a)
M(m_period_10s, c->events[0].period = 10000000000ull)
M(m_period_10s1, c->events[0].period = 10000000001ull)
M(m_period_2e62, c->events[0].period = 1ull << 62)
M(m_period_max, c->events[0].period = ~0ull)
M(m_depth, c->stack_depth = (uint32_t)a)
M(m_depth_max, c->stack_depth = ~0u)
M(m_ring, c->ring_size = (uint32_t)a)
M(m_ring_max, c->ring_size = ~0u)
M(m_wakeup, c->wakeup_bytes = (uint32_t)a)
M(m_nr_events, c->nr_events = (uint32_t)a)
M(m_two_clocks, (c->nr_events = 2, c->events[1] = c->events[0]))
M(m_second_empty, c->nr_events = 2)
M(m_source, c->events[0].source = (uint32_t)a)
M(m_pmu_event, (c->events[0].source = PMUPROF_SOURCE_PMU, c->events[0].config = 0x3c,
		c->events[0].period = 1000000))
M(m_pmu_period,
  (c->events[0].source = PMUPROF_SOURCE_PMU, c->events[0].config = 0x3c, c->events[0].period = 999))
M(m_pmu_en_bit, (c->events[0].source = PMUPROF_SOURCE_PMU, c->events[0].config = 0x3c | (1u << 22),
		 c->events[0].period = 1000000))
M(m_clock_config, c->events[0].config = 0x3c)
M(m_clock_precise, c->events[0].flags = PMUPROF_EVF_PRECISE)
M(m_reserved, c->__reserved[a] = 1)
M(m_reserved32, c->__reserved32 = 1)
M(m_copy_no_flag, c->ustack_copy_size = 8192)
M(m_copy_odd, (c->flags |= PMUPROF_CF_USTACK_COPY, c->ustack_copy_size = 8190))
M(m_copy_big_small_ring, (c->flags |= PMUPROF_CF_USTACK_COPY,
			  c->ustack_copy_size = PMUPROF_USTACK_COPY_MAX, c->ring_size = 1u << 17))
M(m_ev_reserved, c->events[0].__reserved[a] = 1ull << 63)
M(m_slot_beyond, c->events[PMUPROF_MAX_EVENTS - 1].period = 1)
M(m_target, c->target = (uint32_t)a)
M(m_all_pid, c->pid = 1)
M(m_all_mask, c->cpu_mask[0] = 1)
M(m_cpus_empty, c->target = PMUPROF_TARGET_CPUS)
M(m_cpus_bit, (c->target = PMUPROF_TARGET_CPUS, c->cpu_mask[a / 64] = 1ull << (a % 64)))
M(m_cpus_all_ones,
  (c->target = PMUPROF_TARGET_CPUS, memset(c->cpu_mask, 0xff, sizeof(c->cpu_mask))))
M(m_cpus_pid, (c->target = PMUPROF_TARGET_CPUS, c->cpu_mask[0] = 1, c->pid = 1))
M(m_pid, (c->target = PMUPROF_TARGET_PID, c->pid = a))
M(m_pid_exited, (c->target = PMUPROF_TARGET_PID, c->pid = exited_pid))
M(m_pid_zombie, (c->target = PMUPROF_TARGET_PID, c->pid = zombie_pid))
M(m_pid_self, (c->target = PMUPROF_TARGET_PID, c->pid = getpid()))
M(m_pid_mask, (c->target = PMUPROF_TARGET_PID, c->pid = getpid(), c->cpu_mask[3] = 4))
M(m_max_events_pmu, ({
	  c->nr_events = PMUPROF_MAX_EVENTS;
	  for (int i = 1; i < PMUPROF_MAX_EVENTS; i++) {
		  c->events[i].source = PMUPROF_SOURCE_PMU;
		  c->events[i].config = 0xc0;
		  c->events[i].period = 1000000;
	  }
  }))
#undef M

static int src_ok(int src)
{
	return (info0.sources >> src) & 1;
}

/* Built at run time: some expectations depend on GET_INFO. */
static struct ccase cases[256];
static int nr_cases;

static void add(const char *name, void (*mut)(struct pmuprof_config *, int), int arg, int want)
{
	if (nr_cases < (int)(sizeof(cases) / sizeof(cases[0])))
		cases[nr_cases++] = (struct ccase){name, mut, arg, want};
}

static void build_cases(void)
{
	static char names[64][32];
	int pmu = src_ok(PMUPROF_SOURCE_PMU);

	for (int b = 0; b < 32; b++) {
		snprintf(names[b], sizeof(names[b]), "flags-bit%d", b);
		/* bits 0..6 exist; PHYS_ADDR alone lacks DATA_ADDR/CODE_PAGE;
		 * EXCLUDE_* alone are fine; DATA_ADDR/CODE_PAGE work here. */
		add(names[b], m_flags_bit, b, b >= 7 || b == 5 ? EINVAL : 0);
	}
	for (int b = 0; b < 32; b++) {
		snprintf(names[32 + b], sizeof(names[32 + b]), "evflags-bit%d", b);
		/* FREQ with period 1000000 Hz > max; PRECISE on cpu-clock */
		add(names[32 + b], m_evflag_bit, b, EINVAL);
	}
	add("flags-exclude-both", m_flags_excl_both, 0, EINVAL);
	add("flags-phys-alone", m_flags_phys_alone, 0, EINVAL);
	add("freq-0", m_evfreq, 0, EINVAL);
	add("freq-1", m_evfreq, 1, 0);
	add("freq-max", m_evfreq, PMUPROF_MAX_FREQ_HZ, 0);
	add("freq-max+1", m_evfreq, PMUPROF_MAX_FREQ_HZ + 1, EINVAL);
	add("freq-huge", m_evfreq_huge, 0, EINVAL);
	add("period-0", m_period, 0, EINVAL);
	add("period-1", m_period, 1, EINVAL);
	add("period-min-1", m_period, PMUPROF_MIN_CLOCK_PERIOD_NS - 1, EINVAL);
	add("period-min", m_period, PMUPROF_MIN_CLOCK_PERIOD_NS, 0);
	add("period-10s", m_period_10s, 0, 0);
	add("period-10s+1", m_period_10s1, 0, EINVAL);
	add("period-2^62", m_period_2e62, 0, EINVAL);
	add("period-max", m_period_max, 0, EINVAL);
	add("depth-0", m_depth, 0, 0);
	add("depth-1", m_depth, 1, 0);
	add("depth-256", m_depth, PMUPROF_MAX_DEPTH, 0);
	add("depth-257", m_depth, PMUPROF_MAX_DEPTH + 1, EINVAL);
	add("depth-1e9", m_depth, 1000000000, EINVAL);
	add("depth-max", m_depth_max, 0, EINVAL);
	add("ring-0", m_ring, 0, 0);
	add("ring-1", m_ring, 1, EINVAL);
	add("ring-min-1", m_ring, PMUPROF_RING_MIN - 1, EINVAL);
	add("ring-min+8", m_ring, PMUPROF_RING_MIN + 8, EINVAL);
	add("ring-3min", m_ring, 3 * PMUPROF_RING_MIN, EINVAL);
	add("ring-min/2", m_ring, PMUPROF_RING_MIN / 2, EINVAL);
	add("ring-max*2", m_ring, (int)(2u * PMUPROF_RING_MAX), EINVAL);
	add("ring-2^31", m_ring, (int)(1u << 31), EINVAL);
	add("ring-uint-max", m_ring_max, 0, EINVAL);
	add("wakeup-8", m_wakeup, 8, 0);
	add("wakeup-ring", m_wakeup, 16384, 0);
	add("wakeup-ring+1", m_wakeup, 16385, EINVAL);
	add("wakeup-huge", m_wakeup, 0x7fffffff, EINVAL);
	add("nr-events-0", m_nr_events, 0, EINVAL);
	add("nr-events-17", m_nr_events, PMUPROF_MAX_EVENTS + 1, EINVAL);
	add("nr-events-huge", m_nr_events, 0x7fffffff, EINVAL);
	add("two-clock-events", m_two_clocks, 0, EINVAL);
	add("second-event-empty", m_second_empty, 0, EINVAL);
	add("source-0", m_source, 0, EINVAL);
	add("source-5", m_source, PMUPROF_SOURCE__MAX, EINVAL);
	add("source-255", m_source, 255, EINVAL);
	add("source-timer", m_source, PMUPROF_SOURCE_TIMER,
	    src_ok(PMUPROF_SOURCE_TIMER) ? 0 : ENODEV);
	add("source-pebs", m_source, PMUPROF_SOURCE_PEBS, ANY_ERR);
	add("pmu-cycles", m_pmu_event, 0, pmu ? 0 : ENODEV);
	add("pmu-period-999", m_pmu_period, 0, EINVAL);
	add("pmu-en-bit", m_pmu_en_bit, 0, pmu ? EINVAL : ANY_ERR);
	add("pmu-16-events", m_max_events_pmu, 0, pmu ? ANY_ERR : ENODEV);
	add("clock-with-config", m_clock_config, 0, EINVAL);
	add("clock-precise", m_clock_precise, 0, EINVAL);
	for (int i = 0; i < 3; i++)
		add("reserved", m_reserved, i, EINVAL);
	add("reserved32", m_reserved32, 0, EINVAL);
	add("ustack-copy-size-no-flag", m_copy_no_flag, 0, EINVAL);
	add("ustack-copy-odd", m_copy_odd, 0, EINVAL);
	add("ustack-copy-64k-small-ring", m_copy_big_small_ring, 0, EINVAL);
	add("ev-reserved0", m_ev_reserved, 0, EINVAL);
	add("ev-reserved1", m_ev_reserved, 1, EINVAL);
	add("slot-beyond-nr-events", m_slot_beyond, 0, EINVAL);
	add("target-3", m_target, 3, EINVAL);
	add("target-huge", m_target, 0x7fffffff, EINVAL);
	add("target-all-with-pid", m_all_pid, 0, EINVAL);
	add("target-all-with-mask", m_all_mask, 0, EINVAL);
	add("cpus-empty", m_cpus_empty, 0, EINVAL);
	add("cpus-0", m_cpus_bit, 0, 0);
	add("cpus-nr_cpus", m_cpus_bit, (int)info0.nr_cpus, EINVAL);
	add("cpus-63", m_cpus_bit, 63, info0.nr_cpus > 63 ? 0 : EINVAL);
	add("cpus-64", m_cpus_bit, 64, info0.nr_cpus > 64 ? 0 : EINVAL);
	add("cpus-1023", m_cpus_bit, PMUPROF_MAX_CPUS - 1,
	    info0.nr_cpus >= PMUPROF_MAX_CPUS ? 0 : EINVAL);
	add("cpus-all-ones", m_cpus_all_ones, 0, info0.nr_cpus >= PMUPROF_MAX_CPUS ? 0 : EINVAL);
	add("cpus-with-pid", m_cpus_pid, 0, EINVAL);
	add("pid-0", m_pid, 0, EINVAL);
	add("pid--1", m_pid, -1, EINVAL);
	add("pid-intmin", m_pid, (int)0x80000000, EINVAL);
	add("pid-nonexistent", m_pid, 0x3ffffff0, ESRCH);
	add("pid-exited", m_pid_exited, 0, ESRCH);
	add("pid-zombie", m_pid_zombie, 0, OK_OR_ERR);
	add("pid-self", m_pid_self, 0, 0);
	add("pid-with-mask", m_pid_mask, 0, EINVAL);
}

static const char *state_name(uint32_t s)
{
	static const char *n[] = {"IDLE", "CONFIGURED", "RUNNING", "STOPPED"};

	return s < 4 ? n[s] : "?";
}

static uint64_t base_period = 1000000; /* the config the table must not replace */

static int configure_base(int fd, uint64_t period)
{
	struct pmuprof_config c;

	tt_clock_config(&c, period, 16384);
	return ioctl(fd, PMUPROF_IOC_CONFIGURE, &c) ? -errno : 0;
}

/* Issue one call, check its errno, and check state unchanged on error. */
static void checked(int fd, const char *what, int want, int (*call)(int fd, void *arg), void *arg)
{
	struct snap a, b;
	int ret, err;
	char w[160];

	take_snap(fd, &a);
	ret = call(fd, arg);
	err = ret < 0 ? -ret : 0;
	atomic_fetch_add(&n_calls, 1);
	atomic_fetch_add(&n_checked, 1);
	snprintf(w, sizeof(w), "%s in %s", what, state_name(a.state));
	if (a.state == PMUPROF_STATE_RUNNING && want != 0 && err == EBUSY)
		; /* CONFIGURE while running: EBUSY before validation is fine */
	else if (want == ANY_ERR && !err)
		FAILF("%s: succeeded, must fail\n", w);
	else if (want > 0 && err != want)
		FAILF("%s: got %s, want %s\n", w, tt_errname(err), tt_errname(want));
	else if (want == 0 && err)
		FAILF("%s: got %s, want success\n", w, tt_errname(err));
	if (err) {
		atomic_fetch_add(&n_invalid, 1);
		take_snap(fd, &b);
		cmp_snap(&a, &b, w);
	}
}

struct cfg_arg {
	const struct ccase *cc;
};

static int call_configure(int fd, void *arg)
{
	const struct ccase *cc = ((struct cfg_arg *)arg)->cc;
	struct pmuprof_config c;

	tt_clock_config(&c, base_period, 16384);
	cc->mut(&c, cc->arg);
	return ioctl(fd, PMUPROF_IOC_CONFIGURE, &c) ? -errno : 0;
}

/* CONFIGURE buffers of odd sizes, with zero or non-zero tails. */
struct size_arg {
	uint32_t size;
	int tail_byte; /* offset of a non-zero byte past the struct, -1 none */
	int where;     /* 0 normal buffer, 1 ends at the guard page, 2 NULL, 3 guard */
};

static int call_cfg_size(int fd, void *arg)
{
	struct size_arg *sa = arg;
	static char buf[8192] __attribute__((aligned(64)));
	struct pmuprof_config c;
	char *p = buf;

	tt_clock_config(&c, base_period, 16384);
	memset(buf, 0, sizeof(buf));
	memcpy(buf, &c, sizeof(c));
	((uint32_t *)buf)[0] = sa->size;
	if (sa->tail_byte >= 0)
		buf[sa->tail_byte] = 0x5a;
	if (sa->where == 1) {
		/* the struct ends exactly at the PROT_NONE page: a size larger
		 * than sizeof must fault, not read beyond */
		p = guard - sizeof(c);
		memcpy(p, &c, sizeof(c));
		((uint32_t *)p)[0] = sa->size;
	} else if (sa->where == 2) {
		p = NULL;
	} else if (sa->where == 3) {
		p = guard;
	}
	return ioctl(fd, PMUPROF_IOC_CONFIGURE, p) ? -errno : 0;
}

static int call_info_size(int fd, void *arg)
{
	struct size_arg *sa = arg;
	static char buf[8192] __attribute__((aligned(64)));

	memset(buf, 0, sizeof(buf));
	((uint32_t *)buf)[0] = sa->size;
	if (sa->tail_byte >= 0)
		buf[sa->tail_byte] = 1;
	return ioctl(fd, PMUPROF_IOC_GET_INFO,
		     sa->where == 3   ? guard
		     : sa->where == 2 ? NULL
				      : buf)
		       ? -errno
		       : 0;
}

struct stats_arg {
	uint32_t size, nr_cpus, csize;
	int ptr; /* 0 none, 1 buffer, 2 guard, 3 small address */
};

static int call_stats(int fd, void *arg)
{
	struct stats_arg *sa = arg;
	static struct pmuprof_cpu_stats cpus[8];
	static char buf[8192] __attribute__((aligned(64)));
	struct pmuprof_stats *st = (void *)buf;

	memset(buf, 0, sizeof(buf));
	st->size = sa->size;
	st->nr_cpus = sa->nr_cpus;
	st->cpu_stats_size = sa->csize;
	st->cpus_ptr = sa->ptr == 1   ? (uintptr_t)cpus
		       : sa->ptr == 2 ? (uintptr_t)guard
		       : sa->ptr == 3 ? 4096
				      : 0;
	return ioctl(fd, PMUPROF_IOC_GET_STATS, st) ? -errno : 0;
}

static int call_raw(int fd, void *arg)
{
	static char buf[4096];

	return ioctl(fd, *(unsigned long *)arg, buf) ? -errno : 0;
}

static int call_start(int fd, void *arg)
{
	(void)arg;
	return ioctl(fd, PMUPROF_IOC_START) ? -errno : 0;
}

static int call_stop(int fd, void *arg)
{
	(void)arg;
	return ioctl(fd, PMUPROF_IOC_STOP) ? -errno : 0;
}

static int call_read_len(int fd, void *arg)
{
	static char buf[PMUPROF_READ_MIN + 64];
	size_t len = *(size_t *)arg;

	return read(fd, buf, len) < 0 ? -errno : 0;
}

static int call_write(int fd, void *arg)
{
	(void)arg;
	return write(fd, "x", 1) < 0 ? -errno : 0;
}

static int call_lseek(int fd, void *arg)
{
	(void)arg;
	return lseek(fd, 0, SEEK_SET) < 0 ? -errno : 0;
}

static int call_mmap(int fd, void *arg)
{
	void *p;

	(void)arg;
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	munmap(p, 4096);
	return 0;
}

static int call_open2(int fd, void *arg)
{
	int fd2 = open(PMUPROF_DEVICE, O_RDWR);

	(void)fd;
	(void)arg;
	if (fd2 >= 0) {
		close(fd2);
		return 0;
	}
	return -errno;
}

/* The table in the current state. Successful CONFIGUREs are undone by
 * re-configuring the base (only where CONFIGURE is allowed). */
static int open_dev(int flags);

static void run_table(int *fdp, uint32_t state)
{
	int fd = *fdp;
	struct cfg_arg ca;
	const size_t V0 = PMUPROF_CONFIG_SIZE_VER0;
	int running = state == PMUPROF_STATE_RUNNING;

	for (int i = 0; i < nr_cases; i++) {
		ca.cc = &cases[i];
		if (running && cases[i].want == 0)
			checked(fd, cases[i].name, EBUSY, call_configure, &ca);
		else
			checked(fd, cases[i].name, running ? ANY_ERR : cases[i].want,
				call_configure, &ca);
		if (!running && state != PMUPROF_STATE_IDLE)
			configure_base(fd, base_period);
		else if (state == PMUPROF_STATE_IDLE) {
			/* a success moved IDLE -> CONFIGURED: only a new open
			 * gets back to IDLE */
			struct snap s;

			take_snap(fd, &s);
			if (s.state != PMUPROF_STATE_IDLE) {
				close(fd);
				*fdp = fd = open_dev(O_NONBLOCK);
			}
		}
	}
	struct size_arg sizes[] = {
		{0, -1, 0},
		{1, -1, 0},
		{4, -1, 0},
		{8, -1, 0},
		{(uint32_t)V0 - 8, -1, 0},
		{(uint32_t)V0 - 1, -1, 0},
		{(uint32_t)V0 + 8, (int)V0 + 3, 0},
		{4096, 4095, 0},
		{4097, -1, 0},
		{8192, -1, 0},
		{0x7fffffff, -1, 0},
		{0xffffffff, -1, 0},
		{(uint32_t)V0 + 64, -1, 1},
		{(uint32_t)V0, -1, 2},
		{(uint32_t)V0, -1, 3},
	};
	static const int want_sizes[] = {EINVAL, EINVAL, EINVAL, EINVAL, EINVAL,
					 EINVAL, E2BIG,	 E2BIG,	 E2BIG,	 E2BIG,
					 E2BIG,	 E2BIG,	 EFAULT, EFAULT, EFAULT};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char w[64];

		snprintf(w, sizeof(w), "configure-size-%u-case%zu", sizes[i].size, i);
		checked(fd, w, want_sizes[i], call_cfg_size, &sizes[i]);
	}
	struct size_arg isizes[] = {
		{0, -1, 0},
		{4, -1, 0},
		{(uint32_t)PMUPROF_INFO_SIZE_VER0 - 4, -1, 0},
		{(uint32_t)PMUPROF_INFO_SIZE_VER0 + 16, (int)PMUPROF_INFO_SIZE_VER0 + 1, 0},
		{8192, -1, 0},
		{(uint32_t)PMUPROF_INFO_SIZE_VER0, -1, 2},
		{(uint32_t)PMUPROF_INFO_SIZE_VER0, -1, 3},
	};
	static const int want_isizes[] = {EINVAL, EINVAL, EINVAL, E2BIG, E2BIG, EFAULT, EFAULT};
	for (size_t i = 0; i < sizeof(isizes) / sizeof(isizes[0]); i++)
		checked(fd, "get-info-size", want_isizes[i], call_info_size, &isizes[i]);
	const uint32_t SV0 = (uint32_t)PMUPROF_STATS_SIZE_VER0,
		       CS = sizeof(struct pmuprof_cpu_stats);
	struct stats_arg stats[] = {
		{0, 0, CS, 0},	   {SV0 - 8, 0, CS, 0}, {SV0, 2, CS - 8, 1},
		{SV0, 2, 8192, 1}, {SV0, 2, CS, 2},	{SV0, 1, CS, 3},
		{SV0, 0, CS, 2},   {SV0, 8, CS, 1},	{SV0, 0xffffffff, CS, 2},
	};
	static const int want_stats[] = {EINVAL, EINVAL, EINVAL, EINVAL, EFAULT,
					 EFAULT, 0,	 0,	 EFAULT};
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++)
		checked(fd, "get-stats", want_stats[i], call_stats, &stats[i]);
	unsigned long nrs[] = {
		_IO(PMUPROF_IOC_MAGIC, 0),     _IO(PMUPROF_IOC_MAGIC, 6),
		_IO(PMUPROF_IOC_MAGIC, 255),   _IOWR(PMUPROF_IOC_MAGIC, 77, char[4096]),
		_IO(PMUPROF_IOC_MAGIC + 1, 1), _IOR('p', 3, int)};
	for (size_t i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++)
		checked(fd, "unknown-ioctl", ENOTTY, call_raw, &nrs[i]);
	size_t lens[] = {0, 1, 8, PMUPROF_READ_MIN - 8, PMUPROF_READ_MIN - 1};
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		checked(fd, "read-short", EINVAL, call_read_len, &lens[i]);
	checked(fd, "write", EINVAL, call_write, NULL);
	checked(fd, "lseek", ESPIPE, call_lseek, NULL);
	checked(fd, "mmap", ENODEV, call_mmap, NULL);
	checked(fd, "second-open", EBUSY, call_open2, NULL);
	if (state == PMUPROF_STATE_IDLE || state == PMUPROF_STATE_RUNNING)
		checked(fd, "start", EBUSY, call_start, NULL);
	if (state == PMUPROF_STATE_IDLE || state == PMUPROF_STATE_CONFIGURED)
		checked(fd, "stop", EBUSY, call_stop, NULL);
	if (state == PMUPROF_STATE_IDLE) {
		size_t l = PMUPROF_READ_MIN;

		checked(fd, "read-idle", EINVAL, call_read_len, &l);
	}
}

static int open_dev(int flags)
{
	int fd = open(PMUPROF_DEVICE, O_RDWR | flags);

	if (fd < 0) {
		printf("relfuzz: open %s: %s\n", PMUPROF_DEVICE, strerror(errno));
		exit(2);
	}
	return fd;
}

/* A drained STOPPED session: every sample carries `period`. */
static void check_period_in_samples(int fd, uint64_t period, const char *what)
{
	static char buf[1 << 18];
	ssize_t n;
	uint64_t good = 0, bad = 0;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		size_t off = 0;

		while (off < (size_t)n) {
			const struct pmuprof_record_header *h = (const void *)(buf + off);

			if (pmufile__check_record(h, (size_t)n - off, 0))
				break;
			if (h->type == PMUPROF_REC_SAMPLE) {
				if (((const struct pmuprof_sample *)h)->period == period)
					good++;
				else
					bad++;
			}
			off += h->size;
		}
	}
	if (bad || !good)
		FAILF("%s: %llu samples with the configured period %llu, %llu with another\n", what,
		      (unsigned long long)good, (unsigned long long)period,
		      (unsigned long long)bad);
}

static void spin_ms(int ms)
{
	double end = tt_now() + ms / 1000.0;

	while (tt_now() < end)
		;
}

static void phase1(void)
{
	int fd;
	pid_t p;

	/* an exited and reaped pid, and a zombie; created before the device
	 * is opened (a child still holding an inherited fd would keep the
	 * file open after our close) */
	p = fork();
	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	exited_pid = p;
	p = fork();
	if (p == 0)
		_exit(0);
	zombie_pid = p;
	{
		siginfo_t si;

		/* wait until it is a zombie, without reaping it */
		memset(&si, 0, sizeof(si));
		waitid(P_PID, (id_t)p, &si, WEXITED | WNOWAIT);
	}
	build_cases();
	fd = open_dev(O_NONBLOCK);

	run_table(&fd, PMUPROF_STATE_IDLE);
	close(fd);
	fd = open_dev(O_NONBLOCK);
	if (configure_base(fd, base_period))
		FAILF("base CONFIGURE: %s\n", strerror(errno));
	run_table(&fd, PMUPROF_STATE_CONFIGURED);
	/* the failed CONFIGUREs did not replace the base config */
	if (ioctl(fd, PMUPROF_IOC_START))
		FAILF("START after the table: %s\n", strerror(errno));
	run_table(&fd, PMUPROF_STATE_RUNNING);
	spin_ms(300);
	if (ioctl(fd, PMUPROF_IOC_STOP))
		FAILF("STOP after the table: %s\n", strerror(errno));
	run_table(&fd, PMUPROF_STATE_STOPPED);
	/* once more with the base config, and check the samples' period */
	configure_base(fd, base_period);
	if (ioctl(fd, PMUPROF_IOC_START))
		FAILF("START (2): %s\n", strerror(errno));
	spin_ms(300);
	ioctl(fd, PMUPROF_IOC_STOP);
	check_period_in_samples(fd, base_period, "after the table");
	close(fd);
	waitpid(zombie_pid, NULL, 0);
	printf("relfuzz: phase 1 (boundary table, %d config cases x 4 states) calls=%lu "
	       "failures=%d\n",
	       nr_cases, (unsigned long)n_calls, failures);
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* Phase 2: random calls from several threads                          */
/* ------------------------------------------------------------------ */
static const uint64_t periods[] = {0,	    1,	      19999,	  20000,      50000,
				   1000000, 10000000, 1ull << 33, 1ull << 62, ~0ull};
static const uint32_t depths[] = {0, 1, 64, 256, 257, 65535, 1000000000u, ~0u};
/* valid big rings (64 MiB per CPU) are rare: zeroing them dominates under TCG */
static const uint32_t rings[] = {0, 4096, 16384, 16392, 65536, 1u << 20, 1u << 27, ~0u};

static volatile int stop_all;
static double deadline;
static unsigned long max_calls;

struct thr {
	int fd;
	uint64_t seed;
	int id;
};

static void random_config(struct pmuprof_config *c, uint64_t *s, int *must_fail)
{
	int n = 1 + (int)(tt_rnd(s) % 3);

	tt_clock_config(c, 1000000, 16384);
	*must_fail = 0;
	for (int i = 0; i < n; i++) {
		switch (tt_rnd(s) % 14) {
		case 0:
			c->flags = (uint32_t)tt_rnd(s);
			break;
		case 1:
			c->events[0].period = periods[tt_rnd(s) % 10];
			break;
		case 2:
			c->stack_depth = depths[tt_rnd(s) % 8];
			break;
		case 3:
			c->ring_size = tt_rnd(s) % 64 ? rings[tt_rnd(s) % 8] : 1u << 26;
			break;
		case 4:
			c->target = PMUPROF_TARGET_CPUS;
			c->cpu_mask[tt_rnd(s) % 16] |= tt_rnd(s);
			break;
		case 5:
			c->target = PMUPROF_TARGET_PID;
			c->pid = (int)(tt_rnd(s) % 3 == 0 ? getpid() : (int)tt_rnd(s));
			break;
		case 6:
			c->nr_events = (uint32_t)(tt_rnd(s) % 20);
			break;
		case 7:
			c->events[tt_rnd(s) % 16].source = (uint32_t)(tt_rnd(s) % 6);
			break;
		case 8:
			c->events[0].flags = (uint32_t)tt_rnd(s) & (tt_rnd(s) % 2 ? 3 : ~0u);
			break;
		case 9:
			c->__reserved[tt_rnd(s) % 3] = tt_rnd(s) | 1;
			break;
		case 10:
			c->wakeup_bytes = (uint32_t)tt_rnd(s) >> (tt_rnd(s) % 32);
			break;
		case 11:
			c->events[0].config = tt_rnd(s) & 0xffffffff;
			c->events[0].source = PMUPROF_SOURCE_PMU;
			break;
		case 12:
			c->target = (uint32_t)(tt_rnd(s) % 4);
			break;
		default:
			c->stack_depth = (uint32_t)tt_rnd(s);
			break;
		}
	}
	/* Judge the final config: a later mutation may overwrite an earlier
	 * invalid one (two flag mutations, the second valid). */
	*must_fail = (c->flags & ~PMUPROF_CF__ALL) || (c->events[0].flags & ~PMUPROF_EVF__ALL);
	for (int i = 0; i < 3; i++)
		if (c->__reserved[i])
			*must_fail = 1;
}

/* A pid that exits right now (maybe before, maybe after CONFIGURE). */
static int racing_exit_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	return p;
}

static void random_op(int fd, uint64_t *s, char *big, int id)
{
	struct pmuprof_config c;
	int must_fail = 0, ret = 0;
	/* ops 4 and 17 fork: rare (a fork of a 4-thread process is slow) */
	unsigned int op = (unsigned int)(tt_rnd(s) % 20);

	if ((op == 4 || op == 17) && tt_rnd(s) % 8)
		op = 13;
	const char *what = "?";

	switch (op) {
	case 0:
	case 1:
	case 2:
	case 3:
		random_config(&c, s, &must_fail);
		ret = ioctl(fd, PMUPROF_IOC_CONFIGURE, &c);
		what = "configure";
		break;
	case 4: {
		pid_t p = racing_exit_pid();

		tt_clock_config(&c, 1000000, 16384);
		c.target = PMUPROF_TARGET_PID;
		c.pid = p;
		ret = ioctl(fd, PMUPROF_IOC_CONFIGURE, &c);
		if (!ret && tt_rnd(s) % 2)
			ioctl(fd, PMUPROF_IOC_START);
		while (p > 0 && waitpid(p, NULL, 0) < 0 && errno == EINTR)
			;
		what = "configure-exiting-pid";
		break;
	}
	case 5:
	case 6:
		ret = ioctl(fd, PMUPROF_IOC_START);
		what = "start";
		break;
	case 7:
		ret = ioctl(fd, PMUPROF_IOC_STOP);
		what = "stop";
		break;
	case 8:
	case 9: {
		size_t len = tt_rnd(s) % 3 ? PMUPROF_READ_MIN + tt_rnd(s) % 4096
					   : tt_rnd(s) % PMUPROF_READ_MIN;
		char *b = tt_rnd(s) % 10 ? big : tt_rnd(s) % 2 ? guard : (char *)16;

		ret = (int)read(fd, b, len);
		if (len < PMUPROF_READ_MIN && ret >= 0)
			FAILF("read of %zu (< READ_MIN) returned %d\n", len, ret);
		return;
	}
	case 10: {
		struct pollfd p = {.fd = fd, .events = POLLIN};

		poll(&p, 1, (int)(tt_rnd(s) % 5));
		return;
	}
	case 11: {
		uint32_t size = (uint32_t)(tt_rnd(s) % 4097);

		memset(big, 0, 8192);
		((uint32_t *)big)[0] = size;
		ret = ioctl(fd, tt_rnd(s) % 2 ? PMUPROF_IOC_GET_INFO : PMUPROF_IOC_CONFIGURE, big);
		if (size < PMUPROF_INFO_SIZE_VER0 && !ret)
			FAILF("ioctl with size %u succeeded\n", size);
		what = "sized";
		break;
	}
	case 12: {
		struct pmuprof_stats st;

		memset(&st, 0, sizeof(st));
		st.size = sizeof(st);
		st.nr_cpus = (uint32_t)tt_rnd(s) % 64;
		st.cpu_stats_size = (uint32_t)(tt_rnd(s) % 2 ? sizeof(struct pmuprof_cpu_stats)
							     : tt_rnd(s) % 9000);
		st.cpus_ptr = tt_rnd(s) % 4 ? (uintptr_t)guard : 0;
		ret = ioctl(fd, PMUPROF_IOC_GET_STATS, &st);
		what = "stats";
		break;
	}
	case 13: {
		unsigned long nr = _IOC(tt_rnd(s) % 4, PMUPROF_IOC_MAGIC, 6 + tt_rnd(s) % 250,
					tt_rnd(s) % 4096);

		ret = ioctl(fd, nr, big);
		must_fail = 1;
		what = "unknown-ioctl";
		break;
	}
	case 14: {
		/* a window in which the shared file blocks: this thread and
		 * any other thread reading meanwhile may sleep in read(); the
		 * main thread's periodic SIGUSR1 (no SA_RESTART) ends it */
		int fl = fcntl(fd, F_GETFL);

		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
		ret = (int)read(fd, big, PMUPROF_READ_MIN);
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
		return;
	}
	case 15: {
		int d = dup(fd);

		if (d >= 0) {
			ioctl(d, PMUPROF_IOC_STOP);
			close(d);
		}
		return;
	}
	case 16: {
		const char *bad = tt_second_open(O_RDWR | O_NONBLOCK);

		if (bad)
			FAILF("%s\n", bad);
		return;
	}
	case 17:
		if (id == 0) { /* a child shares the open file and abuses it */
			pid_t p = fork();

			if (p == 0) {
				uint64_t cs = *s ^ 0x9e3779b97f4a7c15ull;

				/* nobody signals the child out of a blocking
				 * read() (op 14): SIGALRM's default action ends
				 * it, so it cannot keep the file open forever */
				alarm(5);
				for (int i = 0; i < 20; i++)
					random_op(fd, &cs, big, 1);
				_exit(0);
			}
			/* SIGUSR1 (no SA_RESTART) interrupts waitpid: retry,
			 * or the child would outlive this phase */
			while (p > 0 && waitpid(p, NULL, 0) < 0 && errno == EINTR)
				;
		}
		return;
	default: {
		tt_clock_config(&c, 50000 + tt_rnd(s) % 1000000, tt_rnd(s) % 2 ? 16384 : 1 << 20);
		if (tt_rnd(s) % 2)
			c.flags |= PMUPROF_CF_DATA_ADDR | PMUPROF_CF_CODE_PAGE;
		ret = ioctl(fd, PMUPROF_IOC_CONFIGURE, &c);
		what = "valid-configure";
		break;
	}
	}
	atomic_fetch_add(&n_calls, 1);
	if (ret)
		atomic_fetch_add(&n_invalid, 1);
	if (must_fail && !ret)
		FAILF("%s: invalid call succeeded\n", what);
}

#define RELFUZZ_BIG 81920 /* multiple of the 4096 alignment */
_Static_assert(RELFUZZ_BIG >= PMUPROF_READ_MIN + 4096, "random reads must fit the buffer");

static volatile int thr_done[16];

static void on_usr1(int sig)
{
	(void)sig;
}

static void *thread_main(void *arg)
{
	struct thr *t = arg;
	/* reads go up to PMUPROF_READ_MIN + 4095 bytes (case 8/9): the buffer
	 * must hold the largest, or a busy session's records overrun it */
	char *big = aligned_alloc(4096, RELFUZZ_BIG);

	while (!stop_all && atomic_load(&n_calls) < max_calls && tt_now() < deadline)
		random_op(t->fd, &t->seed, big, t->id);
	free(big);
	thr_done[t->id] = 1;
	return NULL;
}

static void phase2(int threads, uint64_t seed)
{
	pthread_t tid[16];
	struct thr t[16];
	int fd = open_dev(O_NONBLOCK);
	unsigned long before = n_calls;

	for (int i = 0; i < threads; i++) {
		thr_done[i] = 0;
		t[i] = (struct thr){.fd = fd, .seed = seed + 7919ull * (i + 1), .id = i};
		pthread_create(&tid[i], NULL, thread_main, &t[i]);
	}
	/* A thread may sit in a blocking read() (O_NONBLOCK flipped off, no
	 * session running): after the deadline, signal it; read() must return
	 * EINTR within seconds. */
	while (atomic_load(&n_calls) < max_calls && tt_now() < deadline) {
		usleep(200000);
		for (int i = 0; i < threads; i++)
			if (!thr_done[i])
				pthread_kill(tid[i], SIGUSR1);
	}
	for (int i = 0; i < threads; i++) {
		double give_up = tt_now() + 10;

		while (!thr_done[i] && tt_now() < give_up) {
			pthread_kill(tid[i], SIGUSR1);
			usleep(50000);
		}
		if (!thr_done[i]) {
			FAILF("thread %d stuck in a call for 10 s despite signals\n", i);
			stop_all = 1;
			return;
		}
		pthread_join(tid[i], NULL);
	}
	/* whatever state it is in (maybe RUNNING), close must end it */
	close(fd);
	printf("relfuzz: phase 2 (random, %d threads) calls=%lu failures=%d\n", threads,
	       n_calls - before, failures);
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* Phase 3: interruptible blocking read, release by the last sharer    */
/* ------------------------------------------------------------------ */
struct rd_arg {
	int fd;
	int err;
	volatile int done;
};

static void *blocking_reader(void *arg)
{
	struct rd_arg *r = arg;
	static char buf[PMUPROF_READ_MIN];
	ssize_t n = read(r->fd, buf, sizeof(buf));

	r->err = n < 0 ? errno : 0;
	r->done = 1;
	return NULL;
}

static void phase3(void)
{
	struct rd_arg r = {0};
	pthread_t tid;
	struct pmuprof_stats st;
	int fd = open_dev(0), status;
	pid_t child;

	if (configure_base(fd, base_period))
		FAILF("phase 3 CONFIGURE: %s\n", strerror(errno));
	r.fd = fd;
	pthread_create(&tid, NULL, blocking_reader, &r);
	/* give it time to block; it must still be blocked (nothing to read
	 * in CONFIGURED), then a signal must end it promptly */
	spin_ms(200);
	if (r.done)
		FAILF("blocking read in CONFIGURED returned at once (%s)\n", tt_errname(r.err));
	for (int i = 0; i < 50 && !r.done; i++) {
		pthread_kill(tid, SIGUSR1);
		spin_ms(100);
	}
	if (!r.done) {
		FAILF("blocking read() not interruptible by a signal\n");
		stop_all = 1;
	} else {
		pthread_join(tid, NULL);
		if (r.err != EINTR)
			FAILF("interrupted read: %s, want EINTR\n", tt_errname(r.err));
	}
	atomic_fetch_add(&n_checked, 1);

	/* A blocked reader is woken by STOP from another thread. */
	r.done = 0;
	if (ioctl(fd, PMUPROF_IOC_START))
		FAILF("phase 3 START: %s\n", strerror(errno));
	pthread_create(&tid, NULL, blocking_reader, &r);
	spin_ms(100);
	ioctl(fd, PMUPROF_IOC_STOP);
	for (int i = 0; i < 50 && !r.done; i++)
		spin_ms(100);
	if (!r.done)
		FAILF("reader not woken by STOP\n");
	else
		pthread_join(tid, NULL);
	atomic_fetch_add(&n_checked, 1);

	/* The fd is shared with a child; the parent closes first while the
	 * session RUNS; the child's close (its exit) must stop it. */
	configure_base(fd, base_period);
	if (ioctl(fd, PMUPROF_IOC_START))
		FAILF("phase 3 START (2): %s\n", strerror(errno));
	child = fork();
	if (child == 0) {
		spin_ms(300);
		if (tt_stats(fd, &st, NULL, 0) || st.state != PMUPROF_STATE_RUNNING)
			_exit(3); /* the parent's close must not have stopped it */
		_exit(0);
	}
	close(fd);
	waitpid(child, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAILF("session not RUNNING in the child after the parent closed its fd\n");
	/* now the last reference is gone: the device opens again */
	fd = open(PMUPROF_DEVICE, O_RDWR);
	if (fd < 0)
		FAILF("device not free after the last sharer exited: %s\n", strerror(errno));
	else
		close(fd);
	atomic_fetch_add(&n_checked, 1);
	printf("relfuzz: phase 3 (blocking read, wake-ups, shared release) failures=%d\n",
	       failures);
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* Phase 4: a clean session afterwards                                 */
/* ------------------------------------------------------------------ */
static void phase4(void)
{
	static char buf[1 << 20];
	struct tt_tally t = {0};
	struct pmuprof_stats st;
	struct pmuprof_info in;
	int fd = open_dev(0);
	ssize_t n;

	if (get_info(fd, &in) || memcmp(&in, &info0, sizeof(in)))
		FAILF("GET_INFO after the abuse differs from before\n");
	if (configure_base(fd, 200000) || ioctl(fd, PMUPROF_IOC_START)) {
		FAILF("clean session: %s\n", strerror(errno));
		close(fd);
		return;
	}
	spin_ms(1000);
	ioctl(fd, PMUPROF_IOC_STOP);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (tt_tally_buf(&t, buf, (size_t)n))
			FAILF("clean session: %s\n", t.bad);
	if (n < 0)
		FAILF("clean session read: %s\n", strerror(errno));
	if (tt_stats(fd, &st, NULL, 0))
		FAILF("clean session GET_STATS: %s\n", strerror(errno));
	if (!t.n.samples)
		FAILF("clean session produced no samples\n");
	if (t.n.samples != st.total.samples || t.n.samples + t.n.lost != st.total.captured)
		FAILF("clean session: read %llu + lost %llu != captured %llu (stats.samples "
		      "%llu)\n",
		      (unsigned long long)t.n.samples, (unsigned long long)t.n.lost,
		      (unsigned long long)st.total.captured, (unsigned long long)st.total.samples);
	printf("relfuzz: clean session samples=%llu lost=%llu captured=%llu\n",
	       (unsigned long long)t.n.samples, (unsigned long long)t.n.lost,
	       (unsigned long long)st.total.captured);
	close(fd);
}

int main(int argc, char **argv)
{
	int threads = 4, fd;
	uint64_t seed = (uint64_t)time(NULL) | 1;
	double secs = 30;
	TT_OPTS(o, TT_UL('n', &max_calls), TT_INT('j', &threads), TT_SEED('s', &seed),
		TT_DBL('t', &secs));

	max_calls = 20000;
	if (tt_opts_next(argc, argv, "n:j:s:t:", NULL, o, "relfuzz") != -1) {
		fprintf(stderr, "usage: relfuzz [-n CALLS] [-j THREADS] [-s SEED] [-t SEC]\n");
		return 2;
	}
	if (threads < 1 || threads > 16)
		threads = 4;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("relfuzz: seed=%llu calls=%lu threads=%d seconds=%g\n", (unsigned long long)seed,
	       max_calls, threads, secs);
	guard = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* guard - sizeof(config) must be readable: map two pages, protect the 2nd */
	{
		char *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0);

		munmap(guard, 4096);
		mprotect(two + 4096, 4096, PROT_NONE);
		guard = two + 4096;
	}
	fd = open_dev(0);
	if (get_info(fd, &info0)) {
		printf("relfuzz: GET_INFO: %s\n", strerror(errno));
		return 2;
	}
	close(fd);
	signal(SIGPIPE, SIG_IGN);
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1; /* no SA_RESTART: a blocked read returns EINTR */
		sigaction(SIGUSR1, &sa, NULL);
	}

	phase1();
	deadline = tt_now() + secs;
	max_calls += n_calls;
	phase2(threads, seed);
	if (!stop_all)
		phase3();
	if (!stop_all)
		phase4();
	printf("relfuzz: calls=%lu checked=%lu state_checks=%lu invalid=%lu failures=%d\n",
	       (unsigned long)n_calls, (unsigned long)n_checked, (unsigned long)n_state_checks,
	       (unsigned long)n_invalid, failures);
	return failures ? 1 : 0;
}
