// SPDX-License-Identifier: GPL-2.0
/*
 * relreader: a deliberately slow (or killed) /dev/pmuprof reader (issue 8).
 *
 *   relreader [-P PERIOD_NS] [-r RING] [-t SECONDS] [-d DELAY_US] [-b BUFSZ]
 *             [-C CPU | -p PID] [-g] [-m MARKER] [-K running|drain] [-c] [-T]
 *
 * CONFIGUREs a cpu-clock (NMI-IPI; -T: the TIMER source) session, STARTs it, and reads with
 * read() buffers of BUFSZ bytes (default PMUPROF_READ_MIN: one big record
 * at most), sleeping DELAY_US after every read (the slow consumer; the
 * rings stay full). After SECONDS: STOP, drain to end of stream (at full
 * speed unless -K drain), GET_STATS, and check exactly
 *     samples read == stats.samples
 *     samples read + sum of LOST records == stats.captured
 *     per event: samples == event_samples[], LOST attributed == event_lost[]
 * (-c: also per CPU: records read == read_records of that CPU).
 * Prints "relreader: samples=S lost=L lost_records=R captured=C reads=N
 * fill_pct=F seconds=T result=ok|FAIL" and exits 0 only if all holds.
 *
 * -m MARKER (without -K drain): "started" is written to MARKER once the
 *   session runs.
 * -K running: write "started" to MARKER once sampling and reading run, then
 *   read slowly forever (until killed).
 * -K drain: after SECONDS, STOP, write "draining" to MARKER, then drain
 *   slowly forever (until killed). The test SIGKILLs it mid-drain.
 */
#include <poll.h>
#include <signal.h>

#include "tests/tools/common.h"
#include "tests/tools/opts.h"

