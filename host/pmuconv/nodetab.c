// SPDX-License-Identifier: MIT
/* NUMA placement tables of a pmuprof recording (nodetab.h). */
#include "nodetab.h"
#include "psnames.h"
#include "samplewalk.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pmufile/pmufile.h"

struct ntctx {
	struct pc_nodetab *t;
	bool weight_period;
	int mode; /* enum pc_mode_filter: --user-only/--kernel-only keep that mode's samples */
	uint32_t index[PC_WALK_MAX_EVENTS]; /* walk event index -> t->ev, or UINT32_MAX */
};

static int nt_begin(void *ctx, const struct pc_walk_info *info)
{
	struct ntctx *c = ctx;
	struct pc_nodetab *t = c->t;
	const struct pc_nodemap *m = info->nodes;
	uint32_t n = pc_nodemap__nr_nodes(m);

	t->has_map = m && m->numa;
	t->has_phys = info->has_phys;
	if (!t->has_map)
		return PC_WALK_STOP; /* no section: skip the samples */
	t->nr_nodes = n;
	t->nodes = calloc(n, sizeof(*t->nodes));
	t->node_bytes = calloc(n, sizeof(*t->node_bytes));
	t->node_cpus = calloc(n, sizeof(*t->node_cpus));
	if (!t->nodes || !t->node_bytes || !t->node_cpus)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		char cpus[512];

		t->nodes[i] = pc_nodemap__node_id(m, i);
		t->node_bytes[i] = pmufile__numa_node_bytes(m->numa, t->nodes[i]);
		pmufile__numa_cpulist(m->numa, t->nodes[i], cpus, sizeof(cpus));
		t->node_cpus[i] = strdup(cpus);
		if (!t->node_cpus[i])
			return -ENOMEM;
	}
	for (uint32_t e = 0; e < info->nr_events && e < PC_WALK_MAX_EVENTS; e++) {
		struct pc_nodetab_event *ev;

		c->index[e] = UINT32_MAX;
		if (t->nr_events == PC_NODETAB_MAX_EVENTS)
			continue;
		ev = &t->ev[t->nr_events];
		snprintf(ev->name, sizeof(ev->name), "%s", info->events[e]);
		ev->cell_samples = calloc((size_t)PS__NR * (n + 1), sizeof(uint64_t));
		ev->cell_weight = calloc((size_t)PS__NR * (n + 1), sizeof(uint64_t));
		if (!ev->cell_samples || !ev->cell_weight)
			return -ENOMEM;
		c->index[e] = t->nr_events++;
	}
	return 0;
}

static int nt_sample(void *ctx, const struct pc_rec *r)
{
	struct ntctx *c = ctx;
	struct pc_nodetab *t = c->t;
	struct pc_nodetab_event *ev;
	uint64_t w = c->weight_period ? r->period : 1;
	int page = r->data_page;
	uint32_t col;
	enum pc_locality loc;

	if (!t->has_map || r->event >= PC_WALK_MAX_EVENTS || c->index[r->event] == UINT32_MAX ||
	    r->data_page == PS_NONE || (c->mode == PC_MODE_USER_ONLY && r->kernel_mode) ||
	    (c->mode == PC_MODE_KERNEL_ONLY && !r->kernel_mode))
		return 0;
	ev = &t->ev[c->index[r->event]];
	if (page < 0 || page >= PS__NR)
		page = PS_UNKNOWN;
	col = t->nr_nodes;
	if (r->data_node >= 0) {
		for (uint32_t i = 0; i < t->nr_nodes; i++)
			if (t->nodes[i] == r->data_node)
				col = i;
	} else {
		ev->why[r->node_why < PC_NODE__NR ? r->node_why : PC_NODE_OUTSIDE]++;
	}
	ev->samples++;
	ev->weight += w;
	ev->cell_samples[(size_t)page * (t->nr_nodes + 1) + col]++;
	ev->cell_weight[(size_t)page * (t->nr_nodes + 1) + col] += w;
	loc = pc_nodemap__locality(r->data_node, r->cpu_node);
	ev->loc_samples[page][loc]++;
	ev->loc_weight[page][loc] += w;
	return 0;
}

int pc_nodetab__load(struct pc_nodetab *t, const char *path, const struct pc_load_opts *o,
		     char *err, size_t errlen)
{
	struct ntctx c = {.t = t,
			  .weight_period = o->filter.weight == PC_WEIGHT_PERIOD,
			  .mode = o->filter.mode};
	const struct pc_walk_ops ops = {
		.begin = nt_begin, .sample = nt_sample, .quiet = true, .no_frames = true};

	char magic[8] = {0};
	FILE *f;

	memset(t, 0, sizeof(*t));
	t->mode = o->filter.mode;
	/* other formats (perf script text) carry no node map */
	f = fopen(path, "rb");
	if (!f || fread(magic, 1, sizeof(magic), f) != sizeof(magic) ||
	    memcmp(magic, "PMUPROF", 8)) {
		if (f)
			fclose(f);
		return 0;
	}
	fclose(f);
	return pc_walk_samples(path, o, &ops, &c, err, errlen);
}

