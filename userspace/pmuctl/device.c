/* SPDX-License-Identifier: MIT */
/* Opening /dev/pmuprof and talking to it (device.h). */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device.h"
#include "util.h"

#define MODULE_SYSFS "/sys/module/pmuprof"

/* Who holds /dev/pmuprof open: "pid 123 (pmuctl)" list, or "" if unknown. */
static void device__holders(char *buf, size_t len)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	size_t used = 0;
	pid_t self = getpid();

	buf[0] = '\0';
	if (!proc)
		return;
	while ((d = readdir(proc)) != NULL) {
		char path[PATH_MAX], link[PATH_MAX], comm[64] = "?";
		DIR *fds;
		struct dirent *f;
		int pid = atoi_safe(d->d_name);

		if (pid <= 0 || pid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd", pid);
		fds = opendir(path);
		if (!fds)
			continue;
		while ((f = readdir(fds)) != NULL) {
			ssize_t n;
			char fdpath[PATH_MAX + 300];

			if (f->d_name[0] == '.')
				continue;
			snprintf(fdpath, sizeof(fdpath), "%s/%s", path, f->d_name);
			n = readlink(fdpath, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = '\0';
			if (strcmp(link, PMUPROF_DEVICE))
				continue;
			read_small_file_fmt(comm, sizeof(comm), "/proc/%d/comm", pid);
			if (used < len)
				used += (size_t)snprintf(buf + used, len - used, "%spid %d (%s)",
							 used ? ", " : "", pid, comm);
			break;
		}
		closedir(fds);
	}
	closedir(proc);
}

int device__open(int flags)
{
	struct stat st;
	int fd, err;
	char who[512];

	fd = open(PMUPROF_DEVICE, O_RDONLY | O_CLOEXEC | flags);
	if (fd >= 0)
		return fd;
	err = errno;
	switch (err) {
	case ENOENT:
	case ENXIO:
	case ENODEV:
		if (stat(MODULE_SYSFS, &st) != 0)
			pmuctl_err("%s: the pmuprof module is not loaded; load it with 'modprobe "
				   "pmuprof' (or 'insmod pmuprof.ko' from the build tree)",
				   PMUPROF_DEVICE);
		else
			pmuctl_err("%s: the module is loaded but the device node is missing (%s); "
				   "check udev, or create it from /sys/class/misc/pmuprof/dev",
				   PMUPROF_DEVICE, strerror(err));
		break;
	case EACCES:
		/* The node's mode refused us before the module was asked: the
		 * capability alone would not help (the node is root-only, 0600,
		 * by default). */
		pmuctl_err("%s: permission denied by the device node's mode (root-only 0600 by "
			   "default): run as root, or let a group open it (udev rule, "
			   "GROUP=\"perf\", MODE=\"0660\"); the opener also needs CAP_PERFMON (or "
			   "CAP_SYS_ADMIN), e.g. 'setcap cap_perfmon+ep pmuctl'",
			   PMUPROF_DEVICE);
		break;
	case EPERM:
		pmuctl_err("%s: permission denied: recording needs CAP_PERFMON (or "
			   "CAP_SYS_ADMIN); run as root or grant it, e.g. 'setcap cap_perfmon+ep "
			   "pmuctl'",
			   PMUPROF_DEVICE);
		break;
	case EBUSY:
		device__holders(who, sizeof(who));
		pmuctl_err("%s is busy: another session holds it%s%s; wait for it to finish or "
			   "stop it",
			   PMUPROF_DEVICE, who[0] ? ": " : "", who);
		break;
	default:
		pmuctl_err("cannot open %s: %s", PMUPROF_DEVICE, strerror(err));
	}
	return -err;
}

int device__info(int fd, struct pmuprof_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	if (ioctl(fd, PMUPROF_IOC_GET_INFO, info) < 0) {
		int err = errno;

		pmuctl_err("GET_INFO on %s failed: %s (is the module from the same build as "
			   "pmuctl?)",
			   PMUPROF_DEVICE, strerror(err));
		return -err;
	}
	if (info->abi_version != PMUPROF_ABI_VERSION)
		pmuctl_warn("module ABI version %u, pmuctl built for %u; rebuild one of them",
			    info->abi_version, PMUPROF_ABI_VERSION);
	return 0;
}

const char *device__pmu_reason(const struct pmuprof_info *info)
{
	static char buf[512];
	bool vm = info->flags & PMUPROF_INFO_HYPERVISOR;
	const char *vm_hint = "this is a virtual machine without a virtual PMU (e.g. QEMU TCG, "
			      "or KVM without '-cpu host,pmu=on')";

	switch (info->pmu_status) {
	case PMUPROF_PMU_OK:
		return "";
	case PMUPROF_PMU_NOT_INTEL:
		snprintf(buf, sizeof(buf),
			 "the CPU (%.16s) has no Intel architectural PMU, which pmuprof "
			 "programs%s%s",
			 info->vendor_string, vm ? "; " : "", vm ? vm_hint : "");
		return buf;
	case PMUPROF_PMU_NO_ARCH_PERFMON:
		snprintf(buf, sizeof(buf), "CPUID leaf 0AH reports no architectural PMU%s%s",
			 vm ? ": " : " (version 0)", vm ? vm_hint : "");
		return buf;
	case PMUPROF_PMU_BUSY:
		return "the PMU counters are held by perf or the NMI watchdog (try 'sysctl "
		       "kernel.nmi_watchdog=0' and stop perf users)";
	case PMUPROF_PMU_HYBRID:
		return "this is a hybrid CPU (P-cores and E-cores have different counters), which "
		       "pmuprof does not support yet; use -e cpu-clock, or disable the E-cores in "
		       "the firmware setup";
	default:
		return "the module reports an unknown PMU status";
	}
}

const char *device__ioctl_hint(int err, const struct pmuprof_info *info)
{
	switch (err) {
	case EBUSY: {
		/* The device is ours (open is exclusive): the counters are not. */
		char wd[16] = "";

		read_small_file_fmt(wd, sizeof(wd), "/proc/sys/kernel/nmi_watchdog");
		if (wd[0] == '1')
			return "the PMU counters are held by the NMI watchdog; run 'sysctl "
			       "kernel.nmi_watchdog=0' (and 'sysctl kernel.nmi_watchdog=1' after "
			       "recording), then retry";
		return "the PMU counters are held by another PMU user (perf, or a profiler "
		       "built on it; the NMI watchdog is off); stop it, then retry";
	}
	case EAGAIN:
		/* START of a session with precise events while a CPU has VMX on
		 * (kernel/pmu/pmu_sched.c, docs/PMU.md): nothing else returns it. */
		return "PEBS (:p / precise events) is refused while KVM guests run on this host: "
		       "their entry would keep PEBS armed inside the guest; stop the VMs or drop "
		       ":p";
	case ENODEV:
	case EOPNOTSUPP:
		return info && info->pmu_status != PMUPROF_PMU_OK
			       ? "the hardware PMU is unavailable here; use -e cpu-clock"
			       : "an event or feature is not supported on this CPU";
	case EPERM:
	case EACCES:
		return "not permitted: the target process must be one you may ptrace, and "
		       "physical addresses need CAP_SYS_ADMIN";
	case ESRCH:
		return "the target process does not exist";
	case EINVAL:
		return "the module rejected the configuration (a period below its minimum, "
		       "too many events, reserved bits, or an unknown flag)";
	case E2BIG:
		return "the module is older than pmuctl and does not know some fields";
	default:
		return "";
	}
}
