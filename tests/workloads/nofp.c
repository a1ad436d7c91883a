// SPDX-License-Identifier: GPL-2.0
/*
 * nofp: what code built without frame pointers does to a frame-pointer
 * walk, made deterministic. With -fomit-frame-pointer (GCC's default at
 * -O2) %rbp is an ordinary register; here spin() keeps a pointer to a data
 * record on the stack in it while it loops, as such code may keep any
 * pointer. A sample taken there walks from %rbp into that record: its
 * "return addresses" are stack and heap addresses, the junk [stack]+0x...
 * frames pmuconv must warn about. -m fp runs the same loop with %rbp left
 * as the frame pointer (main -> spin), the control.
 *
 *   nofp [-m rbp|fp] [-c CPU] [-s SECONDS]
 *
 * Prints one line at the end: nofp: mode=M rounds=R seconds=S
 */
#include <getopt.h>
#include <stdint.h>

#include "wl_common.h"

/* ITERS loop iterations; with use_rbp, %rbp holds `rec` meanwhile (saved
 * and restored in another register: no stack writes below %rsp). */
__attribute__((noinline)) static uint64_t spin(uint64_t iters, const uint64_t *rec, int use_rbp)
{
	WL_FRAME();
	uint64_t x = iters | 1, n = iters, save;

	if (use_rbp)
		__asm__ volatile("mov %%rbp, %[save]\n\t"
				 "mov %[rec], %%rbp\n\t"
				 "1: add %%rbp, %[x]\n\t"
				 "ror $7, %[x]\n\t"
				 "dec %[n]\n\t"
				 "jnz 1b\n\t"
				 "mov %[save], %%rbp"
				 : [x] "+r"(x), [n] "+r"(n), [save] "=&r"(save)
				 : [rec] "r"(rec)
				 : "cc", "memory");
	else
		__asm__ volatile("1: add %[n], %[x]\n\t"
				 "ror $7, %[x]\n\t"
				 "dec %[n]\n\t"
				 "jnz 1b"
				 : [x] "+r"(x), [n] "+r"(n)
				 :
				 : "cc");
	return x;
}

int main(int argc, char **argv)
{
	double seconds = 2, t0;
	int use_rbp = 1, cpu = -1, o;
	unsigned long rounds = 0;
	/* the record %rbp points at, shaped like frame records {next, ret}:
	 * next frames at higher addresses (so a walk follows them), "return
	 * addresses" on the stack and on the heap, then an end (ret 0) */
	static uint64_t heap_word;
	uint64_t rec[8];

	while ((o = getopt(argc, argv, "m:c:s:")) != -1) {
		if (o == 'm' && (!strcmp(optarg, "rbp") || !strcmp(optarg, "fp")))
			use_rbp = !strcmp(optarg, "rbp");
		else if (o == 'c')
			cpu = (int)tt_num("nofp", "-c", optarg);
		else if (o == 's')
			seconds = (double)tt_num("nofp", "-s", optarg);
		else {
			fprintf(stderr, "usage: nofp [-m rbp|fp] [-c CPU] [-s SECONDS]\n");
			return 2;
		}
	}
	if (wl_pin("nofp", cpu))
		return 1;
	rec[0] = (uint64_t)(uintptr_t)&rec[2];
	rec[1] = (uint64_t)(uintptr_t)&rec[6]; /* a [stack] address */
	rec[2] = (uint64_t)(uintptr_t)&rec[4];
	rec[3] = (uint64_t)(uintptr_t)&heap_word; /* data, not code */
	rec[4] = (uint64_t)(uintptr_t)&rec[6];
	rec[5] = (uint64_t)(uintptr_t)&rec[7]; /* [stack] again */
	rec[6] = rec[7] = 0;
	t0 = wl_now();
	do {
		wl_sink += spin(1000000, rec, use_rbp);
		rounds++;
	} while (wl_now() - t0 < seconds);
	printf("nofp: mode=%s rounds=%lu seconds=%.2f\n", use_rbp ? "rbp" : "fp", rounds,
	       wl_now() - t0);
	return 0;
}
