/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/nmi/fpwalk.h: the frame-pointer walk loop, defined once for every
 * walker: the platform's batched walk (plat_user_fp_walk: Linux reads the
 * whole walk inside one user-access window), capture's careful walk
 * (plat_copy_user_nmi per frame, when no batch can be opened) and the host
 * tests' fake platform. FPWALK_DEFINE(name, read) defines
 *
 *   static unsigned int name(u64 fp, u64 *out, unsigned int room, u32 *sflags,
 *                            u64 lim)
 *
 * which reads frame records {saved frame pointer, return address} from fp
 * up and stores return addresses in out[0..room-1]. It stops on a zero or
 * misaligned frame pointer, a zero return address, a frame pointer that
 * does not grow (stacks grow down, so a caller's frame is at a higher
 * address: anything else is a loop or garbage), when
 * read(&next, &ret, fp, lim) returns non-zero (sets PMUPROF_SF_USTACK_FAULT in *sflags) and when
 * room is used up with frames left (sets PMUPROF_SF_USTACK_TRUNC). `lim` is
 * passed on to read, computed once per walk (Linux: the user address
 * limit, whose computation is an alternative the compiler cannot hoist).
 * Returns the entries stored. Bounded: at most room + 1 reads. `read` is a static
 * always-inline function of the includer, so a batched walk makes no call
 * inside its user-access window. [NMI]
 */
#ifndef PMUPROF_FPWALK_H
#define PMUPROF_FPWALK_H

#include "pmuprof/types.h"
#include "pmuprof/platform.h"
#include "../../include/uapi/pmuprof.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

/* A frame record through plat_copy_user_nmi, which checks the address: the
 * read of walks that open no user-access batch (capture's careful walk, the
 * host tests' fake platform). */
static __always_inline int fpwalk__copy_read(u64 *next, u64 *ret, u64 fp, u64 lim)
{
	u64 frame[2];

	(void)lim;
	if (plat_copy_user_nmi(frame, fp, sizeof(frame)))
		return -1;
	*next = frame[0];
	*ret = frame[1];
	return 0;
}

#define FPWALK_DEFINE(name, read)                                                                  \
	static __always_inline unsigned int name(u64 fp, u64 *out, unsigned int room, u32 *sflags, \
						 u64 lim)                                          \
	{                                                                                          \
		u64 *p = out, *end = out + room;                                                   \
		u64 next, ret;                                                                     \
                                                                                                   \
		if (!fp)                                                                           \
			return 0;                                                                  \
		/* fp stays non-zero: each step goes to a higher address */                        \
		while (!(fp & 7)) {                                                                \
			if (p == end) {                                                            \
				*sflags |= PMUPROF_SF_USTACK_TRUNC;                                \
				break;                                                             \
			}                                                                          \
			if (read(&next, &ret, fp, lim)) {                                          \
				*sflags |= PMUPROF_SF_USTACK_FAULT;                                \
				break;                                                             \
			}                                                                          \
			if (!ret)                                                                  \
				break;                                                             \
			*p++ = ret;                                                                \
			if (next <= fp)                                                            \
				break;                                                             \
			fp = next;                                                                 \
		}                                                                                  \
		return (unsigned int)(p - out);                                                    \
	}

#endif /* PMUPROF_FPWALK_H */
