// SPDX-License-Identifier: MIT
/* perf report's sorted table over a pmuprof recording (sorttab.h). */
#include "sorttab.h"
#include "samplewalk.h"

#include <errno.h>
#include <stdlib.h>

enum pc_sort_key {
	SK_COMM,
	SK_PID,
	SK_CPU,
	SK_DSO,
	SK_SYM,
	SK_DPAGE,
	SK_CPAGE,
	SK_DNODE,
	SK_LOCALITY,
	SK__NR,
};

static const struct {
	const char *name, *alias, *header;
	bool right; /* right-aligned, as perf aligns numbers */
} keys[SK__NR] = {
	[SK_COMM] = {"comm", NULL, "Command", false},
	[SK_PID] = {"pid", NULL, "Pid:Command", true},
	[SK_CPU] = {"cpu", NULL, "CPU", false},
	[SK_DSO] = {"dso", NULL, "Shared Object", false},
	[SK_SYM] = {"sym", "symbol", "Symbol", false},
	[SK_DPAGE] = {"data_page_size", NULL, "Data Page Size", false},
	[SK_CPAGE] = {"code_page_size", NULL, "Code Page Size", false},
	[SK_DNODE] = {"data_node", NULL, "Data Node", false},
	[SK_LOCALITY] = {"locality", NULL, "Locality", false},
};

