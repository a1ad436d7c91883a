// SPDX-License-Identifier: MIT
/* `pmuconv pagesize`: load with the page-size consumer, print the summary
 * (or two recordings side by side with --compare) and the NUMA placement
 * of the data accesses (nodetab.h); optional bar chart through the renderer. */
#include "cli.h"
#include "nodetab.h"
#include "pagesize.h"
#include "pagesize_compare.h"
#include "util.h"
#include "render.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct pc_cmd_help help = {
	"pagesize",
	"usage: pmuconv pagesize FILE [--json] [-o OUT] [--svg FILE] [--together] [options]\n"
	"       pmuconv pagesize --compare BEFORE AFTER [--json] [-o OUT] [options]\n"
	"Would huge pages help? Per event, for user-mode and kernel-mode samples apart:\n"
	"the verdict (which mappings on 4K pages would gain from 2M/1G pages, the TLB\n"
	"entries their data needs before and after, and how to get huge pages), the\n"
	"shares of samples whose data access (and whose code) sat on 4K, 2M, 1G or\n"
	"unknown pages, the top functions with their accesses by page size, and the\n"
	"recorded mappings the data addresses fall in, with the distinct 4K pages and\n"
	"2M regions touched (estimated from the samples, with a confidence). The\n"
	"kernel view names the kernel's first-touch page zeroing. See docs/HUGEPAGES.md.\n"
	"Needs a recording made with `pmuctl record --data-addr`.\n"
	"  --together          one view of user and kernel samples together\n"
	"  --user-only, --kernel-only  only that view\n"
	"  --compare BEFORE AFTER  the two recordings' per-mapping tables side by side,\n"
	"                      with samples per second of run time\n"
	"  --json              machine-readable output\n"
	"  --svg FILE          also write the bar chart (when the renderer is built)\n"
	"  -e, --event EVENT   only this event\n"
	"  -o, --output OUT    write to OUT instead of stdout\n" FILTER_HELP COMMON_INPUT_HELP};

/* Load positional i of c into a new summary; NULL after printing why. */
static struct pagesize_summary *load_one(struct pc_cli *c, int i, bool together)
{
	struct pc_set s = {0};
	struct pagesize_summary *ps = NULL;
	struct pagesize_acc *acc = pagesize_acc__new(c->load.filter.mode, together);

	if (!acc) {
		fprintf(stderr, "pmuconv pagesize: out of memory\n");
		return NULL;
	}
	c->load.also = pagesize_acc__consumer(acc);
	if (pc_cli_load(c, &s, i))
		goto done;
	if (!s.acct.has_pages) {
		fprintf(stderr,
			"pmuconv pagesize: %s is %s input, which has no page sizes; page sizes "
			"come from pmuprof recordings made with `pmuctl record --data-addr`\n",
			c->pos[i], s.acct.format ? s.acct.format : "text");
		goto done;
	}
	if (!(ps = pagesize_acc__summarize(acc, &s)))
		fprintf(stderr, "pmuconv pagesize: out of memory\n");
	else if (!ps->has_data_addr && c->npos > 1)
		fprintf(stderr,
			"pmuconv pagesize: %s was recorded without data addresses, so it has no "
			"page sizes to compare; record with `pmuctl record --data-addr`\n",
			c->pos[i]);
	if (ps && !ps->has_data_addr && c->npos > 1) {
		pagesize_summary__free(ps);
		ps = NULL;
	}
	if (ps) /* the set's source string goes away with the set */
		ps->source = c->pos[i];
done:
	pagesize_acc__free(acc);
	pc_set__free(&s);
	return ps;
}

/* The page-size answer, then the NUMA placement (nodetab.h) when the
 * recording carries a node map: after the text, or as the "numa" key of the
 * JSON object (spliced in before its closing brace). 0, or 1 after a message. */
static int print_with_numa(FILE *out, struct pc_cli *c, struct pagesize_summary *ps)
{
	struct pc_nodetab nt;
	char err[1024] = "";
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int r;

	/* standard input was consumed by the first pass; plain text inputs
	 * have no nodes */
	if (!strcmp(c->pos[0], "-") || !ps->has_data_addr) {
		pagesize_print(out, ps, c->json);
		return 0;
	}
	r = pc_nodetab__load(&nt, c->pos[0], &c->load, err, sizeof(err));
	if (r) {
		fprintf(stderr, "pmuconv pagesize: %s\n", err[0] ? err : strerror(-r));
		pc_nodetab__free(&nt);
		return 1;
	}
	if (!nt.has_map) {
		pagesize_print(out, ps, c->json);
	} else if (!c->json) {
		pagesize_print(out, ps, 0);
		pc_nodetab__print(out, &nt);
	} else if ((mem = open_memstream(&buf, &len))) {
		json_t *root;

		/* the page-size object, read back, with the "numa" key added */
		pagesize_print(mem, ps, 1);
		fclose(mem);
		root = buf ? json_loadb(buf, len, 0, NULL) : NULL;
		if (root && json_object_set_new(root, "numa", pc_nodetab__json(&nt)) == 0) {
			pc_json_dump(out, root); /* releases root */
		} else {
			json_decref(root);
			if (buf)
				fputs(buf, out);
		}
		free(buf);
	}
	pc_nodetab__free(&nt);
	return 0;
}

int cmd_pagesize(int argc, char **argv)
{
	struct pc_cli c;
	struct pagesize_summary *ps = NULL, *after = NULL;
	static const char *const own[] = {"--together", "--compare", NULL};
	bool set[2] = {false, false}, together, compare;
	FILE *out;
	int r;

	argc = pc_cli_take_flags(argc, argv, own, set);
	together = set[0];
	compare = set[1];
	r = pc_cli_parse(&c, argc, argv, OPT_PROFILE | OPT_JSON, &help, 1, compare ? 2 : 1);
	if (r != PC_CLI_RUN)
		return r;
	if (compare && c.npos != 2) {
		fprintf(stderr, "pmuconv pagesize: --compare wants two recordings, BEFORE and "
				"AFTER\n");
		return 2;
	}
	if (together && c.load.filter.mode) {
		fprintf(stderr, "pmuconv pagesize: --together cannot be combined with --user-only "
				"or --kernel-only\n");
		return 2;
	}
	if (c.svg && (compare || !render_pagesize_svg)) {
		fprintf(stderr, compare ? "pmuconv pagesize: --svg draws one recording; drop "
					  "--compare or --svg\n"
					: "pmuconv pagesize: --svg: not built (no page-size chart "
					  "renderer in this pmuconv)\n");
		return compare ? 2 : 3;
	}
	if (!(ps = load_one(&c, 0, together)) ||
	    (compare && !(after = load_one(&c, 1, together)))) {
		r = 1;
		goto done;
	}
	if (!(out = pc_cli_open_out(c.out))) {
		r = 1;
		goto done;
	}
	if (compare)
		pagesize_compare_print(out, ps, after, c.json);
	else if (print_with_numa(out, &c, ps)) {
		pc_cli_close_out(out, c.out);
		r = 1;
		goto done;
	}
	r = pc_cli_close_out(out, c.out);
	if (!r && c.svg && ps->has_data_addr) {
		FILE *f = pc_cli_open_out(c.svg);
		r = f ? pc_cli_close_rendered(f, c.svg, render_pagesize_svg(f, ps)) : 1;
	}
done:
	pagesize_summary__free(ps);
	pagesize_summary__free(after);
	return r;
}
