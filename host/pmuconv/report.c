// SPDX-License-Identifier: MIT
/* Per-event tables and labels derived from a finished profile, and the
 * `report` output (text and JSON) built from them. */
#include "report.h"
#include "render.h"

#include <errno.h>
#include <stdlib.h>
#include "include/uapi/pmuprof.h"

static int cmp_self(const void *pa, const void *pb)
{
	const struct pc_func_row *a = pa, *b = pb;

	if (a->self_weight != b->self_weight)
		return a->self_weight < b->self_weight ? 1 : -1;
	if (a->total_weight != b->total_weight)
		return a->total_weight < b->total_weight ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int cmp_total(const void *pa, const void *pb)
{
	const struct pc_func_row *a = *(struct pc_func_row *const *)pa;
	const struct pc_func_row *b = *(struct pc_func_row *const *)pb;

	if (a->total_weight != b->total_weight)
		return a->total_weight < b->total_weight ? 1 : -1;
	if (a->self_weight != b->self_weight)
		return a->self_weight < b->self_weight ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct pc_group_row *a = pa, *b = pb;

	if (a->weight != b->weight)
		return a->weight < b->weight ? 1 : -1;
	return strcmp(a->name, b->name);
}

int pc_report__build(struct pc_report_event *r, const struct pc_agg *a)
{
	const struct pc_profile *p = &a->prof;
	size_t n = p->nr_names ? p->nr_names : 1;
	struct pc_func_row *rows = calloc(n, sizeof(*rows));
	size_t *stamp = calloc(n, sizeof(*stamp));
	int32_t *map = malloc(n * sizeof(*map));
	struct pc_group_row *procs = calloc(n, sizeof(*procs));

	memset(r, 0, sizeof(*r));
	r->agg = a;
	if (!rows || !stamp || !map || !procs)
		goto nomem;
	for (size_t i = 0; i < p->nr_names; i++) {
		rows[i].name = p->names[i].name;
		rows[i].kind = p->names[i].kind;
		map[i] = -1;
	}
	for (size_t si = 0; si < p->nr_stacks; si++) {
		const struct pc_stack *st = &p->stacks[si];
		uint32_t leaf = UINT32_MAX;
		for (uint32_t k = 0; k < st->nr; k++) {
			uint32_t id = st->frames[k];
			if (p->names[id].kind == PC_FRAME_PROCESS) {
				if (k == 0) {
					struct pc_group_row *g = &procs[id];
					snprintf(g->name, sizeof(g->name), "%s", p->names[id].name);
					g->samples += st->samples;
					g->weight += st->weight;
				}
				continue;
			}
			leaf = id;
			if (stamp[id] == si + 1)
				continue; /* recursion: count once per stack */
			stamp[id] = si + 1;
			rows[id].total_samples += st->samples;
			rows[id].total_weight += st->weight;
		}
		if (leaf == UINT32_MAX) {
			r->no_frame_samples += st->samples;
			r->no_frame_weight += st->weight;
		} else {
			rows[leaf].self_samples += st->samples;
			rows[leaf].self_weight += st->weight;
		}
	}
	/* compact: functions that appear at all */
	size_t nf = 0, np = 0;
	for (size_t i = 0; i < p->nr_names; i++) {
		if (p->names[i].kind == PC_FRAME_PROCESS) {
			if (procs[i].samples)
				procs[np++] = procs[i];
			continue;
		}
		if (rows[i].total_samples || rows[i].total_weight)
			rows[nf++] = rows[i];
	}
	qsort(rows, nf, sizeof(*rows), cmp_self);
	qsort(procs, np, sizeof(*procs), cmp_group);
	r->funcs = rows;
	r->nr_funcs = nf;
	r->procs = procs;
	r->nr_procs = np;
	r->by_total = malloc((nf ? nf : 1) * sizeof(*r->by_total));
	if (!r->by_total)
		goto nomem_r;
	for (size_t i = 0; i < nf; i++)
		r->by_total[i] = &rows[i];
	qsort(r->by_total, nf, sizeof(*r->by_total), cmp_total);
	r->cpus = calloc(a->nr_cpus ? a->nr_cpus : 1, sizeof(*r->cpus));
	if (!r->cpus)
		goto nomem_r;
	for (size_t c = 0; c < a->nr_cpus; c++) {
		if (!a->cpus[c].samples)
			continue;
		struct pc_group_row *g = &r->cpus[r->nr_cpus++];
		snprintf(g->name, sizeof(g->name), "cpu %zu", c);
		g->samples = a->cpus[c].samples;
		g->weight = a->cpus[c].weight;
	}
	free(stamp);
	free(map);
	return 0;
nomem_r:
	free(stamp);
	free(map);
	pc_report__free(r);
	return -ENOMEM;
nomem:
	free(rows);
	free(stamp);
	free(map);
	free(procs);
	return -ENOMEM;
}

void pc_report__free(struct pc_report_event *r)
{
	if (!r)
		return;
	free(r->funcs);
	free(r->by_total);
	free(r->procs);
	free(r->cpus);
	memset(r, 0, sizeof(*r));
}

const char *pc_unit_label(const struct pc_agg *a, char *buf, size_t len)
{
	if (!a->acct.weight_is_period)
		snprintf(buf, len, "samples");
	else
		snprintf(buf, len, "estimated %s (sum of sample periods)", a->prof.unit);
	return buf;
}

void pc_render_opts(struct render_opts *ro, const struct pc_agg *a, char *sub, size_t sublen,
		    char *unit, size_t unitlen)
{
	memset(ro, 0, sizeof(*ro));
	ro->title = a->prof.event;
	pc_unit_label(a, unit, unitlen);
	ro->unit_label = unit;
	if (a->prof.freq_mode)
		snprintf(sub, sublen, "period varies (frequency mode), %llu samples",
			 (unsigned long long)a->prof.total_samples);
	else if (a->prof.period)
		snprintf(sub, sublen, "period %llu %s, %llu samples",
			 (unsigned long long)a->prof.period, a->prof.unit,
			 (unsigned long long)a->prof.total_samples);
	else
		snprintf(sub, sublen, "%llu samples", (unsigned long long)a->prof.total_samples);
	ro->subtitle = sub;
}

static const char *source_name(uint32_t src) /* NULL if unknown */
{
	static const char *const names[PC_NR_SOURCES] = {[PMUPROF_SOURCE_PMU] = "pmu",
							 [PMUPROF_SOURCE_NMI_IPI] = "nmi-ipi",
							 [PMUPROF_SOURCE_TIMER] = "timer",
							 [PMUPROF_SOURCE_PEBS] = "pebs"};

	return src < PC_NR_SOURCES ? names[src] : NULL;
}

/* Sources that delivered this event's samples, when more than one did. */
static unsigned int nr_sources(const struct pc_agg *a)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < PC_NR_SOURCES; i++)
		n += a->acct.by_source[i] != 0;
	return n;
}

