// SPDX-License-Identifier: MIT
/*
 * SystemTap stacks. Two layouts are accepted, frames leaf first in both:
 *
 *  multi-line (print_stack / print_ustack of an aggregated array):
 *     0xffffffff8103ce3b : native_safe_halt+0xb/0x10 [kernel]
 *     0x00000000004005d4 : main+0x14/0x20 [/usr/bin/prog]
 *    12                                <- count line (digits only)
 *    <blank line>
 *
 *  one line, frames joined with '!' (sprint_stack output with its newlines
 *  replaced, the usual way to use a backtrace as an array key):
 *    native_safe_halt+0xb/0x10 [kernel]!cpu_idle+0xd6/0x120 [kernel]  12
 *    (the count may also come on the next line)
 *
 * A frame is "[0xADDR : ]SYM[+0xOFF/0xSIZE] [MODULE]"; unresolved frames
 * ("0xADDR [lib.so+0xOFF]" or a bare address) become "lib.so+0xOFF" or
 * "[unknown]". A stack closed by a blank line without a count counts 1.
 * There is one event ("stap" unless --event-name says otherwise).
 */
#include "demangle.h"
#include "inputs.h"
#include "textparse.h"

#include <errno.h>
#include <stdlib.h>

struct stap_state {
	struct pc_set *set;
	struct pc_agg *agg;
	const struct pc_stream *out;
	struct pc_strtab fmt; /* names made here ("func [mod]", "lib+0xoff") */
	struct pc_demangle_cache dm;
	bool demangle;
	struct pc_frame fr[PC_MAX_FRAMES];
	uint32_t nr;
	bool pending;
	uint64_t lineno;
};

static bool is_hex_span(const char *p, const char *e)
{
	uint64_t v;

	return e - p > 2 && p[0] == '0' && p[1] == 'x' && parse_hex_span(p, e, &v);
}

static int stap_frame(struct stap_state *st, const char *p, const char *e)
{
	const char *sym, *se, *mod = NULL, *me = NULL, *name;
	uint64_t addr = 0;
	char buf[1024]; /* names are cut to 1023 bytes */
	int side, kind;
	int64_t n, id;

	p = skip_ws(p, e);
	while (e > p && is_ws(e[-1]))
		e--;
	if (p == e)
		return 0;
	const char *t = tok_end(p, e);
	if (is_hex_span(p, t)) {
		const char *q = skip_ws(t, e);
		parse_hex_span(p, t, &addr);
		if (e - q >= 1 && q[0] == ':' && (q + 1 == e || is_ws(q[1])))
			p = skip_ws(q + 1, e); /* "0xADDR : SYM..." */
	}
	sym = p;
	se = e;
	if (se > sym && se[-1] == ']') {
		const char *o = se - 1;
		while (o > sym && *o != '[')
			o--;
		if (*o == '[' && (o == sym || is_ws(o[-1]))) {
			mod = o + 1;
			me = se - 1;
			se = o;
			while (se > sym && is_ws(se[-1]))
				se--;
		}
	}
	se = strip_offset(sym, se, false); /* "+0xOFF/0xSIZE" or "+0xOFF" */
	bool kmod = mod && me - mod == 6 && !memcmp(mod, "kernel", 6);
	side = (kmod || addr >= KERNEL_ADDR_MIN) ? PC_FRAME_KERNEL : PC_FRAME_USER;
	if (se == sym || is_hex_span(sym, se)) {
		const char *plus = mod ? memchr(mod, '+', (size_t)(me - mod)) : NULL;
		kind = PC_FRAME_UNKNOWN;
		if (plus && is_hex_span(plus + 1, me)) {
			const char *base = plus;
			while (base > mod && base[-1] != '/')
				base--;
			name = base;
			n = me - base;
		} else {
			name = "[unknown]";
			n = 9;
		}
	} else if (side == PC_FRAME_KERNEL && mod && !kmod) {
		kind = PC_FRAME_KERNEL;
		name = buf;
		n = snprintf(buf, sizeof(buf), "%.*s [%.*s]", (int)(se - sym), sym, (int)(me - mod),
			     mod);
	} else {
		size_t dn;
		kind = side;
		name = sym;
		n = se - sym;
		if (st->demangle) {
			if (!(name = pc_demangle_cached(&st->dm, sym, (size_t)n, &dn)))
				return -ENOMEM;
			n = (int)dn;
		}
	}
	if (n < 0 || (size_t)n >= sizeof(buf))
		n = (int)sizeof(buf) - 1;
	if (st->nr >= PC_MAX_FRAMES)
		return 0;  /* keep the leaf-most frames */
	if (name == buf) { /* made here: keep it until the sample is emitted */
		if ((id = pc_strtab__intern(&st->fmt, buf, (size_t)n, kind)) < 0)
			return (int)id;
		name = st->fmt.names[id].name;
	}
	st->fr[st->nr++] = (struct pc_frame){.name = name,
					     .len = (uint32_t)n,
					     .kind = (uint8_t)kind,
					     .kernel = side == PC_FRAME_KERNEL};
	st->pending = true;
	return 0;
}

