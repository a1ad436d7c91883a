// SPDX-License-Identifier: GPL-2.0
/* Host test platform: fake memory and page tables. See platform_test_mem.h. */
#include "platform_test_mem.h"
#include "pmuprof/x86_paging.h"
#include "../../include/uapi/pmuprof.h"
#include "../../kernel/nmi/fpwalk.h"

struct mem_region {
	u64 addr;
	size_t len;
	u8 *buf;
};

static struct mem_region user_regions[PLAT_TEST_MEM_MAX_REGIONS];
static struct mem_region kernel_regions[PLAT_TEST_MEM_MAX_REGIONS];
static unsigned int nr_user, nr_kernel;
static bool user_all_or_nothing;
static unsigned int user_copies, kernel_copies;
/* batched walks (plat_user_fp_walk): done, refused */
static bool user_batch_refused;
static unsigned int user_batches;

static u64 pt_pool[PLAT_TEST_PT_MAX_TABLES][X86_PT_ENTRIES];
static unsigned int pt_used;
static u64 pt_root;
static unsigned int pt_levels = 4;
static unsigned int pt_reads, pt_fail_at;
static struct {
	u64 start, end;
	int node;
} phys_nodes[8];
static unsigned int nr_phys_nodes;

void plat_test_mem_reset(void)
{
	nr_phys_nodes = 0;
	memset(user_regions, 0, sizeof(user_regions));
	memset(kernel_regions, 0, sizeof(kernel_regions));
	nr_user = nr_kernel = 0;
	user_all_or_nothing = false;
	user_copies = kernel_copies = 0;
	user_batch_refused = false;
	user_batches = 0;
	plat_test_pt_init(4);
}

static int add_region(struct mem_region *r, unsigned int *nr, u64 addr, void *buf, size_t len)
{
	if (*nr >= PLAT_TEST_MEM_MAX_REGIONS)
		return -ENOSPC;
	r[*nr].addr = addr;
	r[*nr].len = len;
	r[*nr].buf = buf;
	(*nr)++;
	return 0;
}

int plat_test_mem_map_user(u64 addr, void *buf, size_t len)
{
	return add_region(user_regions, &nr_user, addr, buf, len);
}

int plat_test_mem_map_kernel(u64 addr, void *buf, size_t len)
{
	return add_region(kernel_regions, &nr_kernel, addr, buf, len);
}

void plat_test_mem_user_all_or_nothing(bool on)
{
	user_all_or_nothing = on;
}

unsigned int plat_test_mem_user_copies(void)
{
	return user_copies;
}

unsigned int plat_test_mem_kernel_copies(void)
{
	return kernel_copies;
}

void plat_test_mem_user_batch_refuse(bool on)
{
	user_batch_refused = on;
}

unsigned int plat_test_mem_user_batches(void)
{
	return user_batches;
}

static const u8 *find_byte(const struct mem_region *r, unsigned int nr, u64 addr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (addr >= r[i].addr && addr - r[i].addr < r[i].len)
			return r[i].buf + (addr - r[i].addr);
	return NULL;
}

/* Bytes of [addr, addr+n) readable from the start. */
static size_t readable_prefix(const struct mem_region *r, unsigned int nr, u64 addr, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!find_byte(r, nr, addr + i))
			break;
	return i;
}

static void copy_bytes(u8 *dst, const struct mem_region *r, unsigned int nr, u64 addr, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = *find_byte(r, nr, addr + i);
}

size_t plat_copy_user_nmi(void *dst, u64 uaddr, size_t n)
{
	size_t ok = readable_prefix(user_regions, nr_user, uaddr, n);

	user_copies++;
	if (ok < n && user_all_or_nothing)
		return n;
	copy_bytes(dst, user_regions, nr_user, uaddr, ok);
	return n - ok;
}

FPWALK_DEFINE(fake_fp_walk, fpwalk__copy_read)

int plat_user_fp_walk(u64 fp, u64 *out, unsigned int room, u32 *sflags)
{
	if (user_batch_refused)
		return -1;
	user_batches++;
	return (int)fake_fp_walk(fp, out, room, sflags, 0);
}

int plat_copy_kernel_nofault(void *dst, u64 kaddr, size_t n)
{
	kernel_copies++;
	if (readable_prefix(kernel_regions, nr_kernel, kaddr, n) < n)
		return -EFAULT;
	copy_bytes(dst, kernel_regions, nr_kernel, kaddr, n);
	return 0;
}

u8 plat_test_user_code[4096], plat_test_kern_code[4096];

int plat_test_mem_code_pages(u64 user_code, u64 kern_text)
{
	int rc;

	plat_test_mem_reset();
	memset(plat_test_user_code, 0xcc, sizeof(plat_test_user_code));
	memset(plat_test_kern_code, 0xcc, sizeof(plat_test_kern_code));
	rc = plat_test_mem_map_user(user_code, plat_test_user_code, sizeof(plat_test_user_code));
	if (!rc)
		rc = plat_test_mem_map_kernel(kern_text, plat_test_kern_code,
					      sizeof(plat_test_kern_code));
	return rc;
}

