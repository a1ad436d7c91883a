// SPDX-License-Identifier: GPL-2.0
/*
 * pebsforms: loads in several addressing forms, one function per form, for
 * the PEBS-vs-decoder check on the emulated PMU (issue 16, emu_pmu_pebs).
 *
 *   pebsforms [-c CPU] [-n LOADS]
 *
 * Each function below runs LOADS (default 20000) iterations of an asm loop
 * whose only memory access is one load of its form:
 *   pf_base     mov (%rsi),%rax                  base
 *   pf_sib      mov 0x10(%rsi,%rcx,8),%rax       base + index*8 + disp
 *   pf_abs      mov pf_buf(,%rcx,8),%rax         index*8 + disp32, no base
 *   pf_rip      mov pf_table(%rip),%rax          RIP-relative
 *   pf_stack    mov 8(%rsp),%rax                 stack pointer base
 *   pf_fs       mov %fs:0,%rax                   FS segment (the TLS pointer)
 * and two the check must call not applicable (the record's GPRs are those
 * after the load retired):
 *   pf_chase    mov (%rax),%rax                  destination = base
 *   pf_lods     lodsq                            RSI advanced (string op)
 * The first six are checkable: 6 of the 8 functions' loads.
 * Output: "pebsforms: loads=N forms=8 buf=0x..." on stdout.
 */
#include <getopt.h>
#include <stdint.h>

#include "wl_common.h"

#define BUF_WORDS (1u << 17) /* 1 MiB of 8-byte words */

uint64_t pf_buf[BUF_WORDS] __attribute__((aligned(64)));
uint64_t pf_table[8] __attribute__((used)) = {1, 2, 3, 4, 5, 6, 7, 8};
static uint64_t pf_cell __attribute__((aligned(64)));

static void usage(void)
{
	fprintf(stderr, "usage: pebsforms [-c CPU] [-n LOADS]  (LOADS <= %u)\n", BUF_WORDS - 4);
	exit(2);
}

static __attribute__((noinline)) uint64_t pf_base(uint64_t n)
{
	uint64_t v, s = 0;
	const uint64_t *p = pf_buf;

	__asm__ volatile("1: mov (%[p]), %[v]\n\t"
			 "add %[v], %[s]\n\t"
			 "add $8, %[p]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b"
			 : [v] "=&r"(v), [s] "+r"(s), [p] "+S"(p), [n] "+r"(n)
			 :
			 : "memory", "cc");
	return s;
}

static __attribute__((noinline)) uint64_t pf_sib(uint64_t n)
{
	uint64_t v, s = 0, i = 0;

	__asm__ volatile("1: mov 0x10(%[b],%[i],8), %[v]\n\t"
			 "add %[v], %[s]\n\t"
			 "inc %[i]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b"
			 : [v] "=&r"(v), [s] "+r"(s), [i] "+c"(i), [n] "+r"(n)
			 : [b] "S"(pf_buf)
			 : "memory", "cc");
	return s;
}

static __attribute__((noinline)) uint64_t pf_abs(uint64_t n)
{
	uint64_t v, s = 0, i = 0;

	__asm__ volatile("1: mov pf_buf(,%[i],8), %[v]\n\t"
			 "add %[v], %[s]\n\t"
			 "inc %[i]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b"
			 : [v] "=&r"(v), [s] "+r"(s), [i] "+c"(i), [n] "+r"(n)
			 :
			 : "memory", "cc");
	return s;
}

static __attribute__((noinline)) uint64_t pf_rip(uint64_t n)
{
	uint64_t v, s = 0;

	__asm__ volatile("1: mov pf_table+16(%%rip), %[v]\n\t"
			 "add %[v], %[s]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b"
			 : [v] "=&r"(v), [s] "+r"(s), [n] "+r"(n)
			 :
			 : "memory", "cc");
	return s;
}

static __attribute__((noinline)) uint64_t pf_stack(uint64_t n)
{
	uint64_t v, s = 0;

	__asm__ volatile("1: mov 8(%%rsp), %[v]\n\t"
			 "add %[v], %[s]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b"
			 : [v] "=&r"(v), [s] "+r"(s), [n] "+r"(n)
			 :
			 : "memory", "cc");
	return s;
}

static __attribute__((noinline)) uint64_t pf_fs(uint64_t n)
{
	uint64_t v, s = 0;

	__asm__ volatile("1: mov %%fs:0, %[v]\n\t"
			 "add %[v], %[s]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b"
			 : [v] "=&r"(v), [s] "+r"(s), [n] "+r"(n)
			 :
			 : "memory", "cc");
	return s;
}

static __attribute__((noinline)) uint64_t pf_chase(uint64_t n)
{
	uint64_t p = (uintptr_t)&pf_cell, s = 0;

	pf_cell = (uintptr_t)&pf_cell; /* the cell points at itself */
	__asm__ volatile("1: mov (%%rax), %%rax\n\t"
			 "add %%rax, %[s]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b"
			 : "+a"(p), [s] "+r"(s), [n] "+r"(n)
			 :
			 : "memory", "cc");
	return s;
}

static __attribute__((noinline)) uint64_t pf_lods(uint64_t n)
{
	uint64_t s = 0, v;
	const uint64_t *p = pf_buf;

	__asm__ volatile("cld\n"
			 "1: lodsq\n\t"
			 "add %%rax, %[s]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b"
			 : "=&a"(v), [s] "+r"(s), "+S"(p), [n] "+r"(n)
			 :
			 : "memory", "cc");
	return s;
}

int main(int argc, char **argv)
{
	unsigned long n = 20000;
	int c, cpu = -1;

	TT_OPTS(o, TT_INT('c', &cpu), TT_UL('n', &n));

	while ((c = tt_opts_next(argc, argv, "c:n:", NULL, o, "pebsforms")) != -1)
		usage();
	if (optind != argc || !n || n > BUF_WORDS - 4)
		usage();
	if (cpu >= 0 && wl_pin("pebsforms", cpu))
		return 1;
	for (unsigned int i = 0; i < BUF_WORDS; i++)
		pf_buf[i] = i;
	wl_sink = pf_base(n) + pf_sib(n) + pf_abs(n) + pf_rip(n) + pf_stack(n) + pf_fs(n) +
		  pf_chase(n) + pf_lods(n);
	printf("pebsforms: loads=%lu forms=8 buf=%p\n", n, (void *)pf_buf);
	return 0;
}
