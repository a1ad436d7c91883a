// SPDX-License-Identifier: MIT
/* Walking a pmuprof file's samples one by one, resolved (samplewalk.h). */
#include "samplewalk.h"

#include <errno.h>
#include <stdlib.h>

#include "filterspec.h"
#include "lib/pmufile/pmufile.h"
#include "psnames.h"
#include "srcinline.h"
#include "unwind.h"

struct walker {
	const struct pc_filter *flt;
	const struct pc_walk_ops *ops;
	void *ctx;
	struct pmufile *f;
	struct symbolizer *sym;
	bool want[PMUPROF_MAX_EVENTS];
	uint32_t index[PMUPROF_MAX_EVENTS]; /* file event index -> pc_walk_info index */
	struct pc_rec_frame *fr;
	/* --call-graph dwarf recordings: the unwinder (NULL with --call-graph
	 * fp) and one sample's kernel + unwound user frames */
	struct unwinder *unw;
	uint64_t *ubuf;
	struct srcinline *inl; /* NULL: no inline frames */
	uint64_t bad;
	struct pc_nodemap nodes;
};

/* A [vdso] frame's symbol from the recorded image (unwind.h), if any. */
static void vdso_name(struct walker *w, const struct pc_rec *r, struct pc_rec_frame *f,
		      unsigned adj)
{
	const char *n = unw__vdso_symbol(w->unw, r->pid, r->time_ns, f->ip - adj);

	if (n) {
		f->w.name = n;
		f->w.sym_len = strlen(n);
		f->w.kind = PC_FRAME_USER;
	}
}

/* The functions inlined at frame fr[n] (a user frame, resolved): moved up
 * behind them, innermost first, at the same address and DSO. Returns the
 * index of the frame itself. */
static uint32_t add_inlined(struct walker *w, const struct pc_rec *r, struct pc_rec_frame *fr,
			    uint32_t n, unsigned adj)
{
	const struct pmufile_mmap *m = pmufile__find_mmap(w->f, r->pid, fr[n].ip - adj, r->time_ns);
	const struct inl_frame *in;
	const char *src;
	uint32_t k;

	if (!m)
		return n;
	k = inl__lookup(w->inl, m->path, m->build_id,
			m->build_id_size <= 20 ? m->build_id_size : 20,
			fr[n].ip - m->start + m->pgoff, adj, &in, &src);
	if (k > PC_MAX_FRAMES - 1 - n)
		k = PC_MAX_FRAMES - 1 - n;
	fr[n + k] = fr[n];
	for (uint32_t i = 0; i < k; i++)
		fr[n + i] = (struct pc_rec_frame){
			fr[n + k].ip,
			{in[i].name, strlen(in[i].name), fr[n + k].w.dso, PC_FRAME_USER, false}};
	return n + k;
}

