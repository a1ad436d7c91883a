/* SPDX-License-Identifier: MIT */
/*
 * pmuctl record: configure the module, start, drain the per-CPU rings into a
 * pmuprof data file (lib/pmufile) until the duration ends, COMMAND exits or
 * SIGINT/SIGTERM/SIGHUP arrives, then stop, drain what is left and close the file
 * with its trailer. This file wires the parts together and reports:
 *   record_opts.c  the command line
 *   session.c      events -> configuration -> /dev/pmuprof
 *   target.c       COMMAND: started after recording starts, traced for its maps
 *   drain.c        the poll/read loop; every sample's pid goes through
 *                  procmaps__see() before the records are written, so a new
 *                  process is snapshot within one drain of its first sample
 *   ksyms.c        the kernel symbols the samples hit, written before them
 *   output.c       the data file's header, metadata, stats and trailer
 *
 * COMMAND is recorded with its whole process tree (PMUPROF_CF_INHERIT, as
 * perf's default inherit) unless --no-inherit; -p PID follows only PID's
 * process unless --inherit.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drain.h"
#include "ksyms.h"
#include "output.h"
#include "pmuctl.h"
#include "procmaps.h"
#include "record_opts.h"
#include "session.h"
#include "target.h"
#include "util.h"

#define STATUS_INTERVAL_MS 1000
/* Buffered records reach the file at least this often, so a recording
 * killed with SIGKILL (or its machine dying) loses at most about this much
 * (pmuconv --salvage reads the rest); the writer otherwise waits for 1 MiB. */
#define FLUSH_INTERVAL_MS 1000

struct recorder {
	struct record_opts o;
	struct session s;
	struct target t;
	struct drain d;
	struct pmufile_writer *w;
	struct procmaps *pm;
	struct ksyms *ks;
	uint64_t last_samples[PMUPROF_MAX_EVENTS];
	uint64_t start_mono, last_status, last_flush;
	bool tty, status_shown, loss_warned;
};

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
	for (i = 0; i < r->s.nr_ev && used < sizeof(line); i++) {
		used += (size_t)snprintf(
			line + used, sizeof(line) - used, "  %s %.0f/s", r->s.ev[i].name,
			(double)(r->d.n.event_samples[i] - r->last_samples[i]) / dt);
		r->last_samples[i] = r->d.n.event_samples[i];
	}
	human_bytes(pmufile_writer__bytes(r->w), sz, sizeof(sz));
	if (used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "  lost %" PRIu64 "  %s", r->d.n.lost,
			 sz);
	fprintf(stderr, "\r\033[K%s", line);
	r->status_shown = true;
	r->last_status = now;
}

static int on_records(void *ctx, const void *buf, size_t len)
{
	struct recorder *r = ctx;
	int ret = ksyms__see(r->ks, buf, len);

	if (!ret)
		ret = ksyms__flush(r->ks, r->w);
	return ret ? ret : pmufile_writer__records(r->w, buf, len);
}

static int on_child(void *ctx)
{
	struct recorder *r = ctx;
	int ret = target__reap(&r->t, r->pm);

	return ret < 0 ? ret : r->t.done;
}

/* A ring size as --ring-size takes it: "512K", "8M" (powers of two). */
static void ring_arg(uint64_t b, char *out, size_t len)
{
	if (b >= (1u << 20))
		snprintf(out, len, "%" PRIu64 "M", b >> 20);
	else
		snprintf(out, len, "%" PRIu64 "K", b >> 10);
}

/*
 * The first lost sample, as soon as a tick sees it (not only in the summary
 * at the end): the ring in use, and one four times larger (within the
 * module's limit) to record with next time.
 */
