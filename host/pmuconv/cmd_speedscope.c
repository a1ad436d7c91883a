// SPDX-License-Identifier: MIT
/* `pmuconv speedscope`: load, then write every event as one speedscope profile. */
#include "cli.h"
#include "export_speedscope.h"

#include <errno.h>

static const struct pc_cmd_help help = {
	"speedscope",
	"usage: pmuconv speedscope FILE -o OUT.json [options]\n"
	"Write a speedscope profile (https://www.speedscope.app/file-format-schema.json):\n"
	"one sampled profile per event, weighted by period (nanoseconds for cpu-clock,\n"
	"event counts otherwise), frames shared between events. Open it at\n"
	"https://www.speedscope.app or with the speedscope command (npm).\n"
	"OUT is written whole or not at all ('-' for stdout).\n"
	"  -o, --output OUT    the file to write (required)\n"
	"  -e, --event EVENT   only this event\n"
	"  --no-process        do not put the process name at the root\n" FILTER_HELP
		COMMON_INPUT_HELP};

int cmd_speedscope(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	struct pc_out o = {0};
	int r = pc_cli_parse(&c, argc, argv, OPT_PROFILE | OPT_ANNOTATE, &help, 1, 1);

	if (r != PC_CLI_RUN)
		return r;
	if (c.annotate_kernel) {
		fprintf(stderr,
			"pmuconv speedscope: --annotate-kernel applies to folded output only\n");
		return 2;
	}
	if (!c.out) {
		fprintf(stderr,
			"pmuconv speedscope: -o OUT is required ('-o -' writes to stdout)\n");
		return 2;
	}
	if ((r = pc_cli_load(&c, &s, 0)))
		goto out;
	if ((r = pc_cli_open_atomic(&o, c.out)))
		goto out;
	int err = speedscope_write(&s, o.f);
	if (err)
		fprintf(stderr, "pmuconv speedscope: %s: %s\n", c.out,
			err == -EIO ? "write failed" : strerror(-err));
	r = pc_cli_commit(&o, !err);
	if (!r && !pc_quiet)
		fprintf(stderr, "pmuconv: %s: %zu event(s)\n", c.out, s.nr);
out:
	pc_set__free(&s);
	return r;
}
