/* SPDX-License-Identifier: MIT */
/*
 * Shared pieces of pmuconv's graphical renderers (render_*.c): escaping of
 * profile strings for XML/HTML, colour hashing, number formatting, and the
 * flamegraph frame tree with its SVG writer (used by the plain, the
 * differential and the HTML-embedded flamegraphs). Internal to the
 * renderers; main.c only sees render.h.
 */
#ifndef PMUCONV_RENDER_COMMON_H
#define PMUCONV_RENDER_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "hashtab.h"
#include "profile.h"
#include "render.h"

/* ---- escaping ---------------------------------------------------------
 * Every string taken from a profile (names, event names, paths, command
 * lines) goes through rc_esc() before it reaches SVG or HTML. The output is
 * safe in element content and in attribute values quoted with " or ', for
 * both XML 1.0 and HTML parsers:
 *   &  <  >  "  '          -> &amp; &lt; &gt; &quot; &#39;
 *   C0 controls, DEL       -> the visible text \xNN (XML 1.0 has no way to
 *                             carry them, not even as &#N; references)
 *   C1 controls, U+FFFE/F  -> the visible text \u0085 etc.
 *   bytes that are not well-formed UTF-8 (overlong forms, surrogates,
 *   > U+10FFFF, stray continuation bytes, cut sequences) -> \xNN per byte
 *   other UTF-8            -> copied unchanged
 * Nothing is dropped, so the reader sees which bytes were in the name. */

/* Escape s[0..len) to out. */
void rc_esc_n(FILE *out, const char *s, size_t len);
/* Escape a NUL-terminated string (NULL prints nothing). */
void rc_esc(FILE *out, const char *s);
/* Escape into a buffer, snprintf-style: writes at most dstlen-1 bytes plus
 * a NUL and returns the full escaped length. */
size_t rc_esc_buf(char *dst, size_t dstlen, const char *s, size_t len);

/* Visible width (in characters as displayed after escaping) of s[0..len):
 * one per code point, 4 per \xNN, 6 per \uNNNN. */
size_t rc_visible_len(const char *s, size_t len);
/* Longest prefix of s[0..len), in bytes and cut at a character boundary,
 * whose visible width is at most max. */
size_t rc_prefix_fit(const char *s, size_t len, size_t max);
/* A frame label of at most max visible characters: the whole name, or a
 * prefix followed by "..", or nothing when fewer than 3 characters fit. */
void rc_label(FILE *out, const char *s, size_t max);

/* ---- numbers ----------------------------------------------------------- */
/* "1,234,567"; buf must hold 27 bytes. Returns buf. */
char *rc_fmt_u64(char *buf, uint64_t v);
/* "12.34%" (two decimals); "0%" for zero, "<0.01%" for tiny non-zero parts,
 * "0%" when whole is 0. buf must hold 16 bytes. Returns buf. */
char *rc_fmt_pct(char *buf, uint64_t part, uint64_t whole);
/* Signed percentage points "+1.25" / "-0.50" / "0.00". buf: 24 bytes. */
char *rc_fmt_pp(char *buf, double pp);
/* round(3): to the nearest integer, halves away from zero, without libm
 * (pmuconv links no libm: loading it cost each run about 50 us of a 5 ms
 * conversion, bench/RESULTS.md 5d, for two roundings). */
double rc_round(double x);
/* A coordinate with at most 2 decimals and no trailing zeros ("12.5").
 * buf: 32 bytes. */
char *rc_fmt_coord(char *buf, double v);

/* ---- colours ----------------------------------------------------------- */
struct rc_rgb {
	uint8_t r, g, b;
};
/* CSS class of a frame kind (enum pc_frame_kind): "u", "k", "x", "p". */
const char *rc_kind_class(int kind);
/* FNV-1a 32-bit over the name's bytes: the colour's only source of variety,
 * so the same name gets the same colour in every graph and every run. */
uint32_t rc_hash_name(const char *s);
/* Palette per frame kind (enum pc_frame_kind): user warm red/orange/yellow,
 * kernel cool aqua/blue, unknown grey, process green. */
struct rc_rgb rc_frame_color(int kind, const char *name);
/* Differential colour: delta > 0 (share grew) red, < 0 blue, 0 white;
 * saturation |delta| / max_abs, clamped to 1. */
struct rc_rgb rc_diff_color(double delta, double max_abs);

