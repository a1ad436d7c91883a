/* SPDX-License-Identifier: MIT */
/* pmuctl info: GET_INFO in words (or --json). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "pmuctl.h"
#include "util.h"

static const char *const arch_names[PMUPROF_ARCH__MAX] = {
	[PMUPROF_ARCH_CORE_CYCLES] = "core-cycles",
	[PMUPROF_ARCH_INSTRUCTIONS] = "instructions",
	[PMUPROF_ARCH_REF_CYCLES] = "ref-cycles",
	[PMUPROF_ARCH_LLC_REFERENCES] = "llc-references",
	[PMUPROF_ARCH_LLC_MISSES] = "llc-misses",
	[PMUPROF_ARCH_BRANCH_INSTRUCTIONS] = "branches",
	[PMUPROF_ARCH_BRANCH_MISSES] = "branch-misses",
	[PMUPROF_ARCH_TOPDOWN_SLOTS] = "topdown-slots",
};

static const char *const source_names[PMUPROF_SOURCE__MAX] = {
	[PMUPROF_SOURCE_NONE] = "none",	      [PMUPROF_SOURCE_PMU] = "pmu",
	[PMUPROF_SOURCE_NMI_IPI] = "nmi-ipi", [PMUPROF_SOURCE_TIMER] = "timer",
	[PMUPROF_SOURCE_PEBS] = "pebs",
};

static const char *const source_desc[PMUPROF_SOURCE__MAX] = {
	[PMUPROF_SOURCE_NONE] = "",
	[PMUPROF_SOURCE_PMU] = "counter overflow NMI (hardware events)",
	[PMUPROF_SOURCE_NMI_IPI] = "NMI-IPI timer (-e cpu-clock)",
	[PMUPROF_SOURCE_TIMER] = "hrtimer interrupt fallback (single CPU)",
	[PMUPROF_SOURCE_PEBS] = "PEBS precise samples",
};

static const char *const vendor_names[] = {"unknown", "Intel", "AMD", "other"};

static void json_str(const char *key, const char *v, int last)
{
	const char *p;

	printf("  \"%s\": \"", key);
	for (p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	printf("\"%s\n", last ? "" : ",");
}

static void print_json(const struct pmuprof_info *in)
{
	unsigned int i;
	int first = 1;

	printf("{\n");
	printf("  \"abi_version\": %u,\n", in->abi_version);
	json_str("vendor", in->vendor < 4 ? vendor_names[in->vendor] : "unknown", 0);
	json_str("vendor_string", in->vendor_string, 0);
	printf("  \"family\": %u,\n  \"model\": %u,\n  \"stepping\": %u,\n", in->family, in->model,
	       in->stepping);
	printf("  \"hypervisor\": %s,\n", in->flags & PMUPROF_INFO_HYPERVISOR ? "true" : "false");
	printf("  \"privileged\": %s,\n", in->flags & PMUPROF_INFO_PRIVILEGED ? "true" : "false");
	printf("  \"nr_cpus\": %u,\n  \"nr_online\": %u,\n", in->nr_cpus, in->nr_online);
	printf("  \"pmu_available\": %s,\n", in->pmu_status == PMUPROF_PMU_OK ? "true" : "false");
	printf("  \"pmu_status\": %u,\n", in->pmu_status);
	json_str("pmu_reason", device__pmu_reason(in), 0);
	printf("  \"pmu_version\": %u,\n", in->pmu_version);
	printf("  \"nr_gp\": %u,\n  \"gp_width\": %u,\n", in->nr_gp, in->gp_width);
	printf("  \"nr_fixed\": %u,\n  \"fixed_width\": %u,\n", in->nr_fixed, in->fixed_width);
	printf("  \"full_width_writes\": %s,\n",
	       in->flags & PMUPROF_INFO_FULL_WIDTH ? "true" : "false");
	printf("  \"perf_capabilities\": %llu,\n", (unsigned long long)in->perf_capabilities);
	printf("  \"arch_events\": [");
	for (i = 0; i < PMUPROF_ARCH__MAX; i++)
		if (in->arch_events & (1u << i)) {
			printf("%s\"%s\"", first ? "" : ", ", arch_names[i]);
			first = 0;
		}
	printf("],\n  \"sources\": [");
	first = 1;
	for (i = 1; i < PMUPROF_SOURCE__MAX; i++)
		if (in->sources & (1u << i)) {
			printf("%s\"%s\"", first ? "" : ", ", source_names[i]);
			first = 0;
		}
	printf("],\n");
	printf("  \"max_events\": %u,\n  \"max_depth\": %u,\n", in->max_events, in->max_depth);
	printf("  \"ring_min\": %u,\n  \"ring_max\": %u,\n  \"ring_default\": %u,\n", in->ring_min,
	       in->ring_max, in->ring_default);
	printf("  \"min_pmu_period\": %u,\n  \"min_clock_period_ns\": %u,\n  \"max_freq_hz\": "
	       "%u,\n",
	       in->min_pmu_period, in->min_clock_period_ns, in->max_freq_hz);
	printf("  \"paging_levels\": %u\n}\n", in->paging_levels);
}

static void print_text(const struct pmuprof_info *in)
{
	unsigned int i;
	int first = 1;

	printf("module:   pmuprof ABI %u (%s)\n", in->abi_version, PMUPROF_DEVICE);
	printf("cpu:      %s (%s) family %u model %u stepping %u; %u CPUs, %u online%s\n",
	       in->vendor_string, in->vendor < 4 ? vendor_names[in->vendor] : "unknown", in->family,
	       in->model, in->stepping, in->nr_cpus, in->nr_online,
	       in->flags & PMUPROF_INFO_HYPERVISOR ? "; running under a hypervisor" : "");
	if (in->pmu_status == PMUPROF_PMU_OK) {
		printf("pmu:      architectural perfmon version %u: %u general-purpose counters of "
		       "%u bits, %u fixed counters of %u bits%s\n",
		       in->pmu_version, in->nr_gp, in->gp_width, in->nr_fixed, in->fixed_width,
		       in->flags & PMUPROF_INFO_FULL_WIDTH ? ", full-width writes" : "");
		printf("events:   architectural events available:");
		for (i = 0; i < PMUPROF_ARCH__MAX && i < in->arch_events_len; i++)
			if (in->arch_events & (1u << i)) {
				printf("%s %s", first ? "" : ",", arch_names[i]);
				first = 0;
			}
		printf("%s\n", first ? " none" : "");
		if (in->perf_capabilities)
			printf("          IA32_PERF_CAPABILITIES 0x%llx\n",
			       (unsigned long long)in->perf_capabilities);
	} else {
		printf("pmu:      not usable: %s.\n", device__pmu_reason(in));
		printf("          Hardware events (cycles, instructions, ...) cannot be sampled "
		       "here, but 'pmuctl record -e cpu-clock' works: it samples with NMIs sent "
		       "by a timer on another CPU.\n");
	}
	printf("sources:  ");
	first = 1;
	for (i = 1; i < PMUPROF_SOURCE__MAX; i++)
		if (in->sources & (1u << i)) {
			printf("%s%s (%s)", first ? "" : ", ", source_names[i], source_desc[i]);
			first = 0;
		}
	printf("%s\n", first ? "none" : "");
	printf("limits:   %u events, stack depth %u, ring %u KiB..%u MiB per CPU (default %u "
	       "KiB), PMU period >= %u, cpu-clock period >= %u ns, -F <= %u Hz\n",
	       in->max_events, in->max_depth, in->ring_min >> 10, in->ring_max >> 20,
	       in->ring_default >> 10, in->min_pmu_period, in->min_clock_period_ns,
	       in->max_freq_hz);
	printf("paging:   %u-level%s\n", in->paging_levels,
	       in->flags & PMUPROF_INFO_PRIVILEGED
		       ? "; this opener may see kernel and physical addresses"
		       : "; kernel and physical addresses are hidden from this opener");
}

static void help(FILE *out)
{
	fprintf(out, "usage: pmuctl info [--json]\n\n"
		     "Show what the pmuprof module found: CPU, PMU version, counters and widths,\n"
		     "available architectural events, usable sample sources and limits.\n\n"
		     "  -j, --json   machine-readable output\n"
		     "  -h, --help   this text\n");
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct pmuprof_info info;
	int json = 0, c, fd;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			return pmuctl_usage_error("info", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return pmuctl_usage_error("info", "unexpected argument '%s'", argv[optind]);
	fd = device__open(0);
	if (fd < 0)
		return EXIT_FAIL;
	if (device__info(fd, &info) < 0) {
		close(fd);
		return EXIT_FAIL;
	}
	close(fd);
	if (json)
		print_json(&info);
	else
		print_text(&info);
	return 0;
}
