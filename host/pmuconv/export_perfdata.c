// SPDX-License-Identifier: MIT
/*
 * pmuprof recording -> perf.data (export_perfdata.h), through lib/pmufile
 * and the PERFILE2 writer (perfdata.h).
 *
 * Order of the data section: the kernel and module maps, then per recorded
 * process a FORK and a COMM, then the recorded maps (MMAP2), all at time 0
 * except later snapshots of a process (after an exec), which keep their
 * capture time; then the records of the recording in file order, with a
 * COMM in front of the first sample of every thread (and wherever a
 * thread's name changes), since the samples carry the thread name. perf
 * sorts everything by time (sample_id_all), so metadata at time 0 precedes
 * every sample and the first map snapshot of a process applies to all its
 * samples before the next, as pmuconv's own lookup (pmufile__find_mmap) does.
 */
#include "export_perfdata.h"
#include "atomicfile.h"
#include "perfdata.h"
#include "symbolize.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/pmufile/pmufile.h"
#include "pmuprof/x86_paging.h"
#include "pmuprof/x86_pmu_regs.h"
#include "unwind.h"

/* The unwinder (libdw) is linked into pmuconv but not into the static guest
 * exporter (tests/tools/perfdata: no static libdw): without it, the
 * frame-pointer walk is exported. */
#pragma weak unw__new
#pragma weak unw__sample
#pragma weak unw__free
#define UNW_MAX_USER 1024 /* user frames exported from an unwind */

/* The mode bits of IA32_PERFEVTSELx become exclude_user/exclude_kernel;
 * INT and EN are the kernel's (perf's raw config never holds them). */
#define EVTSEL_MODE_BITS (X86_EVTSEL_USR | X86_EVTSEL_OS | X86_EVTSEL_INT | X86_EVTSEL_EN)

struct thread_ent {
	uint32_t tid, used;
	char comm[16];
};

struct exporter {
	const struct pd_export_opts *o;
	const struct pc_filter *flt;
	struct pmufile *f;
	struct pd_writer *w;
	int map[PMUPROF_MAX_EVENTS]; /* pmuprof event index -> writer event, -1 dropped */
	uint64_t start;		     /* session clock at the recording's start */
	bool has_addr;
	struct symbolizer *sym;	    /* for the unwinder */
	struct unwinder *unw;	    /* NULL: the recorded FP walk is exported */
	uint64_t *ubuf;		    /* one sample's unwound user frames */
	struct thread_ent *threads; /* open addressing on tid, power-of-two size */
	size_t nr_threads, cap_threads;
	struct pd_export_stats *st;
};

/* ---- threads: a COMM before a thread's first sample ---------------------- */

static struct thread_ent *thread_slot(struct thread_ent *t, size_t cap, uint32_t tid)
{
	size_t j = (size_t)pc_fmix(tid) & (cap - 1);

	while (t[j].used && t[j].tid != tid)
		j = (j + 1) & (cap - 1);
	return &t[j];
}

/* The entry of tid (new ones zeroed, used set); NULL on ENOMEM. */
static struct thread_ent *thread_get(struct exporter *x, uint32_t tid)
{
	struct thread_ent *e;

	if (2 * (x->nr_threads + 1) > x->cap_threads) {
		size_t cap = x->cap_threads ? 2 * x->cap_threads : 1024;
		struct thread_ent *t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (size_t i = 0; i < x->cap_threads; i++)
			if (x->threads[i].used)
				*thread_slot(t, cap, x->threads[i].tid) = x->threads[i];
		free(x->threads);
		x->threads = t;
		x->cap_threads = cap;
	}
	e = thread_slot(x->threads, x->cap_threads, tid);
	if (!e->used) {
		e->used = 1;
		e->tid = tid;
		x->nr_threads++;
	}
	return e;
}

/* ---- the kernel: image and modules from the kallsyms snapshot ------------- */

struct kmod {
	char name[64];
	uint64_t lo, hi;
};

