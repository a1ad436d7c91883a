// SPDX-License-Identifier: MIT
/*
 * Flamegraph SVG: the frame tree (stacks merged by identical prefix), its
 * layout, and the interactive SVG writer shared by `pmuconv flamegraph`,
 * `pmuconv diff --svg` and the HTML page.
 *
 * Layout (classic): the root "all" at the bottom, callers below callees,
 * each frame as wide as its inclusive value (weight, or samples with
 * by_samples), children left-aligned under their parent in name order.
 * Frames narrower than min_width_px are not written, nor anything above
 * them (their children are narrower still); they are counted instead, which
 * bounds the file size by the picture's resolution, not by the number of
 * unique stacks.
 *
 * Determinism: children are sorted by name, colours come from a hash of the
 * name, numbers are printed with fixed precision; nothing depends on time,
 * addresses or hash-table order.
 */
#include "render_common.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FG_WIDTH_DEFAULT     1200
#define FG_MIN_WIDTH_DEFAULT 0.1
#define FG_PAD		     10	  /* left/right margin, px */
#define FG_FRAME_H	     16	  /* row pitch, px (rect is 1 px less) */
#define FG_FONT		     12	  /* frame label font size, px */
#define FG_CHAR_W	     0.59 /* average glyph width of Verdana-like fonts, em */
#define FG_FOOTER_H	     34	  /* details and status lines */

/* ---- tree ---------------------------------------------------------------- */

