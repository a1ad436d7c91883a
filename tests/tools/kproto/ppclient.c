// SPDX-License-Identifier: GPL-2.0
/*
 * ppclient: raw /dev/pmuprof client for the kernel VM scenarios.
 *
 *   ppclient [--caps perfmon|none] COMMAND ...
 *       --caps drops every capability except CAP_PERFMON (or all) before
 *       COMMAND: an unprivileged opener (no CAP_SYS_ADMIN/CAP_SYSLOG).
 *   ppclient info
 *       GET_INFO as key=value lines.
 *   ppclient record [options] [-- COMMAND ARGS...]
 *       CONFIGURE, START, drain (poll + read) until the duration passes or
 *       COMMAND exits, STOP, drain to end of stream, GET_STATS; checks every
 *       record and the accounting (samples read == stats.samples,
 *       samples read + sum of LOST == stats.captured, per event too) and
 *       prints one "record: key=value ..." line. Exit 0 only if all holds.
 *       -s clock|timer|pmu   source (default clock = NMI_IPI)
 *       -c HEX               PMU raw config (IA32_PERFEVTSELx)
 *       -P N / -F HZ         period (ns for clock) / frequency
 *       -e SRC:HEX:PERIOD    add an event (repeatable; replaces -s/-c/-P)
 *       -g / -U              kernel / user stacks;  -d DEPTH
 *       -A / -Y              data address + code page / physical addresses
 *       -r BYTES / -w BYTES  ring size per CPU / wake-up watermark
 *       -C CPU[,CPU]         target CPUs;  -p PID target process
 *       -x user|kernel       exclude a mode
 *       -t SECONDS           duration (default 2, ignored with COMMAND)
 *       -N                   do not read while running (fills tiny rings)
 *       -o FILE              write the records read, back to back
 *       -E ERRNAME           expect CONFIGURE (or START) to fail with ERRNAME
 *       -b BYTES             read() buffer size (default 256 KiB)
 *       -n CYCLES            first START, STOP and CONFIGURE again CYCLES times
 *   ppclient analyze FILE [--comm NAME] [--elf BIN --funcs A,B [--expect A=70:7,B=30:7]
 *                         [--main-min PCT]]
 *                         [--kallsyms FILE --kentry PREFIX --kentry-min PCT] [--min N]
 *       Attributes samples to functions of a static binary through their
 *       user stacks (innermost listed function wins) and checks shares and
 *       that main is a caller (in at least PCT % of the samples); checks that
 *       kernel stacks end in PREFIX* (at least --kentry-min % of them).
 *       --event N keeps one event's samples; --hidden checks that no
 *       kernel-mode sample carries a kernel IP or kernel stack; --cpu-tail
 *       CPU prints how many samples CPU took in the last quarter of the
 *       recording's time span; --sources prints, per CPU, the samples of
 *       each source and the longest time between two of its samples
 *       ("analyze: cpu=C nmi_ipi=N timer=N pmu=N max_gap_ms=G").
 */
#include <linux/capability.h>
#include <poll.h>
#include <sys/syscall.h>
#include <signal.h>
#include <getopt.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "tests/tools/common.h"
#include "tests/tools/opts.h"

static int open_dev(void)
{
	int fd = open(PMUPROF_DEVICE, O_RDWR);

	if (fd < 0) {
		fprintf(stderr, "ppclient: open %s: %s\n", PMUPROF_DEVICE, strerror(errno));
		exit(2);
	}
	return fd;
}