struct kinfo {
	uint64_t text, stext, lowest; /* _text, _stext, lowest non-module text symbol */
	struct kmod *mods;
	size_t nr_mods, cap_mods;
};

static void kallsyms_scan(const char *p, const char *end, struct kinfo *k)
{
	size_t last = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		char *q;
		uint64_t a = strtoull(p, &q, 16);
		const char *t = q;
		while (t < e && *t == ' ')
			t++;
		char type = t < e ? *t : 0;
		const char *name = t + 1 < e ? t + 2 : e,
			   *tab = memchr(name, '\t', (size_t)(e - name));
		size_t nlen = (size_t)((tab ? tab : e) - name);
		p = nl ? nl + 1 : end;
		if (q == p || !a || !(type == 't' || type == 'T'))
			continue;
		if (!tab) {
			if (nlen == 5 && !memcmp(name, "_text", 5))
				k->text = a;
			else if (nlen == 6 && !memcmp(name, "_stext", 6))
				k->stext = a;
			if (!k->lowest || a < k->lowest)
				k->lowest = a;
			continue;
		}
		/* "\t[module]" */
		const char *m = tab + 1, *me = e;
		if (me - m < 3 || *m != '[' || me[-1] != ']' || me - m > 60)
			continue;
		if (!(last < k->nr_mods && !strncmp(k->mods[last].name, m, (size_t)(me - m)) &&
		      !k->mods[last].name[me - m])) {
			for (last = 0; last < k->nr_mods; last++)
				if (!strncmp(k->mods[last].name, m, (size_t)(me - m)) &&
				    !k->mods[last].name[me - m])
					break;
			if (last == k->nr_mods) {
				if (pc_grow((void **)&k->mods, &k->cap_mods, k->nr_mods + 1,
					    sizeof(*k->mods)))
					return;
				struct kmod *n = &k->mods[k->nr_mods++];
				snprintf(n->name, sizeof(n->name), "%.*s", (int)(me - m), m);
				n->lo = n->hi = a;
			}
		}
		if (a < k->mods[last].lo)
			k->mods[last].lo = a;
		if (a > k->mods[last].hi)
			k->mods[last].hi = a;
	}
}

static int kernel_maps(struct exporter *x)
{
	const struct pmufile *f = x->f;
	struct kinfo k = {0};
	struct pd_sid sid = {.pid = (uint32_t)PD_KERNEL_PID};
	const uint64_t page = 1ull << X86_PAGE_SHIFT_4K;
	int r = 0;

	if (f->kernel_build_id_size &&
	    (r = pd_writer__build_id(x->w, PD_KERNEL_PID, true, f->kernel_build_id,
				     f->kernel_build_id_size, "[kernel.kallsyms]")))
		return r;
	if (!f->kallsyms || !f->kallsyms_len)
		return 0;
	kallsyms_scan(f->kallsyms, f->kallsyms + f->kallsyms_len, &k);
	const char *ref = k.text ? "_text" : k.stext ? "_stext" : NULL;
	uint64_t start = k.text ? k.text : k.stext ? k.stext : k.lowest, end = UINT64_MAX;
	for (size_t i = 0; i < k.nr_mods; i++)
		if ((k.mods[i].lo & ~(page - 1)) > start && (k.mods[i].lo & ~(page - 1)) < end)
			end = k.mods[i].lo & ~(page - 1);
	if (start) {
		char name[64];
		/* perf relocates kallsyms by the address of the symbol after "]" */
		snprintf(name, sizeof(name), "[kernel.kallsyms]%s", ref ? ref : "");
		r = pd_writer__kernel_mmap(x->w, &sid, start, end - start, ref ? start : 0, name);
		x->st->maps++;
	}
	for (size_t i = 0; i < k.nr_mods && !r; i++) {
		uint64_t lo = k.mods[i].lo & ~(page - 1), hi = (k.mods[i].hi + page) & ~(page - 1);
		r = pd_writer__kernel_mmap(x->w, &sid, lo, hi - lo, 0, k.mods[i].name);
		x->st->maps++;
	}
	free(k.mods);
	return r;
}

