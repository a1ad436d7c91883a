/* SPDX-License-Identifier: MIT */
/*
 * The one open-addressing index behind pmuconv's tables (names, stacks, raw
 * stacks, the address cache, ELF files, flamegraph nodes): hash -> item
 * number in the caller's array or arena, 4 bytes a slot (cache-dense), no
 * keys or hashes stored. Linear probing, power-of-two size, at most half
 * full. Use: pc_htab__reserve(); probe from pc_htab__slot(h) with
 * pc_htab__next() while slots[j] != 0, comparing item slots[j] - 1 with the
 * key; on a miss pc_htab__set(j, new item).
 */
#ifndef PMUCONV_HASHTAB_H
#define PMUCONV_HASHTAB_H

#include <stddef.h>
#include <stdint.h>

struct pc_htab {
	uint32_t *slots; /* item + 1; 0 = empty */
	size_t nslots;	 /* a power of two; 0 before the first reserve */
	size_t nr;	 /* items set */
};

typedef uint64_t (*pc_htab_hash_fn)(const void *ctx, uint32_t item); /* to re-place items */

/* Room for one more item: grows (doubling, `first` slots the first time)
 * and re-places every item with hash(ctx, item). Slot numbers found before
 * a call are stale after it. 0, -E2BIG (2^32 - 2 items) or -ENOMEM. */
int pc_htab__grow(struct pc_htab *t, size_t first, pc_htab_hash_fn hash, const void *ctx);
static inline int pc_htab__reserve(struct pc_htab *t, size_t first, pc_htab_hash_fn hash,
				   const void *ctx)
{
	return t->nr + 1 > t->nslots / 2 ? pc_htab__grow(t, first, hash, ctx) : 0;
}

static inline size_t pc_htab__slot(const struct pc_htab *t, uint64_t h)
{
	return h & (t->nslots - 1);
}

static inline size_t pc_htab__next(const struct pc_htab *t, size_t j)
{
	return (j + 1) & (t->nslots - 1);
}

/* Put item in the empty slot j that the probe ended on. */
static inline void pc_htab__set(struct pc_htab *t, size_t j, uint32_t item)
{
	t->slots[j] = item + 1;
	t->nr++;
}

void pc_htab__free(struct pc_htab *t); /* empties the table; accepts a zeroed one */

#endif
