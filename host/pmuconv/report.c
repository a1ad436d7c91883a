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
	if (ac->pebs_check[0] + ac->pebs_check[1] + ac->pebs_check[2] + ac->pebs_check[3])
		fprintf(out,
			"pebs check: %llu agree, %llu disagree, %llu not applicable, %llu "
			"undecodable: PEBS data addresses vs the instruction decoded at the "
			"record's IP%s\n",
			(unsigned long long)ac->pebs_check[0],
			(unsigned long long)ac->pebs_check[1],
			(unsigned long long)ac->pebs_check[2],
			(unsigned long long)ac->pebs_check[3],
			ac->pebs_check[1] ? "; WARNING: the PMU or pmuprof's decoder is wrong"
					  : "");
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

/* A share of the event's weight as the text prints it (%.4f). */
static json_t *pct4(uint64_t weight, const struct pc_agg *a)
{
	return pc_json_real(pc_pct(weight, a->prof.total_weight), 4);
}

static json_t *json_groups(const struct pc_group_row *g, size_t n, size_t top,
			   const struct pc_agg *a, bool avail)
{
	json_t *arr = avail ? json_array() : json_null();

	for (size_t i = 0; avail && i < n && i < top; i++)
		json_array_append_new(
			arr, json_pack("{s:o, s:I, s:I, s:o}", "name", pc_json_str(g[i].name),
				       "samples", PC_JI(g[i].samples), "weight", PC_JI(g[i].weight),
				       "percent", pct4(g[i].weight, a)));
	return arr;
}

static const char *kind_name(int k)
{
	static const char *const n[] = {"user", "kernel", "unknown", "process"};
	return k >= 0 && k < 4 ? n[k] : "?";
}

static json_t *json_func(const struct pc_func_row *f, const struct pc_agg *a)
{
	return json_pack("{s:o, s:s, s:I, s:I, s:o, s:I, s:I, s:o}", "name", pc_json_str(f->name),
			 "kind", kind_name(f->kind), "self_samples", PC_JI(f->self_samples),
			 "self_weight", PC_JI(f->self_weight), "self_percent",
			 pct4(f->self_weight, a), "total_samples", PC_JI(f->total_samples),
			 "total_weight", PC_JI(f->total_weight), "total_percent",
			 pct4(f->total_weight, a));
}

/* Set key to a count, or to null when the input cannot know it. */
static void set_count(json_t *o, const char *key, bool known, uint64_t v)
{
	json_object_set_new(o, key, known ? json_integer(PC_JI(v)) : json_null());
}

static json_t *json_event(const struct pc_set *s, const struct pc_agg *a,
			  const struct pc_report_event *r, size_t top, double limit)
{
	json_t *o, *by = json_object(), *self = json_array(), *total = json_array();
	char ub[96];

	o = json_pack("{s:o, s:s, s:s, s:s?}", "event", pc_json_str(a->prof.event), "unit",
		      a->acct.weight_is_period ? a->prof.unit : "samples", "weight",
		      pc_unit_label(a, ub, sizeof(ub)), "source", source_name(a->acct.source));
	for (unsigned int k = 0; nr_sources(a) >= 2 && k < PC_NR_SOURCES; k++)
		if (a->acct.by_source[k])
			json_object_set_new(by, source_name(k) ? source_name(k) : "unknown",
					    json_integer(PC_JI(a->acct.by_source[k])));
	if (nr_sources(a) >= 2)
		json_object_set(o, "samples_by_source", by);
	json_decref(by);
	json_object_update_new(o, json_pack("{s:I, s:b, s:I, s:I}", "period", PC_JI(a->prof.period),
					    "freq_mode", a->prof.freq_mode, "samples",
					    PC_JI(a->prof.total_samples), "total_weight",
					    PC_JI(a->prof.total_weight)));
	set_count(o, "lost", per_event_lost_known(s), a->acct.lost);
	if (s->acct.has_throttle)
		set_count(o, "throttled", true, a->acct.throttled);
	if (a->acct.unthrottled)
		set_count(o, "unthrottled", true, a->acct.unthrottled);
	for (size_t j = 0; j < r->nr_funcs && json_array_size(self) < top; j++) {
		if ((!r->funcs[j].self_samples && !r->funcs[j].self_weight) ||
		    pc_pct(r->funcs[j].self_weight, a->prof.total_weight) < limit)
			break;
		json_array_append_new(self, json_func(&r->funcs[j], a));
	}
	for (size_t j = 0; j < r->nr_funcs && j < top; j++) {
		if (pc_pct(r->by_total[j]->total_weight, a->prof.total_weight) < limit)
			break;
		json_array_append_new(total, json_func(r->by_total[j], a));
	}
	json_object_set_new(o, "top_self", self);
	json_object_set_new(o, "top_total", total);
	json_object_set_new(o, "processes",
			    json_groups(r->procs, r->nr_procs, top, a, s->has_process));
	json_object_set_new(o, "cpus", json_groups(r->cpus, r->nr_cpus, (size_t)-1, a, s->has_cpu));
	return o;
}