static void warn_first_loss(struct recorder *r)
{
	uint64_t ring = r->s.cfg.ring_size	 ? r->s.cfg.ring_size
			: r->s.info.ring_default ? r->s.info.ring_default
						 : PMUPROF_RING_DEFAULT;
	uint64_t max = r->s.info.ring_max ? r->s.info.ring_max : PMUPROF_RING_MAX;
	uint64_t bigger = ring * 4 < max ? ring * 4 : max;
	char now[32], next[32], more[48] = "";

	r->loss_warned = true;
	ring_arg(ring, now, sizeof(now));
	ring_arg(bigger, next, sizeof(next));
	if (bigger > ring)
		snprintf(more, sizeof(more), "--ring-size %s, ", next);
	if (r->status_shown)
		fprintf(stderr, "\r\033[K");
	pmuctl_warn("samples are being lost (%" PRIu64 " so far): the %s rings per CPU%s fill "
		    "faster than pmuctl empties them; next time record with %sa longer period "
		    "(-c) or a lower -F%s",
		    r->d.n.lost, now, bigger > ring ? "" : " (the module's largest)", more,
		    r->o.ustack_copy ? ", or copy less stack (--call-graph dwarf,SIZE)" : "");
}

static void on_tick(void *ctx, uint64_t now)
{
	struct recorder *r = ctx;

	if (r->d.n.lost && !r->loss_warned)
		warn_first_loss(r);
	if (r->tty && now - r->last_status >= STATUS_INTERVAL_MS * 1000000ull)
		status_line(r, now);
	if (now - r->last_flush >= FLUSH_INTERVAL_MS * 1000000ull) {
		/* an error stays in the writer: the next records call returns
		 * it and the loop stops there */
		pmufile_writer__flush(r->w);
		r->last_flush = now;
	}
}

static const struct drain_ops record_drain = {
	.records = on_records,
	.child = on_child,
	.tick = on_tick,
};

/* The module's check of every PEBS record's data address against the
 * decoder's (docs/PMU.md "PEBS vs decode"); a disagreement is a bug in the
 * PMU (or its emulation) or in the decoder, never the profile's fault. */
static void pebs_check_summary(const struct pmuprof_stats *st)
{
	uint64_t n =
		st->pebs_agree + st->pebs_disagree + st->pebs_not_applicable + st->pebs_undecodable;

	if (!n)
		return;
	fprintf(stderr,
		"  PEBS records checked against the decoder: %" PRIu64 " agree, %" PRIu64
		" disagree, %" PRIu64 " not applicable, %" PRIu64 " undecodable\n",
		(uint64_t)st->pebs_agree, (uint64_t)st->pebs_disagree,
		(uint64_t)st->pebs_not_applicable, (uint64_t)st->pebs_undecodable);
	if (st->pebs_disagree)
		fprintf(stderr,
			"pmuctl: WARNING: %" PRIu64 " PEBS data addresses differ from the address "
			"the instruction at the record's IP computes from the record's registers: "
			"the PMU (or its emulation) or pmuprof's decoder is wrong; please report "
			"it with `pmuctl info` output\n",
			(uint64_t)st->pebs_disagree);
}

