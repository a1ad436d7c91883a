/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reference data TLB model for check.c: the behaviour the emulated PMU's
 * model (tests/vm/qemu-pmu, tcg/sysemu/pmu_dtlb.c) has had since patch 0006,
 * written plainly: one array of entries per level, each with its tag, its
 * global bit and a stamp from a clock that every lookup hit and every fill
 * advances. First level per page size (Skylake: 4K 64 entries 4-way, 2M 32
 * 4-way, 1G 4 fully associative), second level shared by 4K and 2M (1536,
 * 12-way) and one for 1G (16, 4-way); set = virtual page number modulo the
 * number of sets. A first-level miss looks in the second level; a
 * second-level hit fills the first level, a miss in both (a walk) fills the
 * second level, then the first. A fill takes the first empty entry of the
 * set, else the one with the oldest stamp. A flush empties every entry, or
 * every non-global one; a page flush empties the entries of that address
 * for every page size.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "ref.h"

struct ref_entry {
	uint64_t tag; /* vpn << 3 | size << 1 | 1; 0: empty */
	uint64_t stamp;
	bool global;
};

struct ref_level {
	int sets, ways;
	struct ref_entry *e;
};

struct ref_tlb {
	struct ref_level l1[3], stlb, stlb_1g;
	uint64_t clock;
};

static const int shift[3] = {12, 21, 30};

static void level_init(struct ref_level *l, int entries, int ways)
{
	l->ways = ways;
	l->sets = entries / ways;
	l->e = calloc((size_t)entries, sizeof(*l->e));
}

struct ref_tlb *ref_new(void)
{
	struct ref_tlb *t = calloc(1, sizeof(*t));

	level_init(&t->l1[0], 64, 4);
	level_init(&t->l1[1], 32, 4);
	level_init(&t->l1[2], 4, 4);
	level_init(&t->stlb, 1536, 12);
	level_init(&t->stlb_1g, 16, 4);
	return t;
}

static struct ref_entry *set_of(struct ref_level *l, uint64_t vpn)
{
	return &l->e[(vpn % (uint64_t)l->sets) * (uint64_t)l->ways];
}

static bool lookup(struct ref_tlb *t, struct ref_level *l, uint64_t vpn, uint64_t tag)
{
	struct ref_entry *s = set_of(l, vpn);

	for (int w = 0; w < l->ways; w++)
		if (s[w].tag == tag) {
			s[w].stamp = ++t->clock;
			return true;
		}
	return false;
}

static void fill(struct ref_tlb *t, struct ref_level *l, uint64_t vpn, uint64_t tag, bool global)
{
	struct ref_entry *s = set_of(l, vpn), *v = NULL;

	for (int w = 0; w < l->ways && !v; w++)
		if (!s[w].tag)
			v = &s[w];
	if (!v) {
		v = &s[0];
		for (int w = 1; w < l->ways; w++)
			if (s[w].stamp < v->stamp)
				v = &s[w];
	}
	v->tag = tag;
	v->stamp = ++t->clock;
	v->global = global;
}

int ref_access(struct ref_tlb *t, uint64_t vaddr, int size, bool global)
{
	uint64_t vpn = vaddr >> shift[size], tag = vpn << 3 | (uint64_t)size << 1 | 1;
	struct ref_level *l2 = size == 2 ? &t->stlb_1g : &t->stlb;

	if (lookup(t, &t->l1[size], vpn, tag))
		return REF_HIT;
	if (lookup(t, l2, vpn, tag)) {
		fill(t, &t->l1[size], vpn, tag, global);
		return REF_STLB_HIT;
	}
	fill(t, l2, vpn, tag, global);
	fill(t, &t->l1[size], vpn, tag, global);
	return REF_WALK;
}

static void flush_level(struct ref_level *l, bool globals_too)
{
	for (int i = 0; i < l->sets * l->ways; i++)
		if (globals_too || !l->e[i].global)
			l->e[i].tag = 0;
}

void ref_flush(struct ref_tlb *t, bool globals_too)
{
	for (int s = 0; s < 3; s++)
		flush_level(&t->l1[s], globals_too);
	flush_level(&t->stlb, globals_too);
	flush_level(&t->stlb_1g, globals_too);
}

void ref_flush_page(struct ref_tlb *t, uint64_t vaddr)
{
	for (int s = 0; s < 3; s++) {
		uint64_t vpn = vaddr >> shift[s], tag = vpn << 3 | (uint64_t)s << 1 | 1;
		struct ref_level *ls[2] = {&t->l1[s], s == 2 ? &t->stlb_1g : &t->stlb};

		for (int k = 0; k < 2; k++) {
			struct ref_entry *e = set_of(ls[k], vpn);

			for (int w = 0; w < ls[k]->ways; w++)
				if (e[w].tag == tag)
					e[w].tag = 0;
		}
	}
}
