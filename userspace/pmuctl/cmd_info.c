/* SPDX-License-Identifier: MIT */
/* pmuctl info: GET_INFO in words (or --json). */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "numa.h"
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

/* The module's throttling limits, from its parameters in sysfs (read at each
 * START, so what the next recording gets): the value, or -1 when the file is
 * missing, unreadable or not a number. */
#define PMUPROF_PARAM_DIR "/sys/module/pmuprof/parameters/"

static long long read_param(const char *name)
{
	char buf[32], *end;
	long long v;

	if (read_small_file_fmt(buf, sizeof(buf), PMUPROF_PARAM_DIR "%s", name))
		return -1;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || v < 0)
		return -1;
	return v;
}

/* "throttle: ..." line: the two limits the module applies per CPU. */
static void print_throttle(void)
{
	long long pct = read_param("max_handler_pct"), rate = read_param("max_sample_rate");

	printf("throttle: ");
	if (pct < 0 && rate < 0) {
		printf("limits unknown (cannot read " PMUPROF_PARAM_DIR ")\n");
		return;
	}
	if (pct == 0)
		printf("handler CPU budget off");
	else if (pct > 0)
		printf("handlers may use %lld %% of a CPU", pct);
	else
		printf("handler CPU budget unknown");
	if (rate == 0)
		printf(", no cap on NMIs per second");
	else if (rate > 0)
		printf(", at most %lld NMIs a second per CPU", rate);
	else
		printf(", NMI rate cap unknown");
	printf(" (module parameters max_handler_pct and max_sample_rate; 0 turns each off)\n");
}

/* The NUMA layout pmuctl record writes into its files: {"nodes": [{"node",
 * "cpus", "memory_bytes", "ranges"}...]}, or null on a kernel without NUMA. */
static json_t *numa_json(void)
{
	struct pmufile_numa n;
	json_t *o, *arr;
	char err[512];

	if (numa__read(NULL, &n, err, sizeof(err)))
		return json_null();
	o = json_object();
	arr = json_array();
	for (uint32_t i = 0; i < n.nr_nodes; i++) {
		json_t *e = json_object();
		unsigned int ranges = 0;
		char cpus[512];

		for (uint32_t r = 0; r < n.nr_ranges; r++)
			ranges += n.ranges[r].node == n.nodes[i];
		pmufile__numa_cpulist(&n, n.nodes[i], cpus, sizeof(cpus));
		json_object_set_new(e, "node", json_integer(n.nodes[i]));
		json_object_set_new(e, "cpus", json_string(cpus));
		json_object_set_new(
			e, "memory_bytes",
			json_integer((json_int_t)pmufile__numa_node_bytes(&n, n.nodes[i])));
		json_object_set_new(e, "ranges", json_integer(ranges));
		json_array_append_new(arr, e);
	}
	json_object_set_new(o, "nodes", arr);
	json_object_set_new(o, "block_size", json_integer((json_int_t)n.block_size));
	pmufile__numa_free(&n);
	return o;
}