/* A cpu-clock event records NMI_IPI samples and, on the CPUs that send the
 * NMIs for want of a free CPU (or a lone one), TIMER samples, which cannot
 * land in IRQ-disabled code: say how many of each. */
static void print_sources(FILE *out, const struct pc_agg *a)
{
	const char *sep = "";

	if (nr_sources(a) < 2)
		return;
	fprintf(out, "    samples by source:");
	for (unsigned int i = 0; i < PC_NR_SOURCES; i++) {
		const char *name = source_name(i);

		if (!a->acct.by_source[i])
			continue;
		fprintf(out, "%s %s %llu (%.1f %%)", sep, name ? name : "unknown",
			(unsigned long long)a->acct.by_source[i],
			pc_pct(a->acct.by_source[i], a->acct.samples));
		sep = ",";
	}
	fprintf(out, "\n");
	if (a->acct.by_source[PMUPROF_SOURCE_TIMER])
		fprintf(out, "    (timer samples come from a CPU's own timer interrupt and cannot "
			     "land in IRQ-disabled code;\n     leave one CPU out of -C for NMI "
			     "samples everywhere)\n");
}

/* LOST records name a CPU, not an event: per-event losses are known only
 * when the recorder attributed them (they then add up to the total). */
static bool per_event_lost_known(const struct pc_set *s)
{
	uint64_t sum = 0;

	if (!s->acct.has_lost)
		return false;
	for (size_t i = 0; i < s->nr; i++)
		sum += s->ev[i]->acct.lost;
	return sum == s->acct.lost;
}