/* ---- processes and maps ---------------------------------------------------- */

static int process_records(struct exporter *x)
{
	const struct pmufile *f = x->f;
	int r = 0;

	for (size_t i = 0; i < f->nr_processes && !r; i++) {
		const struct pmufile_process *p = &f->processes[i];
		bool first = !i || f->processes[i - 1].pid != p->pid;
		struct pd_sid sid = {.pid = (uint32_t)p->pid, .tid = (uint32_t)p->pid};
		struct thread_ent *t = thread_get(x, (uint32_t)p->pid);
		if (!t)
			return -ENOMEM;
		if (!first)
			sid.time = p->time_ns;
		else
			r = pd_writer__fork(x->w, &sid, (uint32_t)(p->ppid > 0 ? p->ppid : 0));
		if (!r)
			r = pd_writer__comm(x->w, &sid, p->comm, !first);
		memcpy(t->comm, p->comm, sizeof(t->comm));
	}
	return r;
}

static int map_records(struct exporter *x)
{
	const struct pmufile *f = x->f;
	uint8_t bid[PD_BUILD_ID_SIZE];
	int r = 0;
	size_t g = 0;
	uint64_t first = 0;

	for (size_t i = 0; i < f->nr_mmaps && !r; i++) {
		const struct pmufile_mmap *m = &f->mmaps[i];
		if (!i || f->mmaps[i - 1].pid != m->pid) {
			/* a new pid: its first snapshot applies from time 0 */
			g = i;
			first = UINT64_MAX;
			for (size_t j = g; j < f->nr_mmaps && f->mmaps[j].pid == m->pid; j++)
				if (f->mmaps[j].time_ns < first)
					first = f->mmaps[j].time_ns;
		}
		struct pd_sid sid = {.pid = (uint32_t)m->pid,
				     .tid = (uint32_t)m->pid,
				     .time = m->time_ns == first ? 0 : m->time_ns};
		const char *path = m->path[0] ? m->path : "//anon";
		const uint8_t *id = m->build_id;
		uint32_t idlen = m->build_id_size <= 20 ? m->build_id_size : 20;
		if (!idlen && m->path[0] == '/' && (m->prot & PROT_EXEC) && x->o->symfs) {
			idlen = (uint32_t)sym__file_build_id(x->o->symfs, m->path, bid);
			id = bid;
		}
		r = pd_writer__mmap2(x->w, &sid, m->start, m->end - m->start, m->pgoff, m->prot,
				     path, id, idlen);
		x->st->maps++;
		if (!r && idlen && (m->prot & PROT_EXEC)) {
			/* one HEADER_BUILD_ID entry per binary: maps of a binary
			 * are adjacent only within a pid, so look back there */
			bool dup = false;
			for (size_t j = g; j < i && !dup; j++)
				dup = !strcmp(f->mmaps[j].path, m->path);
			if (!dup) {
				r = pd_writer__build_id(x->w, m->pid, false, id, idlen, m->path);
				x->st->build_ids++;
			}
		}
	}
	return r;
}

/* ---- records ------------------------------------------------------------ */

static uint64_t page_bytes(uint8_t p)
{
	switch (p) {
	case PMUPROF_PAGE_4K:
		return 1ull << X86_PAGE_SHIFT_4K;
	case PMUPROF_PAGE_2M:
		return 1ull << X86_PAGE_SHIFT_2M;
	case PMUPROF_PAGE_1G:
		return 1ull << X86_PAGE_SHIFT_1G;
	}
	return 0;
}

/* --time: the recording's clock, bounds inclusive (filterspec.h) */
static bool in_time(const struct exporter *x, uint64_t t)
{
	return !x->flt->has_time || (t >= x->flt->time_start && t <= x->flt->time_end);
}