/* The GET_INFO fields in this order, on one line (scripts grep it). */
static int print_json(const struct pmuprof_info *in)
{
	json_t *o = json_object(), *arch = json_array(), *src = json_array();
	unsigned int i;
	int ret;

	for (i = 0; i < PMUPROF_ARCH__MAX; i++)
		if (in->arch_events & (1u << i))
			json_array_append_new(arch, json_string(arch_names[i]));
	for (i = 1; i < PMUPROF_SOURCE__MAX; i++)
		if (in->sources & (1u << i))
			json_array_append_new(src, json_string(source_names[i]));
#define PUT(key, v) json_object_set_new(o, key, v)
	PUT("abi_version", json_integer(in->abi_version));
	PUT("vendor", json_string(in->vendor < 4 ? vendor_names[in->vendor] : "unknown"));
	PUT("vendor_string", json_string(in->vendor_string));
	PUT("family", json_integer(in->family));
	PUT("model", json_integer(in->model));
	PUT("stepping", json_integer(in->stepping));
	PUT("hypervisor", json_boolean(in->flags & PMUPROF_INFO_HYPERVISOR));
	PUT("privileged", json_boolean(in->flags & PMUPROF_INFO_PRIVILEGED));
	PUT("nr_cpus", json_integer(in->nr_cpus));
	PUT("nr_online", json_integer(in->nr_online));
	PUT("pmu_available", json_boolean(in->pmu_status == PMUPROF_PMU_OK));
	PUT("pmu_status", json_integer(in->pmu_status));
	PUT("pmu_reason", json_string(device__pmu_reason(in)));
	PUT("pmu_version", json_integer(in->pmu_version));
	PUT("nr_gp", json_integer(in->nr_gp));
	PUT("gp_width", json_integer(in->gp_width));
	PUT("nr_fixed", json_integer(in->nr_fixed));
	PUT("fixed_width", json_integer(in->fixed_width));
	PUT("full_width_writes", json_boolean(in->flags & PMUPROF_INFO_FULL_WIDTH));
	PUT("perf_capabilities", json_integer((json_int_t)in->perf_capabilities));
	PUT("arch_events", arch);
	PUT("sources", src);
	PUT("max_events", json_integer(in->max_events));
	PUT("max_depth", json_integer(in->max_depth));
	PUT("ring_min", json_integer(in->ring_min));
	PUT("ring_max", json_integer(in->ring_max));
	PUT("ring_default", json_integer(in->ring_default));
	PUT("min_pmu_period", json_integer(in->min_pmu_period));
	PUT("min_clock_period_ns", json_integer(in->min_clock_period_ns));
	PUT("max_freq_hz", json_integer(in->max_freq_hz));
	PUT("paging_levels", json_integer(in->paging_levels));
	{
		long long pct = read_param("max_handler_pct"), rate = read_param("max_sample_rate");

		PUT("max_handler_pct", pct < 0 ? json_null() : json_integer(pct));
		PUT("max_sample_rate", rate < 0 ? json_null() : json_integer(rate));
	}
	PUT("numa", numa_json());
#undef PUT
	ret = json_dumpf(o, stdout, 0);
	json_decref(o);
	if (ret < 0 || putchar('\n') == EOF) {
		pmuctl_err("info: cannot write the JSON output");
		return EXIT_FAIL;
	}
	return 0;
}

/* The node layout pmuctl record writes into its files (NUMA frame). */
static void print_numa(void)
{
	struct pmufile_numa n;
	char err[512];
	int ret = numa__read(NULL, &n, err, sizeof(err));

	if (ret == -ENOENT) {
		printf("numa:     none (no NUMA in this kernel); data nodes will be unknown\n");
		return;
	}
	if (ret < 0) {
		printf("numa:     cannot read the layout: %s\n", err);
		return;
	}
	printf("numa:     %u node%s, recorded with every file (pmuconv names the node of each "
	       "data access)\n",
	       n.nr_nodes, n.nr_nodes == 1 ? "" : "s");
	numa__print(stdout, &n, "          ");
	pmufile__numa_free(&n);
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
	print_throttle();
	printf("paging:   %u-level%s\n", in->paging_levels,
	       in->flags & PMUPROF_INFO_PRIVILEGED
		       ? "; this opener may see kernel and physical addresses"
		       : "; kernel and physical addresses are hidden from this opener");
	print_numa();
}

static void help(FILE *out)
{
	fprintf(out, "usage: pmuctl info [--json]\n\n"
		     "Show what the pmuprof module found: CPU, PMU version, counters and widths,\n"
		     "available architectural events, usable sample sources and limits, and the\n"
		     "NUMA layout (nodes, their CPUs and memory) that recordings carry.\n\n"
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
		return print_json(&info);
	print_text(&info);
	return 0;
}