static uint64_t slot_hash(uint32_t parent, uint32_t name)
{
	return pc_fmix(((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ull + 1);
}

static uint64_t node_hash(const void *t, uint32_t i)
{
	const struct rc_node *n = &((const struct rc_tree *)t)->n[i];

	return slot_hash(n->parent, n->name);
}

/* Find (parent, name), creating it when `create`; RC_NONE if absent or on
 * allocation failure (*err set). */
static uint32_t child_of(struct rc_tree *t, uint32_t parent, uint32_t name, int create, int *err)
{
	struct pc_htab *x = &t->index; /* the root is never in it */
	size_t h;

	if (create && (*err = pc_htab__reserve(x, 1024, node_hash, t)))
		return RC_NONE;
	if (!x->nslots)
		return RC_NONE;
	for (h = pc_htab__slot(x, slot_hash(parent, name)); x->slots[h]; h = pc_htab__next(x, h)) {
		uint32_t i = x->slots[h] - 1;
		if (t->n[i].parent == parent && t->n[i].name == name)
			return i;
	}
	if (!create)
		return RC_NONE;
	if (t->nr >= UINT32_MAX - 1) {
		*err = -EOVERFLOW;
		return RC_NONE;
	}
	if ((*err = pc_grow((void **)&t->n, &t->cap, t->nr + 1, sizeof(*t->n))))
		return RC_NONE;
	struct rc_node *n = &t->n[t->nr];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->parent = parent;
	n->depth = t->n[parent].depth + 1;
	pc_htab__set(x, h, (uint32_t)t->nr);
	return (uint32_t)t->nr++;
}

int rc_tree__build(struct rc_tree *t, const struct pc_profile *p, int by_samples)
{
	int err = 0;

	memset(t, 0, sizeof(*t));
	t->p = p;
	t->by_samples = by_samples;
	if ((err = pc_grow((void **)&t->n, &t->cap, 1, sizeof(*t->n))))
		return err;
	memset(&t->n[0], 0, sizeof(t->n[0]));
	t->n[0].name = RC_NONE;
	t->n[0].parent = RC_NONE;
	t->nr = 1;
	for (size_t si = 0; si < p->nr_stacks; si++) {
		const struct pc_stack *st = &p->stacks[si];
		uint32_t cur = 0;
		t->n[0].samples += st->samples;
		t->n[0].weight += st->weight;
		for (uint32_t k = 0; k < st->nr; k++) {
			if (st->frames[k] >= p->nr_names)
				return -EINVAL; /* a profile bug; never index past names */
			cur = child_of(t, cur, st->frames[k], 1, &err);
			if (cur == RC_NONE)
				return err ? err : -ENOMEM;
			t->n[cur].samples += st->samples;
			t->n[cur].weight += st->weight;
		}
	}
	return 0;
}

static uint64_t name_hash(const void *p, uint32_t i)
{
	const char *s = ((const struct pc_profile *)p)->names[i].name;

	return pc_hash_bytes(s, strlen(s), PC_HASH_SEED);
}

/* The slot of the name s in x (an index of p's names by string), or the
 * empty slot where it would go. */
static size_t name_slot(const struct pc_htab *x, const struct pc_profile *p, const char *s)
{
	size_t h = pc_htab__slot(x, pc_hash_bytes(s, strlen(s), PC_HASH_SEED));

	while (x->slots[h] && strcmp(p->names[x->slots[h] - 1].name, s))
		h = pc_htab__next(x, h);
	return h;
}

int rc_tree__add_before(struct rc_tree *t, const struct pc_profile *b)
{
	const struct pc_profile *a = t->p;
	struct pc_htab x = {0};
	size_t ns = 16, h;
	uint32_t *map = malloc((b->nr_names ? b->nr_names : 1) * sizeof(*map));
	int err = 0;

	while (ns < a->nr_names * 2)
		ns *= 2;
	if (!map || pc_htab__grow(&x, ns, name_hash, a)) {
		free(map);
		return -ENOMEM;
	}
	/* name string -> id in `after` (first id wins, ids are unique names) */
	for (size_t i = 0; i < a->nr_names; i++)
		if (!x.slots[h = name_slot(&x, a, a->names[i].name)])
			pc_htab__set(&x, h, (uint32_t)i);
	for (size_t i = 0; i < b->nr_names; i++) {
		h = name_slot(&x, a, b->names[i].name);
		map[i] = x.slots[h] ? x.slots[h] - 1 : RC_NONE;
	}
	t->before_total_samples = t->before_total_weight = t->before_unmatched = 0;
	for (size_t si = 0; si < b->nr_stacks; si++) {
		const struct pc_stack *st = &b->stacks[si];
		uint32_t cur = 0;
		t->before_total_samples += st->samples;
		t->before_total_weight += st->weight;
		t->n[0].before_samples += st->samples;
		t->n[0].before_weight += st->weight;
		for (uint32_t k = 0; k < st->nr; k++) {
			uint32_t f = st->frames[k];
			uint32_t id = f < b->nr_names ? map[f] : RC_NONE;
			cur = id == RC_NONE ? RC_NONE : child_of(t, cur, id, 0, &err);
			if (cur == RC_NONE) {
				t->before_unmatched += t->by_samples ? st->samples : st->weight;
				break;
			}
			t->n[cur].before_samples += st->samples;
			t->n[cur].before_weight += st->weight;
		}
	}
	pc_htab__free(&x);
	free(map);
	return 0;
}

static int kid_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct rc_tree *t = ctx;
	const struct rc_node *a = &t->n[*(const uint32_t *)pa], *b = &t->n[*(const uint32_t *)pb];
	const struct pc_name *na = &t->p->names[a->name], *nb = &t->p->names[b->name];
	int c = strcmp(na->name, nb->name);

	if (c)
		return c;
	if (na->kind != nb->kind)
		return na->kind < nb->kind ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name;
}

int rc_tree__layout(struct rc_tree *t)
{
	uint32_t *pos;
	uint32_t *stack;
	size_t sp = 0;

	free(t->kid);
	t->kid = malloc(t->nr * sizeof(*t->kid));
	pos = calloc(t->nr, sizeof(*pos));
	stack = malloc(t->nr * sizeof(*stack));
	if (!t->kid || !pos || !stack) {
		free(pos);
		free(stack);
		return -ENOMEM;
	}
	/* children lists: count, prefix-sum, fill (parents precede children) */
	for (size_t i = 0; i < t->nr; i++) {
		t->n[i].nr_kids = 0;
		t->n[i].subtree = 1;
	}
	for (size_t i = 1; i < t->nr; i++)
		t->n[t->n[i].parent].nr_kids++;
	uint32_t off = 0;
	for (size_t i = 0; i < t->nr; i++) {
		t->n[i].kids = off;
		pos[i] = off;
		off += t->n[i].nr_kids;
	}
	for (size_t i = 1; i < t->nr; i++)
		t->kid[pos[t->n[i].parent]++] = (uint32_t)i;
	for (size_t i = t->nr; i-- > 1;)
		t->n[t->n[i].parent].subtree += t->n[i].subtree;
	for (size_t i = 0; i < t->nr; i++)
		if (t->n[i].nr_kids > 1)
			qsort_r(t->kid + t->n[i].kids, t->n[i].nr_kids, sizeof(*t->kid), kid_cmp,
				t);
	/* x offsets, preorder */
	t->n[0].x = 0;
	stack[sp++] = 0;
	while (sp) {
		struct rc_node *n = &t->n[stack[--sp]];
		double x = n->x;
		for (uint32_t k = 0; k < n->nr_kids; k++) {
			struct rc_node *c = &t->n[t->kid[n->kids + k]];
			c->x = x;
			x += (double)rc_node_value(t, c);
			stack[sp++] = t->kid[n->kids + k];
		}
	}
	free(pos);
	free(stack);
	return 0;
}

void rc_tree__free(struct rc_tree *t)
{
	if (!t)
		return;
	free(t->n);
	free(t->kid);
	pc_htab__free(&t->index);
	memset(t, 0, sizeof(*t));
}

/* ---- SVG ------------------------------------------------------------------ */

struct fg_ctx {
	FILE *out;
	struct rc_tree *t;
	const struct rc_svg_opts *so;
	double scale; /* px per value unit */
	double min_w;
	uint32_t max_depth;
	int ybase;	 /* y of the root frame's rect */
	double diff_max; /* largest |share change| over drawn frames, percentage points */
	uint64_t total, before_total;
};

static const char *unit_of(const struct render_opts *ro, const struct rc_tree *t)
{
	if (t->by_samples)
		return "samples";
	return ro->unit_label ? ro->unit_label : "weight";
}

static double node_delta(const struct fg_ctx *c, const struct rc_node *n)
{
	double d = pc_pct(rc_node_value(c->t, n), c->total) -
		   pc_pct(rc_node_before(c->t, n), c->before_total);
	return (d < 1e-9 && d > -1e-9) ? 0 : d;
}

/* Preorder walk over the frames that are wide enough. visit() gets each
 * drawn node; returns the number of drawn nodes and counts the elided ones. */
static int walk(struct fg_ctx *c, int (*visit)(struct fg_ctx *, uint32_t), size_t *drawn,
		size_t *elided)
{
	struct rc_tree *t = c->t;
	uint32_t *stack = malloc(t->nr * sizeof(*stack));
	size_t sp = 0;
	int err = 0;

	if (!stack)
		return -ENOMEM;
	*drawn = *elided = 0;
	stack[sp++] = 0;
	while (sp && !err) {
		uint32_t i = stack[--sp];
		struct rc_node *n = &t->n[i];
		if (i && (double)rc_node_value(t, n) * c->scale < c->min_w) {
			*elided += n->subtree;
			continue;
		}
		(*drawn)++;
		if (visit)
			err = visit(c, i);
		for (uint32_t k = n->nr_kids; k-- > 0;)
			stack[sp++] = t->kid[n->kids + k];
	}
	free(stack);
	return err;
}

static int measure(struct fg_ctx *c, uint32_t i)
{
	const struct rc_node *n = &c->t->n[i];

	if (n->depth > c->max_depth)
		c->max_depth = n->depth;
	if (c->so->diff) {
		double d = node_delta(c, n);
		if (d < 0)
			d = -d;
		if (d > c->diff_max)
			c->diff_max = d;
	}
	return 0;
}

static int write_frame(struct fg_ctx *c, uint32_t i)
{
	const struct rc_tree *t = c->t;
	const struct rc_node *n = &t->n[i];
	const struct pc_name *pn = i ? &t->p->names[n->name] : NULL;
	const char *name = pn ? pn->name : "all";
	int kind = pn ? pn->kind : PC_FRAME_PROCESS;
	uint64_t v = rc_node_value(t, n);
	double x = FG_PAD + n->x * c->scale, w = (double)v * c->scale;
	int y = c->ybase - (int)n->depth * FG_FRAME_H;
	char b1[32], b2[32], b3[32], b4[32];
	struct rc_rgb col;
	FILE *o = c->out;

	if (c->so->diff)
		col = rc_diff_color(node_delta(c, n), c->diff_max);
	else if (!i)
		col = (struct rc_rgb){200, 200, 200};
	else
		col = rc_frame_color(kind, name);
	fprintf(o, "<g class=\"f %s\" data-v=\"%llu\"><title>", i ? rc_kind_class(kind) : "r",
		(unsigned long long)v);
	rc_esc(o, name);
	if (pn && pn->src) { /* where it is defined (DWARF debug info) */
		fputc('\n', o);
		rc_esc(o, pn->src);
	}
	if (c->so->diff) {
		fprintf(o, "\nafter: %s", rc_fmt_pct(b1, v, c->total));
		fprintf(o, " (%s ", rc_fmt_u64(b2, v));
		rc_esc(o, unit_of(c->so->ro, t));
		if (!t->by_samples && strcmp(unit_of(c->so->ro, t), "samples"))
			fprintf(o, ", %s samples", rc_fmt_u64(b3, n->samples));
		fputc(')', o);
		fprintf(o, "\nbefore: %s (%s samples)",
			rc_fmt_pct(b3, rc_node_before(t, n), c->before_total),
			rc_fmt_u64(b2, n->before_samples));
		fprintf(o, "\nchange: %s percentage points", rc_fmt_pp(b4, node_delta(c, n)));
	} else {
		fprintf(o, "\n%s samples (%s)", rc_fmt_u64(b1, n->samples),
			rc_fmt_pct(b2, n->samples, t->n[0].samples));
		if (!t->by_samples && strcmp(unit_of(c->so->ro, t), "samples")) {
			fprintf(o, "\n%s ", rc_fmt_u64(b3, n->weight));
			rc_esc(o, unit_of(c->so->ro, t));
			fprintf(o, " (%s)", rc_fmt_pct(b4, n->weight, t->n[0].weight));
		}
	}
	fprintf(o,
		"</title><rect x=\"%s\" y=\"%d\" width=\"%s\" height=\"%d\" fill=\"rgb(%u,%u,%u)\" "
		"rx=\"2\"/>",
		rc_fmt_coord(b1, x), y, rc_fmt_coord(b2, w), FG_FRAME_H - 1, col.r, col.g, col.b);
	size_t fit = w > 6 ? (size_t)((w - 6) / (FG_FONT * FG_CHAR_W)) : 0;
	if (fit >= 3) {
		fprintf(o, "<text x=\"%s\" y=\"%d\">", rc_fmt_coord(b1, x + 3), y + FG_FRAME_H - 5);
		rc_label(o, name, fit);
		fputs("</text>", o);
	}
	fputs("</g>\n", o);
	return ferror(o) ? -EIO : 0;
}

static void legend(FILE *o, const struct rc_tree *t, int diff, int x, int y)
{
	static const struct {
		int kind;
		const char *label;
	} kinds[] = {{PC_FRAME_USER, "user"},
		     {PC_FRAME_KERNEL, "kernel"},
		     {PC_FRAME_UNKNOWN, "unresolved"},
		     {PC_FRAME_PROCESS, "process"}};
	int present[4] = {0};

	if (diff) {
		struct rc_rgb up = rc_diff_color(1, 1), down = rc_diff_color(-1, 1);
		fprintf(o,
			"<g class=\"fg-legend\"><rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			"fill=\"rgb(%u,%u,%u)\"/><text class=\"fg-small\" x=\"%d\" y=\"%d\">share "
			"grew</text>",
			x, y - 10, up.r, up.g, up.b, x + 16, y);
		fprintf(o,
			"<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			"fill=\"rgb(%u,%u,%u)\"/>"
			"<text class=\"fg-small\" x=\"%d\" y=\"%d\">share shrank</text></g>\n",
			x + 90, y - 10, down.r, down.g, down.b, x + 106, y);
		return;
	}
	for (size_t i = 0; i < t->p->nr_names; i++)
		if (t->p->names[i].kind < 4)
			present[t->p->names[i].kind] = 1;
	fputs("<g class=\"fg-legend\">", o);
	for (size_t k = 0; k < PC_ARRAY_SIZE(kinds); k++) {
		if (!present[kinds[k].kind])
			continue;
		/* a fixed, typical shade of the kind's palette */
		struct rc_rgb c = rc_frame_color(kinds[k].kind, kinds[k].label);
		fprintf(o,
			"<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			"fill=\"rgb(%u,%u,%u)\"/>"
			"<text class=\"fg-small\" x=\"%d\" y=\"%d\">%s</text>",
			x, y - 10, c.r, c.g, c.b, x + 16, y, kinds[k].label);
		x += 28 + 7 * (int)strlen(kinds[k].label);
	}
	fputs("</g>\n", o);
}

int rc_flamegraph_write(FILE *o, struct rc_tree *t, const struct rc_svg_opts *so,
			struct rc_svg_stats *st)
{
	const struct render_opts *ro = so->ro;
	struct fg_ctx c = {.out = o, .t = t, .so = so};
	int width = ro->width > 0 ? ro->width : FG_WIDTH_DEFAULT;
	size_t drawn, elided;
	int err, header_h, height;
	char b1[32], b2[32];

	if (width < 200)
		width = 200;
	c.min_w = ro->min_width_px > 0 ? ro->min_width_px : FG_MIN_WIDTH_DEFAULT;
	c.total = rc_node_value(t, &t->n[0]);
	c.before_total = t->by_samples ? t->before_total_samples : t->before_total_weight;
	c.scale = c.total ? (double)(width - 2 * FG_PAD) / (double)c.total : 0;
	if ((err = walk(&c, measure, &drawn, &elided)))
		return err;
	header_h = so->extra_subtitle ? 84 : 70;
	c.ybase = header_h + (int)c.max_depth * FG_FRAME_H;
	height = c.ybase + FG_FRAME_H + FG_FOOTER_H;

	if (so->standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", o);
	fprintf(o,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" class=\"pmuflame\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" data-fw=\"%d\" data-fh=\"%d\" "
		"data-pad=\"%d\" data-ybase=\"%d\" data-cw=\"%s\" data-metric=\"%s\" "
		"data-diff=\"%d\" data-frames=\"%zu\" data-elided=\"%zu\" data-total=\"%llu\" "
		"data-unit=\"",
		width, height, width, height, width, FG_FRAME_H, FG_PAD, c.ybase,
		rc_fmt_coord(b1, FG_FONT * FG_CHAR_W), t->by_samples ? "samples" : "weight",
		so->diff ? 1 : 0, drawn, elided, (unsigned long long)c.total);
	rc_esc(o, unit_of(ro, t));
	fputs("\">\n<title>", o);
	fputs(so->diff ? "Differential flame graph: " : "Flame graph: ", o);
	rc_esc(o, ro->title);
	fputs("</title>\n", o);
	if (so->standalone)
		fprintf(o, "<style><![CDATA[\n%s]]></style>\n", rc_flame_css);
	fprintf(o, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f4\"/>\n", width,
		height);
	fprintf(o, "<text class=\"fg-title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">", width / 2);
	fputs(so->diff ? "Differential flame graph: " : "", o);
	rc_esc(o, ro->title);
	fprintf(o, "</text>\n<text class=\"fg-sub\" x=\"%d\" y=\"42\" text-anchor=\"middle\">",
		width / 2);
	if (ro->subtitle) {
		rc_esc(o, ro->subtitle);
		fputs(" \xc2\xb7 ", o);
	}
	fputs("frame width = ", o);
	rc_esc(o, unit_of(ro, t));
	fputs("</text>\n", o);
	if (so->extra_subtitle) {
		fprintf(o, "<text class=\"fg-sub\" x=\"%d\" y=\"58\" text-anchor=\"middle\">",
			width / 2);
		rc_esc(o, so->extra_subtitle);
		fputs("</text>\n", o);
	}
	fprintf(o,
		"<text class=\"fg-btn fg-reset\" x=\"%d\" y=\"%d\" style=\"display:none\">Reset "
		"zoom</text>\n",
		FG_PAD, header_h - 8);
	legend(o, t, so->diff, width / 2 - 150, header_h - 8);
	fprintf(o,
		"<text class=\"fg-btn fg-search\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\">Search</text>\n",
		width - FG_PAD, header_h - 8);
	fprintf(o, "<g class=\"fg-frames\" font-size=\"%d\">\n", FG_FONT);
	if ((err = walk(&c, write_frame, &drawn, &elided)))
		return err;
	fputs("</g>\n", o);
	fprintf(o, "<text class=\"fg-small fg-details\" x=\"%d\" y=\"%d\"> </text>\n", FG_PAD,
		height - 20);
	fprintf(o,
		"<text class=\"fg-small fg-matched\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\"></text>\n",
		width - FG_PAD, height - 20);
	fprintf(o, "<text class=\"fg-small fg-status\" x=\"%d\" y=\"%d\">", FG_PAD, height - 5);
	if (!c.total)
		fputs("no samples", o);
	else
		fprintf(o, "%zu frames", drawn);
	if (elided)
		fprintf(o, "; %zu frames narrower than %s px not drawn (zoom shows the drawn ones)",
			elided, rc_fmt_coord(b2, c.min_w));
	if (so->diff && t->before_unmatched)
		fprintf(o, "; %s of the earlier profile is on paths absent here",
			rc_fmt_pct(b1, t->before_unmatched, c.before_total));
	fputs(". Click a frame to zoom, Search to highlight (Ctrl-F or / while the graph has "
	      "focus), "
	      "Esc to reset.</text>\n",
	      o);
	if (so->standalone)
		fprintf(o,
			"<script type=\"text/ecmascript\"><![CDATA[\n%spmuFlame(document."
			"documentElement);\n]]></script>\n",
			rc_flame_js);
	fputs("</svg>\n", o);
	if (st) {
		st->drawn = drawn;
		st->elided = elided;
		st->max_depth = c.max_depth;
	}
	return ferror(o) ? -EIO : 0;
}

int render_flamegraph_svg(FILE *out, const struct pc_profile *p, const struct render_opts *o)
{
	struct rc_tree t;
	struct rc_svg_opts so = {.ro = o, .standalone = 1};
	int err;

	if (!out || !p || !o)
		return -EINVAL;
	if ((err = rc_tree__build(&t, p, o->by_samples)) || (err = rc_tree__layout(&t))) {
		rc_tree__free(&t);
		return err;
	}
	err = rc_flamegraph_write(out, &t, &so, NULL);
	rc_tree__free(&t);
	return err;
}