int pc_sort_spec__parse(struct pc_sort_spec *s, const char *text, char *err, size_t errlen)
{
	const char *p = text;

	s->nr = 0;
	for (;;) {
		size_t n = strcspn(p, ",");
		int k;

		for (k = 0; k < SK__NR; k++)
			if ((strlen(keys[k].name) == n && !strncmp(p, keys[k].name, n)) ||
			    (keys[k].alias && strlen(keys[k].alias) == n &&
			     !strncmp(p, keys[k].alias, n)))
				break;
		if (k == SK__NR) {
			snprintf(err, errlen, "unknown sort key '%.*s' (keys: ", (int)n, p);
			for (k = 0; k < SK__NR; k++) {
				size_t l = strlen(err);
				snprintf(err + l, errlen - l, "%s%s", k ? ", " : "", keys[k].name);
			}
			size_t l = strlen(err);
			snprintf(err + l, errlen - l, "; e.g. --sort comm,dso,sym)");
			return -EINVAL;
		}
		if (s->nr == PC_SORT_MAX_KEYS) {
			snprintf(err, errlen, "at most %d sort keys", PC_SORT_MAX_KEYS);
			return -EINVAL;
		}
		s->keys[s->nr++] = k;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

struct ent {
	char *key; /* the columns' values, each NUL-terminated, back to back */
	size_t len;
	uint64_t hash, samples, weight;
};

struct evtab {
	struct ent *ents;
	size_t nr, cap;
	struct pc_htab index;
	uint64_t samples, weight, period_sum;
};

struct tab {
	const struct pc_sort_spec *spec;
	bool weight_period;
	struct pc_walk_info info;
	struct evtab ev[PC_WALK_MAX_EVENTS];
	char buf[8192]; /* the sample's key being built */
};

static uint64_t str_hash(const char *s, size_t len)
{
	uint64_t h = PC_HASH_SEED;

	for (size_t i = 0; i < len; i++)
		h = pc_mix(h, (uint8_t)s[i]);
	return pc_fmix(h);
}

static uint64_t ent_hash(const void *ctx, uint32_t i)
{
	return ((const struct evtab *)ctx)->ents[i].hash;
}

static const char *page_name(uint8_t p)
{
	static const char *const n[PS__NR] = {
		[PS_4K] = "4K", [PS_2M] = "2M", [PS_1G] = "1G", [PS_UNKNOWN] = "unknown"};

	return p < PS__NR ? n[p] : "N/A";
}

static int begin(void *ctx, const struct pc_walk_info *info)
{
	((struct tab *)ctx)->info = *info;
	return 0;
}

static int sample(void *ctx, const struct pc_rec *r)
{
	struct tab *t = ctx;
	struct evtab *e = &t->ev[r->event];
	static const struct pc_where none = {"[unknown]", 9, "[unknown]", PC_FRAME_UNKNOWN, false};
	const struct pc_where *w = r->nr ? &r->frames[0].w : &none;
	uint64_t weight = t->weight_period ? r->period : 1;
	size_t len = 0, cap = sizeof(t->buf);
	char *b = t->buf;

	for (int i = 0; i < t->spec->nr; i++) {
		int n = 0;
		switch (t->spec->keys[i]) {
		case SK_COMM:
			n = snprintf(b + len, cap - len, "%s", r->comm);
			break;
		case SK_PID:
			n = snprintf(b + len, cap - len, "%d:%s", r->pid, r->comm);
			break;
		case SK_CPU:
			n = snprintf(b + len, cap - len, "%03u", r->cpu);
			break;
		case SK_DSO:
			n = snprintf(b + len, cap - len, "%s", pc_where__short_dso(w->dso));
			break;
		case SK_SYM:
			n = snprintf(b + len, cap - len, "[%c] %.*s", w->kernel ? 'k' : '.',
				     (int)w->sym_len, w->name);
			break;
		case SK_DPAGE:
			n = snprintf(b + len, cap - len, "%s", page_name(r->data_page));
			break;
		case SK_CPAGE:
			n = snprintf(b + len, cap - len, "%s",
				     r->has_addr ? page_name(r->code_page) : "N/A");
			break;
		case SK_DNODE: /* N/A: no data access; unknown: no node (nodemap.h) */
			if (r->data_page == PS_NONE)
				n = snprintf(b + len, cap - len, "N/A");
			else if (r->data_node < 0)
				n = snprintf(b + len, cap - len, "unknown");
			else
				n = snprintf(b + len, cap - len, "node %d", (int)r->data_node);
			break;
		case SK_LOCALITY: {
			static const char *const loc[PC_LOC__NR] = {"local", "remote", "unknown"};

			n = snprintf(
				b + len, cap - len, "%s",
				r->data_page == PS_NONE
					? "N/A"
					: loc[pc_nodemap__locality(r->data_node, r->cpu_node)]);
			break;
		}
		}
		if (n < 0 || (size_t)n + 1 >= cap - len)
			return -E2BIG;
		len += (size_t)n + 1; /* keep the NUL: columns back to back */
	}
	e->samples++;
	e->weight += weight;
	e->period_sum += r->period;

	uint64_t h = str_hash(b, len);
	size_t j;
	if (pc_htab__reserve(&e->index, 256, ent_hash, e))
		return -ENOMEM;
	for (j = pc_htab__slot(&e->index, h); e->index.slots[j]; j = pc_htab__next(&e->index, j)) {
		struct ent *x = &e->ents[e->index.slots[j] - 1];
		if (x->hash == h && x->len == len && !memcmp(x->key, b, len)) {
			x->samples++;
			x->weight += weight;
			return 0;
		}
	}
	if (pc_grow((void **)&e->ents, &e->cap, e->nr + 1, sizeof(*e->ents)))
		return -ENOMEM;
	struct ent *x = &e->ents[e->nr];
	if (!(x->key = malloc(len)))
		return -ENOMEM;
	memcpy(x->key, b, len);
	x->len = len;
	x->hash = h;
	x->samples = 1;
	x->weight = weight;
	pc_htab__set(&e->index, j, (uint32_t)e->nr++);
	return 0;
}

static int cmp_ent(const void *pa, const void *pb)
{
	const struct ent *a = pa, *b = pb;

	if (a->weight != b->weight)
		return a->weight < b->weight ? 1 : -1;
	/* the columns in order (NUL sorts before any character) */
	int c = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* Column i of an entry's key. */
static const char *col(const struct ent *x, int i)
{
	const char *s = x->key;

	while (i--)
		s += strlen(s) + 1;
	return s;
}

static void print_event(FILE *out, const struct tab *t, uint32_t ev, double limit)
{
	const struct evtab *e = &t->ev[ev];
	const struct pc_sort_spec *sp = t->spec;
	int width[PC_SORT_MAX_KEYS];

	fprintf(out, "# Samples: %llu  of event '%s'\n", (unsigned long long)e->samples,
		t->info.events[ev]);
	fprintf(out, "# Event count (approx.): %llu\n#\n", (unsigned long long)e->period_sum);
	for (int i = 0; i < sp->nr; i++) {
		width[i] = (int)strlen(keys[sp->keys[i]].header);
		for (size_t k = 0; k < e->nr; k++) {
			int n = (int)strlen(col(&e->ents[k], i));
			if (n > width[i])
				width[i] = n;
		}
	}
	fprintf(out, "# Overhead");
	for (int i = 0; i < sp->nr; i++)
		fprintf(out, "  %-*s", i + 1 < sp->nr ? width[i] : 0, keys[sp->keys[i]].header);
	fprintf(out, "\n# ........");
	for (int i = 0; i < sp->nr; i++) {
		fprintf(out, "  ");
		for (int k = 0; k < width[i]; k++)
			fputc('.', out);
	}
	fprintf(out, "\n#\n");
	size_t hidden = 0;
	for (size_t k = 0; k < e->nr; k++) {
		const struct ent *x = &e->ents[k];
		double pct = pc_pct(x->weight, e->weight);
		if (pct < limit) {
			hidden++;
			continue;
		}
		fprintf(out, "%9.2f%%", pct);
		for (int i = 0; i < sp->nr; i++) {
			bool last = i + 1 == sp->nr;
			if (keys[sp->keys[i]].right)
				fprintf(out, "  %*s", width[i], col(x, i));
			else
				fprintf(out, "  %-*s", last ? 0 : width[i], col(x, i));
		}
		fprintf(out, "\n");
	}
	if (hidden)
		fprintf(out, "#\n# %zu row(s) below --percent-limit %g%% not shown\n", hidden,
			limit);
	fprintf(out, "\n");
}

int pc_sorttab__print(FILE *out, const char *path, const struct pc_load_opts *o,
		      const struct pc_sort_spec *spec, double percent_limit, char *err,
		      size_t errlen)
{
	static const struct pc_walk_ops ops = {
		.begin = begin, .sample = sample, .quiet = true, .inline_frames = false};
	struct tab *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return -ENOMEM;
	t->spec = spec;
	t->weight_period = o->filter.weight == PC_WEIGHT_PERIOD;
	r = pc_walk_samples(path, o, &ops, t, err, errlen);
	if (r == -E2BIG)
		snprintf(err, errlen, "%s: a sample's sort key is longer than %zu bytes", path,
			 sizeof(t->buf));
	for (uint32_t i = 0; !r && i < t->info.nr_events; i++) {
		struct evtab *e = &t->ev[i];
		qsort(e->ents, e->nr, sizeof(*e->ents), cmp_ent);
		fprintf(out, "\n");
		print_event(out, t, i, percent_limit);
	}
	for (uint32_t i = 0; i < PC_WALK_MAX_EVENTS; i++) {
		for (size_t k = 0; k < t->ev[i].nr; k++)
			free(t->ev[i].ents[k].key);
		free(t->ev[i].ents);
		pc_htab__free(&t->ev[i].index);
	}
	free(t);
	return r;
}
