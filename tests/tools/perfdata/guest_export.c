// SPDX-License-Identifier: MIT
/*
 * pmuconv-perfdata: the perf.data export of `pmuconv perf-data`
 * (host/pmuconv/export_perfdata.c, perfdata.c) as a static binary for the
 * test guest, where the demo scenario reads the export with the guest's
 * perf. pmuconv itself uses libarchive, protobuf-c and jansson, which do
 * not all link statically here; the export needs none of them. No filters:
 *
 *   pmuconv-perfdata IN.pmu OUT.data
 */
#include <stdio.h>
#include <string.h>

#include "host/pmuconv/export_perfdata.h"

int main(int argc, char **argv)
{
	struct pc_filter f = {0};
	struct pd_export_opts o = {.f = &f, .version = "pmuconv-perfdata (test guest)"};
	struct pd_export_stats st;
	char err[1024] = "";

	if (argc != 3) {
		fprintf(stderr, "usage: pmuconv-perfdata IN.pmu OUT.data\n");
		return 2;
	}
	o.out = argv[2];
	if (perfdata_export(argv[1], &o, &st, err, sizeof(err))) {
		fprintf(stderr, "pmuconv-perfdata: %s\n", err);
		return 1;
	}
	printf("pmuconv-perfdata: wrote %s: %llu of %llu samples, %llu lost, %llu maps\n", o.out,
	       (unsigned long long)st.written, (unsigned long long)st.samples,
	       (unsigned long long)st.lost, (unsigned long long)st.maps);
	return 0;
}