static int cmd_info(void)
{
	struct pmuprof_info in;
	int fd = open_dev();

	memset(&in, 0, sizeof(in));
	in.size = sizeof(in);
	if (ioctl(fd, PMUPROF_IOC_GET_INFO, &in)) {
		fprintf(stderr, "ppclient: GET_INFO: %s\n", strerror(errno));
		return 1;
	}
	printf("abi_version=%u\nflags=0x%x\nsources=0x%x\npmu_status=%u\npmu_version=%u\n"
	       "nr_gp=%u\ngp_width=%u\nnr_fixed=%u\nfixed_width=%u\narch_events=0x%x\n"
	       "vendor=%u\nvendor_string=%s\nfamily=%u\nmodel=%u\nnr_cpus=%u\nnr_online=%u\n"
	       "max_events=%u\nmax_depth=%u\nring_min=%u\nring_max=%u\nring_default=%u\n"
	       "min_pmu_period=%u\nmin_clock_period_ns=%u\nmax_freq_hz=%u\npaging_levels=%u\n",
	       in.abi_version, in.flags, in.sources, in.pmu_status, in.pmu_version, in.nr_gp,
	       in.gp_width, in.nr_fixed, in.fixed_width, in.arch_events, in.vendor,
	       in.vendor_string, in.family, in.model, in.nr_cpus, in.nr_online, in.max_events,
	       in.max_depth, in.ring_min, in.ring_max, in.ring_default, in.min_pmu_period,
	       in.min_clock_period_ns, in.max_freq_hz, in.paging_levels);
	close(fd);
	return 0;
}

struct acct {
	struct tt_tally t;
	uint64_t user, kernel, kstack_nonempty, ustack_nonempty;
	uint64_t addr, addr_ok, page[4];
	int bad;
};

static void account(struct acct *a, const char *buf, size_t n, FILE *out)
{
	size_t end = n;
	int bad = tt_tally_buf(&a->t, buf, n);

	if (bad) {
		fprintf(stderr, "ppclient: bad record at read offset %zu: %s\n", a->t.bad_off,
			a->t.bad);
		a->bad++;
		end = a->t.bad_off;
	}
	for (size_t off = 0; off < end;) {
		const struct pmuprof_record_header *h = (const void *)(buf + off);
		const struct pmuprof_sample *s = (const void *)h;
		const struct pmuprof_sample_addr *ad = (const void *)(s + 1);

		off += h->size;
		if (h->type != PMUPROF_REC_SAMPLE)
			continue;
		a->user += !!(h->misc & PMUPROF_MISC_USER);
		a->kernel += !!(h->misc & PMUPROF_MISC_KERNEL);
		a->kstack_nonempty += !!s->nr_kstack;
		a->ustack_nonempty += !!s->nr_ustack;
		if (s->sample_flags & PMUPROF_SF_ADDR) {
			a->addr++;
			if (ad->addr_status == PMUPROF_ADDR_OK) {
				a->addr_ok++;
				a->page[ad->data_page & 3]++;
			}
		}
	}
	if (bad)
		return;
	if (out && fwrite(buf, 1, n, out) != n) {
		fprintf(stderr, "ppclient: write: %s\n", strerror(errno));
		a->bad++;
	}
}

/* Read whatever is there; returns read()'s result. */
static ssize_t drain_once(int fd, char *buf, size_t len, struct acct *a, FILE *out)
{
	ssize_t n = read(fd, buf, len);

	if (n > 0)
		account(a, buf, (size_t)n, out);
	return n;
}

