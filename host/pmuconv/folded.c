// SPDX-License-Identifier: MIT
/* `pmuconv folded`: the collapse stage, joined to renderers by folded text. */
#include "cli.h"
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

int folded_write(FILE *out, const struct pc_profile *p, int annotate, int by_samples)
{
	for (size_t i = 0; i < p->nr_stacks; i++) {
		const struct pc_stack *s = &p->stacks[i];
		uint64_t n = by_samples ? s->samples : s->weight;
		if (!n)
			continue;
		for (uint32_t k = 0; k < s->nr; k++) {
			const struct pc_name *nm = &p->names[s->frames[k]];
			if (k)
				putc_unlocked(';', out);
			fputs_unlocked(nm->name, out);
			if (annotate && nm->kind == PC_FRAME_KERNEL)
				fputs_unlocked("_[k]", out);
		}
		fprintf(out, " %llu\n", (unsigned long long)n);
	}
	return ferror(out) ? -EIO : 0;
}

static int write_one(struct pc_cli *c, const struct pc_agg *a, const char *path)
{
	static char buf[1 << 20];
	FILE *out = pc_cli_open_out(path);
	char ub[96];

	if (!out)
		return 1;
	setvbuf(out, buf, _IOFBF, sizeof(buf));
	folded_write(out, &a->prof, c->annotate_kernel, 0);
	if (pc_cli_close_out(out, path))
		return 1;
	if (!pc_quiet)
		fprintf(stderr, "pmuconv: %s: event %s, %zu stacks, %llu samples; counts are %s\n",
			path ? path : "stdout", a->prof.event, a->prof.nr_stacks,
			(unsigned long long)a->prof.total_samples,
			pc_unit_label(a, ub, sizeof(ub)));
	return 0;
}

int cmd_folded(int argc, char **argv)
{
	struct pc_cli c;
	struct pc_set s = {0};
	int r = pc_cli_parse(&c, argc, argv,
			     OPT_EVENT | OPT_OUTPUT | OPT_FILTER | OPT_WEIGHT | OPT_INPUT |
				     OPT_ANNOTATE,
			     pc_find_cmd("folded"), 1, 1);

	if (r)
		return r == 1 ? 0 : 2;
	if ((r = pc_cli_load(&c, &s, 0)))
		goto out;
	if (s.nr == 0) {
		fprintf(stderr, "pmuconv: %s: no samples\n", c.pos[0]);
		r = 1;
		goto out;
	}
	if (s.nr == 1) {
		r = write_one(&c, s.ev[0], c.out);
		goto out;
	}
	if (!c.out) {
		fprintf(stderr,
			"pmuconv: %s has %zu events, and folded never mixes events: choose one "
			"with -e, or give -o DIR for one file per event. Events:",
			c.pos[0], s.nr);
		for (size_t i = 0; i < s.nr; i++)
			fprintf(stderr, " %s", s.ev[i]->prof.event);
		fprintf(stderr, "\n");
		r = 2;
		goto out;
	}
	if (mkdir(c.out, 0777) && errno != EEXIST) {
		fprintf(stderr, "pmuconv: cannot create directory %s: %s\n", c.out,
			strerror(errno));
		r = 1;
		goto out;
	}
	for (size_t i = 0; i < s.nr && !r; i++) {
		char name[200], path[4096];
		pc_safe_filename(name, sizeof(name), s.ev[i]->prof.event);
		snprintf(path, sizeof(path), "%s/%s.folded", c.out, name);
		r = write_one(&c, s.ev[i], path);
	}
out:
	pc_set__free(&s);
	return r;
}
