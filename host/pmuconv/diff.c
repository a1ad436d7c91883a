// SPDX-License-Identifier: MIT
/*
 * `pmuconv diff A B`: per function, self and total shares of each
 * recording's own total (so recordings of different length or period
 * compare), and the change B - A in percentage points; largest absolute
 * self change first. Optional differential flamegraph via the renderer.
 */
#include "cli.h"
#include "render.h"
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

struct diff_row {
	const char *name;
	int kind;
	double self_a, self_b, total_a, total_b; /* percent of each total */
};

static int cmp_row(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	double da = fabs(a->self_b - a->self_a), db = fabs(b->self_b - b->self_a);

	if (da != db)
		return da < db ? 1 : -1;
	da = fabs(a->total_b - a->total_a);
	db = fabs(b->total_b - b->total_a);
	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->name, b->name);
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Join the two function tables by (name, kind). Both are small relative
 * to samples; a sort-merge keeps this O(n log n). */
static int cmp_func_name(const void *pa, const void *pb)
{
	const struct pc_func_row *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : a->kind - b->kind;
}

int diff_rows(const struct pc_report_event *ra, const struct pc_report_event *rb,
	      struct diff_row **out, size_t *nr)
{
	uint64_t ta = ra->agg->prof.total_weight, tb = rb->agg->prof.total_weight;
	struct pc_func_row *a = ra->funcs, *b = rb->funcs;
	size_t na = ra->nr_funcs, nb = rb->nr_funcs, i = 0, j = 0, n = 0;
	struct diff_row *rows = calloc(na + nb + 1, sizeof(*rows));

	if (!rows)
		return -ENOMEM;
	/* report order is by weight; re-sort by name for the merge (the rows
	 * are owned by the report and not used in weight order afterwards) */
	qsort(a, na, sizeof(*a), cmp_func_name);
	qsort(b, nb, sizeof(*b), cmp_func_name);
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : cmp_func_name(&a[i], &b[j]);
		struct diff_row *d = &rows[n++];
		if (c <= 0) {
			d->name = a[i].name;
			d->kind = a[i].kind;
			d->self_a = share(a[i].self_weight, ta);
			d->total_a = share(a[i].total_weight, ta);
		}
		if (c >= 0) {
			d->name = b[j].name;
			d->kind = b[j].kind;
			d->self_b = share(b[j].self_weight, tb);
			d->total_b = share(b[j].total_weight, tb);
		}
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
	}
	qsort(rows, n, sizeof(*rows), cmp_row);
	*out = rows;
	*nr = n;
	return 0;
}

static struct pc_agg *pick_event(struct pc_set *s, const char *want, const char *path)
{
	if (want) {
		struct pc_agg *a = pc_set__find(s, want);
		if (!a)
			fprintf(stderr, "pmuconv diff: %s has no event '%s'\n", path, want);
		return a;
	}
	if (s->nr == 1)
		return s->ev[0];
	fprintf(stderr, "pmuconv diff: %s has %zu events; choose one with -e:", path, s->nr);
	for (size_t i = 0; i < s->nr; i++)
		fprintf(stderr, " %s", s->ev[i]->prof.event);
	fprintf(stderr, "\n");
	return NULL;
}

