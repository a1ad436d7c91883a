// SPDX-License-Identifier: MIT
/*
 * Folded stacks ("root;child;leaf COUNT", FlameGraph's collapsed format):
 * read back so report/flamegraph/diff work on them. A frame ending in
 * "_[k]" (FlameGraph's kernel annotation) is a kernel frame; the suffix is
 * removed. One event, named by --event-name or "folded".
 */
#include "input.h"
#include "textparse.h"

#include <errno.h>
#include <stdlib.h>

int input_folded_parse(struct pc_set *s, const char *buf, size_t len, const struct pc_filter *f)
{
	const char *p = buf, *end = buf + len;
	struct pc_stackbuf *sb = malloc(sizeof(*sb));
	struct pc_agg *a = pc_set__event(s, f->event ? f->event : "folded");
	uint64_t lineno = 0;
	int r = 0;

	if (!sb || !a) {
		free(sb);
		return -ENOMEM;
	}
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
		/* frames root first: collect, then reverse into leaf-first order
		 * that pc_stackbuf expects */
		sb->nr = 0;
		sb->cut = false;
		const char *fs = line;
		for (const char *x = line; x <= se && !r; x++) {
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
			int64_t id = pc_strtab__intern(&a->names, fs, (size_t)(fe - fs), kind);
			if (id < 0) {
				r = (int)id;
				break;
			}
			if (sb->nr < PC_MAX_FRAMES) {
				sb->ids[sb->nr] = (uint32_t)id;
				sb->kinds[sb->nr++] =
					kind == PC_FRAME_KERNEL ? PC_FRAME_KERNEL : PC_FRAME_USER;
			} else {
				sb->cut = true;
			}
			fs = x + 1;
		}
		if (r)
			break;
		for (uint32_t i = 0; i < sb->nr / 2; i++) {
			uint32_t t = sb->ids[i];
			uint8_t k = sb->kinds[i];
			sb->ids[i] = sb->ids[sb->nr - 1 - i];
			sb->kinds[i] = sb->kinds[sb->nr - 1 - i];
			sb->ids[sb->nr - 1 - i] = t;
			sb->kinds[sb->nr - 1 - i] = k;
		}
		s->acct.samples += count;
		a->acct.samples += count;
		r = pc_stackbuf__commit(sb, a, -1, f, count, count);
		if (r > 0) {
			a->acct.kept += count;
			a->acct.weight += count;
			r = 0;
		} else if (r == 0) {
			s->acct.filtered += count;
		}
	}
	free(sb);
	return r;
}
