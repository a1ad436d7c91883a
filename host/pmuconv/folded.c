// SPDX-License-Identifier: MIT
/* Writes a profile as folded stacks: what joins collapse to the renderers. */
#include "folded.h"

#include <errno.h>

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
