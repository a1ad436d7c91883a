// SPDX-License-Identifier: MIT
/*
 * `perf script` text. A sample is a header line
 *
 *   COMM PID[/TID] [CPU] TIME: [PERIOD] EVENT: [IP SYM+OFF (DSO)]
 *
 * (COMM may contain spaces; CPU, TIME and PERIOD are optional, as `perf
 * script -F` allows) followed, when recorded with -g, by indented frame lines
 * "ADDR SYM+OFF (DSO)", leaf first, and a blank line. Without callchains the
 * frame is on the header line. Several events in one file become several
 * profiles.
 *
 * Data addresses (`perf script -F ...,addr,phys_addr,data_page_size`, from
 * `perf mem record --data-page-size` or `perf record -d --data-page-size`):
 * perf prints ADDR right after "EVENT:", before the IP, and PHYS_ADDR and
 * DATA_PAGE_SIZE ("4K", "2M", "1G" or "1024M", "N/A") last: at the end of
 * the header line, or, with callchains, on an indented line of their own
 * after the frames. Such samples carry an address part (sample.h) for the
 * page-size consumer: the data page size when ADDR is not 0, else "no data
 * address". perf script has no code page size; those count as unknown.
 *
 * Cost: one pass with memchr over lines; per frame one string hash.
 */
#include "demangle.h"
#include "inputs.h"
#include "textparse.h"
#include "uapi/pmuprof.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

struct ps_state {
	struct pc_set *set;
	const struct pc_filter *f;
	const struct pc_stream *out;
	struct pc_strtab fmt; /* names made here ("func [module]") */
	struct pc_demangle_cache dm;
	struct pc_frame fr[PC_MAX_FRAMES];
	uint32_t nr;
	/* current sample */
	bool active, drop;
	struct pc_agg *agg;
	const char *comm;
	size_t comm_len;
	uint64_t period;
	bool has_period;
	bool header_frame; /* frame parsed from the header line */
	/* data address part of the current sample */
	bool lone_hex; /* the header had one hex token after the event: ADDR or IP */
	uint64_t addr; /* data address (0: none) */
	bool has_page; /* a data_page_size column was seen */
	uint8_t dpage; /* enum ps_page of it */
	char ip_name[256];
	struct pc_addr_part part;
	uint64_t lineno;
	double t_first, t_last;
	bool has_time;
};

/* Parsed header line. */
struct ps_header {
	const char *comm;
	size_t comm_len;
	uint64_t pid, tid;
	bool has_cpu;
	uint64_t cpu;
	bool has_time;
	double time;
	bool has_period;
	uint64_t period;
	const char *event;
	size_t event_len;
	const char *rest; /* after the event token: maybe "IP SYM (DSO)" */
	const char *end;
};

/* Try to parse the header assuming the pid token starts at q. */
static bool try_header_at(const char *line, const char *q, const char *e, struct ps_header *h)
{
	const char *t = tok_end(q, e), *slash;
	uint64_t v;

	memset(h, 0, sizeof(*h));
	slash = memchr(q, '/', (size_t)(t - q));
	if (slash) {
		if (!parse_u64_span(q, slash, &h->pid) || !parse_u64_span(slash + 1, t, &h->tid))
			return false;
	} else {
		if (!parse_u64_span(q, t, &h->pid))
			return false;
		h->tid = h->pid;
	}
	/* comm: everything before q, trailing blanks removed */
	const char *ce = q;
	while (ce > line && is_ws(ce[-1]))
		ce--;
	if (ce == line)
		return false;
	h->comm = line;
	h->comm_len = (size_t)(ce - line);

	q = skip_ws(t, e);
	t = tok_end(q, e);
	if (q < e && *q == '[' && t - q >= 3 && t[-1] == ']') {
		if (!parse_u64_span(q + 1, t - 1, &h->cpu))
			return false;
		h->has_cpu = true;
		q = skip_ws(t, e);
		t = tok_end(q, e);
	}
	/* time: digits '.' digits ':' */
	if (t - q >= 3 && t[-1] == ':' && isdigit((unsigned char)*q)) {
		const char *dot = memchr(q, '.', (size_t)(t - q));
		if (dot && all_digits(q, dot) && all_digits(dot + 1, t - 1)) {
			h->has_time = true;
			h->time = strtod(q, NULL);
			q = skip_ws(t, e);
			t = tok_end(q, e);
		}
	}
	if (parse_u64_span(q, t, &v)) {
		h->has_period = true;
		h->period = v;
		q = skip_ws(t, e);
		t = tok_end(q, e);
	}
	/* event: token ending in ':' and not a number */
	if (t - q < 2 || t[-1] != ':' || isdigit((unsigned char)*q))
		return false;
	h->event = q;
	h->event_len = (size_t)(t - q - 1);
	/* perf prints modifiers as "cycles:ppp:"; keep them in the name */
	h->rest = skip_ws(t, e);
	h->end = e;
	return true;
}

