// SPDX-License-Identifier: GPL-2.0
/*
 * pmuregs: read CPUID leaves and read or write MSRs of one CPU through the
 * kernel's /dev/cpu/N/cpuid and /dev/cpu/N/msr (modules cpuid and msr), for
 * tests that check what a (virtual) CPU announces and how its registers
 * behave.
 *
 *   pmuregs cpuid CPU LEAF [SUBLEAF]   prints "eax ebx ecx edx" in hex
 *   pmuregs rdmsr CPU MSR              prints the value in hex
 *   pmuregs wrmsr CPU MSR VALUE
 *
 * A failed access (e.g. #GP on a reserved MSR) prints the error and exits 1.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <unistd.h>

#include "wl_common.h"

static int dev_open(const char *kind, unsigned cpu, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/cpu/%u/%s", cpu, kind);
	fd = open(path, flags);
	if (fd < 0)
		fprintf(stderr, "pmuregs: %s: %s (is the %s module loaded?)\n", path,
			strerror(errno), kind);
	return fd;
}

int main(int argc, char **argv)
{
	unsigned cpu;
	uint64_t idx;
	int fd;

	if (argc < 4) {
		fprintf(stderr, "usage: pmuregs cpuid CPU LEAF [SUB] | rdmsr CPU MSR | wrmsr CPU "
				"MSR VAL\n");
		return 2;
	}
	cpu = (unsigned)tt_num("pmuregs", "CPU", argv[2]);
	idx = tt_num("pmuregs", "index", argv[3]);
	if (!strcmp(argv[1], "cpuid")) {
		uint32_t r[4];
		uint64_t pos = idx | (argc > 4 ? tt_num("pmuregs", "SUB", argv[4]) << 32 : 0);

		fd = dev_open("cpuid", cpu, O_RDONLY);
		if (fd < 0 || pread(fd, r, sizeof(r), (off_t)pos) != sizeof(r)) {
			perror("pmuregs: cpuid");
			return 1;
		}
		printf("%08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "\n", r[0], r[1],
		       r[2], r[3]);
		return 0;
	}
	if (!strcmp(argv[1], "rdmsr")) {
		uint64_t v;

		fd = dev_open("msr", cpu, O_RDONLY);
		if (fd < 0 || pread(fd, &v, sizeof(v), (off_t)idx) != sizeof(v)) {
			fprintf(stderr, "pmuregs: rdmsr 0x%" PRIx64 ": %s\n", idx, strerror(errno));
			return 1;
		}
		printf("%" PRIx64 "\n", v);
		return 0;
	}
	if (!strcmp(argv[1], "wrmsr") && argc == 5) {
		uint64_t v = tt_num("pmuregs", "VALUE", argv[4]);

		fd = dev_open("msr", cpu, O_WRONLY);
		if (fd < 0 || pwrite(fd, &v, sizeof(v), (off_t)idx) != sizeof(v)) {
			fprintf(stderr, "pmuregs: wrmsr 0x%" PRIx64 ": %s\n", idx, strerror(errno));
			return 1;
		}
		return 0;
	}
	fprintf(stderr, "pmuregs: unknown command '%s'\n", argv[1]);
	return 2;
}
