// SPDX-License-Identifier: MIT
/* `pmuconv perf-data`: options, then the export (export_perfdata.c) and a
 * summary with the perf command lines that read the result. */
#include "cli.h"
#include "export_perfdata.h"
#include "uapi/pmuprof.h"

#define PC_STR_(x) #x
#define PC_STR(x)  PC_STR_(x)

static const struct pc_cmd_help help = {
	"perf-data",
	"usage: pmuconv perf-data FILE.pmu [-o OUT.data] [options]\n"
	"Write the recording as a perf.data file (PERFILE2) for perf report, perf script,\n"
	"hotspot, Firefox Profiler (via perf script) and every tool built on perf.data.\n"
	"Each event becomes one perf event (PMU events PERF_TYPE_RAW with the recorded\n"
	"IA32_PERFEVTSELx encoding, cpu-clock PERF_TYPE_SOFTWARE/cpu-clock) with call\n"
	"chains, and, in --data-addr recordings, data address, physical address and page\n"
	"sizes. The kallsyms snapshot goes to OUT.kallsyms: pass it to perf report\n"
	"--kallsyms when the recording's kernel is not the one running perf.\n"
	"  -o, --output OUT    perf.data file to write (default perf.data); written under\n"
	"                      a temporary name and renamed when complete\n"
	"  -e, --event EVENT   only this event\n"
	"  --time START,END    only samples (and LOST records) in this range: seconds as\n"
	"                      'pmuconv script' prints them; START, or ,END: open\n"
	"  -p, --pid PID       only this process (tgid)\n"
	"  --comm NAME         only samples whose thread name is NAME\n"
	"  -C, --cpu LIST      only samples taken on these CPUs (e.g. 0-3,7)\n"
	"  --kernel-only       only kernel-mode samples, kernel call chains only\n"
	"  --user-only         user call chains only (drop samples without one)\n"
	"  --symfs DIR         read build-ids the recording lacks from binaries under DIR\n"
	"  --salvage           export what precedes damage in a truncated/corrupt file\n"
	"  -q, --quiet         no summary on stderr\n"};

int cmd_perfdata(int argc, char **argv)
{
	struct pc_cli c;
	struct pd_export_opts o = {0};
	struct pd_export_stats st;
	char err[1024] = "";
	int r = pc_cli_parse(&c, argc, argv, OPT_EVENT | OPT_OUTPUT | OPT_FILTER | OPT_INPUT, &help,
			     1, 1);

	if (r != PC_CLI_RUN)
		return r;
	if (c.load.format && c.load.format != PC_FMT_PMUPROF) {
		fprintf(stderr, "pmuconv perf-data: only pmuprof recordings can be exported to "
				"perf.data (perf script text already comes from perf)\n");
		return 2;
	}
	if (c.load.filter.dso || c.load.filter.symbol) {
		fprintf(stderr, "pmuconv perf-data: --dso and --symbol do not apply (they need "
				"symbols; perf report --dsos/--symbols filter the export)\n");
		return 2;
	}
	if (c.load.sym.vmlinux || c.load.event_name || c.load.sym.no_offsets || c.svg) {
		fprintf(stderr,
			"pmuconv perf-data: --vmlinux, --event-name, --no-offsets and --svg "
			"do not apply (perf resolves symbols itself: perf report --vmlinux)\n");
		return 2;
	}
	if (!strcmp(c.pos[0], "-")) {
		fprintf(stderr, "pmuconv perf-data: give the recording as a file (standard input "
				"is not read here)\n");
		return 2;
	}
	o.out = c.out ? c.out : "perf.data";
	if (!strcmp(o.out, "-")) {
		fprintf(stderr, "pmuconv perf-data: perf.data cannot go to stdout (its header is "
				"written last); give -o FILE\n");
		return 2;
	}
	o.f = &c.load.filter;
	o.symfs = c.load.sym.symfs;
	o.sym = &c.load.sym;
	o.version = "pmuconv (pmuprof ABI " PC_STR(PMUPROF_ABI_VERSION) ")";
	r = perfdata_export(c.pos[0], &o, &st, err, sizeof(err));
	if (r) {
		fprintf(stderr, "pmuconv perf-data: %s\n", err[0] ? err : strerror(-r));
		return 1;
	}
	if (st.truncated)
		pc_warn("%s: damaged: exported what precedes the damage (--salvage)", c.pos[0]);
	if (c.load.filter.event || c.load.filter.has_pid || c.load.filter.comm ||
	    c.load.filter.has_cpu || c.load.filter.has_time || c.load.filter.mode) {
		if (!st.written)
			pc_warn("%s: no sample passed the filters; %s has no samples", c.pos[0],
				o.out);
	}
	if (!pc_quiet) {
		fprintf(stderr,
			"pmuconv: wrote %s: %llu of %llu samples, %llu lost, %llu maps, %llu "
			"build-ids\n",
			o.out, (unsigned long long)st.written, (unsigned long long)st.samples,
			(unsigned long long)st.lost, (unsigned long long)st.maps,
			(unsigned long long)st.build_ids);
		if (st.kallsyms_path[0])
			fprintf(stderr, "pmuconv: read it with: perf report -i %s --kallsyms %s\n",
				o.out, st.kallsyms_path);
	}
	return 0;
}