static bool parse_header(const char *line, const char *e, struct ps_header *h)
{
	const char *q = tok_end(line, e);

	/* pid is the first all-digit token after the comm whose continuation
	 * parses; comm can contain spaces and digits, so back off and retry. */
	while (q < e) {
		q = skip_ws(q, e);
		if (q < e && isdigit((unsigned char)*q) && try_header_at(line, q, e, h))
			return true;
		q = tok_end(q, e);
	}
	return false;
}

static const char *kernel_dso_module(const char *dso, size_t len, size_t *mlen)
{
	/* "[kernel.kallsyms]" -> kernel, "[xfs]" -> module xfs; "[unknown]",
	 * "[vdso]" and other pseudo-files are not kernel. */
	static const char *const not_kernel[] = {"unknown", "vdso",   "vsyscall", "heap",
						 "stack",   "anon",   "jit",	  "vvar",
						 "uprobes", "vectors"};
	if (len < 3 || dso[0] != '[' || dso[len - 1] != ']')
		return NULL;
	dso++;
	len -= 2;
	if (len >= 6 && !strncmp(dso, "kernel", 6)) {
		*mlen = 0;
		return dso;
	}
	for (size_t i = 0; i < PC_ARRAY_SIZE(not_kernel); i++)
		if (!strncmp(dso, not_kernel[i], strlen(not_kernel[i])))
			return NULL;
	*mlen = len;
	return dso;
}

/* A data_page_size column: "4K", "2M", "1G" (or "1024M"), other sizes, "N/A".
 * Returns false if [p, e) is not one; *page is enum ps_page. */
static bool page_size_token(const char *p, const char *e, uint8_t *page)
{
	uint64_t v;

	if (e - p == 3 && !memcmp(p, "N/A", 3)) {
		*page = PS_UNKNOWN;
		return true;
	}
	if (e - p < 2 || !parse_u64_span(p, e - 1, &v))
		return false;
	switch (e[-1]) {
	case 'K':
		*page = v == 4 ? PS_4K : PS_UNKNOWN;
		return true;
	case 'M':
		*page = v == 2 ? PS_2M : v == 1024 ? PS_1G : PS_UNKNOWN;
		return true;
	case 'G':
		*page = v == 1 ? PS_1G : PS_UNKNOWN;
		return true;
	}
	return false;
}

/* The trailing "[PHYS_ADDR] DATA_PAGE_SIZE" columns of [p, e): if present,
 * note the page size and return where they start; else e. */
static const char *strip_page_cols(struct ps_state *st, const char *p, const char *e)
{
	const char *te = e, *ts, *q;
	uint8_t page;
	uint64_t v;

	while (te > p && is_ws(te[-1]))
		te--;
	for (ts = te; ts > p && !is_ws(ts[-1]); ts--)
		;
	if (ts == te || !page_size_token(ts, te, &page))
		return e;
	st->has_page = true;
	st->dpage = page;
	/* PHYS_ADDR before it (hex); a ")" ends the DSO instead */
	for (q = ts; q > p && is_ws(q[-1]); q--)
		;
	const char *ps = q;
	while (ps > p && !is_ws(ps[-1]))
		ps--;
	if (ps < q && parse_hex_span(ps, q, &v))
		return ps;
	return ts;
}

