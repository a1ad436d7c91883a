// SPDX-License-Identifier: MIT
/*
 * Folded stacks ("root;child;leaf COUNT", FlameGraph's collapsed format):
 * read back so report/flamegraph/diff work on them. A frame ending in
 * "_[k]" (FlameGraph's kernel annotation) is a kernel frame; the suffix is
 * removed. One event, named by --event-name or "folded". Mangled C++/Rust
 * names are demangled unless --no-demangle.
 */
#include "demangle.h"
#include "inputs.h"
#include "textparse.h"

#include <errno.h>
#include <stdlib.h>

int input_folded_parse(struct pc_set *s, const char *buf, size_t len, const struct pc_filter *f,
		       const struct pc_stream *out)
{
	const char *p = buf, *end = buf + len;
	struct pc_frame *fr = malloc(PC_MAX_FRAMES * sizeof(*fr));
	struct pc_agg *a = pc_set__event(s, f->event ? f->event : "folded");
	struct pc_sample smp = {.frames = fr, .root_first = true};
	struct pc_demangle_cache dm = {0};
	uint64_t lineno = 0;
	int r = 0;

	if (!fr || !a) {
		free(fr);
		return -ENOMEM;
	}
	smp.event = a->index;
	if (!s->acct.format)
		s->acct.format = "folded";
	while (p < end && !r) {
		size_t ll;
		const char *line = p, *le, *cs;
		uint64_t count;
		p = pc_next_line(p, end, &ll);
		le = line + ll;
		lineno++;
		while (le > line && is_ws(le[-1]))
			le--;
		if (le == line || *line == '#')
			continue;
		cs = le;
		while (cs > line && isdigit((unsigned char)cs[-1]))
			cs--;
		if (cs == le || cs == line || !is_ws(cs[-1]) || !parse_u64_span(cs, le, &count)) {
			pc_set__skip(s, "line %llu: no count at the end: %.*s",
				     (unsigned long long)lineno, PC_SNIP(line, le), line);
			continue;
		}
		const char *se = cs;
		while (se > line && is_ws(se[-1]))
			se--;
		/* frames root first, as the stream takes them with root_first */
		smp.nr = 0;
		const char *fs = line;
		for (const char *x = line; x <= se && smp.nr < PC_MAX_FRAMES; x++) {
			if (x != se && *x != ';')
				continue;
			const char *fe = x;
			int kind = PC_FRAME_USER;
			if (fe - fs > 4 && !memcmp(fe - 4, "_[k]", 4)) {
				fe -= 4;
				kind = PC_FRAME_KERNEL;
			} else if (fe - fs == 9 && !memcmp(fs, "[unknown]", 9)) {
				kind = PC_FRAME_UNKNOWN;
			}
			const char *name = fs;
			size_t n = (size_t)(fe - fs);
			if (!f->no_demangle && !(name = pc_demangle_cached(&dm, fs, n, &n))) {
				r = -ENOMEM;
				break;
			}
			fr[smp.nr++] = (struct pc_frame){.name = name,
							 .len = (uint32_t)n,
							 .kind = (uint8_t)kind,
							 .kernel = kind == PC_FRAME_KERNEL};
			fs = x + 1;
		}
		if (r)
			break;
		s->acct.samples += count;
		a->acct.samples += count;
		smp.samples = smp.weight = count;
		r = pc_stream__emit(out, &smp);
	}
	free(fr);
	pc_demangle_cache__free(&dm);
	return r;
}