static int on_record(void *ctx, const struct pmuprof_record_header *rec)
{
	struct walker *w = ctx;
	const struct pc_filter *f = w->flt;
	struct pmufile_sample_view v;

	if (rec->type != PMUPROF_REC_SAMPLE)
		return 0;
	if (pmufile__sample_view_inline(rec, &v)) {
		w->bad++;
		return 0;
	}
	const struct pmuprof_sample *s = v.s;
	if (s->event >= PMUPROF_MAX_EVENTS || !w->want[s->event])
		return 0;
	if ((f->has_pid && (int32_t)s->pid != f->pid) ||
	    (f->comm && strncmp(f->comm, s->comm, sizeof(s->comm))) ||
	    (f->has_cpu && !pc_cpuset__has(&f->cpus, s->cpu)) ||
	    (f->has_time && (s->time_ns < f->time_start || s->time_ns > f->time_end)))
		return 0;

	struct pc_rec r = {.event = w->index[s->event],
			   .pid = (int32_t)s->pid,
			   .tid = (int32_t)s->tid,
			   .cpu = s->cpu,
			   .time_ns = s->time_ns,
			   .period = s->period,
			   .kernel_mode = s->hdr.misc & PMUPROF_MISC_KERNEL,
			   .data_page = PS_NONE,
			   .code_page = PS_UNKNOWN,
			   .data_node = -1,
			   .cpu_node = pc_nodemap__cpu_node(&w->nodes, s->cpu),
			   .frames = w->fr};
	memcpy(r.comm, s->comm, sizeof(s->comm));
	r.comm[16] = 0;
	if (v.addr) {
		r.has_addr = true;
		r.code_page = ps_page_of_record(v.addr->code_page);
		if (v.addr->addr_status == PMUPROF_ADDR_OK && v.addr->data_addr) {
			enum pc_node_why why;

			r.data_addr = v.addr->data_addr;
			r.data_page = ps_page_of_record(v.addr->data_page);
			r.data_phys = v.addr->data_phys;
			r.data_node = pc_nodemap__data_node(&w->nodes, r.data_phys,
							    v.addr->data_node1, &why);
			r.node_why = (uint8_t)why;
		}
	}
	uint32_t nk = s->nr_kstack, nu = s->nr_ustack;
	const uint64_t *ks = v.kstack, *us = v.ustack;
	if (v.ucopy && w->unw && !w->ops->no_frames) { /* unwound frames replace the FP walk */
		enum unw_outcome oc;
		nu = unw__sample(w->unw, &v, w->ubuf, PC_MAX_FRAMES, &oc);
		us = w->ubuf;
	}
	struct pc_rec_frame *fr = w->fr;
	uint32_t n = 0;
	/* the sampled IP first, for --dso/--symbol */
	bool kern = r.kernel_mode;
	uint64_t ip = s->ip ? s->ip : kern && nk ? v.kstack[0] : !kern && nu ? v.ustack[0] : 0;
	if (w->ops->no_frames && !f->dso && !f->symbol)
		return w->ops->sample(w->ctx, &r); /* r.nr = 0: nothing resolved */
	struct pc_where leaf = pc_where__resolve(w->sym, w->f, r.pid, ip, kern, 0, r.time_ns);
	if ((f->dso || f->symbol) && !pc_where__match(f, &leaf))
		return 0;
	if (w->ops->no_frames)
		return w->ops->sample(w->ctx, &r);
	if (!nk && !nu) { /* no stacks recorded: the interrupted IP is the only frame */
		if (ip)
			fr[n++] = (struct pc_rec_frame){ip, leaf};
	} else {
		for (uint32_t x = 0; x < nk + nu && n < PC_MAX_FRAMES; x++) {
			uint64_t a = x < nk ? ks[x] : us[x - nk];
			/* stacks hold return addresses after each side's first entry */
			fr[n].ip = a;
			if (x >= nk && a == UNW_TRUNCATED_ADDR) /* an unwind stopped here */
				fr[n].w = (struct pc_where){"[truncated]", 11, "[unknown]",
							    PC_FRAME_UNKNOWN, false};
			else if (a == ip &&
				 (x == 0 || x == nk)) /* the sampled IP: resolved above */
				fr[n].w = leaf;
			else
				fr[n].w = pc_where__resolve(w->sym, w->f, r.pid, a, x < nk,
							    x != 0 && x != nk, r.time_ns);
			if (w->unw && x >= nk && fr[n].w.kind != PC_FRAME_USER &&
			    !strcmp(fr[n].w.dso, "[vdso]")) /* named from the recorded image */
				vdso_name(w, &r, &fr[n], x != nk);
			if (w->inl && fr[n].w.kind == PC_FRAME_USER && !fr[n].w.kernel)
				n = add_inlined(w, &r, fr, n, x != 0 && x != nk);
			n++;
		}
	}
	if (f->mode) { /* --kernel-only / --user-only: keep that side's frames */
		uint32_t k = 0;
		for (uint32_t i = 0; i < n; i++)
			if (fr[i].w.kernel == (f->mode == PC_MODE_KERNEL_ONLY))
				fr[k++] = fr[i];
		if (!k)
			return 0;
		n = k;
	}
	r.nr = n;
	return w->ops->sample(w->ctx, &r);
}