static int stap_commit(struct stap_state *st, uint64_t count)
{
	struct pc_sample s = {.event = st->agg->index,
			      .samples = count,
			      .weight = count,
			      .frames = st->fr,
			      .nr = st->nr};

	st->set->acct.samples += count;
	st->agg->acct.samples += count;
	st->nr = 0;
	st->pending = false;
	return pc_stream__emit(st->out, &s);
}

int input_stap_parse(struct pc_set *s, const char *buf, size_t len, const struct pc_filter *f,
		     const struct pc_stream *out)
{
	struct stap_state *st = calloc(1, sizeof(*st));
	const char *p = buf, *end = buf + len;
	const char *ev = f->event ? f->event : "stap";
	int r = 0;

	if (!st)
		return -ENOMEM;
	st->set = s;
	st->out = out;
	st->demangle = !f->no_demangle;
	if (!s->acct.format)
		s->acct.format = "stap";
	st->agg = pc_set__event(s, ev);
	if (!st->agg) {
		free(st);
		return -errno;
	}
	while (p < end && !r) {
		size_t ll;
		const char *line = p;
		p = pc_next_line(p, end, &ll);
		const char *le = line + ll, *q = skip_ws(line, le), *qe = le;
		uint64_t count = 0;
		st->lineno++;
		while (qe > q && is_ws(qe[-1]))
			qe--;
		if (q == qe) {
			if (st->pending)
				r = stap_commit(st, 1);
			continue;
		}
		if (parse_u64_span(q, qe, &count)) {
			if (!st->pending) {
				pc_set__skip(s, "line %llu: count without a stack",
					     (unsigned long long)st->lineno);
				continue;
			}
			r = stap_commit(st, count);
			continue;
		}
		if (memchr(q, '!', (size_t)(qe - q))) {
			/* one-line stack, optional trailing count */
			const char *ce = qe, *cs = qe;
			bool has_count = false;
			while (cs > q && isdigit((unsigned char)cs[-1]))
				cs--;
			if (cs < ce && cs > q && is_ws(cs[-1]) && parse_u64_span(cs, ce, &count)) {
				has_count = true;
				qe = cs;
			}
			if (st->pending && (r = stap_commit(st, 1)))
				break;
			const char *fs = q;
			for (const char *x = q; x <= qe && !r; x++) {
				if (x == qe || *x == '!') {
					r = stap_frame(st, fs, x);
					fs = x + 1;
				}
			}
			if (!r && has_count)
				r = stap_commit(st, count);
			continue;
		}
		const char *t = tok_end(q, qe);
		if (!is_hex_span(q, t) && !st->pending) {
			/* multi-line frames start with an address; anything else
			 * before a stack is noise (stap banners etc.) */
			pc_set__skip(s, "line %llu: not a stap frame or count: %.*s",
				     (unsigned long long)st->lineno, PC_SNIP(q, qe), q);
			continue;
		}
		r = stap_frame(st, q, qe);
	}
	if (!r && st->pending)
		r = stap_commit(st, 1);
	pc_strtab__free(&st->fmt);
	pc_demangle_cache__free(&st->dm);
	free(st);
	return r;
}
