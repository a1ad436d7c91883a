/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reference data TLB model (ref.c) for check.c */
#ifndef DTLB_CHECK_REF_H
#define DTLB_CHECK_REF_H
#include <stdbool.h>
#include <stdint.h>

enum { REF_HIT, REF_STLB_HIT, REF_WALK }; /* as X86DTLBResult */

struct ref_tlb *ref_new(void);
int ref_access(struct ref_tlb *t, uint64_t vaddr, int size, bool global);
void ref_flush(struct ref_tlb *t, bool globals_too);
void ref_flush_page(struct ref_tlb *t, uint64_t vaddr);
#endif