void report_print_accounting(FILE *out, const struct pc_set *s)
{
	const struct pc_accounting *ac = &s->acct;

	fprintf(out, "source:     %s (%s", ac->source, ac->format ? ac->format : "?");
	if (ac->version)
		fprintf(out, " v%u", ac->version);
	fprintf(out, ")\n");
	if (ac->hostname[0] || ac->kernel[0])
		fprintf(out, "recorded:   host %s, kernel %s%s%s\n", ac->hostname, ac->kernel,
			ac->cpu_model[0] ? ", cpu " : "", ac->cpu_model);
	if (ac->cmdline[0])
		fprintf(out, "command:    %s\n", ac->cmdline);
	if (ac->has_time)
		fprintf(out, "duration:   %.3f s\n", (double)ac->duration_ns / 1e9);
	else
		fprintf(out, "duration:   unknown (input has no timestamps)\n");
	fprintf(out, "samples:    %llu read", (unsigned long long)ac->samples);
	if (ac->filtered)
		fprintf(out, ", %llu removed by filters", (unsigned long long)ac->filtered);
	fprintf(out, "\n");
	if (ac->has_lost)
		fprintf(out, "lost:       %llu (%.2f%% of %llu captured)\n",
			(unsigned long long)ac->lost, pc_pct(ac->lost, ac->lost + ac->samples),
			(unsigned long long)(ac->lost + ac->samples));
	else
		fprintf(out, "lost:       unknown (not recorded in %s input)\n",
			ac->format ? ac->format : "this");
	if (ac->has_throttle && ac->unthrottled)
		fprintf(out, "throttled:  %llu (rate raised back %llu times)\n",
			(unsigned long long)ac->throttled, (unsigned long long)ac->unthrottled);
	else if (ac->has_throttle)
		fprintf(out, "throttled:  %llu\n", (unsigned long long)ac->throttled);
	else
		fprintf(out, "throttled:  unknown (not recorded in %s input)\n",
			ac->format ? ac->format : "this");
	if (ac->missed) {
		double pct = pc_pct(ac->missed, ac->missed + ac->lost + ac->samples);

		fprintf(out,
			"missed:     %llu (%.2f%% of %llu due): cpu-clock samples not taken, "
			"the CPU was not running (descheduled vCPU) or stalled%s\n",
			(unsigned long long)ac->missed, pct,
			(unsigned long long)(ac->missed + ac->lost + ac->samples),
			pct > 1.0 ? "; WARNING: shares are biased, record on a quieter host" : "");
	}
	if (ac->skipped)
		fprintf(out, "skipped:    %llu unparsable line(s)/record(s); first: %s\n",
			(unsigned long long)ac->skipped, ac->first_skip);
	if (ac->truncated)
		fprintf(out, "damaged:    %s (salvaged what precedes it)\n", ac->damage);
	uint64_t nu = 0;
	for (size_t i = 0; i < PC_ARRAY_SIZE(ac->unwind); i++)
		nu += ac->unwind[i];
	if (nu)
		fprintf(out,
			"unwind:     %llu user stack copies: %llu unwound fully, %llu stopped (no "
			"CFI "
			"%llu, copy too small %llu, bad memory %llu), %llu FP fallback\n",
			(unsigned long long)nu, (unsigned long long)ac->unwind[0],
			(unsigned long long)(ac->unwind[1] + ac->unwind[2] + ac->unwind[3]),
			(unsigned long long)ac->unwind[1], (unsigned long long)ac->unwind[2],
			(unsigned long long)ac->unwind[3], (unsigned long long)ac->unwind[4]);
	else if (ac->unwind_ignored)
		fprintf(out, "unwind:     user stack copies ignored (--call-graph fp)\n");
	fprintf(out, "events:     %zu\n", s->nr);
	bool ev_lost = per_event_lost_known(s);
	for (size_t i = 0; i < s->nr; i++) {
		const struct pc_agg *a = s->ev[i];
		const char *src = source_name(a->acct.source);
		char ub[96];
		fprintf(out, "  %-24s", a->prof.event);
		if (src)
			fprintf(out, " source %s,", src);
		if (a->prof.freq_mode)
			fprintf(out, " period varies (frequency mode),");
		else if (a->prof.period)
			fprintf(out, " period %llu %s,", (unsigned long long)a->prof.period,
				a->prof.unit);
		fprintf(out, " %llu samples", (unsigned long long)a->prof.total_samples);
		if (a->acct.weight_is_period)
			fprintf(out, ", %llu %s", (unsigned long long)a->prof.total_weight,
				pc_unit_label(a, ub, sizeof(ub)));
		if (ev_lost)
			fprintf(out, ", %llu lost", (unsigned long long)a->acct.lost);
		if (s->acct.has_throttle)
			fprintf(out, ", %llu throttled", (unsigned long long)a->acct.throttled);
		if (a->acct.unthrottled)
			fprintf(out, " (%llu raised back)",
				(unsigned long long)a->acct.unthrottled);
		fprintf(out, "\n");
		print_sources(out, a);
	}
}

