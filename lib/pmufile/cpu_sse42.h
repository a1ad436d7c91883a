/* SPDX-License-Identifier: MIT */
/*
 * Whether this CPU runs SSE4.2 (the crc32 instruction), for the CRC-32C of
 * the file format and pmuconv's stack hash. glibc (2.33+) answers from the
 * features ld.so found at start (<sys/platform/x86.h>); libgcc's
 * __builtin_cpu_supports instead links a constructor that runs CPUID again
 * in every process, which a hypervisor traps: ~0.2 ms per process start on
 * a KVM/Firecracker guest, a tenth of a short pmuconv conversion.
 */
#ifndef PMUPROF_LIB_PMUFILE_CPU_SSE42_H
#define PMUPROF_LIB_PMUFILE_CPU_SSE42_H

#include <stdbool.h>

#if defined(__x86_64__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define PMUPROF_CPU_FROM_GLIBC 1
#endif
#endif

static inline bool pmuprof_cpu_sse42(void)
{
#if defined(PMUPROF_CPU_FROM_GLIBC)
	return CPU_FEATURE_ACTIVE(SSE4_2);
#elif defined(__x86_64__)
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse4.2");
#else
	return false;
#endif
}

#endif