static int parse_cpus(const char *s, __u64 *mask)
{
	char *end;

	while (*s) {
		unsigned long c = strtoul(s, &end, 10);

		if (end == s || c >= PMUPROF_MAX_CPUS)
			return -1;
		mask[c / 64] |= 1ull << (c % 64);
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return 0;
}

static int cmd_record(int argc, char **argv)
{
	struct pmuprof_config cfg;
	struct pmuprof_event_config *ev = &cfg.events[0];
	struct pmuprof_stats st;
	struct pmuprof_cpu_stats *cpus = NULL;
	const char *outpath = NULL, *src = "clock";
	int expect = -1, noread = 0, opt, fd, rc = 0, status;
	double seconds = 2, t0;
	size_t buflen = 256 << 10;
	pid_t child = -1;
	int go[2] = {-1, -1};
	struct acct a;
	FILE *out = NULL;
	char *buf;
	uint64_t period = 1000000, freq = 0, config = 0;
	unsigned int nev = 0;
	long churn = 0;
	TT_OPTS(o, TT_STR('s', &src), TT_HEX('c', &config), TT_U64('P', &period),
		TT_U64('F', &freq), TT_U32('d', &cfg.stack_depth), TT_U32('r', &cfg.ring_size),
		TT_U32('w', &cfg.wakeup_bytes), TT_DBL('t', &seconds), TT_SET('N', &noread),
		TT_STR('o', &outpath), TT_U64('b', &buflen), TT_LONG0('n', &churn));

	memset(&cfg, 0, sizeof(cfg));
	memset(&a, 0, sizeof(a));
	cfg.size = sizeof(cfg);
	cfg.nr_events = 1;
	while ((opt = tt_opts_next(argc, argv, "+s:c:P:F:gUd:r:w:C:p:x:t:No:E:b:AYe:n:", NULL, o,
				   "ppclient")) != -1) {
		switch (opt) {
		case 'g':
			cfg.flags |= PMUPROF_CF_KSTACK;
			break;
		case 'U':
			cfg.flags |= PMUPROF_CF_USTACK;
			break;
		case 'A':
			cfg.flags |= PMUPROF_CF_DATA_ADDR | PMUPROF_CF_CODE_PAGE;
			break;
		case 'Y':
			cfg.flags |= PMUPROF_CF_PHYS_ADDR;
			break;
		case 'C':
			cfg.target = PMUPROF_TARGET_CPUS;
			if (parse_cpus(optarg, cfg.cpu_mask)) {
				fprintf(stderr, "ppclient: bad cpu list %s\n", optarg);
				return 2;
			}
			break;
		case 'p':
			cfg.target = PMUPROF_TARGET_PID;
			cfg.pid = atoi(optarg);
			break;
		case 'x':
			cfg.flags |= !strcmp(optarg, "user") ? PMUPROF_CF_EXCLUDE_USER
							     : PMUPROF_CF_EXCLUDE_KERNEL;
			break;
		case 'E':
			expect = tt_errnum(optarg);
			if (expect < 0) {
				fprintf(stderr, "ppclient: unknown errno name %s\n", optarg);
				return 2;
			}
			break;
		case 'e': {
			char sname[16];
			unsigned long long c, p;

			if (nev >= PMUPROF_MAX_EVENTS ||
			    sscanf(optarg, "%15[^:]:%llx:%llu", sname, &c, &p) != 3) {
				fprintf(stderr, "ppclient: bad -e %s (SRC:HEX:PERIOD)\n", optarg);
				return 2;
			}
			cfg.events[nev].source = !strcmp(sname, "pmu")	   ? PMUPROF_SOURCE_PMU
						 : !strcmp(sname, "timer") ? PMUPROF_SOURCE_TIMER
									   : PMUPROF_SOURCE_NMI_IPI;
			cfg.events[nev].config = c;
			cfg.events[nev].period = p;
			nev++;
			break;
		}
		default:
			fprintf(stderr, "ppclient: see the comment at the top of ppclient.c\n");
			return 2;
		}
	}
	if (nev) {
		cfg.nr_events = nev; /* -e events replace the single one */
	} else {
		if (!strcmp(src, "clock"))
			ev->source = PMUPROF_SOURCE_NMI_IPI;
		else if (!strcmp(src, "timer"))
			ev->source = PMUPROF_SOURCE_TIMER;
		else if (!strcmp(src, "pmu"))
			ev->source = PMUPROF_SOURCE_PMU;
		else {
			fprintf(stderr, "ppclient: unknown source %s\n", src);
			return 2;
		}
		ev->config = config;
		ev->period = freq ? freq : period;
		if (freq)
			ev->flags |= PMUPROF_EVF_FREQ;
	}
	fd = open_dev();
	if (ioctl(fd, PMUPROF_IOC_CONFIGURE, &cfg)) {
		int e = errno;

		if (expect >= 0) {
			printf("record: configure=%s expected=%s\n", tt_errname(e),
			       tt_errname(expect));
			return e == expect ? 0 : 1;
		}
		fprintf(stderr, "ppclient: CONFIGURE: %s (%s)\n", strerror(e), tt_errname(e));
		return 1;
	}
	if (expect >= 0 && expect != 0) {
		printf("record: configure=OK expected=%s\n", tt_errname(expect));
		return 1;
	}
	/* -n: START/STOP churn before the recorded session (NMIs racing both) */
	for (long k = 0; k < churn; k++) {
		if (ioctl(fd, PMUPROF_IOC_START, 0) || ioctl(fd, PMUPROF_IOC_STOP, 0) ||
		    ioctl(fd, PMUPROF_IOC_CONFIGURE, &cfg)) {
			fprintf(stderr, "ppclient: START/STOP cycle %ld: %s\n", k, strerror(errno));
			return 1;
		}
	}
	if (churn)
		printf("record: churn=%ld\n", churn);
	if (outpath && !(out = fopen(outpath, "w"))) {
		fprintf(stderr, "ppclient: %s: %s\n", outpath, strerror(errno));
		return 2;
	}
	buf = malloc(buflen);
	if (!buf)
		return 2;

	if (optind < argc) {
		/* The child waits for START before exec, so its whole life is sampled. */
		if (pipe(go))
			return 2;
		child = fork();
		if (child == 0) {
			char c;

			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(126);
			execvp(argv[optind], argv + optind);
			perror("ppclient: exec");
			_exit(127);
		}
		close(go[0]);
	}
	if (ioctl(fd, PMUPROF_IOC_START)) {
		fprintf(stderr, "ppclient: START: %s\n", strerror(errno));
		return 1;
	}
	if (child > 0) {
		if (write(go[1], "g", 1) != 1)
			return 2;
		close(go[1]);
		printf("record: child_pid=%d\n", (int)child);
		fflush(stdout);
	}
	t0 = tt_now();
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};

		if (child > 0) {
			if (waitpid(child, &status, WNOHANG) == child)
				break;
		} else if (tt_now() - t0 >= seconds) {
			break;
		}
		if (noread) {
			usleep(20000);
			continue;
		}
		poll(&p, 1, 100);
		/* Drain on readiness and on timeout (below the watermark). */
		for (;;) {
			int fl = fcntl(fd, F_GETFL);
			ssize_t n;

			fcntl(fd, F_SETFL, fl | O_NONBLOCK);
			n = drain_once(fd, buf, buflen, &a, out);
			fcntl(fd, F_SETFL, fl);
			if (n <= 0) {
				if (n < 0 && errno != EAGAIN) {
					fprintf(stderr, "ppclient: read: %s\n", strerror(errno));
					rc = 1;
				}
				break;
			}
		}
	}
	if (ioctl(fd, PMUPROF_IOC_STOP)) {
		fprintf(stderr, "ppclient: STOP: %s\n", strerror(errno));
		return 1;
	}
	for (;;) { /* blocking reads until end of stream */
		ssize_t n = drain_once(fd, buf, buflen, &a, out);

		if (n == 0)
			break;
		if (n < 0) {
			fprintf(stderr, "ppclient: read after STOP: %s\n", strerror(errno));
			rc = 1;
			break;
		}
	}
	cpus = calloc(PMUPROF_MAX_CPUS, sizeof(*cpus));
	if (tt_stats(fd, &st, cpus, PMUPROF_MAX_CPUS)) {
		fprintf(stderr, "ppclient: GET_STATS: %s\n", strerror(errno));
		return 1;
	}
	if (out)
		fclose(out);

	printf("record: samples=%llu lost=%llu lost_records=%llu throttle_records=%llu "
	       "captured=%llu stat_samples=%llu stat_lost=%llu filtered=%llu nmis=%llu "
	       "passed=%llu ipis=%llu throttled=%llu user=%llu kernel=%llu kstacks=%llu "
	       "ustacks=%llu handler_ns_min=%llu handler_ns_mean=%llu handler_ns_max=%llu "
	       "bytes=%llu state=%u loops_capped=%llu outstanding=%llu missed=%llu "
	       "ticks_missed=%llu unanswered=%llu taken=%llu replans=%llu\n",
	       (unsigned long long)a.t.n.samples, (unsigned long long)a.t.n.lost,
	       (unsigned long long)a.t.n.lost_records, (unsigned long long)a.t.n.throttled,
	       (unsigned long long)st.total.captured, (unsigned long long)st.total.samples,
	       (unsigned long long)st.total.lost, (unsigned long long)st.total.filtered,
	       (unsigned long long)st.total.nmis_handled, (unsigned long long)st.total.nmis_passed,
	       (unsigned long long)st.total.ipis_sent, (unsigned long long)st.total.throttled,
	       (unsigned long long)a.user, (unsigned long long)a.kernel,
	       (unsigned long long)a.kstack_nonempty, (unsigned long long)a.ustack_nonempty,
	       (unsigned long long)st.total.handler_ns_min,
	       (unsigned long long)(st.total.nmis_handled
					    ? st.total.handler_ns_total / st.total.nmis_handled
					    : 0),
	       (unsigned long long)st.total.handler_ns_max, (unsigned long long)a.t.bytes, st.state,
	       (unsigned long long)st.total.overflow_loops_capped,
	       (unsigned long long)st.total.ipis_outstanding, (unsigned long long)st.missed,
	       (unsigned long long)st.ticks_missed, (unsigned long long)st.ipis_unanswered,
	       (unsigned long long)st.total.ipis_taken, (unsigned long long)st.replans);
	if (a.addr)
		printf("record: addr=%llu addr_ok=%llu page_unknown=%llu page_4k=%llu "
		       "page_2m=%llu page_1g=%llu\n",
		       (unsigned long long)a.addr, (unsigned long long)a.addr_ok,
		       (unsigned long long)a.page[0], (unsigned long long)a.page[1],
		       (unsigned long long)a.page[2], (unsigned long long)a.page[3]);
	for (unsigned int c = 0; c < st.nr_cpus && c < PMUPROF_MAX_CPUS; c++)
		if (cpus[c].nmis_handled || cpus[c].ipis_sent || cpus[c].captured)
			printf("record: cpu=%u captured=%llu samples=%llu lost=%llu nmis=%llu "
			       "passed=%llu ipis=%llu outstanding=%llu read_records=%llu "
			       "taken=%llu\n",
			       c, (unsigned long long)cpus[c].captured,
			       (unsigned long long)cpus[c].samples,
			       (unsigned long long)cpus[c].lost,
			       (unsigned long long)cpus[c].nmis_handled,
			       (unsigned long long)cpus[c].nmis_passed,
			       (unsigned long long)cpus[c].ipis_sent,
			       (unsigned long long)cpus[c].ipis_outstanding,
			       (unsigned long long)cpus[c].read_records,
			       (unsigned long long)cpus[c].ipis_taken);

	/* The accounting the module promises. */
	if (a.bad) {
		printf("CHECK FAILED: %d malformed record(s)\n", a.bad);
		rc = 1;
	}
	if (tt_check_stats("", &a.t.n, &st))
		rc = 1;
	if (st.state != PMUPROF_STATE_STOPPED) {
		printf("CHECK FAILED: state %u after STOP\n", st.state);
		rc = 1;
	}
	if (child > 0 && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		printf("CHECK FAILED: command exited with status 0x%x\n", status);
		rc = 1;
	}
	close(fd);
	free(buf);
	free(cpus);
	return rc;
}