static void print_groups(FILE *out, const char *title, const struct pc_group_row *g, size_t n,
			 size_t top, const struct pc_agg *a, double limit)
{
	const struct pc_profile *p = &a->prof;

	fprintf(out, "\n%s:\n  %7s %10s %16s  %s\n", title, "share", "samples", "est.count",
		"name");
	for (size_t i = 0; i < n && i < top; i++)
		if (pc_pct(g[i].weight, p->total_weight) >= limit)
			fprintf(out, "  %6.2f%% %10llu %16llu  %s\n",
				pc_pct(g[i].weight, p->total_weight),
				(unsigned long long)g[i].samples, (unsigned long long)g[i].weight,
				g[i].name);
	if (n > top)
		fprintf(out, "  ... %zu more\n", n - top);
}

static void print_text_event(FILE *out, const struct pc_report_event *r, size_t top,
			     const struct pc_set *s, double limit)
{
	const struct pc_agg *a = r->agg;
	const struct pc_profile *p = &a->prof;
	char ub[96];

	fprintf(out, "\n== event %s: %llu samples, weight = %s ==\n", p->event,
		(unsigned long long)p->total_samples, pc_unit_label(a, ub, sizeof(ub)));
	fprintf(out, "\nTop functions by self (exclusive):\n  %7s %10s %16s %7s  %s\n", "self",
		"samples", "est.count", "total", "function");
	for (size_t i = 0; i < r->nr_funcs && i < top; i++) {
		const struct pc_func_row *f = &r->funcs[i];
		if ((!f->self_samples && !f->self_weight) ||
		    pc_pct(f->self_weight, p->total_weight) < limit)
			break;
		fprintf(out, "  %6.2f%% %10llu %16llu %6.2f%%  %s\n",
			pc_pct(f->self_weight, p->total_weight),
			(unsigned long long)f->self_samples, (unsigned long long)f->self_weight,
			pc_pct(f->total_weight, p->total_weight), f->name);
	}
	fprintf(out, "\nTop functions by total (inclusive):\n  %7s %10s %16s %7s  %s\n", "total",
		"samples", "est.count", "self", "function");
	for (size_t i = 0; i < r->nr_funcs && i < top; i++) {
		const struct pc_func_row *f = r->by_total[i];
		if (pc_pct(f->total_weight, p->total_weight) < limit)
			break;
		fprintf(out, "  %6.2f%% %10llu %16llu %6.2f%%  %s\n",
			pc_pct(f->total_weight, p->total_weight),
			(unsigned long long)f->total_samples, (unsigned long long)f->total_weight,
			pc_pct(f->self_weight, p->total_weight), f->name);
	}
	if (r->no_frame_samples)
		fprintf(out, "  (%llu samples had no function frame)\n",
			(unsigned long long)r->no_frame_samples);
	if (s->has_process)
		print_groups(out, "By process", r->procs, r->nr_procs, top, a, limit);
	else
		fprintf(out, "\nBy process: not available (%s input has no process data)\n",
			s->acct.format);
	if (s->has_cpu)
		print_groups(out, "By CPU", r->cpus, r->nr_cpus, (size_t)-1, a, limit);
	else
		fprintf(out, "\nBy CPU: not available (%s input has no CPU data)\n",
			s->acct.format);
}