int pc_walk_samples(const char *path, const struct pc_load_opts *o, const struct pc_walk_ops *ops,
		    void *ctx, char *err, size_t errlen)
{
	const struct pc_filter *flt = &o->filter;
	struct walker *w = calloc(1, sizeof(*w));
	struct pc_walk_info info = {0};
	int r;

	if (!w)
		return -ENOMEM;
	w->flt = flt;
	w->ops = ops;
	w->ctx = ctx;
	w->fr = malloc(PC_MAX_FRAMES * sizeof(*w->fr));
	if (!w->fr) {
		r = -ENOMEM;
		goto out;
	}
	char spool[64];
	if (!strcmp(path, "-")) { /* standard input: spooled to a file first */
		struct pc_input_buf in;
		if ((r = pc_input_buf__open(&in, path, err, errlen)))
			goto out;
		r = in.len ? pc_stdin_spool(&in, spool, sizeof(spool), err, errlen) : -ENODATA;
		pc_input_buf__close(&in);
		if (r == -ENODATA)
			snprintf(err, errlen, "-: standard input is empty (no samples to convert)");
		if (r)
			goto out;
		path = spool;
	}
	errno = 0;
	w->f = pmufile__open(path, PMUFILE_OPEN_STREAM | (flt->salvage ? PMUFILE_OPEN_SALVAGE : 0),
			     err, errlen);
	if (!w->f) {
		r = errno ? -errno : -EINVAL;
		if (!err[0])
			snprintf(err, errlen, "%s: not a readable pmuprof file", path);
		goto out;
	}
	const struct pmufile *f = w->f;
	for (uint32_t i = 0; i < f->nr_events && i < PMUPROF_MAX_EVENTS; i++) {
		const struct pmufile_event *ev = &f->events[i];
		if (ev->index >= PMUPROF_MAX_EVENTS || info.nr_events >= PC_WALK_MAX_EVENTS ||
		    !pc_event__wanted(f, ev, flt->event))
			continue;
		w->want[ev->index] = true;
		w->index[ev->index] = info.nr_events;
		snprintf(info.events[info.nr_events++], sizeof(info.events[0]), "%s",
			 ev->name[0] ? ev->name : "event");
	}
	if (flt->event && !info.nr_events) {
		pmufile__no_event_error(f, path, flt->event, err, errlen);
		r = -ENOENT;
		goto out;
	}
	info.has_stacks = f->hdr.config_flags & (PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK);
	info.has_addr = f->hdr.config_flags & PMUPROF_CF_DATA_ADDR;
	info.has_code_page = f->hdr.config_flags & PMUPROF_CF_CODE_PAGE;
	info.has_phys = f->hdr.config_flags & PMUPROF_CF_PHYS_ADDR;
	pc_nodemap__init(&w->nodes, f->has_numa ? &f->numa : NULL);
	info.nodes = &w->nodes;
	w->sym = sym__new(&o->sym);
	if (!w->sym) {
		r = -ENOMEM;
		goto out;
	}
	if (f->kallsyms && f->kallsyms_len)
		sym__load_kallsyms(w->sym, f->kallsyms, f->kallsyms_len);
	if (ops->inline_frames && !o->sym.no_inline &&
	    !(w->inl = inl__new(w->sym, o->sym.no_demangle))) {
		r = -ENOMEM;
		goto out;
	}
	if (!flt->call_graph_fp) { /* cheap until a sample carries a stack copy */
		w->unw = unw__new(f, w->sym);
		w->ubuf = malloc(PC_MAX_FRAMES * sizeof(*w->ubuf));
		if (!w->unw || !w->ubuf) {
			r = -ENOMEM;
			goto out;
		}
	}
	if (ops->begin && (r = ops->begin(ctx, &info))) {
		if (r == PC_WALK_STOP)
			r = 0;
		goto out;
	}
	r = pmufile__for_each_record(w->f, on_record, w, err, errlen);
	if (r) {
		if (!err[0])
			snprintf(err, errlen, "%s: %s", path, strerror(-r));
		goto out;
	}
	if (ops->quiet)
		goto out;
	if (!f->has_trailer || f->damage[0] || f->frames_skipped)
		pc_warn("%s: damaged: %s (offset %llu, %llu frame(s) skipped); showing what "
			"precedes the damage",
			path, f->damage[0] ? f->damage : "file ends without a trailer",
			(unsigned long long)f->damage_offset,
			(unsigned long long)f->frames_skipped);
	if (w->bad)
		pc_warn("%s: skipped %llu malformed sample record(s)", path,
			(unsigned long long)w->bad);
	if (f->ucopy_unresolved)
		pc_warn("%s: %llu packed user stack copies could not be rebuilt, so those "
			"samples were not unwound with DWARF (first: %s); a frame lost to "
			"damage breaks its thread's copies until the next whole one",
			path, (unsigned long long)f->ucopy_unresolved, f->ucopy_error);
	sym__warn_binaries(w->sym); /* the same warnings as every other command */
out:
	inl__free(w->inl);
	unw__free(w->unw);
	free(w->ubuf);
	sym__free(w->sym);
	pmufile__close(w->f);
	free(w->fr);
	free(w);
	return r;
}