/* ---- analyze ---------------------------------------------------------- */

/* A kernel symbol (kallsyms). */
struct sym {
	uint64_t start;
	char name[64];
};

static struct sym *ksyms;
static size_t nksyms;

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int load_kallsyms(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], name[256], type;
	unsigned long long addr;
	size_t cap = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T')
			continue;
		if (nksyms == cap) {
			cap = cap ? cap * 2 : 65536;
			ksyms = realloc(ksyms, cap * sizeof(*ksyms));
			if (!ksyms)
				exit(2);
		}
		ksyms[nksyms].start = addr;
		snprintf(ksyms[nksyms].name, sizeof(ksyms[nksyms].name), "%.63s", name);
		nksyms++;
	}
	fclose(f);
	qsort(ksyms, nksyms, sizeof(*ksyms), cmp_sym);
	return nksyms && ksyms[nksyms - 1].start ? 0 : -1;
}

static const char *ksym(uint64_t a)
{
	size_t lo = 0, hi = nksyms;

	if (!nksyms || a < ksyms[0].start)
		return "?";
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (ksyms[mid].start <= a)
			lo = mid;
		else
			hi = mid;
	}
	return ksyms[lo].name;
}

#define MAX_FUNCS 8

/* --sources: per CPU, samples by source and the longest gap between two
 * samples (records of one CPU come in time order). */
