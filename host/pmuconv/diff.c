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
#include <string.h>

static int cmp_row(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	double da = fabs(a->s[1].self - a->s[0].self), db = fabs(b->s[1].self - b->s[0].self);

	if (da != db)
		return da < db ? 1 : -1;
	da = fabs(a->s[1].total - a->s[0].total);
	db = fabs(b->s[1].total - b->s[0].total);
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

/* Row d's side k (A 0, B 1) from that recording's function row f. */
static void side(struct diff_row *d, int k, const struct pc_func_row *f, uint64_t total)
{
	d->name = f->name;
	d->kind = f->kind;
	d->s[k] = (struct diff_side){pc_pct(f->self_weight, total), pc_pct(f->total_weight, total),
				     f->self_weight, f->total_weight, f->self_samples};
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
		if (c <= 0)
			side(d, 0, &a[i], ta);
		if (c >= 0)
			side(d, 1, &b[j], tb);
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

#define R4(v) pc_json_real(v, 4) /* as the text shows it */

/* One recording's side of a --json diff ("a" or "b"); secs: --absolute. */
static json_t *json_side(const char *path, const struct pc_agg *ev, const double *secs)
{
	uint64_t n = ev->prof.total_samples, w = ev->prof.total_weight;
	json_t *o = json_pack("{s:o, s:o}", "source", pc_json_str(path), "event",
			      pc_json_str(ev->prof.event));
	char ub[96];

	if (secs)
		json_object_update_new(o, json_pack("{s:o, s:I, s:o, s:I, s:o}", "seconds",
						    pc_json_real(*secs, 6), "samples", PC_JI(n),
						    "samples_per_s", R4((double)n / *secs),
						    "total_weight", PC_JI(w), "weight_per_s",
						    R4((double)w / *secs)));
	else
		json_object_update_new(
			o, json_pack("{s:I, s:I}", "samples", PC_JI(n), "total_weight", PC_JI(w)));
	json_object_set_new(o, "weight", pc_json_str(pc_unit_label(ev, ub, sizeof(ub))));
	return o;
}

static int json_diff(FILE *out, const char *const path[2], const struct pc_agg *const ev[2],
		     const double secs[2], json_t *functions)
{
	return pc_json_dump(out, json_pack("{s:o, s:o, s:o}", "a",
					   json_side(path[0], ev[0], secs ? &secs[0] : NULL), "b",
					   json_side(path[1], ev[1], secs ? &secs[1] : NULL),
					   "functions", functions));
}

int diff_print(FILE *out, const char *const path[2], const struct pc_agg *const ev[2],
	       const struct diff_row *rows, size_t nr, size_t top, int json)
{
	char ub[96];

	if (json) {
		json_t *fn = json_array();

		for (size_t i = 0; i < nr && i < top; i++)
			json_array_append_new(
				fn,
				json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name",
					  pc_json_str(rows[i].name), "self_a",
					  R4(rows[i].s[0].self), "self_b", R4(rows[i].s[1].self),
					  "self_delta", R4(rows[i].s[1].self - rows[i].s[0].self),
					  "total_a", R4(rows[i].s[0].total), "total_b",
					  R4(rows[i].s[1].total), "total_delta",
					  R4(rows[i].s[1].total - rows[i].s[0].total)));
		return json_diff(out, path, ev, NULL, fn);
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
		fprintf(out, "  %6.2f%% %6.2f%% %+7.2f  %6.2f%% %6.2f%% %+7.2f  %s\n", d->s[0].self,
			d->s[1].self, d->s[1].self - d->s[0].self, d->s[0].total, d->s[1].total,
			d->s[1].total - d->s[0].total, d->name);
	}
	if (nr > top)
		fprintf(out, "  ... %zu more\n", nr - top);
	return ferror(out) ? -EIO : 0;
}

/* for the absolute sort: the two run times */
static double abs_secs[2];

static double per_s(uint64_t v, int k)
{
	return (double)v / abs_secs[k];
}

static int cmp_row_abs(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	double da = fabs(per_s(a->s[1].self_w, 1) - per_s(a->s[0].self_w, 0));
	double db = fabs(per_s(b->s[1].self_w, 1) - per_s(b->s[0].self_w, 0));

	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->name, b->name);
}

int diff_print_absolute(FILE *out, const char *const path[2], const struct pc_agg *const ev[2],
			const double secs[2], struct diff_row *rows, size_t nr, size_t top,
			int json)
{
	char ub[96];

	abs_secs[0] = secs[0];
	abs_secs[1] = secs[1];
	qsort(rows, nr, sizeof(*rows), cmp_row_abs);
	if (json) {
		json_t *fn = json_array();

		for (size_t i = 0; i < nr && i < top; i++) {
			const struct diff_row *d = &rows[i];
			json_array_append_new(
				fn,
				json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name",
					  pc_json_str(d->name), "self_per_s_a",
					  R4(per_s(d->s[0].self_w, 0)), "self_per_s_b",
					  R4(per_s(d->s[1].self_w, 1)), "self_per_s_delta",
					  R4(per_s(d->s[1].self_w, 1) - per_s(d->s[0].self_w, 0)),
					  "total_per_s_a", R4(per_s(d->s[0].total_w, 0)),
					  "total_per_s_b", R4(per_s(d->s[1].total_w, 1)),
					  "self_samples_per_s_a", R4(per_s(d->s[0].self_s, 0)),
					  "self_samples_per_s_b", R4(per_s(d->s[1].self_s, 1))));
		}
		return json_diff(out, path, ev, secs, fn);
	}
	for (int k = 0; k < 2; k++)
		fprintf(out,
			"%c: %s: event %s, run time %.3f s, %llu samples (%.2f/s), weight = %s, "
			"%.1f/s\n",
			"AB"[k], path[k], ev[k] -> prof.event, secs[k],
			(unsigned long long)ev[k]->prof.total_samples,
			(double)ev[k]->prof.total_samples / secs[k],
			pc_unit_label(ev[k], ub, sizeof(ub)),
			(double)ev[k]->prof.total_weight / secs[k]);
	fprintf(out, "absolute: weight and samples per second of each recording's run time; "
		     "delta = B - A per second, change relative to A\n\n");
	fprintf(out, "  %14s %14s %14s %8s  %11s %11s  %s\n", "self A/s", "self B/s", "delta/s",
		"change", "samples A/s", "samples B/s", "function");
	for (size_t i = 0; i < nr && i < top; i++) {
		const struct diff_row *d = &rows[i];
		double a = per_s(d->s[0].self_w, 0), b = per_s(d->s[1].self_w, 1);
		char ch[16];
		if (a > 0)
			snprintf(ch, sizeof(ch), "%+.1f%%", 100.0 * (b - a) / a);
		else
			snprintf(ch, sizeof(ch), "%s", b > 0 ? "new" : "-");
		fprintf(out, "  %14.1f %14.1f %+14.1f %8s  %11.2f %11.2f  %s\n", a, b, b - a, ch,
			per_s(d->s[0].self_s, 0), per_s(d->s[1].self_s, 1), d->name);
	}
	if (nr > top)
		fprintf(out, "  ... %zu more\n", nr - top);
	return ferror(out) ? -EIO : 0;
}