/* --- page tables -------------------------------------------------------- */

static u64 pt_phys(unsigned int i)
{
	return PLAT_TEST_PT_PHYS_BASE + ((u64)i << X86_PAGE_SHIFT_4K);
}

static u64 *pt_table(u64 phys)
{
	u64 off;

	if (phys < PLAT_TEST_PT_PHYS_BASE)
		return NULL;
	off = phys - PLAT_TEST_PT_PHYS_BASE;
	if (off & ((1ull << X86_PAGE_SHIFT_4K) - 1))
		return NULL;
	off >>= X86_PAGE_SHIFT_4K;
	if (off >= pt_used)
		return NULL;
	return pt_pool[off];
}

static u64 pt_alloc(void)
{
	if (pt_used >= PLAT_TEST_PT_MAX_TABLES)
		return 0;
	memset(pt_pool[pt_used], 0, sizeof(pt_pool[0]));
	return pt_phys(pt_used++);
}

void plat_test_pt_init(unsigned int levels)
{
	pt_used = 0;
	pt_levels = levels;
	pt_reads = 0;
	pt_fail_at = 0;
	pt_root = pt_alloc();
}

static unsigned int leaf_level(unsigned int page_size)
{
	switch (page_size) {
	case PMUPROF_PAGE_4K:
		return X86_PT_LEVEL_PT;
	case PMUPROF_PAGE_2M:
		return X86_PT_LEVEL_PD;
	case PMUPROF_PAGE_1G:
		return X86_PT_LEVEL_PDPT;
	default:
		return 0;
	}
}

#define PT_TABLE_FLAGS (X86_PTE_PRESENT | X86_PTE_RW | X86_PTE_USER | X86_PTE_ACCESSED)

int plat_test_pt_map(u64 va, u64 pa, unsigned int page_size)
{
	unsigned int leaf = leaf_level(page_size);
	u64 table = pt_root;
	unsigned int level;
	u64 mask, *e;

	if (!leaf)
		return -EINVAL;
	if (!pt_table(table))
		return -EINVAL;
	for (level = pt_levels; level > leaf; level--) {
		e = &pt_table(table)[x86_pt_index(va, level)];
		if (!(*e & X86_PTE_PRESENT)) {
			u64 t = pt_alloc();

			if (!t)
				return -ENOSPC;
			*e = t | PT_TABLE_FLAGS;
		} else if (*e & X86_PTE_PS) {
			return -EEXIST;
		}
		table = *e & X86_PTE_ADDR_MASK;
	}
	mask = ~((1ull << x86_pt_shift(leaf)) - 1);
	e = &pt_table(table)[x86_pt_index(va, leaf)];
	*e = (pa & mask & X86_PTE_ADDR_MASK) | PT_TABLE_FLAGS | X86_PTE_DIRTY |
	     (leaf == X86_PT_LEVEL_PT ? 0 : X86_PTE_PS);
	return 0;
}

u64 *plat_test_pt_entry(u64 va, unsigned int level)
{
	u64 table = pt_root;
	unsigned int l;

	for (l = pt_levels; l >= 1; l--) {
		u64 *t = pt_table(table), *e;

		if (!t)
			return NULL;
		e = &t[x86_pt_index(va, l)];
		if (l == level)
			return e;
		if (!(*e & X86_PTE_PRESENT) || (*e & X86_PTE_PS))
			return NULL;
		table = *e & X86_PTE_ADDR_MASK;
	}
	return NULL;
}

void plat_test_pt_set_root(u64 root)
{
	pt_root = root;
}

u64 plat_test_pt_root(void)
{
	return pt_root;
}

void plat_test_pt_fail_read(unsigned int nth)
{
	pt_fail_at = nth ? pt_reads + nth : 0;
}

unsigned int plat_test_pt_reads(void)
{
	return pt_reads;
}

u64 plat_pgtable_root(u64 vaddr)
{
	(void)vaddr;
	return pt_root;
}

int plat_read_pte(u64 table, unsigned int index, u64 *entry)
{
	u64 *t = pt_table(table & X86_PTE_ADDR_MASK);

	pt_reads++;
	if (pt_fail_at && pt_reads == pt_fail_at)
		return -EFAULT;
	if (!t || index >= X86_PT_ENTRIES)
		return -EFAULT;
	*entry = t[index];
	return 0;
}

unsigned int plat_paging_levels(void)
{
	return pt_levels;
}

int plat_test_phys_node(u64 start, u64 end, int node)
{
	if (nr_phys_nodes == sizeof(phys_nodes) / sizeof(phys_nodes[0]))
		return -ENOSPC;
	phys_nodes[nr_phys_nodes].start = start;
	phys_nodes[nr_phys_nodes].end = end;
	phys_nodes[nr_phys_nodes++].node = node;
	return 0;
}

int plat_phys_to_node(u64 phys)
{
	for (unsigned int i = 0; i < nr_phys_nodes; i++)
		if (phys >= phys_nodes[i].start && phys < phys_nodes[i].end)
			return phys_nodes[i].node;
	return -1;
}