/* Parse "ADDR SYM+0xOFF (DSO)" in [p, e) and push it. */
static int push_frame(struct ps_state *st, const char *p, const char *e)
{
	const char *t = tok_end(p, e), *sym, *se, *dso = NULL, *name = "[unknown]";
	size_t dlen = 0, mlen = 0, n = 9;
	uint64_t addr = 0;
	bool have_addr = parse_hex_span(p, t, &addr);
	char buf[1024];
	int kind, side;
	int64_t id;

	sym = have_addr ? skip_ws(t, e) : p;
	se = e;
	while (se > sym && is_ws(se[-1]))
		se--;
	if (se > sym && se[-1] == ')') {
		/* dso: the last " (" group */
		const char *o = se - 1;
		while (o > sym && !(o[0] == '(' && is_ws(o[-1])))
			o--;
		if (o[0] == '(' && (o == sym || is_ws(o[-1]))) {
			dso = o + 1;
			dlen = (size_t)(se - 1 - dso);
			se = o;
			while (se > sym && is_ws(se[-1]))
				se--;
		}
	}
	se = strip_offset(sym, se, true); /* "+0xOFF" */
	const char *mod = dso ? kernel_dso_module(dso, dlen, &mlen) : NULL;
	side = (mod || addr >= KERNEL_ADDR_MIN) ? PC_FRAME_KERNEL : PC_FRAME_USER;
	if (st->nr >= PC_MAX_FRAMES)
		return 0; /* keep the leaf-most frames */
	if (se == sym || (se - sym == 9 && !memcmp(sym, "[unknown]", 9))) {
		kind = PC_FRAME_UNKNOWN;
	} else if (mod && mlen) {
		/* made here: kept in st->fmt until the sample is emitted */
		kind = PC_FRAME_KERNEL;
		int m = snprintf(buf, sizeof(buf), "%.*s [%.*s]", (int)(se - sym), sym, (int)mlen,
				 mod);
		n = m < 0 || (size_t)m >= sizeof(buf) ? sizeof(buf) - 1 : (size_t)m;
		if ((id = pc_strtab__intern(&st->fmt, buf, n, kind)) < 0)
			return (int)id;
		name = st->fmt.names[id].name;
	} else {
		kind = side;
		name = sym;
		n = (size_t)(se - sym);
		if (!st->f->no_demangle && !(name = pc_demangle_cached(&st->dm, sym, n, &n)))
			return -ENOMEM;
	}
	st->fr[st->nr++] = (struct pc_frame){.name = name,
					     .len = (uint32_t)n,
					     .kind = (uint8_t)kind,
					     .kernel = side == PC_FRAME_KERNEL};
	return 0;
}

static int end_sample(struct ps_state *st)
{
	struct pc_sample s = {.samples = 1, .frames = st->fr, .nr = st->nr, .comm = st->comm};

	if (!st->active)
		return 0;
	st->active = false;
	if (st->drop)
		return 0;
	s.event = st->agg->index;
	s.comm_len = (uint32_t)st->comm_len;
	s.weight = st->f->weight == PC_WEIGHT_PERIOD && st->has_period ? st->period : 1;
	s.kernel_mode = st->nr && st->fr[0].kernel;
	if (st->has_page) {
		struct pc_addr_part *a = &st->part;
		snprintf(st->ip_name, sizeof(st->ip_name), "%.*s", st->nr ? (int)st->fr[0].len : 9,
			 st->nr ? st->fr[0].name : "[unknown]");
		*a = (struct pc_addr_part){
			.samples = 1, .weight = s.weight, .ip_name = st->ip_name};
		a->status = st->addr ? PMUPROF_ADDR_OK : PMUPROF_ADDR_NO_MEM_OPERAND;
		a->data_page = st->addr ? st->dpage : PS_NONE;
		a->code_page = PS_UNKNOWN;
		s.addr = a;
		s.nr_addr = 1;
		st->set->acct.has_pages = st->set->acct.has_data_addr = true;
	}
	return pc_stream__emit(st->out, &s);
}

static int start_sample(struct ps_state *st, const struct ps_header *h)
{
	char name[128];
	const struct pc_filter *f = st->f;
	struct pc_agg *a;

	snprintf(name, sizeof(name), "%.*s", (int)h->event_len, h->event);
	st->set->acct.samples++;
	if (f->event && strcmp(f->event, name)) {
		st->active = true;
		st->drop = true;
		return 0;
	}
	a = pc_set__event(st->set, name);
	if (!a)
		return -errno;
	if (a->acct.samples++ == 0) {
		bool clock = !strncmp(name, "cpu-clock", 9) || !strncmp(name, "task-clock", 10);
		bool per = f->weight == PC_WEIGHT_PERIOD && h->has_period;
		snprintf(a->prof.unit, sizeof(a->prof.unit), "%s",
			 per ? (clock ? "ns" : "events") : "samples");
		a->acct.weight_is_period = per;
		a->prof.period = h->has_period ? h->period : 0;
	} else if (h->has_period && a->prof.period != h->period) {
		a->prof.freq_mode = 1;
	}
	st->active = true;
	st->agg = a;
	st->drop = (f->has_pid && (int64_t)h->pid != f->pid) ||
		   (f->comm &&
		    (strlen(f->comm) != h->comm_len || strncmp(f->comm, h->comm, h->comm_len))) ||
		   (f->has_cpu && (!h->has_cpu || !pc_cpuset__has(&f->cpus, (uint32_t)h->cpu)));
	if (st->drop) {
		st->set->acct.filtered++;
		return 0;
	}
	st->comm = h->comm;
	st->comm_len = h->comm_len;
	st->period = h->period;
	st->has_period = h->has_period;
	st->nr = 0;
	if (h->has_cpu) {
		st->set->has_cpu = true;
		uint64_t w = (f->weight == PC_WEIGHT_PERIOD && h->has_period) ? h->period : 1;
		int r = pc_agg__add_cpu(a, (uint32_t)h->cpu, 1, w);
		if (r)
			return r;
	}
	if (h->has_time) {
		if (!st->has_time || h->time < st->t_first)
			st->t_first = h->time;
		if (!st->has_time || h->time > st->t_last)
			st->t_last = h->time;
		st->has_time = true;
	}
	/* frame on the header line (no callchain), after ADDR if present and
	 * before the page-size columns if present */
	st->header_frame = false;
	st->lone_hex = false;
	st->has_page = false;
	st->addr = 0;
	const char *r0 = h->rest, *re = strip_page_cols(st, h->rest, h->end);
	if (r0 < re) {
		const char *t = tok_end(r0, re), *r1 = skip_ws(t, re), *t1 = tok_end(r1, re);
		uint64_t ip, v;
		if (parse_hex_span(r0, t, &ip)) {
			if (r1 < re && parse_hex_span(r1, t1, &v)) { /* ADDR IP ... */
				st->addr = ip;
				r0 = r1;
			} else if (r1 == re) { /* one hex token: ADDR or IP */
				st->lone_hex = true;
				st->addr = ip;
				if (st->has_page) /* "ADDR [PHYS] SIZE": no IP */
					return 0;
			}
			int r = push_frame(st, r0, re);
			if (r)
				return r;
			st->header_frame = true;
		}
	}
	if (!st->lone_hex && !(st->addr && st->has_page))
		st->addr = 0;
	return 0;
}

