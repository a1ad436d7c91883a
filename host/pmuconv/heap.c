// SPDX-License-Identifier: MIT
/*
 * pmuconv's heap set-up. A conversion is short (a few ms for an 8 s
 * recording) and touches a few MiB of fresh heap in many small steps:
 * realloc'd arrays, tables, memo entries. On 4 KiB pages each first touch
 * is a page fault (about 1.2 us here, ~500 of them for a 3210-sample
 * recording: a tenth of the run; bench/RESULTS.md 5d). So:
 *  - malloc grows the heap in HEAP_PAD steps (M_TOP_PAD): one brk call
 *    instead of dozens, address space and not memory until touched;
 *  - the heap starts on a huge-page boundary and is advised
 *    MADV_HUGEPAGE, so where transparent huge pages are enabled ("always"
 *    or "madvise") the first touch of each 2 MiB maps a huge page.
 * Each step is advice: on failure (no THP, brk refused) malloc works as
 * before. PMUCONV_HEAP=plain skips all of it (e.g. to compare).
 */
#include "heap.h"

#include "pmuprof/x86_paging.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HEAP_PAD  (16u << 20)
#define HUGE_PAGE (1u << X86_PAGE_SHIFT_2M) /* a transparent huge page */

void pc_heap_setup(void)
{
	const char *e = getenv("PMUCONV_HEAP");
	uintptr_t lo, hi;
	void *volatile p; /* volatile: a malloc/free pair is otherwise elided */

	if (e && !strcmp(e, "plain"))
		return;
	mallopt(M_TOP_PAD, HEAP_PAD);
	/* start the heap on a huge-page boundary (skipping < 2 MiB of
	 * address space); malloc takes the break where it finds it */
	lo = (uintptr_t)sbrk(0);
	if (lo == (uintptr_t)-1 ||
	    (lo % HUGE_PAGE && sbrk((intptr_t)(HUGE_PAGE - lo % HUGE_PAGE)) == (void *)-1))
		return;
	lo = (uintptr_t)sbrk(0); /* on the boundary now */
	/* the first malloc grows the heap by at least HEAP_PAD: advise it */
	p = malloc(1);
	hi = (uintptr_t)sbrk(0) & ~(uintptr_t)(HUGE_PAGE - 1);
	free(p);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}
