/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data address, physical address and page size of one sample, from the
 * sampled instruction (issue 6, "data address source 2"). The NMI capture
 * path calls dataaddr__fill() when the session asked for
 * PMUPROF_CF_DATA_ADDR and/or PMUPROF_CF_CODE_PAGE, and appends the result
 * as the sample's struct pmuprof_sample_addr (PMUPROF_SF_ADDR).
 *
 * What it does, all NMI-safe and bounded:
 *   1. fetch up to 15 bytes at regs->ip: plat_copy_user_nmi() for user
 *      samples, plat_copy_kernel_nofault() for kernel samples; when the
 *      copy comes back short (the 15 bytes cross into an unmapped page) it
 *      retries with just the bytes up to the end of ip's page, and decodes
 *      what it has (an instruction that really continues onto the missing
 *      page is reported as FETCH_FAULT) - at most 2 copies;
 *   2. decode it (x86_decode.h) and compute the first accessed operand's
 *      linear address from regs;
 *   3. walk the page tables for that address and for ip (pagewalk.h):
 *      at most 2 x 5 page-table reads.
 *
 * Result fields (struct pmuprof_sample_addr):
 *   data_addr    the address, or 0 with addr_status saying why:
 *                NO_MEM_OPERAND (none, or address-only such as LEA/NOP),
 *                FETCH_FAULT, UNDECODABLE (invalid bytes, VSIB gathers,
 *                MPX bound tables), HIDDEN (kernel address and the session
 *                is not privileged)
 *   addr_source  DECODE when data_addr is set, else NONE
 *   precision    EXACT (the interrupted instruction itself: NMI-IPI and
 *                timer samples) or SKID (`skid`: PMU overflow without
 *                PEBS, the IP is some instructions past the event), NONE
 *                when no address
 *   access, access_size  from the decoder, also when the address is
 *                hidden or not computable (0 = unknown)
 *   data_page    page size backing data_addr (UNKNOWN if unmapped/hidden)
 *   code_page    page size backing ip, when CF_CODE_PAGE or phys wanted
 *   data_phys, code_phys  only when `privileged` and CF_PHYS_ADDR
 * Without PMUPROF_CF_DATA_ADDR only the code fields are filled.
 */
#ifndef PMUPROF_DATAADDR_H
#define PMUPROF_DATAADDR_H

#include "pmuprof/types.h"
#include "pmuprof/platform.h"
#include "../../include/uapi/pmuprof.h"

/* [NMI] `cf_flags` are the session's PMUPROF_CF_* flags; `privileged` is
 * whether the session may see kernel and physical addresses. `out` is
 * overwritten completely. */
void dataaddr__fill(struct pmuprof_sample_addr *out, const struct pp_regs *regs, u32 cf_flags,
		    bool privileged, bool skid);

/*
 * [NMI] Same result for a sample whose data address is already known
 * (PEBS, "data address source 1"): no fetch, no decode. `regs->ip` is the
 * sample's IP (the record's), `regs->user` its mode. With `have_addr`,
 * data_addr = addr (HIDDEN for a kernel address and an unprivileged
 * session), addr_source/precision as given, page walk for it; without,
 * addr_status NO_MEM_OPERAND and source/precision NONE (the record carries
 * no address for this event). access/access_size stay 0 (unknown). Code
 * page and physical addresses as dataaddr__fill().
 */
void dataaddr__fill_known(struct pmuprof_sample_addr *out, const struct pp_regs *regs, u32 cf_flags,
			  bool privileged, bool have_addr, u64 addr, u8 addr_source, u8 precision);

/* [NMI] Step 1 alone: copy up to 15 instruction bytes at regs->ip into buf
 * (X86_MAX_INSN_LEN bytes) and return how many are valid (0 = none). */
unsigned int dataaddr__fetch(const struct pp_regs *regs, u8 *buf);

#endif /* PMUPROF_DATAADDR_H */
