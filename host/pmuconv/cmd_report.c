// SPDX-License-Identifier: MIT
/* `pmuconv report`: load, then print the accounting and the per-event tables. */
#include "cli.h"
#include "report.h"

static const struct pc_cmd_help help = {
	"report",
	"usage: pmuconv report FILE [--json] [--top N] [options]\n"
	"Accounting (duration, samples, lost and lost %, throttling, events and periods),\n"
	"then per event the top functions by self and total share with samples and\n"
	"estimated counts, and breakdowns by process and CPU.\n"
	"  --json              machine-readable output\n"
	"  -n, --top N         rows per table (default 20)\n"
	"  -e, --event EVENT   only this event\n"
	"  -o, --output OUT    write to OUT instead of stdout\n" FILTER_HELP COMMON_INPUT_HELP};

int cmd_report(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	struct report_opts ro;
	FILE *out;
	int r = pc_cli_parse(&c, argc, argv,
			     OPT_EVENT | OPT_OUTPUT | OPT_FILTER | OPT_WEIGHT | OPT_INPUT |
				     OPT_JSON | OPT_TOP,
			     &help, 1, 1);

	if (r)
		return r == 1 ? 0 : 2;
	if ((r = pc_cli_load(&c, &s, 0)))
		goto done;
	if (!(out = pc_cli_open_out(c.out))) {
		r = 1;
		goto done;
	}
	ro.top = c.top;
	ro.json = c.json;
	r = report_print(out, &s, &ro);
	if (r)
		fprintf(stderr, "pmuconv: report: %s\n", strerror(-r));
	r = pc_cli_close_out(out, c.out) || r ? 1 : 0;
done:
	pc_set__free(&s);
	return r;
}
