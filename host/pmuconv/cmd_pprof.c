// SPDX-License-Identifier: MIT
/* `pmuconv pprof`: load with the pprof consumer, write profile.proto (gzip). */
#include "cli.h"
#include "export_pprof.h"

#include <errno.h>

static const struct pc_cmd_help help = {
	"pprof", "usage: pmuconv pprof FILE -o OUT.pb.gz [options]\n"
		 "Write a pprof profile (gzip-compressed profile.proto) for go tool pprof,\n"
		 "Grafana Pyroscope, Parca, Polar Signals or Google Cloud Profiler. Every event\n"
		 "is one sample type (its name and unit: count, or nanoseconds for cpu-clock);\n"
		 "frames are locations with their mappings (file, offset, build-id) and\n"
		 "functions. Samples carry the labels pid, tid, cpu and comm, and, for\n"
		 "recordings made with --data-addr, data_page_size (4K, 2M, 1G, unknown):\n"
		 "  go tool pprof -top -sample_index=cycles -tagfocus data_page_size=2M OUT.pb.gz\n"
		 "OUT is written whole or not at all ('-' for stdout).\n"
		 "  -o, --output OUT    the profile to write (required)\n"
		 "  -e, --event EVENT   only this event\n" FILTER_HELP COMMON_INPUT_HELP};

int cmd_pprof(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	struct pprof_acc *acc = NULL;
	struct pc_out o = {0};
	int r = pc_cli_parse(&c, argc, argv, OPT_PROFILE, &help, 1, 1);

	if (r != PC_CLI_RUN)
		return r;
	if (!c.out) {
		fprintf(stderr, "pmuconv pprof: -o OUT is required (the profile is binary; "
				"'-o -' writes it to stdout)\n");
		return 2;
	}
	if (!(acc = pprof_acc__new(c.load.filter.mode))) {
		fprintf(stderr, "pmuconv pprof: out of memory\n");
		return 1;
	}
	c.load.also = pprof_acc__consumer(acc);
	if ((r = pc_cli_load(&c, &s, 0)))
		goto out;
	if ((r = pc_cli_open_atomic(&o, c.out)))
		goto out;
	int err = pprof_acc__write(acc, &s, o.f);
	if (err)
		fprintf(stderr, "pmuconv pprof: %s: %s\n", c.out,
			err == -EIO ? "write failed" : strerror(-err));
	r = pc_cli_commit(&o, !err);
	if (!r && !pc_quiet)
		fprintf(stderr, "pmuconv: %s: %zu event(s), %zu pprof samples\n", c.out, s.nr,
			pprof_acc__nr_samples(acc));
out:
	pprof_acc__free(acc);
	pc_set__free(&s);
	return r;
}
