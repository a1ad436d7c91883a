/* SPDX-License-Identifier: MIT */
/*
 * Binary search over a sorted array, shared by the data-file library,
 * pmuctl and pmuconv: one copy of the loop that every sorted-table lookup
 * (symbols, NUMA ranges, nodes) uses.
 */
#ifndef PMUFILE_BSEARCH_H
#define PMUFILE_BSEARCH_H

#include <stddef.h>

/*
 * PMUFILE_PARTITION(NR, I, BELOW): the first index in [0, NR) at which the
 * expression BELOW, evaluated with the index in I (a size_t the macro
 * declares), is false, or NR; BELOW must hold on a prefix of the range and
 * fail on the rest, as "v[I].key <= x" (the index after the last key at or
 * below x) or "v[I].key < x" (the first key at or above x) does on a sorted
 * v. O(log NR) evaluations of BELOW.
 */
#define PMUFILE_PARTITION(nr, i, below)                                                            \
	({                                                                                         \
		size_t lo_ = 0, hi_ = (nr);                                                        \
		while (lo_ < hi_) {                                                                \
			size_t i = lo_ + (hi_ - lo_) / 2;                                          \
			if (below)                                                                 \
				lo_ = i + 1;                                                       \
			else                                                                       \
				hi_ = i;                                                           \
		}                                                                                  \
		lo_;                                                                               \
	})

#endif