static void summary(struct recorder *r, const struct pmuprof_stats *st, bool have_stats,
		    uint64_t bytes, double secs)
{
	char sz[32];
	uint64_t total_lost = r->d.n.lost, throttled = r->d.n.throttled,
		 raised = r->d.n.unthrottled;
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
		r->d.n.samples, sz, r->o.output);
	for (i = 0; i < r->s.nr_ev; i++) {
		fprintf(stderr, "  %-28s %10" PRIu64 " samples  (%s %" PRIu64 " %s)",
			r->s.ev[i].name, r->d.n.event_samples[i],
			r->s.cfg.events[i].flags & PMUPROF_EVF_FREQ ? "target" : "period",
			(uint64_t)r->s.cfg.events[i].period,
			r->s.cfg.events[i].flags & PMUPROF_EVF_FREQ ? "Hz" : r->s.ev[i].unit);
		if (have_stats && st->event_lost[i])
			fprintf(stderr, ", lost %" PRIu64, (uint64_t)st->event_lost[i]);
		fputc('\n', stderr);
	}
	fprintf(stderr,
		"  lost %" PRIu64 " samples (%.2f %%), throttled %" PRIu64
		" times, %zu processes\n",
		total_lost,
		r->d.n.samples + total_lost
			? 100.0 * (double)total_lost / (double)(r->d.n.samples + total_lost)
			: 0.0,
		throttled, procmaps__nr_processes(r->pm));
	if (total_lost)
		fprintf(stderr,
			"pmuctl: WARNING: %" PRIu64
			" samples (%.2f %%) were LOST because the rings "
			"overflowed: the profile under-counts; record with a larger --ring-size, a "
			"longer period (-c) or a lower -F\n",
			total_lost,
			100.0 * (double)total_lost / (double)(r->d.n.samples + total_lost));
	if (throttled)
		fprintf(stderr,
			"pmuctl: warning: the module throttled sampling %" PRIu64 " times because "
			"handlers took too long or came too often (and raised the rate back "
			"%" PRIu64 " times when they were cheap again); periods in the file are "
			"the ones used (the module parameters max_handler_pct and "
			"max_sample_rate set the limits, 0 turns each off)\n",
			throttled, raised);
	if (have_stats && st->missed) {
		uint64_t due = r->d.n.samples + total_lost + st->missed;
		double pct = 100.0 * (double)st->missed / (double)due;

		fprintf(stderr,
			"pmuctl: %s: %" PRIu64 " cpu-clock samples (%.2f %% of those due) were "
			"MISSED: %" PRIu64 " skipped by late timers, %" PRIu64
			" not sent to a CPU that had not taken the previous sampling NMI, %" PRIu64
			" NMI IPIs never taken; the CPUs concerned were not running (a "
			"descheduled vCPU on a loaded host) or stalled: their time is "
			"under-counted%s\n",
			pct > 1.0 ? "WARNING" : "note", (uint64_t)st->missed, pct,
			(uint64_t)st->ticks_missed, (uint64_t)st->total.ipis_outstanding,
			(uint64_t)st->ipis_unanswered,
			pct > 1.0 ? "; profile on a quieter host or with a longer period" : "");
	}
	if (have_stats && r->o.ustack_copy && r->d.n.samples) {
		char cb[32];

		human_bytes(st->ustack_copy_bytes, cb, sizeof(cb));
		fprintf(stderr,
			"  user stack copies (--call-graph dwarf): %s, %" PRIu64
			" stopped before %u bytes (the stack's end or a page not present)\n",
			cb, (uint64_t)st->ustack_copy_short, r->o.ustack_copy);
	}
	if (have_stats)
		pebs_check_summary(st);
	if (have_stats && st->replans)
		fprintf(stderr,
			"pmuctl: CPU hotplug re-planned sampling %" PRIu64 " times during the "
			"recording (a lone online CPU samples itself from its timer)\n",
			(uint64_t)st->replans);
}

/*
 * Keep pmuctl's own memory (kallsyms, the read and write buffers, maps:
 * several MiB) out of transparent huge pages. With THP "always", khugepaged
 * collapses that heap during the session: for each 2 MiB page it allocates
 * (zeroed, with init_on_alloc), copies and frees on whichever CPU it runs,
 * possibly a profiled one, and it takes huge pages the measured workload
 * may want. Measured on the emulated PMU: 6-9 M kernel instructions on the
 * profiled CPU per session, none with this (bench/RESULTS.md, handler cost).
 * Called after COMMAND is forked: the flag is inherited by fork and kept
 * across exec, and COMMAND must run with the setting pmuctl was started
 * with. A kernel without PR_SET_THP_DISABLE (before 3.15) changes nothing.
 */
static void record_no_thp(void)
{
	(void)prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
}

