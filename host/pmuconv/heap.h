/* SPDX-License-Identifier: MIT */
/*
 * How pmuconv's heap grows: set once at the start of a command (heap.c).
 */
#ifndef PMUCONV_HEAP_H
#define PMUCONV_HEAP_H

/* Grow malloc's heap in large steps and ask for transparent huge pages on
 * it. Call before anything is allocated; never fails (each step is advice). */
void pc_heap_setup(void);

#endif