#define KP_SRC_CPUS 64
struct src_stats {
	uint64_t n[PMUPROF_SOURCE__MAX];
	uint64_t last, max_gap;
};
static struct src_stats srcs[KP_SRC_CPUS];

static void src_count(struct src_stats *st, const struct pmuprof_sample *s)
{
	if (s->source < PMUPROF_SOURCE__MAX)
		st->n[s->source]++;
	if (st->last && s->time_ns > st->last && s->time_ns - st->last > st->max_gap)
		st->max_gap = s->time_ns - st->last;
	st->last = s->time_ns;
}

static int cmd_analyze(int argc, char **argv)
{
	const char *path, *comm = NULL, *elfpath = NULL, *funcs = NULL, *expect = NULL;
	const char *kallsyms = NULL, *kentry = NULL;
	double kentry_min = 90, main_min = -1;
	int event = -1, hidden = 0, tail_cpu = -1, sources = 0;
	uint64_t tmin = ~0ull, tmax = 0, tail_n = 0;
	uint64_t kernel_samples = 0, leaks = 0;
	uint64_t min_samples = 50;
	const struct tt_func *fs[MAX_FUNCS], *mainf = NULL;
	struct tt_elf elf;
	uint64_t cnt[MAX_FUNCS + 1] = {0}, with_main = 0, total = 0, ktotal = 0, kok = 0;
	unsigned int nf = 0;
	char *data;
	size_t len, off = 0;
	int rc = 0;
	static const struct option lo[] = {
		{"comm", 1, NULL, 'c'},	      {"elf", 1, NULL, 'e'},
		{"funcs", 1, NULL, 'f'},      {"expect", 1, NULL, 'x'},
		{"kallsyms", 1, NULL, 'k'},   {"kentry", 1, NULL, 'K'},
		{"kentry-min", 1, NULL, 'm'}, {"min", 1, NULL, 'n'},
		{"main-min", 1, NULL, 'M'},   {"event", 1, NULL, 'E'},
		{"hidden", 0, NULL, 'H'},     {"cpu-tail", 1, NULL, 'T'},
		{"sources", 0, NULL, 'S'},    {NULL, 0, NULL, 0},
	};
	TT_OPTS(o, TT_STR('c', &comm), TT_STR('e', &elfpath), TT_STR('f', &funcs),
		TT_STR('x', &expect), TT_STR('k', &kallsyms), TT_STR('K', &kentry),
		TT_DBL('m', &kentry_min), TT_U64('n', &min_samples), TT_DBL('M', &main_min),
		TT_INT('E', &event), TT_SET('H', &hidden), TT_INT('T', &tail_cpu),
		TT_SET('S', &sources));

	if (tt_opts_next(argc, argv, "", lo, o, "ppclient") != -1)
		return 2;
	if (optind + 1 != argc) {
		fprintf(stderr, "ppclient analyze: need exactly one FILE\n");
		return 2;
	}
	path = argv[optind];
	data = tt_slurp(path, &len);
	if (!data) {
		fprintf(stderr, "ppclient analyze: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (elfpath) {
		char tmp[256], *tok, *save;

		if (tt_elf__load(&elf, elfpath) || !funcs ||
		    !(mainf = tt_elf__func(&elf, "main"))) {
			fprintf(stderr, "ppclient analyze: cannot read symbols of %s\n", elfpath);
			return 2;
		}
		snprintf(tmp, sizeof(tmp), "%s", funcs);
		for (tok = strtok_r(tmp, ",", &save); tok && nf < MAX_FUNCS;
		     tok = strtok_r(NULL, ",", &save)) {
			if (!(fs[nf] = tt_elf__func(&elf, tok))) {
				fprintf(stderr, "ppclient analyze: no function %s in %s\n", tok,
					elfpath);
				return 2;
			}
			nf++;
		}
	}
	if (kallsyms && load_kallsyms(kallsyms)) {
		fprintf(stderr, "ppclient analyze: %s has no usable addresses\n", kallsyms);
		return 2;
	}

	/* time range of all samples (for --cpu-tail) */
	for (off = 0; off + sizeof(struct pmuprof_record_header) <= len;) {
		const struct pmuprof_record_header *h = (const void *)(data + off);

		if (pmufile__check_record(h, len - off, PMUFILE_CHECK_EXACT))
			break;
		if (h->type == PMUPROF_REC_SAMPLE) {
			uint64_t t = ((const struct pmuprof_sample *)h)->time_ns;

			tmin = t < tmin ? t : tmin;
			tmax = t > tmax ? t : tmax;
		}
		off += h->size;
	}
	off = 0;
	while (off + sizeof(struct pmuprof_record_header) <= len) {
		const struct pmuprof_record_header *h = (const void *)(data + off);
		const struct pmuprof_sample *s = (const void *)h;
		const uint64_t *ks, *us;

		if (pmufile__check_record(h, len - off, PMUFILE_CHECK_EXACT)) {
			fprintf(stderr, "ppclient analyze: bad record at offset %zu\n", off);
			return 1;
		}
		off += h->size;
		if (h->type != PMUPROF_REC_SAMPLE)
			continue;
		if (tail_cpu >= 0 && s->cpu == (uint32_t)tail_cpu &&
		    s->time_ns >= tmax - (tmax - tmin) / 4)
			tail_n++;
		if (sources && s->cpu < KP_SRC_CPUS)
			src_count(&srcs[s->cpu], s);
		if (h->misc & PMUPROF_MISC_KERNEL) {
			kernel_samples++;
			if (s->ip || s->nr_kstack)
				leaks++;
		}
		if (comm && strncmp(s->comm, comm, sizeof(s->comm)))
			continue;
		if (event >= 0 && s->event != event)
			continue;
		ks = (const uint64_t *)(s + 1);
		if (s->sample_flags & PMUPROF_SF_ADDR)
			ks += sizeof(struct pmuprof_sample_addr) / 8;
		us = ks + s->nr_kstack;
		total++;
		if (nf) {
			unsigned int hit = nf, i, f;
			int main_seen = 0;

			for (i = 0; i < s->nr_ustack; i++) {
				/* return addresses point after the call: look up addr - 1 */
				uint64_t a = i ? us[i] - 1 : us[i];

				for (f = 0; f < nf && hit == nf; f++)
					if (a >= fs[f]->start && a < fs[f]->end)
						hit = f;
				if (i && a >= mainf->start && a < mainf->end)
					main_seen = 1;
			}
			cnt[hit]++;
			with_main += main_seen;
		}
		if (kentry && (h->misc & PMUPROF_MISC_KERNEL) && s->nr_kstack) {
			const char *name =
				ksym(s->nr_kstack > 1 ? ks[s->nr_kstack - 1] - 1 : ks[0]);

			ktotal++;
			if (!strncmp(name, kentry, strlen(kentry)))
				kok++;
			else if (ktotal - kok <= 5)
				printf("analyze: kernel stack ends in %s (depth %u)\n", name,
				       s->nr_kstack);
		}
	}
	printf("analyze: samples=%llu\n", (unsigned long long)total);
	for (unsigned int c = 0; sources && c < KP_SRC_CPUS; c++)
		if (srcs[c].n[PMUPROF_SOURCE_NMI_IPI] + srcs[c].n[PMUPROF_SOURCE_TIMER] +
		    srcs[c].n[PMUPROF_SOURCE_PMU])
			printf("analyze: cpu=%u nmi_ipi=%llu timer=%llu pmu=%llu max_gap_ms=%llu\n",
			       c, (unsigned long long)srcs[c].n[PMUPROF_SOURCE_NMI_IPI],
			       (unsigned long long)srcs[c].n[PMUPROF_SOURCE_TIMER],
			       (unsigned long long)srcs[c].n[PMUPROF_SOURCE_PMU],
			       (unsigned long long)(srcs[c].max_gap / 1000000));
	if (tail_cpu >= 0)
		printf("analyze: cpu_tail cpu=%d samples=%llu span_ms=%llu\n", tail_cpu,
		       (unsigned long long)tail_n, (unsigned long long)((tmax - tmin) / 1000000));
	if (hidden) {
		printf("analyze: kernel_samples=%llu with_kernel_addresses=%llu\n",
		       (unsigned long long)kernel_samples, (unsigned long long)leaks);
		if (leaks || !kernel_samples) {
			printf("CHECK FAILED: %llu of %llu kernel-mode samples expose kernel "
			       "addresses\n",
			       (unsigned long long)leaks, (unsigned long long)kernel_samples);
			rc = 1;
		}
	}
	if (total < min_samples) {
		printf("CHECK FAILED: only %llu samples (want >= %llu)\n",
		       (unsigned long long)total, (unsigned long long)min_samples);
		rc = 1;
	}
	if (nf && total) {
		for (unsigned int f = 0; f <= nf; f++)
			printf("analyze: func=%s share=%.1f\n", f < nf ? fs[f]->name : "(other)",
			       100.0 * cnt[f] / total);
		printf("analyze: with_main=%.1f\n", 100.0 * with_main / total);
		if (main_min >= 0 && with_main * 100 < main_min * total) {
			printf("CHECK FAILED: main is a caller in only %.1f%% of %llu samples "
			       "(want "
			       ">= %.0f%%)\n",
			       100.0 * with_main / total, (unsigned long long)total, main_min);
			rc = 1;
		}
	}
	if (expect && nf && total) {
		char tmp[256], *tok, *save;

		snprintf(tmp, sizeof(tmp), "%s", expect);
		for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char name[64];
			double want, tol, got = -1;

			if (sscanf(tok, "%63[^=]=%lf:%lf", name, &want, &tol) != 3)
				return 2;
			for (unsigned int f = 0; f < nf; f++)
				if (!strcmp(fs[f]->name, name))
					got = 100.0 * cnt[f] / total;
			if (got < want - tol || got > want + tol) {
				printf("CHECK FAILED: %s share %.1f%% not within %.0f +- %.0f\n",
				       name, got, want, tol);
				rc = 1;
			}
		}
	}
	if (kentry) {
		double pct = ktotal ? 100.0 * kok / ktotal : 0;

		printf("analyze: kernel_samples=%llu kentry=%s share=%.1f\n",
		       (unsigned long long)ktotal, kentry, pct);
		if (ktotal < min_samples || pct < kentry_min) {
			printf("CHECK FAILED: %.1f%% of %llu kernel stacks end in %s* (want >= "
			       "%.0f%%)\n",
			       pct, (unsigned long long)ktotal, kentry, kentry_min);
			rc = 1;
		}
	}
	free(data);
	if (elfpath)
		tt_elf__free(&elf);
	return rc;
}

/* Keep only CAP_PERFMON (or nothing) in every capability set. */
static int drop_caps(const char *keep)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (!strcmp(keep, "perfmon")) {
		d[CAP_PERFMON / 32].effective = 1u << (CAP_PERFMON % 32);
		d[CAP_PERFMON / 32].permitted = 1u << (CAP_PERFMON % 32);
	} else if (strcmp(keep, "none")) {
		fprintf(stderr, "ppclient: --caps perfmon|none\n");
		return -1;
	}
	if (syscall(SYS_capset, &h, d)) {
		fprintf(stderr, "ppclient: capset: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "--caps")) {
		if (drop_caps(argv[2]))
			return 2;
		argc -= 2;
		argv += 2;
	}
	if (argc < 2) {
		fprintf(stderr,
			"usage: ppclient info | record [opts] [-- CMD] | analyze FILE ...\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (!strcmp(argv[1], "info"))
		return cmd_info();
	if (!strcmp(argv[1], "record"))
		return cmd_record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "analyze"))
		return cmd_analyze(argc - 1, argv + 1);
	fprintf(stderr, "ppclient: unknown command %s\n", argv[1]);
	return 2;
}
