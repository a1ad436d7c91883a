// SPDX-License-Identifier: MIT
/* `pmuconv archive`: the binaries a recording hit, by build-id, in one tar. */
#include "binarchive.h"
#include "cli.h"

static const struct pc_cmd_help help = {
	"archive", "usage: pmuconv archive FILE -o OUT.tar [options]\n"
		   "Collect the binaries (and their separate debug files) that the samples of\n"
		   "FILE hit into OUT.tar, by build-id, as 'perf archive' does, so that FILE\n"
		   "can be read on another machine:\n"
		   "  pmuconv report FILE --symfs OUT.tar\n"
		   "(or unpack it into DIR and give --symfs DIR or --buildid-dir DIR).\n"
		   "OUT ending in .tar.gz, .tgz, .tar.xz or .tar.zst is compressed. Run it\n"
		   "where FILE was recorded, or point --symfs/--buildid-dir at a copy of\n"
		   "that machine's binaries.\n"
		   "  -o, --output OUT    the archive to write (required)\n"
		   "  --symfs DIR         look binaries and debug files up under DIR (or a tar)\n"
		   "  --buildid-dir DIR   look them up by build-id in DIR/.build-id/ first\n"
		   "  --salvage           read what precedes damage in a truncated/corrupt FILE\n"
		   "  --call-graph fp|dwarf  --call-graph dwarf recordings: the binaries of the\n"
		   "                      unwound user frames (dwarf, default) or of the FP walk\n"
		   "  -q, --quiet         no warnings\n"};

int cmd_archive(int argc, char **argv)
{
	struct pc_cli c;
	struct archive_opts ao = {0};
	char err[512] = "";
	long n;
	int r = pc_cli_parse(&c, argc, argv, OPT_OUTPUT | OPT_INPUT, &help, 1, 1);

	if (r != PC_CLI_RUN)
		return r;
	if (!c.out || !strcmp(c.out, "-")) {
		fprintf(stderr, "pmuconv archive: give the archive to write with -o OUT.tar\n");
		return 2;
	}
	if (c.load.format && c.load.format != PC_FMT_PMUPROF) {
		fprintf(stderr, "pmuconv archive: only pmuprof recordings name their binaries "
				"and build-ids; perf script, stap and folded text do not\n");
		return 2;
	}
	ao.sym = c.load.sym;
	ao.salvage = c.load.filter.salvage;
	ao.call_graph_fp = c.load.filter.call_graph_fp;
	ao.log = stdout;
	n = pc_archive_write(c.pos[0], c.out, &ao, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "pmuconv archive: %s\n", err[0] ? err : strerror((int)-n));
		return 1;
	}
	printf("pmuconv archive: %ld file(s) in %s. To read %s elsewhere:\n"
	       "  pmuconv report %s --symfs %s\n",
	       n, c.out, c.pos[0], c.pos[0], c.out);
	return 0;
}
