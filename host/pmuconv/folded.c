// SPDX-License-Identifier: MIT
/* Writes a profile as folded stacks: what joins collapse to the renderers. */
#include "folded.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FOLDED_CHUNK 65536 /* lines are built here, handed to stdio whole */

struct chunk {
	FILE *out;
	size_t at;
	char b[FOLDED_CHUNK];
};

static void chunk_flush(struct chunk *c)
{
	if (c->at)
		fwrite_unlocked(c->b, 1, c->at, c->out);
	c->at = 0;
}

static void chunk_put(struct chunk *c, const char *s, size_t n)
{
	if (c->at + n > sizeof(c->b)) {
		chunk_flush(c);
		if (n > sizeof(c->b) / 2) { /* a very long name: straight through */
			fwrite_unlocked(s, 1, n, c->out);
			return;
		}
	}
	memcpy(c->b + c->at, s, n);
	c->at += n;
}

/* " COUNT\n", as fprintf(" %llu\n") writes it */
static void chunk_count(struct chunk *c, uint64_t n)
{
	char t[24];
	size_t i = sizeof(t);

	t[--i] = '\n';
	do
		t[--i] = (char)('0' + n % 10);
	while (n /= 10);
	t[--i] = ' ';
	chunk_put(c, t + i, sizeof(t) - i);
}

int folded_write(FILE *out, const struct pc_profile *p, int annotate, int by_samples)
{
	/* each name's length once (names recur in most stacks); without
	 * memory for that, measured per frame */
	size_t *len = malloc((p->nr_names ? p->nr_names : 1) * sizeof(*len));
	struct chunk c;

	for (size_t i = 0; len && i < p->nr_names; i++)
		len[i] = strlen(p->names[i].name);
	c.out = out;
	c.at = 0;
	for (size_t i = 0; i < p->nr_stacks; i++) {
		const struct pc_stack *s = &p->stacks[i];
		uint64_t n = by_samples ? s->samples : s->weight;
		if (!n)
			continue;
		for (uint32_t k = 0; k < s->nr; k++) {
			const struct pc_name *nm = &p->names[s->frames[k]];
			if (k)
				chunk_put(&c, ";", 1);
			chunk_put(&c, nm->name, len ? len[s->frames[k]] : strlen(nm->name));
			if (annotate && nm->kind == PC_FRAME_KERNEL)
				chunk_put(&c, "_[k]", 4);
		}
		chunk_count(&c, n);
	}
	chunk_flush(&c);
	free(len);
	return ferror(out) ? -EIO : 0;
}
