/* SPDX-License-Identifier: MIT */
/*
 * A stable merge sort generated per element type, with the comparison
 * inlined: PC_DEFINE_MSORT(name, T, cmp) defines
 *   static void name(T *v, size_t n);
 * which sorts v like qsort(v, n, sizeof(T), cmp) does with glibc (whose
 * qsort is a stable merge sort too), so outputs stay the same, at a
 * fraction of the cost for the converter's symbol tables and stacks: no
 * call through a pointer per comparison, whole-element moves instead of a
 * byte-size-generic copy, and a sorted stretch (common: symbol tables are
 * mostly in address order) costs one comparison to merge. cmp is a
 * function (or macro) taking two const T * and returning <0, 0 or >0.
 * Without memory for the merge buffer it falls back to qsort itself.
 */
#ifndef PMUCONV_MSORT_H
#define PMUCONV_MSORT_H

#include <stdlib.h>
#include <string.h>

#define PC_MSORT_SMALL 8 /* runs this short are sorted by insertion */

#define PC_DEFINE_MSORT(NAME, T, CMP)                                                              \
	static void NAME##_run(T *a, T *tmp, size_t n)                                             \
	{                                                                                          \
		if (n <= PC_MSORT_SMALL) {                                                         \
			for (size_t i = 1; i < n; i++) {                                           \
				T x = a[i];                                                        \
				size_t j = i;                                                      \
				while (j && CMP(&a[j - 1], &x) > 0) {                              \
					a[j] = a[j - 1];                                           \
					j--;                                                       \
				}                                                                  \
				a[j] = x;                                                          \
			}                                                                          \
			return;                                                                    \
		}                                                                                  \
		size_t h = n / 2, i = 0, j = h, k = 0;                                             \
		NAME##_run(a, tmp, h);                                                             \
		NAME##_run(a + h, tmp, n - h);                                                     \
		if (CMP(&a[h - 1], &a[h]) <= 0)                                                    \
			return; /* the halves are already in order */                              \
		memcpy(tmp, a, h * sizeof(T));                                                     \
		while (i < h && j < n) /* the right one only when smaller: stable */               \
			a[k++] = CMP(&a[j], &tmp[i]) < 0 ? a[j++] : tmp[i++];                      \
		while (i < h)                                                                      \
			a[k++] = tmp[i++];                                                         \
	}                                                                                          \
	static int NAME##_qcmp(const void *x, const void *y)                                       \
	{                                                                                          \
		return CMP((const T *)x, (const T *)y);                                            \
	}                                                                                          \
	static void NAME(T *v, size_t n)                                                           \
	{                                                                                          \
		T *tmp;                                                                            \
		if (n < 2)                                                                         \
			return;                                                                    \
		tmp = malloc((n / 2 + 1) * sizeof(T));                                             \
		if (!tmp) {                                                                        \
			qsort(v, n, sizeof(T), NAME##_qcmp);                                       \
			return;                                                                    \
		}                                                                                  \
		NAME##_run(v, tmp, n);                                                             \
		free(tmp);                                                                         \
	}

#endif
