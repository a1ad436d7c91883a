// SPDX-License-Identifier: MIT
/* Growing pmuconv's open-addressing index (hashtab.h). */
#include "hashtab.h"

#include <errno.h>
#include <stdlib.h>

int pc_htab__grow(struct pc_htab *t, size_t first, pc_htab_hash_fn hash, const void *ctx)
{
	size_t n = t->nslots ? t->nslots * 2 : first;
	uint32_t *s;

	if (t->nr >= UINT32_MAX - 1)
		return -E2BIG;
	if (!(s = calloc(n, sizeof(*s))))
		return -ENOMEM;
	for (size_t i = 0; i < t->nslots; i++) {
		if (!t->slots[i])
			continue;
		size_t j = hash(ctx, t->slots[i] - 1) & (n - 1);
		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = s;
	t->nslots = n;
	return 0;
}

void pc_htab__free(struct pc_htab *t)
{
	free(t->slots);
	*t = (struct pc_htab){0};
}
