// SPDX-License-Identifier: MIT
/*
 * libFuzzer entry point for pmuconv's `perf script` parser. The first byte
 * picks filter options so mode filters, weights and the process root are
 * exercised too; the rest is the text. After parsing, every profile is
 * finished, written as folded text and summarised as a report, so the
 * consumers of parsed names are covered as well.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "host/pmuconv/folded.h"
#include "host/pmuconv/input.h"
#include "host/pmuconv/inputs.h"
#include "host/pmuconv/report.h"

int pmuconv_fuzz_one(int fmt, const uint8_t *data, size_t size);

int pmuconv_fuzz_one(int fmt, const uint8_t *data, size_t size)
{
	struct pc_set s = {0};
	struct pc_filter f = {0};
	struct pc_stream out;
	static FILE *sink;
	unsigned opt = size ? data[0] : 0;
	int r;

	pc_quiet = 1;
	pc_progress_mode = -1;
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (size) {
		data++;
		size--;
	}
	f.mode = opt % 3;
	f.weight = (opt >> 2) & 1;
	f.no_process = (opt >> 3) & 1;
	if ((opt >> 4) & 1) {
		f.has_cpu = true;
		f.cpus.bits[0] = 1u << 1; /* CPU 1 */
	}
	pc_set__stream(&s, &f, &out);
	if (fmt == PC_FMT_PERFSCRIPT)
		r = input_perfscript_parse(&s, (const char *)data, size, &f, &out);
	else if (fmt == PC_FMT_STAP)
		r = input_stap_parse(&s, (const char *)data, size, &f, &out);
	else
		r = input_folded_parse(&s, (const char *)data, size, &f, &out);
	if (!r && !pc_set__finish(&s)) {
		for (size_t i = 0; i < s.nr; i++) {
			struct pc_report_event rep;
			folded_write(sink, &s.ev[i]->prof, opt & 0x20, opt & 0x40);
			if (!pc_report__build(&rep, s.ev[i]))
				pc_report__free(&rep);
		}
	}
	char err[256];
	(void)pc_detect_format((const char *)data, size, err, sizeof(err));
	pc_set__free(&s);
	return 0;
}

#ifndef PMUCONV_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return pmuconv_fuzz_one(PC_FMT_PERFSCRIPT, data, size);
}
#endif