void pc_nodetab__free(struct pc_nodetab *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; t->node_cpus && i < t->nr_nodes; i++)
		free(t->node_cpus[i]);
	free(t->node_cpus);
	free(t->nodes);
	free(t->node_bytes);
	for (uint32_t e = 0; e < t->nr_events; e++) {
		free(t->ev[e].cell_samples);
		free(t->ev[e].cell_weight);
	}
	memset(t, 0, sizeof(*t));
}

uint64_t pc_nodetab__cell(const struct pc_nodetab *t, const struct pc_nodetab_event *e, int page,
			  uint32_t col, bool weight)
{
	size_t i = (size_t)page * (t->nr_nodes + 1) + col;

	return weight ? e->cell_weight[i] : e->cell_samples[i];
}

static uint64_t row(const struct pc_nodetab *t, const struct pc_nodetab_event *e, int page,
		    bool weight)
{
	uint64_t s = 0;

	for (uint32_t c = 0; c <= t->nr_nodes; c++)
		s += pc_nodetab__cell(t, e, page, c, weight);
	return s;
}

static uint64_t column(const struct pc_nodetab *t, const struct pc_nodetab_event *e, uint32_t col,
		       bool weight)
{
	uint64_t s = 0;

	for (int p = 0; p < PS__NR; p++)
		s += pc_nodetab__cell(t, e, p, col, weight);
	return s;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static uint64_t unknown_total(const struct pc_nodetab_event *e)
{
	uint64_t n = 0;

	for (int w = 1; w < PC_NODE__NR; w++)
		n += e->why[w];
	return n;
}

static void print_loc(FILE *out, const char *name, const uint64_t w[PC_LOC__NR], bool unknown)
{
	uint64_t all = w[0] + w[1] + w[2];

	fprintf(out, "  %-7s %6.1f%% %7.1f%%", name, pct(w[PC_LOC_LOCAL], all),
		pct(w[PC_LOC_REMOTE], all));
	if (unknown)
		fprintf(out, " %7.1f%%", pct(w[PC_LOC_UNKNOWN], all));
	fprintf(out, "\n");
}

int pc_nodetab__print(FILE *out, const struct pc_nodetab *t)
{
	if (!t->has_map)
		return 0;
	fprintf(out, "\n== NUMA placement of data accesses (%s): %u node%s ==\n",
		t->mode == PC_MODE_USER_ONLY	 ? "user-mode samples"
		: t->mode == PC_MODE_KERNEL_ONLY ? "kernel-mode samples"
						 : "user and kernel samples",
		t->nr_nodes, t->nr_nodes == 1 ? "" : "s");
	for (uint32_t i = 0; i < t->nr_nodes; i++)
		fprintf(out, "node %d: CPUs %s, %.2f GiB\n", (int)t->nodes[i],
			t->node_cpus[i] ? t->node_cpus[i] : "?",
			(double)t->node_bytes[i] / (1u << 30));
	for (uint32_t x = 0; x < t->nr_events; x++) {
		const struct pc_nodetab_event *e = &t->ev[x];
		uint64_t unk = unknown_total(e), loc_all[PC_LOC__NR] = {0};
		bool show_unk = unk != 0;

		fprintf(out, "\nevent %s: %llu samples with a data address\n", e->name,
			(unsigned long long)e->samples);
		if (!e->samples)
			continue;
		fprintf(out,
			"Data page size x data node (samples, share of the event's weight):\n");
		fprintf(out, "  %-7s", "page");
		for (uint32_t c = 0; c < t->nr_nodes; c++) {
			char h[24];

			snprintf(h, sizeof(h), "node %d", (int)t->nodes[c]);
			fprintf(out, " %13s", h);
		}
		if (show_unk)
			fprintf(out, " %13s", "unknown");
		fprintf(out, "\n");
		for (int p = 0; p <= PS__NR; p++) {
			bool total = p == PS__NR;

			if (!total && !row(t, e, p, false))
				continue;
			fprintf(out, "  %-7s", total ? "all" : ps_page_names[p]);
			for (uint32_t c = 0; c <= t->nr_nodes; c++) {
				uint64_t n = total ? column(t, e, c, false)
						   : pc_nodetab__cell(t, e, p, c, false);
				uint64_t w = total ? column(t, e, c, true)
						   : pc_nodetab__cell(t, e, p, c, true);

				if (c == t->nr_nodes && !show_unk)
					break;
				fprintf(out, " %6llu %5.1f%%", (unsigned long long)n,
					pct(w, e->weight));
			}
			fprintf(out, "\n");
		}
		if (t->nr_nodes > 1) {
			fprintf(out, "Local/remote per page size (data node against the sampling "
				     "CPU's node, share of the row's weight):\n");
			fprintf(out, "  %-7s %7s %8s%s\n", "page", "local", "remote",
				show_unk ? "  unknown" : "");
			for (int p = 0; p < PS__NR; p++) {
				for (int l = 0; l < PC_LOC__NR; l++)
					loc_all[l] += e->loc_weight[p][l];
				if (e->loc_samples[p][0] + e->loc_samples[p][1] +
				    e->loc_samples[p][2])
					print_loc(out, ps_page_names[p], e->loc_weight[p],
						  show_unk);
			}
			print_loc(out, "all", loc_all, show_unk);
		} else {
			fprintf(out, "One node: every access is local.\n");
		}
		if (unk)
			fprintf(out,
				"Unknown data node: %llu samples (%llu with neither a physical "
				"address%s nor a node from the module, %llu outside every recorded "
				"range)\n",
				(unsigned long long)unk,
				(unsigned long long)e->why[PC_NODE_NO_PHYS],
				t->has_phys ? "" : " (recorded without privilege)",
				(unsigned long long)e->why[PC_NODE_OUTSIDE]);
	}
	return ferror(out) ? -EIO : 0;
}

json_t *pc_nodetab__json(const struct pc_nodetab *t)
{
	static const char *const loc_names[PC_LOC__NR] = {"local", "remote", "unknown"};
	json_t *nodes, *evs;

	if (!t->has_map)
		return json_null();
	nodes = json_array();
	for (uint32_t i = 0; i < t->nr_nodes; i++)
		json_array_append_new(nodes, json_pack("{s:i, s:o, s:I}", "node", (int)t->nodes[i],
						       "cpus", pc_json_str(t->node_cpus[i]),
						       "memory_bytes", PC_JI(t->node_bytes[i])));
	evs = json_array();
	for (uint32_t x = 0; x < t->nr_events; x++) {
		const struct pc_nodetab_event *e = &t->ev[x];
		json_t *matrix = json_array();

		for (int p = 0; p < PS__NR; p++) {
			json_t *cells = json_array(), *loc = json_object();
			uint64_t rw = row(t, e, p, true);

			if (!row(t, e, p, false)) {
				json_decref(cells);
				json_decref(loc);
				continue;
			}
			for (uint32_t c = 0; c <= t->nr_nodes; c++) {
				uint64_t w = pc_nodetab__cell(t, e, p, c, true);

				json_array_append_new(
					cells,
					json_pack("{s:o, s:I, s:I, s:o}", "node",
						  c < t->nr_nodes ? json_integer(t->nodes[c])
								  : json_null(),
						  "samples",
						  PC_JI(pc_nodetab__cell(t, e, p, c, false)),
						  "weight", PC_JI(w), "share",
						  pc_json_real(e->weight ? (double)w / e->weight
									 : 0.0,
							       4)));
			}
			for (int l = 0; l < PC_LOC__NR; l++)
				json_object_set_new(
					loc, loc_names[l],
					json_pack("{s:I, s:o}", "samples",
						  PC_JI(e->loc_samples[p][l]), "share",
						  pc_json_real(rw ? (double)e->loc_weight[p][l] / rw
								  : 0.0,
							       4)));
			json_array_append_new(matrix,
					      json_pack("{s:s, s:o, s:o}", "page", ps_page_names[p],
							"cells", cells, "locality", loc));
		}
		json_array_append_new(
			evs, json_pack("{s:o, s:I, s:I, s:o, s:{s:I, s:I}}", "event",
				       pc_json_str(e->name), "samples", PC_JI(e->samples), "weight",
				       PC_JI(e->weight), "matrix", matrix, "unknown",
				       "no_physical_address", PC_JI(e->why[PC_NODE_NO_PHYS]),
				       "outside_ranges", PC_JI(e->why[PC_NODE_OUTSIDE])));
	}
	return json_pack("{s:s, s:b, s:o, s:o}", "samples",
			 t->mode == PC_MODE_USER_ONLY	  ? "user"
			 : t->mode == PC_MODE_KERNEL_ONLY ? "kernel"
							  : "all",
			 "has_phys", t->has_phys, "nodes", nodes, "events", evs);
}
