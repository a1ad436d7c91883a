// SPDX-License-Identifier: MIT
/*
 * libFuzzer entry point for pmuconv's SystemTap stack parser (both the
 * multi-line and the '!'-joined forms) and, on the same bytes, the folded
 * reader. Shares the driver in fuzz_perfscript.c (built with
 * -DPMUCONV_FUZZ_NO_ENTRY for this target).
 */
#include <stdint.h>
#include <stddef.h>

#include "host/pmuconv/input.h"

int pmuconv_fuzz_one(int fmt, const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pmuconv_fuzz_one(PC_FMT_STAP, data, size);
	return pmuconv_fuzz_one(PC_FMT_FOLDED, data, size);
}