static int on_sample(struct exporter *x, const struct pmuprof_record_header *rec)
{
	const struct pc_filter *fl = x->flt;
	struct pmufile_sample_view v;
	struct pd_sample o = {0};

	if (pmufile__sample_view_inline(rec, &v))
		return 0; /* sizes disagree: skipped, as pmuconv's other commands do */
	const struct pmuprof_sample *s = v.s;
	x->st->samples++;
	if (s->event >= PMUPROF_MAX_EVENTS || x->map[s->event] < 0)
		return 0;
	bool kmode = s->hdr.misc & PMUPROF_MISC_KERNEL;
	if ((fl->has_pid && (int32_t)s->pid != fl->pid) ||
	    (fl->comm && strncmp(fl->comm, s->comm, sizeof(s->comm))) ||
	    (fl->has_cpu && !pc_cpuset__has(&fl->cpus, s->cpu)) || !in_time(x, s->time_ns)) {
		x->st->filtered++;
		return 0;
	}
	o.event = (uint32_t)x->map[s->event];
	o.pid = s->pid;
	o.tid = s->tid;
	o.cpu = s->cpu;
	o.time = s->time_ns;
	o.period = s->period;
	o.ip = s->ip;
	o.kstack = v.kstack;
	o.nr_kstack = s->nr_kstack;
	o.ustack = v.ustack;
	o.nr_ustack = s->nr_ustack;
	if (v.ucopy && x->unw) { /* the unwound user frames replace the FP walk */
		enum unw_outcome oc;
		o.nr_ustack = unw__sample(x->unw, &v, x->ubuf, UNW_MAX_USER, &oc);
		if (o.nr_ustack && x->ubuf[o.nr_ustack - 1] == UNW_TRUNCATED_ADDR)
			o.nr_ustack--; /* perf has no mark for a stopped unwind */
		o.ustack = x->ubuf;
	}
	if (fl->mode == PC_MODE_KERNEL_ONLY) {
		if (!kmode) {
			x->st->filtered++;
			return 0;
		}
		o.nr_ustack = 0;
	} else if (fl->mode == PC_MODE_USER_ONLY) {
		if (kmode && !o.nr_ustack) {
			x->st->filtered++;
			return 0;
		}
		o.nr_kstack = 0;
		if (kmode) { /* the user side of a kernel-mode sample: its user IP */
			o.ip = o.ustack[0];
			kmode = false;
		}
	}
	o.misc = (kmode ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) |
		 (s->hdr.misc & PMUPROF_MISC_EXACT_IP ? PERF_RECORD_MISC_EXACT_IP : 0);
	if (v.addr) {
		bool ok = v.addr->addr_status == PMUPROF_ADDR_OK && v.addr->data_addr;
		o.addr = ok ? v.addr->data_addr : 0;
		o.phys_addr = ok ? v.addr->data_phys : 0;
		o.data_page_size = ok ? page_bytes(v.addr->data_page) : 0;
		o.code_page_size = page_bytes(v.addr->code_page);
	}
	/* the thread's name, before its first sample and when it changes */
	struct thread_ent *t = thread_get(x, s->tid);
	if (!t)
		return -ENOMEM;
	if (strncmp(t->comm, s->comm, sizeof(t->comm))) {
		struct pd_sid sid = {
			.pid = s->pid, .tid = s->tid, .cpu = s->cpu, .time = s->time_ns};
		char comm[17];
		snprintf(comm, sizeof(comm), "%.16s", s->comm);
		int r = pd_writer__comm(x->w, &sid, comm, t->comm[0] != 0);
		if (r)
			return r;
		memcpy(t->comm, s->comm, sizeof(t->comm));
	}
	x->st->written++;
	return pd_writer__sample(x->w, &o);
}

