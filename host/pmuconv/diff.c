// SPDX-License-Identifier: MIT
/*
 * The comparison of two recordings: per function, self and total shares of
 * each recording's own total (so recordings of different length or period
 * compare), and the change B - A in percentage points; largest absolute
 * self change first. Printed as text or JSON.
 */
#include "diff.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

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
			d->self_a = pc_pct(a[i].self_weight, ta);
			d->total_a = pc_pct(a[i].total_weight, ta);
		}
		if (c >= 0) {
			d->name = b[j].name;
			d->kind = b[j].kind;
			d->self_b = pc_pct(b[j].self_weight, tb);
			d->total_b = pc_pct(b[j].total_weight, tb);
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

int diff_print(FILE *out, const char *const path[2], const struct pc_agg *const ev[2],
	       const struct diff_row *rows, size_t nr, size_t top, int json)
{
	char ub[96];

	if (json) {
		for (int k = 0; k < 2; k++) {
			fprintf(out, k ? "},\n \"b\": {\"source\": " : "{\n \"a\": {\"source\": ");
			pc_json_str(out, path[k]);
			pc_json_kstr(out, ", \"event\": ", ev[k]->prof.event);
			fprintf(out, ", \"samples\": %llu, \"total_weight\": %llu, \"weight\": ",
				(unsigned long long)ev[k]->prof.total_samples,
				(unsigned long long)ev[k]->prof.total_weight);
			pc_json_str(out, pc_unit_label(ev[k], ub, sizeof(ub)));
		}
		fprintf(out, "},\n \"functions\": [");
		for (size_t i = 0; i < nr && i < top; i++) {
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
		return ferror(out) ? -EIO : 0;
	}
	for (int k = 0; k < 2; k++)
		fprintf(out, "%c: %s: event %s, %llu samples, weight = %s\n", "AB"[k], path[k],
			ev[k] -> prof.event, (unsigned long long)ev[k]->prof.total_samples,
			pc_unit_label(ev[k], ub, sizeof(ub)));
	fprintf(out, "shares are percent of each recording's total; delta = B - A in "
		     "percentage points\n\n");
	fprintf(out, "  %7s %7s %8s  %7s %7s %8s  %s\n", "self A", "self B", "delta", "total A",
		"total B", "delta", "function");
	for (size_t i = 0; i < nr && i < top; i++) {
		const struct diff_row *d = &rows[i];
		fprintf(out, "  %6.2f%% %6.2f%% %+7.2f  %6.2f%% %6.2f%% %+7.2f  %s\n", d->self_a,
			d->self_b, d->self_b - d->self_a, d->total_a, d->total_b,
			d->total_b - d->total_a, d->name);
	}
	if (nr > top)
		fprintf(out, "  ... %zu more\n", nr - top);
	return ferror(out) ? -EIO : 0;
}
