// SPDX-License-Identifier: GPL-2.0
/*
 * relcaps: run a command as another user with an exact capability set
 * (issue 8 permission tests). No setuid bit, no libcap: must start as root.
 *
 *   relcaps [-u UID] [-g GID] [-c perfmon|syslog|sys_admin|none]... [-n] -- CMD ARGS...
 *     -u/-g  real, effective and saved uid/gid (default 65534); supplementary
 *            groups are cleared
 *     -c     capability kept in the permitted, effective, inheritable and
 *            ambient sets, so it survives exec of an ordinary binary
 *            (repeatable; default none)
 *     -n     do not exec (exec would reset dumpability): become a
 *            non-dumpable process (PR_SET_DUMPABLE 0, as ssh-agent does)
 *            that spins, printing its pid, until killed (CMD not needed)
 * Prints "relcaps: uid=U gid=G caps=0xHEX" on stderr before exec.
 */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

static int capset_all(uint64_t caps)
{
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	for (int i = 0; i < 2; i++) {
		d[i].effective = d[i].permitted = d[i].inheritable = (uint32_t)(caps >> (32 * i));
	}
	return (int)syscall(SYS_capset, &h, d);
}

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	unsigned int uid = 65534, gid = 65534;
	uint64_t caps = 0;
	int opt, nodump = 0;

	while ((opt = getopt(argc, argv, "+u:g:c:n")) != -1) {
		switch (opt) {
		case 'u':
			uid = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'g':
			gid = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'c':
			if (!strcmp(optarg, "perfmon"))
				caps |= 1ull << CAP_PERFMON;
			else if (!strcmp(optarg, "syslog"))
				caps |= 1ull << CAP_SYSLOG;
			else if (!strcmp(optarg, "sys_admin"))
				caps |= 1ull << CAP_SYS_ADMIN;
			else if (strcmp(optarg, "none")) {
				fprintf(stderr, "relcaps: unknown capability %s\n", optarg);
				return 2;
			}
			break;
		case 'n':
			nodump = 1;
			break;
		default:
			fprintf(stderr,
				"usage: relcaps [-u UID] [-g GID] [-c CAP]... [-n] -- CMD...\n");
			return 2;
		}
	}
	if (!nodump && optind >= argc) {
		fprintf(stderr, "relcaps: no command\n");
		return 2;
	}
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid)) {
		fprintf(stderr, "relcaps: dropping to uid %u gid %u: %s (must start as root)\n",
			uid, gid, strerror(errno));
		return 2;
	}
	if (capset_all(caps)) {
		fprintf(stderr, "relcaps: capset: %s\n", strerror(errno));
		return 2;
	}
	for (int c = 0; c < 64; c++)
		if ((caps >> c) & 1 && prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, c, 0, 0)) {
			fprintf(stderr, "relcaps: ambient cap %d: %s\n", c, strerror(errno));
			return 2;
		}
	fprintf(stderr, "relcaps: uid=%u gid=%u caps=0x%llx\n", uid, gid, (unsigned long long)caps);
	if (nodump) {
		/* a same-uid process that refuses ptrace (as ssh-agent does) */
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) {
			fprintf(stderr, "relcaps: PR_SET_DUMPABLE: %s\n", strerror(errno));
			return 2;
		}
		printf("relcaps: nodump pid=%d\n", (int)getpid());
		fflush(stdout);
		for (;;)
			sink++;
	}
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "relcaps: exec %s: %s\n", argv[optind], strerror(errno));
	return 127;
}
