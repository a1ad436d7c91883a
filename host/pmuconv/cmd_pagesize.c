// SPDX-License-Identifier: MIT
/* `pmuconv pagesize`: load with the page-size consumer, print the summary;
 * optional bar chart through the renderer. */
#include "cli.h"
#include "pagesize.h"
#include "render.h"

static const struct pc_cmd_help help = {
	"pagesize",
	"usage: pmuconv pagesize FILE [--json] [-o OUT] [--svg FILE] [options]\n"
	"Per event, the shares of samples whose data access (and whose code) sat on 4K,\n"
	"2M, 1G or unknown pages, with the top symbols and processes per page size.\n"
	"Needs a recording made with `pmuctl record --data-addr`. With --user-only or\n"
	"--kernel-only only the samples taken in user or kernel mode are counted.\n"
	"  --json              machine-readable output\n"
	"  --svg FILE          also write the bar chart (when the renderer is built)\n"
	"  -e, --event EVENT   only this event\n"
	"  -o, --output OUT    write to OUT instead of stdout\n" FILTER_HELP COMMON_INPUT_HELP};

int cmd_pagesize(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	struct pagesize_summary *ps = NULL;
	struct pagesize_acc *acc;
	FILE *out;
	int r = pc_cli_parse(&c, argc, argv,
			     OPT_EVENT | OPT_OUTPUT | OPT_FILTER | OPT_WEIGHT | OPT_INPUT |
				     OPT_JSON,
			     &help, 1, 1);

	if (r)
		return r == 1 ? 0 : 2;
	if (c.svg && !render_pagesize_svg) {
		fprintf(stderr, "pmuconv pagesize: --svg: not built (no page-size chart renderer "
				"in this pmuconv)\n");
		return 3;
	}
	if (!(acc = pagesize_acc__new(c.load.filter.mode, false)))
		return 1;
	c.load.also = pagesize_acc__consumer(acc);
	if ((r = pc_cli_load(&c, &s, 0)))
		goto done;
	if (!s.acct.has_pages) {
		fprintf(stderr,
			"pmuconv pagesize: %s is %s input, which has no page sizes; page sizes "
			"come from pmuprof recordings made with `pmuctl record --data-addr`\n",
			c.pos[0], s.acct.format ? s.acct.format : "text");
		r = 1;
		goto done;
	}
	if (!(ps = pagesize_acc__summarize(acc, &s))) {
		fprintf(stderr, "pmuconv pagesize: out of memory\n");
		r = 1;
		goto done;
	}
	if (!(out = pc_cli_open_out(c.out))) {
		r = 1;
		goto done;
	}
	pagesize_print(out, ps, c.json);
	r = pc_cli_close_out(out, c.out);
	if (!r && c.svg && ps->has_data_addr) {
		FILE *f = pc_cli_open_out(c.svg);
		r = f ? pc_cli_close_rendered(f, c.svg, render_pagesize_svg(f, ps)) : 1;
	}
done:
	pagesize_summary__free(ps);
	pagesize_acc__free(acc);
	pc_set__free(&s);
	return r;
}