static void json_groups(FILE *out, const char *key, const struct pc_group_row *g, size_t n,
			size_t top, const struct pc_agg *a, bool avail)
{
	pc_json_kstr(out, ",\n   ", key);
	if (!avail) {
		fprintf(out, ": null");
		return;
	}
	fprintf(out, ": [");
	for (size_t i = 0; i < n && i < top; i++) {
		fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
		pc_json_str(out, g[i].name);
		fprintf(out, ", \"samples\": %llu, \"weight\": %llu, \"percent\": %.4f}",
			(unsigned long long)g[i].samples, (unsigned long long)g[i].weight,
			pc_pct(g[i].weight, a->prof.total_weight));
	}
	fprintf(out, "]");
}

static const char *kind_name(int k)
{
	static const char *const n[] = {"user", "kernel", "unknown", "process"};
	return k >= 0 && k < 4 ? n[k] : "?";
}

static void json_func(FILE *out, const struct pc_func_row *f, const struct pc_agg *a)
{
	pc_json_kstr(out, "{\"name\": ", f->name);
	fprintf(out,
		", \"kind\": \"%s\", \"self_samples\": %llu, \"self_weight\": %llu, "
		"\"self_percent\": %.4f, \"total_samples\": %llu, \"total_weight\": %llu, "
		"\"total_percent\": %.4f}",
		kind_name(f->kind), (unsigned long long)f->self_samples,
		(unsigned long long)f->self_weight, pc_pct(f->self_weight, a->prof.total_weight),
		(unsigned long long)f->total_samples, (unsigned long long)f->total_weight,
		pc_pct(f->total_weight, a->prof.total_weight));
}

