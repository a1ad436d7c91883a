// SPDX-License-Identifier: MIT
/*
 * pskwalk: the guest's own answer to "with what page size does this kernel
 * map its text?", independent of pmuprof.ko (static, runs in the VM guest as
 * root; issue 6, tests/vm/scenarios/pagesize_*.sh).
 *
 * Debian's kernel has no page-table dump in debugfs (CONFIG_PTDUMP_DEBUGFS
 * is off), so pskwalk walks the kernel's page tables itself, from user space:
 * /proc/kallsyms gives the addresses of init_top_pgt (the root table every
 * process shares for kernel addresses), page_offset_base (the direct map,
 * through which lower tables are read) and __pgtable_l5_enabled; /proc/kcore
 * (an ELF core image of kernel memory) lets it read them. For every page of
 * [_stext, _etext) it walks 4 or 5 levels and prints merged runs:
 *
 *   kmap START END 4K|2M|1G|unknown       (hex, [START, END))
 *   pskwalk: levels=N text=START-END runs=N 4K=BYTES 2M=BYTES 1G=BYTES
 *
 * Exit 0, or 1 with a message when kallsyms hides addresses (kptr_restrict),
 * /proc/kcore is missing, or a read fails.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmuprof/x86_paging.h"

#define MAX_PHDR 512

static const char *const size_name[] = {"unknown", "4K", "2M", "1G"};

static int kfd = -1;
static Elf64_Phdr ph[MAX_PHDR];
static int nph;

static int kcore_open(void)
{
	Elf64_Ehdr eh;

	kfd = open("/proc/kcore", O_RDONLY);
	if (kfd < 0) {
		fprintf(stderr, "pskwalk: /proc/kcore: %s (needs CONFIG_PROC_KCORE and root)\n",
			strerror(errno));
		return -1;
	}
	if (pread(kfd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr)) {
		fprintf(stderr, "pskwalk: /proc/kcore is not a 64-bit ELF core image\n");
		return -1;
	}
	nph = eh.e_phnum < MAX_PHDR ? eh.e_phnum : MAX_PHDR;
	if (pread(kfd, ph, sizeof(ph[0]) * (size_t)nph, (off_t)eh.e_phoff) !=
	    (ssize_t)(sizeof(ph[0]) * (size_t)nph)) {
		fprintf(stderr, "pskwalk: /proc/kcore: cannot read program headers\n");
		return -1;
	}
	return 0;
}

/* Read n bytes of kernel virtual memory at va. */
static int kread(uint64_t va, void *buf, size_t n)
{
	for (int i = 0; i < nph; i++) {
		if (ph[i].p_type != PT_LOAD || va < ph[i].p_vaddr ||
		    va + n > ph[i].p_vaddr + ph[i].p_memsz)
			continue;
		if (pread(kfd, buf, n, (off_t)(ph[i].p_offset + (va - ph[i].p_vaddr))) ==
		    (ssize_t)n)
			return 0;
	}
	return -1;
}

static int ksym(const char *name, uint64_t *addr)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], type;
	unsigned long long a;
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 && !strcmp(sym, name)) {
			*addr = a;
			found = a ? 0 : -2;
			break;
		}
	fclose(f);
	return found;
}

static uint64_t pgd_va, page_offset;
static unsigned int levels;

/* Page size backing va (enum pmuprof_page_size numbering: 0 unknown, 1 4K,
 * 2 2M, 3 1G) and the level that mapped it. */
static unsigned int walk(uint64_t va, unsigned int *level_out)
{
	uint64_t table_va = pgd_va;

	for (unsigned int level = levels; level >= X86_PT_LEVEL_PT; level--) {
		uint64_t e;

		if (kread(table_va + 8ull * x86_pt_index(va, level), &e, sizeof(e)) ||
		    !(e & X86_PTE_PRESENT))
			break;
		*level_out = level;
		if (level == X86_PT_LEVEL_PT)
			return 1;
		if ((e & X86_PTE_PS) && level == X86_PT_LEVEL_PD)
			return 2;
		if ((e & X86_PTE_PS) && level == X86_PT_LEVEL_PDPT)
			return 3;
		table_va = page_offset + (e & X86_PTE_ADDR_MASK);
	}
	return 0;
}

int main(void)
{
	uint64_t stext, etext, pob_addr, l5_addr, sum[4] = {0};
	uint32_t l5 = 0;
	int runs = 0;

	if (ksym("_stext", &stext) || ksym("_etext", &etext) || ksym("init_top_pgt", &pgd_va) ||
	    ksym("page_offset_base", &pob_addr)) {
		fprintf(stderr, "pskwalk: /proc/kallsyms lacks _stext/_etext/init_top_pgt/"
				"page_offset_base or hides them (kptr_restrict; run as root)\n");
		return 1;
	}
	if (kcore_open() || kread(pob_addr, &page_offset, sizeof(page_offset))) {
		fprintf(stderr, "pskwalk: cannot read page_offset_base through /proc/kcore\n");
		return 1;
	}
	if (ksym("__pgtable_l5_enabled", &l5_addr) == 0 && kread(l5_addr, &l5, sizeof(l5))) {
		fprintf(stderr, "pskwalk: cannot read __pgtable_l5_enabled\n");
		return 1;
	}
	levels = l5 ? X86_PT_LEVEL_PML5 : X86_PT_LEVEL_PML4;

	uint64_t va = stext & ~((1ull << X86_PAGE_SHIFT_4K) - 1);
	uint64_t run_start = va;
	unsigned int run_size = 0, lvl = 0;
	while (va < etext) {
		unsigned int sz = walk(va, &lvl);
		/* step to the end of what mapped va (4K when unmapped); the size
		 * numbers 1/2/3 are also the levels that map 4K/2M/1G pages */
		uint64_t step = 1ull << (sz ? x86_pt_shift(sz) : X86_PAGE_SHIFT_4K);
		uint64_t next = (va & ~(step - 1)) + step;

		if (va != run_start && sz != run_size) {
			printf("kmap %#" PRIx64 " %#" PRIx64 " %s\n", run_start, va,
			       size_name[run_size]);
			runs++;
			run_start = va;
		}
		run_size = sz;
		sum[sz] += (next < etext ? next : etext) - va;
		va = next;
	}
	printf("kmap %#" PRIx64 " %#" PRIx64 " %s\n", run_start, etext, size_name[run_size]);
	runs++;
	printf("pskwalk: levels=%u text=%#" PRIx64 "-%#" PRIx64 " runs=%d 4K=%" PRIu64
	       " 2M=%" PRIu64 " 1G=%" PRIu64 " unmapped=%" PRIu64 "\n",
	       levels, stext, etext, runs, sum[1], sum[2], sum[3], sum[0]);
	return 0;
}
