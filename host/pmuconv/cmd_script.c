// SPDX-License-Identifier: MIT
/*
 * `pmuconv script`: every sample on its own line(s), in the layout of perf
 * script's default output (perf 6.1), so that perf-script habits, scripts
 * and tools (FlameGraph's stackcollapse-perf.pl, pmuconv's own perf-script
 * input) work on pmuprof recordings:
 *
 *   comm pid/tid [cpu] sec.usec: period event: [addr] ip sym (dso) [dpage [cpage]]
 *
 * With call stacks recorded, the header line ends after the event and one
 * "\t ip sym (dso)" line per frame follows (innermost first), then a blank
 * line, as `perf script` prints callchains. With data addresses recorded the
 * addr column and the data page size (4K, 2M, 1G, N/A) come where perf puts
 * its addr and data_page_size fields, and the code page size after it when
 * recorded. Unresolved frames read "[unknown] (dso)", as in perf script.
 */
#include "cli.h"
#include "samplewalk.h"

#include <errno.h>

static const struct pc_cmd_help help = {
	"script",
	"usage: pmuconv script FILE [options]\n"
	"Every sample of a pmuprof recording, one per line in perf script's layout:\n"
	"  comm pid/tid [cpu] seconds: period event: ip symbol (dso)\n"
	"with the call stack on the following lines (tab-indented, innermost first,\n"
	"then a blank line) when stacks were recorded, and the data address and data\n"
	"page size (plus the code page size) when recorded with --data-addr.\n"
	"  -e, --event EVENT   only this event\n"
	"  -o, --output OUT    write to OUT instead of stdout\n" FILTER_HELP COMMON_INPUT_HELP};

struct script {
	FILE *out;
	struct pc_walk_info info;
	int name_width;
};

static int begin(void *ctx, const struct pc_walk_info *info)
{
	struct script *sc = ctx;

	sc->info = *info;
	for (uint32_t i = 0; i < info->nr_events; i++) {
		int n = (int)strlen(info->events[i]);
		if (n > sc->name_width)
			sc->name_width = n;
	}
	return 0;
}

static const char *page_name(uint8_t p)
{
	static const char *const n[PS__NR] = {[PS_4K] = "4K", [PS_2M] = "2M", [PS_1G] = "1G"};

	return p < PS__NR && n[p] ? n[p] : "N/A";
}

/* Unresolved frames print as perf prints them, "[unknown]" beside the DSO
 * (pmuconv's binary+0xoffset would read as perf's symbol+offset); a module
 * symbol's DSO is its "[module]", so the symbol prints without it. */
static void print_frame(FILE *o, const struct pc_rec_frame *fr)
{
	/* where a --call-graph dwarf unwind stopped (samplewalk.c): said so,
	 * at address 0, rather than guessing a caller */
	bool trunc = fr->w.kind == PC_FRAME_UNKNOWN && !strcmp(fr->w.name, "[truncated]");
	bool unknown = fr->w.kind == PC_FRAME_UNKNOWN && !trunc;

	fprintf(o, "%16llx %.*s (%s)", trunc ? 0ull : (unsigned long long)fr->ip,
		unknown ? 9 : (int)fr->w.sym_len, unknown ? "[unknown]" : fr->w.name, fr->w.dso);
}

static int sample(void *ctx, const struct pc_rec *r)
{
	struct script *sc = ctx;
	FILE *o = sc->out;
	bool chain = sc->info.has_stacks;

	fprintf(o, chain ? "%s " : "%16s ", r->comm);
	fprintf(o, "%5d/%-5d [%03u] %5llu.%06llu: %10llu %*s: ", r->pid, r->tid, r->cpu,
		(unsigned long long)(r->time_ns / 1000000000ull),
		(unsigned long long)(r->time_ns % 1000000000ull / 1000),
		(unsigned long long)r->period, sc->name_width, sc->info.events[r->event]);
	if (sc->info.has_addr)
		fprintf(o, "%16llx", (unsigned long long)r->data_addr);
	if (chain) {
		fputc('\n', o);
		for (uint32_t i = 0; i < r->nr; i++) {
			fputc('\t', o);
			print_frame(o, &r->frames[i]);
			fputc('\n', o);
		}
	} else {
		static const struct pc_rec_frame none = {
			0, {"[unknown]", 9, "[unknown]", PC_FRAME_UNKNOWN, false}};
		fputc(' ', o);
		print_frame(o, r->nr ? &r->frames[0] : &none);
	}
	if (sc->info.has_addr)
		fprintf(o, " %s", page_name(r->data_page));
	if (sc->info.has_code_page)
		fprintf(o, " %s", r->has_addr ? page_name(r->code_page) : "N/A");
	fputc('\n', o);
	return ferror(o) ? -EIO : 0;
}

int cmd_script(int argc, char **argv)
{
	static const struct pc_walk_ops ops = {
		.begin = begin, .sample = sample, .quiet = false, .inline_frames = true};
	struct pc_cli c;
	struct script sc = {0};
	char err[512] = "";
	int r = pc_cli_parse(&c, argc, argv, OPT_EVENT | OPT_OUTPUT | OPT_FILTER | OPT_INPUT, &help,
			     1, 1);

	if (r != PC_CLI_RUN)
		return r;
	if (c.load.format != PC_FMT_AUTO && c.load.format != PC_FMT_PMUPROF) {
		fprintf(stderr,
			"pmuconv script: reads pmuprof recordings only (%s input has no per-sample "
			"addresses to print)\n",
			pc_format_name(c.load.format));
		return 2;
	}
	if (!(sc.out = pc_cli_open_out(c.out)))
		return 1;
	r = pc_walk_samples(c.pos[0], &c.load, &ops, &sc, err, sizeof(err));
	if (r)
		fprintf(stderr, "pmuconv: %s\n", err[0] ? err : strerror(-r));
	return pc_cli_close_out(sc.out, c.out) || r ? 1 : 0;
}
