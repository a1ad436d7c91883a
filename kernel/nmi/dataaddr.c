// SPDX-License-Identifier: GPL-2.0
/* Data address + page size of a sample; see dataaddr.h. */
#include "pmuprof/types.h"
#include "pmuprof/platform.h"
#include "pmuprof/x86_paging.h"
#include "../../include/uapi/pmuprof.h"
#include "x86_decode.h"
#include "pagewalk.h"
#include "dataaddr.h"

/* Instruction fetches never look past ip's page unless the next is mapped:
 * this is the size of the page the retry stops at (the smallest one). */
#define DATAADDR_FETCH_PAGE (1ull << X86_PAGE_SHIFT_4K)

unsigned int dataaddr__fetch(const struct pp_regs *regs, u8 *buf)
{
	unsigned int want = X86_MAX_INSN_LEN;
	unsigned int to_page_end =
		(unsigned int)(DATAADDR_FETCH_PAGE - (regs->ip & (DATAADDR_FETCH_PAGE - 1)));
	unsigned int got, got2;

	if (regs->user) {
		got = want - (unsigned int)plat_copy_user_nmi(buf, regs->ip, want);
		if (got == want)
			return got;
		/* Short copy: copy_from_user_nmi() may stop early at a fault,
		 * even before it, so retry exactly up to the page end. Bytes
		 * already copied stay valid: both copies read the same memory
		 * and each writes only what it copied. */
		if (to_page_end < want && got < to_page_end) {
			got2 = to_page_end -
			       (unsigned int)plat_copy_user_nmi(buf, regs->ip, to_page_end);
			if (got2 > got)
				got = got2;
		}
		return got;
	}
	if (!plat_copy_kernel_nofault(buf, regs->ip, want))
		return want;
	if (to_page_end < want && !plat_copy_kernel_nofault(buf, regs->ip, to_page_end))
		return to_page_end;
	return 0;
}
PP_NOKPROBE(dataaddr__fetch);

static bool is_kernel_addr(const struct pp_regs *regs, u64 addr)
{
	return !regs->compat && (s64)addr < 0; /* upper half of the address space */
}

/* Decode at ip and compute the data address; returns enum pmuprof_addr_status. */
static u8 dataaddr_decode(struct pmuprof_sample_addr *out, const struct pp_regs *regs, u64 *addr)
{
	u8 buf[X86_MAX_INSN_LEN];
	const struct x86_mem *m;
	struct x86_insn insn;
	unsigned int n;
	int err;

	n = dataaddr__fetch(regs, buf);
	if (!n)
		return PMUPROF_ADDR_FETCH_FAULT;
	err = x86_decode(&insn, buf, n, regs->compat);
	if (err == -ENODATA)
		return PMUPROF_ADDR_FETCH_FAULT; /* continues on an unreadable page */
	if (err)
		return PMUPROF_ADDR_UNDECODABLE;
	m = x86_insn_access(&insn);
	if (!m)
		return PMUPROF_ADDR_NO_MEM_OPERAND;
	out->access = m->access;
	out->access_size = m->size;
	if (x86_mem_addr(&insn, m, regs, addr))
		return PMUPROF_ADDR_UNDECODABLE;
	return PMUPROF_ADDR_OK;
}

/* Code page (and physical address) of regs->ip, when asked for. */
static void fill_code(struct pmuprof_sample_addr *out, const struct pp_regs *regs, u32 cf_flags,
		      bool want_phys)
{
	struct pagewalk_result pw;

	if ((cf_flags & PMUPROF_CF_CODE_PAGE) || want_phys) {
		if (!pagewalk__translate(regs->ip, &pw)) {
			out->code_page = pw.page_size;
			if (want_phys)
				out->code_phys = pw.phys;
		}
	}
}

/* The data page's node + 1 for pmuprof_sample_addr.data_node1; 0 unknown. */
static u8 node1_of(u64 phys)
{
	int node = plat_phys_to_node(phys);

	return node >= 0 && node < 255 ? (u8)(node + 1) : 0;
}
PP_NOKPROBE(node1_of);

/* A data address the sample may show (status OK): where it came from, and
 * its page size, node and (want_phys) physical address when it is mapped. */
static void fill_data(struct pmuprof_sample_addr *out, u64 addr, u8 addr_source, u8 precision,
		      bool want_phys)
{
	struct pagewalk_result pw;

	out->data_addr = addr;
	out->addr_source = addr_source;
	out->precision = precision;
	if (!pagewalk__translate(addr, &pw)) {
		out->data_page = pw.page_size;
		out->data_node1 = node1_of(pw.phys);
		if (want_phys)
			out->data_phys = pw.phys;
	}
}
PP_NOKPROBE(fill_data);

void dataaddr__fill(struct pmuprof_sample_addr *out, const struct pp_regs *regs, u32 cf_flags,
		    bool privileged, bool skid)
{
	bool want_phys = privileged && (cf_flags & PMUPROF_CF_PHYS_ADDR);
	u64 addr = 0;

	memset(out, 0, sizeof(*out));

	if (cf_flags & PMUPROF_CF_DATA_ADDR) {
		out->addr_status = dataaddr_decode(out, regs, &addr);
		if (out->addr_status == PMUPROF_ADDR_OK && !privileged &&
		    is_kernel_addr(regs, addr))
			out->addr_status = PMUPROF_ADDR_HIDDEN;
		if (out->addr_status == PMUPROF_ADDR_OK)
			fill_data(out, addr, PMUPROF_ADDR_SRC_DECODE,
				  skid ? PMUPROF_ADDR_PREC_SKID : PMUPROF_ADDR_PREC_EXACT,
				  want_phys);
	}
	fill_code(out, regs, cf_flags, want_phys);
}
PP_NOKPROBE(dataaddr__fill);

void dataaddr__fill_known(struct pmuprof_sample_addr *out, const struct pp_regs *regs, u32 cf_flags,
			  bool privileged, bool have_addr, u64 addr, u8 addr_source, u8 precision)
{
	bool want_phys = privileged && (cf_flags & PMUPROF_CF_PHYS_ADDR);

	memset(out, 0, sizeof(*out));
	if (cf_flags & PMUPROF_CF_DATA_ADDR) {
		if (!have_addr)
			out->addr_status = PMUPROF_ADDR_NO_MEM_OPERAND;
		else if (!privileged && is_kernel_addr(regs, addr))
			out->addr_status = PMUPROF_ADDR_HIDDEN;
		else
			out->addr_status = PMUPROF_ADDR_OK;
		if (out->addr_status == PMUPROF_ADDR_OK)
			fill_data(out, addr, addr_source, precision, want_phys);
	}
	fill_code(out, regs, cf_flags, want_phys);
}
PP_NOKPROBE(dataaddr__fill_known);