int input_perfscript_parse(struct pc_set *s, const char *buf, size_t len, const struct pc_filter *f,
			   const struct pc_stream *out)
{
	struct ps_state *st = calloc(1, sizeof(*st));
	const char *p = buf, *end = buf + len;
	struct pc_progress prog;
	int r = 0;

	if (!st)
		return -ENOMEM;
	st->set = s;
	st->f = f;
	st->out = out;
	s->has_process = !f->no_process;
	if (!s->acct.format)
		s->acct.format = "perf-script";
	pc_progress__begin(&prog, "reading perf script", len);
	while (p < end) {
		size_t ll;
		const char *line = p;
		p = pc_next_line(p, end, &ll);
		const char *le = line + ll;
		st->lineno++;
		if ((st->lineno & 0xffff) == 0)
			pc_progress__update(&prog, (uint64_t)(p - buf), s->acct.samples);
		const char *q = skip_ws(line, le);
		if (q == le) { /* blank: end of sample */
			if ((r = end_sample(st)))
				break;
			continue;
		}
		if (*q == '#')
			continue;
		/* perf right-aligns the comm, so a header may be indented too:
		 * anything that parses as a header is one (frame lines never
		 * have a digits token followed by "EVENT:") */
		struct ps_header h;
		const char *t1 = tok_end(q, le), *q2 = skip_ws(t1, le);
		uint64_t ip0;
		bool framey = q != line && parse_hex_span(q, t1, &ip0) &&
			      (q2 == le || !isdigit((unsigned char)*q2));
		if (!framey && parse_header(q, le, &h)) {
			if ((r = end_sample(st)) || (r = start_sample(st, &h)))
				break;
			continue;
		}
		if (q == line) {
			end_sample(st);
			pc_set__skip(s, "line %llu: not a perf script sample header: %.*s",
				     (unsigned long long)st->lineno, PC_SNIP(line, le), line);
			continue;
		}
		/* indented: a frame of the current sample */
		if (!st->active) {
			pc_set__skip(s, "line %llu: frame line outside a sample",
				     (unsigned long long)st->lineno);
			continue;
		}
		if (st->drop)
			continue;
		/* "[PHYS_ADDR] DATA_PAGE_SIZE" after the callchain */
		if (strip_page_cols(st, q, le) == q)
			continue;
		if (!parse_hex_span(q, t1, &ip0)) {
			pc_set__skip(s, "line %llu: frame line without an address: %.*s",
				     (unsigned long long)st->lineno, PC_SNIP(q, le), q);
			continue;
		}
		if (st->header_frame) {
			/* callchain repeats the IP; the header frame was a guess,
			 * and a lone hex token on the header was ADDR */
			st->nr = 0;
			st->header_frame = false;
			if (!st->lone_hex)
				st->addr = 0;
		}
		if ((r = push_frame(st, q, le)))
			break;
	}
	if (!r)
		r = end_sample(st);
	pc_progress__end(&prog);
	if (st->has_time) {
		s->acct.has_time = true;
		s->acct.duration_ns = (uint64_t)((st->t_last - st->t_first) * 1e9 + 0.5);
	}
	pc_strtab__free(&st->fmt);
	pc_demangle_cache__free(&st->dm);
	free(st);
	return r;
}