int cmd_record(int argc, char **argv)
{
	struct recorder r;
	struct pmuprof_stats st;
	bool have_stats = false, started = false;
	char err[1024];
	int ret, rc = EXIT_FAIL;
	uint64_t end_mono, bytes, dur;

	memset(&r, 0, sizeof(r));
	r.s.fd = r.d.sfd = r.t.go_fd = r.t.exec_fd = -1;
	ret = record_opts__parse(&r.o, argc, argv);
	if (ret < 0)
		return 0; /* --help */
	if (ret > 0)
		return ret;
	if (events__init(err, sizeof(err)) < 0) {
		pmuctl_err("%s", err);
		return EXIT_FAIL;
	}
	/* Signals go through the drain loop's signalfd from here on. */
	if (drain__signals(&r.d) < 0)
		return EXIT_FAIL;
	if (session__open(&r.s, &r.o) < 0)
		goto out;
	if (r.o.command) {
		if (target__fork(&r.t, r.o.command) < 0)
			goto out;
		r.s.cfg.pid = r.t.pid;
	}
	record_no_thp();
	if (session__configure(&r.s, r.o.inherit == 1) < 0)
		goto out;
	if (drain__init(&r.d, r.s.fd, &record_drain, &r) < 0) {
		pmuctl_err("out of memory");
		goto out;
	}
	r.w = output__open(r.o.output, &r.s, argc, argv);
	if (!r.w)
		goto out;
	r.pm = procmaps__new(r.w, NULL);
	if (!r.pm) {
		pmuctl_err("out of memory");
		goto out_abort;
	}
	r.d.pm = r.pm;
	r.ks = ksyms__open(NULL);
	if (!r.ks) {
		pmuctl_err("out of memory");
		goto out_abort;
	}
	ret = output__write_meta(r.w, &r.s);
	if (ret == 0)
		ret = ksyms__flush(r.ks, r.w);
	if (ret == 0 && r.o.pid > 0)
		ret = procmaps__snapshot(r.pm, r.o.pid, false, now_ns(CLOCK_MONOTONIC));
	if (ret < 0) {
		r.d.err = ret;
		goto finish;
	}

	if (session__start(&r.s) < 0)
		goto out_abort;
	started = true;
	r.start_mono = r.last_status = r.last_flush = now_ns(CLOCK_MONOTONIC);
	r.tty = !r.o.quiet && isatty(STDERR_FILENO);
	if (!r.o.quiet)
		pmuctl_note("recording to %s; stop with Ctrl-C%s", r.o.output,
			    r.o.duration_ns ? " or wait for --duration" : "");
	if (r.o.command) {
		if (target__release(&r.t) < 0) {
			session__stop(&r.s);
			goto out_abort;
		}
		if (!r.t.traced)
			procmaps__snapshot(r.pm, r.t.pid, false, now_ns(CLOCK_MONOTONIC));
		target__reap(&r.t, r.pm);
	}
	if (drain__run(&r.d, r.o.duration_ns ? r.start_mono + r.o.duration_ns : 0) < 0)
		r.d.err = r.d.err ? r.d.err : -EIO;
	else if (r.status_shown)
		fprintf(stderr, "\r\033[K");

finish:
	if (started && (ret = session__stop(&r.s)) < 0)
		pmuctl_warn("STOP failed: %s", strerror(-ret));
	end_mono = now_ns(CLOCK_MONOTONIC);
	if (started && !r.d.err)
		drain__final(&r.d);
	/* COMMAND still running (duration or signal): end it, catching its exit maps. */
	if (r.t.pid > 0 && !r.t.done)
		target__finish(&r.t, r.d.sfd, r.pm);
	have_stats = session__stats(&r.s, &st) == 0;
	ret = output__close(r.w, r.o.output, have_stats ? &st : NULL, r.d.err, end_mono, &bytes);
	r.w = NULL;
	if (ret < 0)
		goto out;
	/* the duration pmuconv report prints (lib/pmufile/duration.c); pmuctl's
	 * own clock only when GET_STATS failed */
	dur = have_stats ? pmufile__session_duration_ns(&st) : 0;
	summary(&r, &st, have_stats, bytes, (double)(dur ? dur : end_mono - r.start_mono) / 1e9);
	if (r.d.stop_signal)
		pmuctl_note("stopped by %s; %s is complete", strsignal(r.d.stop_signal),
			    r.o.output);
	rc = 0;
	if (r.o.command && r.t.done && WIFEXITED(r.t.status) && WEXITSTATUS(r.t.status) != 0)
		pmuctl_note("COMMAND exited with status %d", WEXITSTATUS(r.t.status));
	goto out;

out_abort:
	if (r.w) {
		pmufile_writer__abort(r.w);
		r.w = NULL;
		unlink(r.o.output); /* nothing was recorded: leave no half file behind */
	}
out:
	target__abandon(&r.t);
	procmaps__free(r.pm);
	ksyms__free(r.ks);
	session__close(&r.s);
	drain__free(&r.d);
	return rc;
}