int cmd_diff(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set sa = {0}, sb = {0};
	struct pc_report_event ra = {0}, rb = {0};
	struct diff_row *rows = NULL;
	size_t nr = 0;
	FILE *out = NULL;
	int r = pc_cli_parse(&c, argc, argv,
			     OPT_EVENT | OPT_OUTPUT | OPT_FILTER | OPT_WEIGHT | OPT_INPUT |
				     OPT_JSON | OPT_TOP,
			     pc_find_cmd("diff"), 2, 2);

	if (r)
		return r == 1 ? 0 : 2;
	if (c.top == 20)
		c.top = 30;
	if (pc_cli_svg && !render_diff_flamegraph_svg) {
		fprintf(stderr, "pmuconv diff: --svg: not built (no flamegraph renderer in this "
				"pmuconv)\n");
		return 3;
	}
	if ((r = pc_cli_load(&c, &sa, 0)) || (r = pc_cli_load(&c, &sb, 1)))
		goto done;
	struct pc_agg *a = pick_event(&sa, c.load.filter.event, c.pos[0]);
	struct pc_agg *b = a ? pick_event(&sb, c.load.filter.event, c.pos[1]) : NULL;
	if (!a || !b) {
		r = 2;
		goto done;
	}
	if (strcmp(a->prof.event, b->prof.event))
		pc_warn("diff: comparing different events '%s' and '%s'", a->prof.event,
			b->prof.event);
	if (a->acct.weight_is_period != b->acct.weight_is_period ||
	    strcmp(a->prof.unit, b->prof.unit))
		pc_warn("diff: the recordings weigh samples differently (%s vs %s); shares are "
			"still comparable, counts are not",
			a->prof.unit, b->prof.unit);
	if (pc_report__build(&ra, a) || pc_report__build(&rb, b) ||
	    diff_rows(&ra, &rb, &rows, &nr)) {
		fprintf(stderr, "pmuconv diff: out of memory\n");
		r = 1;
		goto done;
	}
	out = pc_cli_open_out(c.out);
	if (!out) {
		r = 1;
		goto done;
	}
	char ua[96], ub[96];
	if (c.json) {
		fprintf(out, "{\n \"a\": {\"source\": ");
		pc_json_str(out, c.pos[0]);
		fprintf(out, ", \"event\": ");
		pc_json_str(out, a->prof.event);
		fprintf(out, ", \"samples\": %llu, \"total_weight\": %llu, \"weight\": ",
			(unsigned long long)a->prof.total_samples,
			(unsigned long long)a->prof.total_weight);
		pc_json_str(out, pc_unit_label(a, ua, sizeof(ua)));
		fprintf(out, "},\n \"b\": {\"source\": ");
		pc_json_str(out, c.pos[1]);
		fprintf(out, ", \"event\": ");
		pc_json_str(out, b->prof.event);
		fprintf(out, ", \"samples\": %llu, \"total_weight\": %llu, \"weight\": ",
			(unsigned long long)b->prof.total_samples,
			(unsigned long long)b->prof.total_weight);
		pc_json_str(out, pc_unit_label(b, ub, sizeof(ub)));
		fprintf(out, "},\n \"functions\": [");
		for (size_t i = 0; i < nr && i < c.top; i++) {
			fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
			pc_json_str(out, rows[i].name);
			fprintf(out,
				", \"self_a\": %.4f, \"self_b\": %.4f, \"self_delta\": %.4f, "
				"\"total_a\": %.4f, \"total_b\": %.4f, \"total_delta\": %.4f}",
				rows[i].self_a, rows[i].self_b, rows[i].self_b - rows[i].self_a,
				rows[i].total_a, rows[i].total_b,
				rows[i].total_b - rows[i].total_a);
		}
		fprintf(out, "]\n}\n");
	} else {
		fprintf(out, "A: %s: event %s, %llu samples, weight = %s\n", c.pos[0],
			a->prof.event, (unsigned long long)a->prof.total_samples,
			pc_unit_label(a, ua, sizeof(ua)));
		fprintf(out, "B: %s: event %s, %llu samples, weight = %s\n", c.pos[1],
			b->prof.event, (unsigned long long)b->prof.total_samples,
			pc_unit_label(b, ub, sizeof(ub)));
		fprintf(out, "shares are percent of each recording's total; delta = B - A in "
			     "percentage points\n\n");
		fprintf(out, "  %7s %7s %8s  %7s %7s %8s  %s\n", "self A", "self B", "delta",
			"total A", "total B", "delta", "function");
		for (size_t i = 0; i < nr && i < c.top; i++) {
			const struct diff_row *d = &rows[i];
			fprintf(out, "  %6.2f%% %6.2f%% %+7.2f  %6.2f%% %6.2f%% %+7.2f  %s\n",
				d->self_a, d->self_b, d->self_b - d->self_a, d->total_a, d->total_b,
				d->total_b - d->total_a, d->name);
		}
		if (nr > c.top)
			fprintf(out, "  ... %zu more\n", nr - c.top);
	}
	r = pc_cli_close_out(out, c.out);
	if (!r && pc_cli_svg) {
		struct render_opts ro;
		char sub[256], unit[96];
		FILE *f = pc_cli_open_out(pc_cli_svg);
		pc_render_opts(&ro, b, sub, sizeof(sub), unit, sizeof(unit));
		if (!f) {
			r = 1;
			goto done;
		}
		int e = render_diff_flamegraph_svg(f, &a->prof, &b->prof, &ro);
		if (e)
			fprintf(stderr, "pmuconv: %s: rendering failed: %s\n", pc_cli_svg,
				strerror(-e));
		r = pc_cli_close_out(f, pc_cli_svg) || e ? 1 : 0;
	}
done:
	free(rows);
	pc_report__free(&ra);
	pc_report__free(&rb);
	pc_set__free(&sa);
	pc_set__free(&sb);
	return r;
}