static int on_record(void *ctx, const struct pmuprof_record_header *rec)
{
	struct exporter *x = ctx;

	if (rec->type == PMUPROF_REC_SAMPLE)
		return on_sample(x, rec);
	if (rec->type == PMUPROF_REC_LOST) { /* the reader checked its size */
		const struct pmuprof_lost *l = (const void *)rec;
		struct pd_sid sid = {.pid = UINT32_MAX, .tid = UINT32_MAX, .cpu = l->cpu};
		int r;
		if (!in_time(x, l->time_ns) ||
		    (x->flt->has_cpu && !pc_cpuset__has(&x->flt->cpus, l->cpu)))
			return 0;
		sid.time = l->time_ns;
		/* LOST names a CPU, not an event: it goes to the first event.
		 * perf report counts LOST records as "lost chunks" and the
		 * LOST_SAMPLES total as "Total Lost Samples". */
		x->st->lost += l->lost;
		r = pd_writer__lost(x->w, &sid, l->lost);
		return r ? r : pd_writer__lost_samples(x->w, &sid, l->lost);
	}
	return 0; /* THROTTLE/PERIOD/UNTHROTTLE and unknown types: not exported */
}

/* ---- the whole export ------------------------------------------------------ */

static void event_attr(const struct pmufile_event *ev, struct pd_event *pe)
{
	*pe = (struct pd_event){.name = ev->name[0] ? ev->name : "event",
				.period = ev->period,
				.freq = ev->flags & PMUPROF_EVF_FREQ};
	if (ev->source == PMUPROF_SOURCE_NMI_IPI || ev->source == PMUPROF_SOURCE_TIMER) {
		pe->type = PERF_TYPE_SOFTWARE;
		pe->config = PERF_COUNT_SW_CPU_CLOCK;
		return;
	}
	pe->type = PERF_TYPE_RAW;
	pe->config = ev->config & ~EVTSEL_MODE_BITS;
	/* neither mode bit: the module counts both (pmuprof.h) */
	if (ev->config & (X86_EVTSEL_USR | X86_EVTSEL_OS)) {
		pe->exclude_user = !(ev->config & X86_EVTSEL_USR);
		pe->exclude_kernel = !(ev->config & X86_EVTSEL_OS);
	}
	if (ev->source == PMUPROF_SOURCE_PEBS || (ev->flags & PMUPROF_EVF_PRECISE))
		pe->precise_ip = 2;
}

