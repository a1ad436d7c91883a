// SPDX-License-Identifier: MIT
/* The call chains through one function (callchains.h). */
#include "callchains.h"

#include <errno.h>
#include <stdlib.h>

struct chain_row {
	char *text;
	uint64_t samples, weight;
};

/* name is sym, or sym followed by its " [module]" */
static bool name_is(const char *name, const char *sym)
{
	size_t n = strlen(sym), l = strlen(name);

	return !strncmp(name, sym, n) &&
	       (!name[n] || (name[n] == ' ' && name[n + 1] == '[' && name[l - 1] == ']'));
}

static int cmp_text(const void *pa, const void *pb)
{
	return strcmp(((const struct chain_row *)pa)->text, ((const struct chain_row *)pb)->text);
}

static int cmp_weight(const void *pa, const void *pb)
{
	const struct chain_row *a = pa, *b = pb;

	if (a->weight != b->weight)
		return a->weight < b->weight ? 1 : -1;
	return strcmp(a->text, b->text);
}

/* One event's chains; returns the stacks with sym, or a negative errno. */
static long event_chains(FILE *out, const struct pc_agg *a, const char *sym, bool callers,
			 double limit)
{
	const struct pc_profile *p = &a->prof;
	struct chain_row *rows = calloc(p->nr_stacks ? p->nr_stacks : 1, sizeof(*rows));
	size_t nr = 0;
	uint64_t samples = 0, weight = 0;
	long r = 0;

	if (!rows)
		return -ENOMEM;
	for (size_t si = 0; si < p->nr_stacks; si++) {
		const struct pc_stack *st = &p->stacks[si];
		uint32_t first = 0, at = UINT32_MAX;
		while (first < st->nr && p->names[st->frames[first]].kind == PC_FRAME_PROCESS)
			first++;
		for (uint32_t k = first; k < st->nr; k++) {
			if (!name_is(p->names[st->frames[k]].name, sym))
				continue;
			at = k;
			if (!callers)
				break; /* callees: from the outermost call */
		}
		if (at == UINT32_MAX)
			continue;
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);
		if (!m) {
			r = -ENOMEM;
			goto out;
		}
		if (callers)
			for (uint32_t k = at + 1; k-- > first;)
				fprintf(m, "%s%s", k == at ? "" : " <- ",
					p->names[st->frames[k]].name);
		else
			for (uint32_t k = at; k < st->nr; k++)
				fprintf(m, "%s%s", k == at ? "" : " -> ",
					p->names[st->frames[k]].name);
		if (fclose(m)) {
			free(text);
			r = -ENOMEM;
			goto out;
		}
		rows[nr++] = (struct chain_row){text, st->samples, st->weight};
		samples += st->samples;
		weight += st->weight;
		r++;
	}
	/* merge equal chains (stacks that differ elsewhere, e.g. in the process) */
	qsort(rows, nr, sizeof(*rows), cmp_text);
	size_t n = 0;
	for (size_t i = 0; i < nr; i++) {
		if (n && !strcmp(rows[n - 1].text, rows[i].text)) {
			rows[n - 1].samples += rows[i].samples;
			rows[n - 1].weight += rows[i].weight;
			free(rows[i].text);
			continue;
		}
		rows[n++] = rows[i];
	}
	nr = n;
	qsort(rows, nr, sizeof(*rows), cmp_weight);
	fprintf(out, "\n== event %s: %s of %s: %llu samples, %.2f%% of the event ==\n", p->event,
		callers ? "callers" : "callees", sym, (unsigned long long)samples,
		pc_pct(weight, p->total_weight));
	if (!nr) {
		fprintf(out, "  (no stack of this event contains %s)\n", sym);
		goto out;
	}
	fprintf(out, "  %7s %10s %16s  %s\n", "share", "samples", "est.count",
		callers ? "chain (callee <- caller)" : "chain (caller -> callee)");
	size_t hidden = 0;
	for (size_t i = 0; i < nr; i++) {
		double pct = pc_pct(rows[i].weight, p->total_weight);
		if (pct < limit) {
			hidden++;
			continue;
		}
		fprintf(out, "  %6.2f%% %10llu %16llu  %s\n", pct,
			(unsigned long long)rows[i].samples, (unsigned long long)rows[i].weight,
			rows[i].text);
	}
	if (hidden)
		fprintf(out, "  ... %zu chain(s) below --percent-limit %g%%\n", hidden, limit);
out:
	for (size_t i = 0; i < nr; i++)
		free(rows[i].text);
	free(rows);
	return r;
}

long report_print_chains(FILE *out, const struct pc_set *s, const char *sym, bool callers,
			 double percent_limit)
{
	long total = 0;

	for (size_t i = 0; i < s->nr; i++) {
		long r = event_chains(out, s->ev[i], sym, callers, percent_limit);
		if (r < 0)
			return r;
		total += r;
	}
	return total;
}