static void mark(const char *path, const char *what)
{
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s %d\n", what, (int)getpid());
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	uint64_t period = 100000;
	uint32_t ring = 16384;
	double secs = 3;
	long delay_us = 20000;
	size_t bufsz = PMUPROF_READ_MIN;
	int cpu = -1, pid = 0, stacks = 0, fd, percpu = 0, timer = 0;
	const char *marker = NULL, *kill_mode = NULL;
	struct pmuprof_config cfg;
	struct pmuprof_stats st;
	struct pmuprof_cpu_stats cs[64];
	struct tt_tally t = {0};
	uint64_t cpu_recs[64] = {0};
	unsigned long reads = 0, full_reads = 0;
	double start, t_end;
	char *buf;
	ssize_t n;
	int bad = 0;
	TT_OPTS(o, TT_U64('P', &period), TT_U32('r', &ring), TT_DBL('t', &secs),
		TT_LONG('d', &delay_us), TT_UL('b', &bufsz), TT_INT('C', &cpu), TT_INT('p', &pid),
		TT_SET('g', &stacks), TT_STR('m', &marker), TT_STR('K', &kill_mode),
		TT_SET('c', &percpu), TT_SET('T', &timer));

	if (tt_opts_next(argc, argv, "P:r:t:d:b:C:p:gm:K:cT", NULL, o, "relreader") != -1) {
		fprintf(stderr, "usage: relreader [-P NS] [-r RING] [-t SEC] [-d US] [-b BUF] "
				"[-C CPU|-p PID] [-g] [-m MARKER] [-K running|drain] [-c] [-T]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	buf = malloc(bufsz < PMUPROF_READ_MIN ? PMUPROF_READ_MIN : bufsz);
	/* O_NONBLOCK: a session may produce nothing for a while (a PID target
	 * that sleeps or exited); poll() does the waiting */
	fd = open(PMUPROF_DEVICE, O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		printf("relreader: open %s: %s\n", PMUPROF_DEVICE, strerror(errno));
		return 2;
	}
	tt_clock_config(&cfg, period, ring);
	cfg.flags = stacks ? PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK : 0;
	if (timer)
		cfg.events[0].source = PMUPROF_SOURCE_TIMER;
	if (cpu >= 0) {
		cfg.target = PMUPROF_TARGET_CPUS;
		cfg.cpu_mask[cpu / 64] = 1ull << (cpu % 64);
	} else if (pid > 0) {
		cfg.target = PMUPROF_TARGET_PID;
		cfg.pid = pid;
	}
	if (ioctl(fd, PMUPROF_IOC_CONFIGURE, &cfg) || ioctl(fd, PMUPROF_IOC_START)) {
		printf("relreader: CONFIGURE/START: %s\n", strerror(errno));
		return 2;
	}
	start = tt_now();
	t_end = start + secs;
	if (!kill_mode || !strcmp(kill_mode, "running"))
		mark(marker, "started");
	if (kill_mode && !strcmp(kill_mode, "running"))
		t_end = 1e300;
	while (tt_now() < t_end) {
		struct pollfd p = {.fd = fd, .events = POLLIN};

		poll(&p, 1, 100);
		n = read(fd, buf, bufsz);
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			printf("relreader: read while running: %s\n", strerror(errno));
			bad = 1;
			break;
		}
		if (n > 0) {
			reads++;
			if ((size_t)n + 512 > bufsz)
				full_reads++;
			if (tt_tally_buf(&t, buf, (size_t)n)) {
				printf("relreader: bad record: %s\n", t.bad);
				bad = 1;
				break;
			}
		}
		if (delay_us)
			usleep((useconds_t)delay_us); /* the slow consumer */
	}
	if (ioctl(fd, PMUPROF_IOC_STOP)) {
		printf("relreader: STOP: %s\n", strerror(errno));
		return 2;
	}
	if (kill_mode && !strcmp(kill_mode, "drain"))
		mark(marker, "draining");
	while ((n = read(fd, buf, bufsz)) > 0) {
		reads++;
		for (size_t off = 0; off < (size_t)n;) {
			const struct pmuprof_record_header *h = (const void *)(buf + off);
			uint32_t c = h->type == PMUPROF_REC_SAMPLE
					     ? ((const struct pmuprof_sample *)h)->cpu
				     : h->type == PMUPROF_REC_LOST
					     ? ((const struct pmuprof_lost *)h)->cpu
					     : 0;

			if (h->size < 8 || h->size > (size_t)n - off)
				break;
			if (c < 64)
				cpu_recs[c]++;
			off += h->size;
		}
		if (tt_tally_buf(&t, buf, (size_t)n)) {
			printf("relreader: bad record: %s\n", t.bad);
			bad = 1;
			break;
		}
		if (kill_mode && !strcmp(kill_mode, "drain"))
			usleep((useconds_t)(delay_us ? delay_us : 10000));
	}
	if (n < 0) {
		printf("relreader: drain read: %s\n", strerror(errno));
		bad = 1;
	}
	memset(cs, 0, sizeof(cs));
	if (tt_stats(fd, &st, cs, 64)) {
		printf("relreader: GET_STATS: %s\n", strerror(errno));
		return 2;
	}
	if (tt_check_stats("relreader: ", &t.n, &st))
		bad = 1;
	if (percpu)
		for (uint32_t c = 0; c < st.nr_cpus && c < 64; c++)
			if (cs[c].read_records < cpu_recs[c]) {
				printf("relreader: CHECK FAILED cpu %u read_records %llu < drained "
				       "%llu\n",
				       c, (unsigned long long)cs[c].read_records,
				       (unsigned long long)cpu_recs[c]);
				bad = 1;
			}
	if (!t.n.samples) {
		printf("relreader: CHECK FAILED no samples at all\n");
		bad = 1;
	}
	printf("relreader: samples=%llu lost=%llu lost_records=%llu captured=%llu reads=%lu "
	       "full_reads=%lu throttles=%llu nmi_ipi=%llu timer=%llu missed=%llu "
	       "ticks_missed=%llu "
	       "outstanding=%llu unanswered=%llu replans=%llu seconds=%.1f result=%s\n",
	       (unsigned long long)t.n.samples, (unsigned long long)t.n.lost,
	       (unsigned long long)t.n.lost_records, (unsigned long long)st.total.captured, reads,
	       full_reads, (unsigned long long)(t.n.throttled + t.n.unthrottled + t.n.periods),
	       (unsigned long long)t.by_source[PMUPROF_SOURCE_NMI_IPI],
	       (unsigned long long)t.by_source[PMUPROF_SOURCE_TIMER], (unsigned long long)st.missed,
	       (unsigned long long)st.ticks_missed, (unsigned long long)st.total.ipis_outstanding,
	       (unsigned long long)st.ipis_unanswered, (unsigned long long)st.replans,
	       tt_now() - start, bad ? "FAIL" : "ok");
	close(fd);
	return bad ? 1 : 0;
}