/* The kallsyms snapshot beside the output, for perf report --kallsyms. */
static int write_kallsyms(const struct pmufile *f, const char *path, char *err, size_t errlen)
{
	struct pc_atomic a;
	int e;

	if ((e = -pc_atomic__open(&a, path, 0600)) == ENAMETOOLONG) {
		snprintf(err, errlen, "%.100s...: path too long", path);
		return -e;
	}
	if (e) {
		snprintf(err, errlen, "cannot create %s (a temporary file beside it first): %s",
			 path, strerror(e));
		return -e;
	}
	for (size_t off = 0; off < f->kallsyms_len && !e;) {
		ssize_t n = write(a.fd, f->kallsyms + off, f->kallsyms_len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			e = n < 0 ? errno : EIO;
		else
			off += (size_t)n;
	}
	if (close(a.fd) && !e)
		e = errno;
	a.fd = -1;
	if (!e)
		e = -pc_atomic__rename(&a);
	pc_atomic__discard(&a);
	if (e)
		snprintf(err, errlen, "writing %s failed: %s", path, strerror(e));
	return -e;
}

int perfdata_export(const char *in, const struct pd_export_opts *o, struct pd_export_stats *st,
		    char *err, size_t errlen)
{
	struct exporter x = {.o = o, .flt = o->f, .st = st};
	struct pd_event ev[PMUPROF_MAX_EVENTS];
	uint32_t nr = 0;
	uint64_t st_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_IDENTIFIER;
	int r;

	memset(st, 0, sizeof(*st));
	x.f = pmufile__open(in, PMUFILE_OPEN_STREAM | (x.flt->salvage ? PMUFILE_OPEN_SALVAGE : 0),
			    err, errlen);
	if (!x.f) {
		r = errno ? -errno : -EINVAL;
		if (!err[0])
			snprintf(err, errlen, "%s: not a readable pmuprof file", in);
		return r;
	}
	const struct pmufile *f = x.f;
	x.start = f->hdr.start_session_ns;
	for (uint32_t i = 0; i < PMUPROF_MAX_EVENTS; i++)
		x.map[i] = -1;
	for (uint32_t i = 0; i < f->nr_events && i < PMUPROF_MAX_EVENTS; i++) {
		const struct pmufile_event *e = &f->events[i];
		if (e->index >= PMUPROF_MAX_EVENTS ||
		    (x.flt->event && strcmp(x.flt->event, e->name)))
			continue;
		event_attr(e, &ev[nr]);
		x.map[e->index] = (int)nr++;
	}
	if (!nr) {
		size_t n;
		if (x.flt->event) {
			snprintf(err, errlen, "%s: no event named '%s' (events:", in, x.flt->event);
			for (uint32_t i = 0; i < f->nr_events && i < PMUPROF_MAX_EVENTS; i++) {
				n = strlen(err);
				snprintf(err + n, errlen - n, " %s", f->events[i].name);
			}
			n = strlen(err);
			snprintf(err + n, errlen - n, ")");
		} else {
			snprintf(err, errlen, "%s: the recording has no events", in);
		}
		r = -ENOENT;
		goto out;
	}
	if (o->sym && !x.flt->call_graph_fp && unw__new) {
		x.sym = sym__new(o->sym);
		x.unw = x.sym ? unw__new(f, x.sym) : NULL;
		x.ubuf = malloc(UNW_MAX_USER * sizeof(*x.ubuf));
		if (!x.unw || !x.ubuf) {
			r = -ENOMEM;
			snprintf(err, errlen, "%s: out of memory", in);
			goto out;
		}
	}
	x.has_addr = f->hdr.config_flags & PMUPROF_CF_DATA_ADDR;
	if (x.has_addr)
		st_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE |
			   PERF_SAMPLE_CODE_PAGE_SIZE;
	if (!(x.w = pd_writer__open(o->out, ev, nr, st_type, err, errlen))) {
		r = -errno;
		goto out;
	}
	if ((r = kernel_maps(&x)) || (r = process_records(&x)) || (r = map_records(&x)))
		goto werr;
	err[0] = 0;
	r = pmufile__for_each_record(x.f, on_record, &x, err, errlen);
	if (r == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", in);
	else if (r && !err[0])
		goto werr;
	if (r)
		goto out;
	st->truncated = !f->has_trailer || f->damage[0] || f->frames_skipped;
	char cmdline[4200];
	snprintf(cmdline, sizeof(cmdline), "%s", f->hdr.cmdline[0] ? f->hdr.cmdline : "pmuctl");
	struct pd_meta meta = {.hostname = f->hdr.hostname,
			       .osrelease = f->hdr.kernel_release,
			       .version = o->version ? o->version : "pmuconv",
			       .arch = "x86_64",
			       .cmdline = cmdline,
			       .nr_cpus_avail = f->hdr.nr_cpus,
			       .nr_cpus_online = f->hdr.info.nr_online ? f->hdr.info.nr_online
								       : f->hdr.nr_cpus};
	if (f->kallsyms_len) {
		const char *kp = o->kallsyms_out;
		if (!kp) {
			snprintf(st->kallsyms_path, sizeof(st->kallsyms_path), "%s.kallsyms",
				 o->out);
			kp = st->kallsyms_path;
		} else {
			snprintf(st->kallsyms_path, sizeof(st->kallsyms_path), "%s", kp);
		}
		if ((r = write_kallsyms(f, kp, err, errlen)))
			goto out;
	}
	r = pd_writer__close(x.w, &meta, err, errlen);
	x.w = NULL;
	if (r && st->kallsyms_path[0])
		unlink(st->kallsyms_path);
	goto out;
werr:
	snprintf(err, errlen, "%s: %s", in,
		 pd_writer__error(x.w)[0] ? pd_writer__error(x.w) : strerror(-r));
out:
	pd_writer__abort(x.w);
	if (x.unw)
		unw__free(x.unw);
	free(x.ubuf);
	sym__free(x.sym);
	pmufile__close(x.f);
	free(x.threads);
	return r;
}