static int print_json(FILE *out, const struct pc_set *s, struct pc_report_event *rs, size_t top,
		      double limit)
{
	const struct pc_accounting *ac = &s->acct;
	json_t *o, *ev = json_array();
	uint64_t nu = 0;

	o = json_pack("{s:o, s:s, s:I, s:o, s:o}", "source", pc_json_str(ac->source), "format",
		      ac->format ? ac->format : "", "format_version", PC_JI(ac->version),
		      "hostname", pc_json_str(ac->hostname), "kernel", pc_json_str(ac->kernel));
	set_count(o, "duration_ns", ac->has_time, ac->duration_ns);
	set_count(o, "samples", true, ac->samples);
	set_count(o, "filtered", true, ac->filtered);
	set_count(o, "lost", ac->has_lost, ac->lost);
	json_object_set_new(o, "lost_percent",
			    ac->has_lost ? pc_json_real(pc_pct(ac->lost, ac->lost + ac->samples), 4)
					 : json_null());
	set_count(o, "throttled", ac->has_throttle, ac->throttled);
	if (ac->unthrottled) /* present when the rate was raised back */
		set_count(o, "unthrottled", true, ac->unthrottled);
	if (ac->missed) { /* present when cpu-clock samples were due and not taken */
		set_count(o, "missed", true, ac->missed);
		json_object_set_new(
			o, "missed_percent",
			pc_json_real(pc_pct(ac->missed, ac->missed + ac->lost + ac->samples), 4));
	}
	if (ac->pebs_check[0] + ac->pebs_check[1] + ac->pebs_check[2] +
	    ac->pebs_check[3]) /* present when the module checked PEBS records */
		json_object_set_new(o, "pebs_check",
				    json_pack("{s:I, s:I, s:I, s:I}", "agree",
					      PC_JI(ac->pebs_check[0]), "disagree",
					      PC_JI(ac->pebs_check[1]), "not_applicable",
					      PC_JI(ac->pebs_check[2]), "undecodable",
					      PC_JI(ac->pebs_check[3])));
	for (size_t i = 0; i < PC_ARRAY_SIZE(ac->unwind); i++)
		nu += ac->unwind[i];
	if (nu) /* present when samples carried user stack copies */
		json_object_set_new(o, "unwind",
				    json_pack("{s:I, s:I, s:I, s:I, s:I}", "full",
					      PC_JI(ac->unwind[0]), "no_cfi", PC_JI(ac->unwind[1]),
					      "copy_too_small", PC_JI(ac->unwind[2]), "bad_memory",
					      PC_JI(ac->unwind[3]), "fp_fallback",
					      PC_JI(ac->unwind[4])));
	set_count(o, "skipped", true, ac->skipped);
	json_object_set_new(o, "truncated", json_boolean(ac->truncated));
	if (ac->truncated)
		json_object_set_new(o, "damage", pc_json_str(ac->damage));
	for (size_t i = 0; i < s->nr; i++)
		json_array_append_new(ev, json_event(s, s->ev[i], &rs[i], top, limit));
	json_object_set_new(o, "events", ev);
	return pc_json_dump(out, o);
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
			r = print_json(out, s, rs, o->top, o->percent_limit);
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
