// SPDX-License-Identifier: MIT
/* `pmuconv report`: load, then print the accounting and the per-event tables
 * (pmuconv's self/total tables, or perf report's table with --sort, and the
 * call chains through a function with --callers/--callees). */
#include "callchains.h"
#include "cli.h"
#include "report.h"
#include "sorttab.h"

static const struct pc_cmd_help help = {
	"report",
	"usage: pmuconv report FILE [--json] [--top N] [options]\n"
	"Accounting (duration, samples, lost and lost %, throttling, events and periods),\n"
	"then per event the top functions by self and total share with samples and\n"
	"estimated counts, and breakdowns by process and CPU.\n"
	"  --json              machine-readable output\n"
	"  -n, --top N         rows per table (default 20)\n"
	"  -e, --event EVENT   only this event\n"
	"  -o, --output OUT    write to OUT instead of stdout\n"
	"  --percent-limit PCT leave out rows below PCT percent of the event\n"
	"perf report's view (pmuprof input):\n"
	"  -s, --sort KEYS     instead of the tables above, perf report's table: samples\n"
	"                      grouped by KEYS (comma-separated: comm, pid, cpu, dso, sym,\n"
	"                      data_page_size, code_page_size, data_node (NUMA node of\n"
	"                      the data page), locality (local/remote to the CPU);\n"
	"                      perf's default is\n"
	"                      comm,dso,sym), [k] kernel / [.] user symbols, by overhead;\n"
	"                      every row, as perf prints them (--percent-limit trims)\n"
	"  --callers SYM       the call chains that reach function SYM (SYM <- caller ...)\n"
	"  --callees SYM       the call chains below function SYM (SYM -> callee ...)\n" FILTER_HELP
		COMMON_INPUT_HELP};

int cmd_report(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	struct report_opts ro;
	struct pc_sort_spec spec;
	char err[512] = "";
	FILE *out;
	int r = pc_cli_parse(&c, argc, argv, OPT_PROFILE | OPT_JSON | OPT_TOP | OPT_SORT, &help, 1,
			     1);

	if (r != PC_CLI_RUN)
		return r;
	if (c.sort && pc_sort_spec__parse(&spec, c.sort, err, sizeof(err))) {
		fprintf(stderr, "pmuconv report: --sort: %s\n", err);
		return 2;
	}
	if (c.json && (c.sort || c.callers || c.callees)) {
		fprintf(stderr, "pmuconv report: --sort, --callers and --callees print text; "
				"leave out --json (or use --json without them)\n");
		return 2;
	}
	if (c.callers && c.callees) {
		fprintf(stderr, "pmuconv report: --callers and --callees: one at a time\n");
		return 2;
	}
	if ((r = pc_cli_load(&c, &s, 0)))
		goto done;
	if (c.sort && strcmp(s.acct.format, "pmuprof")) {
		fprintf(stderr,
			"pmuconv report: --sort reads per-sample CPUs, DSOs and page sizes from a "
			"pmuprof recording; %s input has none (use the default tables)\n",
			s.acct.format);
		r = 2;
		goto done;
	}
	if (!(out = pc_cli_open_out(c.out))) {
		r = 1;
		goto done;
	}
	ro.top = c.top;
	ro.json = c.json;
	ro.percent_limit = c.percent_limit;
	if (!c.sort && !c.callers && !c.callees) {
		r = report_print(out, &s, &ro);
		if (r)
			fprintf(stderr, "pmuconv: report: %s\n", strerror(-r));
		r = pc_cli_close_out(out, c.out) || r ? 1 : 0;
		goto done;
	}
	report_print_accounting(out, &s);
	if (c.sort) {
		/* a second pass; standard input was spooled by the first */
		r = pc_sorttab__print(out, strcmp(c.pos[0], "-") ? c.pos[0] : "/dev/stdin", &c.load,
				      &spec, c.percent_limit, err, sizeof(err));
		if (r)
			fprintf(stderr, "pmuconv: %s\n", err[0] ? err : strerror(-r));
	}
	if (!r && (c.callers || c.callees)) {
		const char *sym = c.callers ? c.callers : c.callees;
		long n = report_print_chains(out, &s, sym, c.callers != NULL, c.percent_limit);
		if (n < 0)
			fprintf(stderr, "pmuconv: report: %s\n", strerror((int)-n));
		else if (n == 0)
			fprintf(stderr,
				"pmuconv report: no sampled stack contains a function named '%s' "
				"(names as in the report's function tables)\n",
				sym);
		r = n <= 0;
	}
	r = pc_cli_close_out(out, c.out) || r ? 1 : 0;
done:
	pc_set__free(&s);
	return r;
}