/* ---- flamegraph tree --------------------------------------------------- */
#define RC_NONE UINT32_MAX

struct rc_node {
	uint32_t name;	 /* index into pc_profile.names; RC_NONE for the root */
	uint32_t parent; /* RC_NONE for the root */
	uint32_t kids;	 /* first child in rc_tree.kid (sorted by name) */
	uint32_t nr_kids;
	uint32_t depth;				/* root = 0 */
	uint32_t subtree;			/* nodes in this subtree, itself included */
	uint64_t samples, weight;		/* inclusive */
	uint64_t before_samples, before_weight; /* diff: same path in `before` */
	double x;				/* left edge, in value units */
};

struct rc_tree {
	const struct pc_profile *p;
	struct rc_node *n; /* n[0] is the root ("all") */
	size_t nr, cap;
	uint32_t *kid;	      /* children of node i: kid[n[i].kids .. + nr_kids) */
	struct pc_htab index; /* (parent, name) -> node */
	int by_samples;
	uint64_t before_total_samples, before_total_weight; /* diff */
	uint64_t before_unmatched; /* diff: value of `before` on paths absent here */
};

/* Merge the profile's stacks by identical prefix (root first). Returns 0 or
 * a negative errno. Cost: one hash probe per frame of every unique stack. */
int rc_tree__build(struct rc_tree *t, const struct pc_profile *p, int by_samples);
/* Add `before`'s stacks onto the matching paths of t (names matched by
 * string). Must run before rc_tree__layout. */
int rc_tree__add_before(struct rc_tree *t, const struct pc_profile *before);
/* Sort children by name (then kind) and assign x offsets; computes subtree
 * sizes. Returns 0 or a negative errno. */
int rc_tree__layout(struct rc_tree *t);
void rc_tree__free(struct rc_tree *t);
static inline uint64_t rc_node_value(const struct rc_tree *t, const struct rc_node *n)
{
	return t->by_samples ? n->samples : n->weight;
}
static inline uint64_t rc_node_before(const struct rc_tree *t, const struct rc_node *n)
{
	return t->by_samples ? n->before_samples : n->before_weight;
}

/* How one flamegraph is written. */
struct rc_svg_opts {
	const struct render_opts *ro;
	int standalone;		    /* 1: XML prolog + inline script; 0: for embedding in HTML */
	int diff;		    /* colour by change against tree.before_* */
	const char *extra_subtitle; /* second subtitle line or NULL */
};

/* What the writer did, for callers and tests. */
struct rc_svg_stats {
	size_t drawn;	    /* frames written (root included) */
	size_t elided;	    /* frames narrower than min_width_px, with their subtrees */
	uint32_t max_depth; /* of drawn frames */
};

int rc_flamegraph_write(FILE *out, struct rc_tree *t, const struct rc_svg_opts *so,
			struct rc_svg_stats *st);

/* Page-size chart (render_pagesize.c); standalone as in rc_svg_opts.
 * Returns 0 or a negative errno. */
int rc_pagesize_write(FILE *out, const struct pagesize_summary *s, int standalone);
/* The HTML page's page-size section (render_pagesize_html.c): per event
 * view the verdict on top, the chart, the per-mapping table with bars, the
 * functions; s NULL: a line saying how to record data addresses. */
int rc_pagesize_html(FILE *out, const struct pagesize_summary *s);
/* The HTML page's NUMA section (render_numa_html.c): the page size x node
 * heat table and the local/remote split per event; nothing if t is NULL or
 * has no node map. */
struct pc_nodetab;
int rc_numa_html(FILE *out, const struct pc_nodetab *t);

/* ---- assets: flame.js, flame.css, report.css, report.js, pagesize.css --
 * rc_flame_js defines pmuFlame(svgElement, opts) for standalone SVGs and the
 * HTML page; rc_report_js, the HTML page's own script, calls it with
 * {fit: true} for each event section and wires the function tables' a.fn-link
 * rows to zoomTo(). pmuFlame reads everything from the SVG: frames are the <g class="f ...">
 * elements in preorder (a frame's subtree is the `size` frames from it on),
 * each with a <title> whose first line is the name, a data-v value and a
 * <rect>; names go back into the document only as textContent. Neither script
 * nor the CSS contains "]]>" or "</" (CDATA sections, HTML <script>). */
extern const char rc_flame_js[], rc_flame_css[], rc_report_css[], rc_report_js[], rc_pagesize_css[];

#endif