static void print_json(FILE *out, const struct pc_set *s, struct pc_report_event *rs, size_t top,
		       double limit)
{
	const struct pc_accounting *ac = &s->acct;

	pc_json_kstr(out, "{\n \"source\": ", ac->source);
	pc_json_kstr(out, ",\n \"format\": ", ac->format ? ac->format : "");
	fprintf(out, ",\n \"format_version\": %u", ac->version);
	pc_json_kstr(out, ",\n \"hostname\": ", ac->hostname);
	pc_json_kstr(out, ",\n \"kernel\": ", ac->kernel);
	if (ac->has_time)
		fprintf(out, ",\n \"duration_ns\": %llu", (unsigned long long)ac->duration_ns);
	else
		fprintf(out, ",\n \"duration_ns\": null");
	fprintf(out, ",\n \"samples\": %llu", (unsigned long long)ac->samples);
	fprintf(out, ",\n \"filtered\": %llu", (unsigned long long)ac->filtered);
	if (ac->has_lost)
		fprintf(out, ",\n \"lost\": %llu,\n \"lost_percent\": %.4f",
			(unsigned long long)ac->lost, pc_pct(ac->lost, ac->lost + ac->samples));
	else
		fprintf(out, ",\n \"lost\": null,\n \"lost_percent\": null");
	if (ac->has_throttle)
		fprintf(out, ",\n \"throttled\": %llu", (unsigned long long)ac->throttled);
	else
		fprintf(out, ",\n \"throttled\": null");
	if (ac->unthrottled) /* present when the rate was raised back */
		fprintf(out, ",\n \"unthrottled\": %llu", (unsigned long long)ac->unthrottled);
	if (ac->missed) /* present when cpu-clock samples were due and not taken */
		fprintf(out, ",\n \"missed\": %llu,\n \"missed_percent\": %.4f",
			(unsigned long long)ac->missed,
			pc_pct(ac->missed, ac->missed + ac->lost + ac->samples));
	uint64_t nu = 0;
	for (size_t i = 0; i < PC_ARRAY_SIZE(ac->unwind); i++)
		nu += ac->unwind[i];
	if (nu) /* present when samples carried user stack copies */
		fprintf(out,
			",\n \"unwind\": {\"full\": %llu, \"no_cfi\": %llu, \"copy_too_small\": "
			"%llu, \"bad_memory\": %llu, \"fp_fallback\": %llu}",
			(unsigned long long)ac->unwind[0], (unsigned long long)ac->unwind[1],
			(unsigned long long)ac->unwind[2], (unsigned long long)ac->unwind[3],
			(unsigned long long)ac->unwind[4]);
	fprintf(out, ",\n \"skipped\": %llu", (unsigned long long)ac->skipped);
	fprintf(out, ",\n \"truncated\": %s", ac->truncated ? "true" : "false");
	if (ac->truncated)
		pc_json_kstr(out, ",\n \"damage\": ", ac->damage);
	fprintf(out, ",\n \"events\": [");
	for (size_t i = 0; i < s->nr; i++) {
		const struct pc_agg *a = s->ev[i];
		const struct pc_report_event *r = &rs[i];
		char ub[96];
		fprintf(out, "%s\n  {\"event\": ", i ? "," : "");
		pc_json_str(out, a->prof.event);
		pc_json_kstr(out, ",\n   \"unit\": ",
			     a->acct.weight_is_period ? a->prof.unit : "samples");
		pc_json_kstr(out, ",\n   \"weight\": ", pc_unit_label(a, ub, sizeof(ub)));
		pc_json_kstr(out, ",\n   \"source\": ", source_name(a->acct.source));
		if (nr_sources(a) >= 2) {
			const char *sep = "";

			fprintf(out, ",\n   \"samples_by_source\": {");
			for (unsigned int k = 0; k < PC_NR_SOURCES; k++) {
				const char *name = source_name(k);

				if (!a->acct.by_source[k])
					continue;
				fprintf(out, "%s\"%s\": %llu", sep, name ? name : "unknown",
					(unsigned long long)a->acct.by_source[k]);
				sep = ", ";
			}
			fprintf(out, "}");
		}
		fprintf(out, ",\n   \"period\": %llu, \"freq_mode\": %s",
			(unsigned long long)a->prof.period, a->prof.freq_mode ? "true" : "false");
		fprintf(out, ",\n   \"samples\": %llu, \"total_weight\": %llu",
			(unsigned long long)a->prof.total_samples,
			(unsigned long long)a->prof.total_weight);
		if (per_event_lost_known(s))
			fprintf(out, ", \"lost\": %llu", (unsigned long long)a->acct.lost);
		else
			fprintf(out, ", \"lost\": null");
		if (s->acct.has_throttle)
			fprintf(out, ", \"throttled\": %llu",
				(unsigned long long)a->acct.throttled);
		if (a->acct.unthrottled)
			fprintf(out, ", \"unthrottled\": %llu",
				(unsigned long long)a->acct.unthrottled);
		fprintf(out, ",\n   \"top_self\": [");
		size_t k = 0;
		for (size_t j = 0; j < r->nr_funcs && k < top; j++) {
			if ((!r->funcs[j].self_samples && !r->funcs[j].self_weight) ||
			    pc_pct(r->funcs[j].self_weight, a->prof.total_weight) < limit)
				break;
			fprintf(out, "%s\n    ", k++ ? "," : "");
			json_func(out, &r->funcs[j], a);
		}
		fprintf(out, "],\n   \"top_total\": [");
		for (size_t j = 0; j < r->nr_funcs && j < top; j++) {
			if (pc_pct(r->by_total[j]->total_weight, a->prof.total_weight) < limit)
				break;
			fprintf(out, "%s\n    ", j ? "," : "");
			json_func(out, r->by_total[j], a);
		}
		fprintf(out, "]");
		json_groups(out, "processes", r->procs, r->nr_procs, top, a, s->has_process);
		json_groups(out, "cpus", r->cpus, r->nr_cpus, (size_t)-1, a, s->has_cpu);
		fprintf(out, "}");
	}
	fprintf(out, "]\n}\n");
}

int report_print(FILE *out, const struct pc_set *s, const struct report_opts *o)
{
	struct pc_report_event *rs = calloc(s->nr ? s->nr : 1, sizeof(*rs));
	int r = 0;

	if (!rs)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr && !r; i++)
		r = pc_report__build(&rs[i], s->ev[i]);
	if (!r) {
		if (o->json) {
			print_json(out, s, rs, o->top, o->percent_limit);
		} else {
			report_print_accounting(out, s);
			for (size_t i = 0; i < s->nr; i++)
				print_text_event(out, &rs[i], o->top, s, o->percent_limit);
		}
	}
	for (size_t i = 0; i < s->nr; i++)
		pc_report__free(&rs[i]);
	free(rs);
	return r;
}
