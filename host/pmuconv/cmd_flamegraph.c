// SPDX-License-Identifier: MIT
/* `pmuconv flamegraph`: load, then one interactive SVG per event (renderer). */
#include "cli.h"
#include "render.h"
#include "report.h"

static const struct pc_cmd_help help = {
	"flamegraph",
	"usage: pmuconv flamegraph FILE -o DIR [-e EVENT] [options]\n"
	"Write DIR/EVENT.svg for every event (or only -e EVENT).\n"
	"  --width PX is not configurable yet; frames use the weight (see --weight)\n" FILTER_HELP
		COMMON_INPUT_HELP};

int cmd_flamegraph(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	int r = pc_cli_parse(&c, argc, argv, OPT_PROFILE | OPT_ANNOTATE, &help, 1, 1);

	if (r != PC_CLI_RUN)
		return r;
	if (!render_flamegraph_svg)
		return pc_cli_not_built("flamegraph");
	if (!c.out) {
		fprintf(stderr, "pmuconv flamegraph: give the output directory with -o DIR\n");
		return 2;
	}
	if ((r = pc_cli_load(&c, &s, 0)) || (r = pc_cli_mkdir(c.out)))
		goto out;
	for (size_t i = 0; i < s.nr && !r; i++) {
		char name[200], path[4096], sub[256], unit[96];
		struct render_opts ro;
		FILE *f;
		pc_safe_filename(name, sizeof(name), s.ev[i]->prof.event);
		snprintf(path, sizeof(path), "%s/%s.svg", c.out, name);
		pc_render_opts(&ro, s.ev[i], sub, sizeof(sub), unit, sizeof(unit));
		ro.by_samples = c.load.filter.weight == PC_WEIGHT_SAMPLES;
		f = pc_cli_open_out(path);
		r = f ? pc_cli_close_rendered(f, path,
					      render_flamegraph_svg(f, &s.ev[i]->prof, &ro))
		      : 1;
		if (!r && !pc_quiet)
			fprintf(stderr, "pmuconv: wrote %s\n", path);
	}
out:
	pc_set__free(&s);
	return r;
}
