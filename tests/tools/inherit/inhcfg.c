// SPDX-License-Identifier: GPL-2.0
/*
 * inhcfg: PMUPROF_CF_INHERIT through the real /dev/pmuprof ioctl path
 * (guest, static). Each line is one CONFIGURE with its expected result:
 *   INHERIT + target PID (this process)        -> 0
 *   INHERIT + target ALL                       -> EINVAL
 *   INHERIT + target CPUS                      -> EINVAL
 *   the first bit after INHERIT (1 << 8)       -> EINVAL
 * then one START/STOP of the valid configuration, and GET_STATS, whose
 * inherit_capped must be 0 (this process tree is shallow).
 * Prints "inhcfg: CASE ok" or "inhcfg: CASE FAIL ..." and exits 1 on any
 * failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "include/uapi/pmuprof.h"

static int failures;

static void base(struct pmuprof_config *c)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->nr_events = 1;
	c->events[0].source = PMUPROF_SOURCE_NMI_IPI;
	c->events[0].period = 1000000;
}

static void expect(int fd, const char *name, struct pmuprof_config *c, int want)
{
	int got = ioctl(fd, PMUPROF_IOC_CONFIGURE, c) < 0 ? errno : 0;

	if (got == want) {
		printf("inhcfg: %s ok\n", name);
	} else {
		printf("inhcfg: %s FAIL: got %s, want %s\n", name, got ? strerror(got) : "0",
		       want ? strerror(want) : "0");
		failures++;
	}
}

int main(void)
{
	struct pmuprof_config c;
	struct pmuprof_stats st;
	int fd = open(PMUPROF_DEVICE, O_RDWR);

	if (fd < 0) {
		perror("inhcfg: " PMUPROF_DEVICE);
		return 1;
	}
	base(&c);
	c.flags = PMUPROF_CF_INHERIT;
	c.target = PMUPROF_TARGET_PID;
	c.pid = (int)getpid();
	expect(fd, "inherit-pid", &c, 0);
	base(&c);
	c.flags = PMUPROF_CF_INHERIT;
	expect(fd, "inherit-all", &c, EINVAL);
	base(&c);
	c.flags = PMUPROF_CF_INHERIT;
	c.target = PMUPROF_TARGET_CPUS;
	c.cpu_mask[0] = 1;
	expect(fd, "inherit-cpus", &c, EINVAL);
	base(&c);
	c.flags = PMUPROF_CF__ALL + 1; /* the first bit no flag uses */
	c.target = PMUPROF_TARGET_PID;
	c.pid = (int)getpid();
	expect(fd, "unknown-bit", &c, EINVAL);

	/* the valid one again, run briefly: the NMI path with the flag set */
	base(&c);
	c.flags = PMUPROF_CF_INHERIT | PMUPROF_CF_USTACK;
	c.target = PMUPROF_TARGET_PID;
	c.pid = (int)getppid(); /* the shell: this process is its descendant */
	expect(fd, "inherit-parent", &c, 0);
	if (ioctl(fd, PMUPROF_IOC_START, 0) < 0) {
		printf("inhcfg: start FAIL: %s\n", strerror(errno));
		failures++;
	} else {
		volatile unsigned long x = 0;
		struct timespec t;

		do { /* 300 ms of CPU time */
			for (unsigned long i = 0; i < 1000000ul; i++)
				x += i;
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		} while (t.tv_sec == 0 && t.tv_nsec < 300000000);
		ioctl(fd, PMUPROF_IOC_STOP, 0);
		memset(&st, 0, sizeof(st));
		st.size = sizeof(st);
		if (ioctl(fd, PMUPROF_IOC_GET_STATS, &st) < 0) {
			printf("inhcfg: stats FAIL: %s\n", strerror(errno));
			failures++;
		} else {
			printf("inhcfg: stats samples=%llu filtered=%llu inherit_capped=%llu\n",
			       (unsigned long long)st.total.samples,
			       (unsigned long long)st.total.filtered,
			       (unsigned long long)st.total.inherit_capped);
			if (st.total.inherit_capped || !st.total.samples) {
				printf("inhcfg: run FAIL: want samples (this process descends "
				       "from the target) and no capped walk\n");
				failures++;
			} else {
				printf("inhcfg: run ok\n");
			}
		}
	}
	close(fd);
	return failures ? 1 : 0;
}
