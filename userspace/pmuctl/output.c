/* SPDX-License-Identifier: MIT */
/* pmuctl record: the data file (output.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "numa.h"
#include "output.h"
#include "procmaps.h"
#include "util.h"

static void fill_header(const struct session *s, struct pmufile_header *h, int argc, char **argv)
{
	struct utsname u;
	size_t used = 0;
	int i;
	FILE *f;

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0) {
		snprintf(h->kernel_release, sizeof(h->kernel_release), "%s", u.release);
		snprintf(h->hostname, sizeof(h->hostname), "%s", u.nodename);
	}
	used = (size_t)snprintf(h->cmdline, sizeof(h->cmdline), "pmuctl");
	for (i = 0; i < argc && used < sizeof(h->cmdline); i++)
		used += (size_t)snprintf(h->cmdline + used, sizeof(h->cmdline) - used, " %s",
					 argv[i]);
	h->cpu_vendor = s->info.vendor;
	h->cpu_family = s->info.family;
	h->cpu_model = s->info.model;
	h->cpu_stepping = s->info.stepping;
	memcpy(h->cpu_vendor_string, s->info.vendor_string, sizeof(h->cpu_vendor_string));
	h->cpu_vendor_string[sizeof(h->cpu_vendor_string) - 1] = '\0';
	f = fopen("/proc/cpuinfo", "re");
	if (f) {
		char line[512];

		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (!strncmp(line, "model name", 10) && colon) {
				colon++;
				while (*colon == ' ')
					colon++;
				colon[strcspn(colon, "\n")] = '\0';
				snprintf(h->cpu_model_name, sizeof(h->cpu_model_name), "%.63s",
					 colon);
				break;
			}
		}
		fclose(f);
	}
	h->nr_cpus = s->info.nr_cpus;
	h->page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	h->start_realtime_ns = now_ns(CLOCK_REALTIME);
	h->start_session_ns = now_ns(CLOCK_MONOTONIC);
	h->config_flags = s->cfg.flags;
	h->stack_depth = s->cfg.stack_depth ? s->cfg.stack_depth : PMUPROF_DEFAULT_DEPTH;
	h->target = s->cfg.target;
	h->pid = s->cfg.target == PMUPROF_TARGET_PID ? s->cfg.pid : -1;
	h->info = s->info;
}

static void rename_old(const char *path)
{
	char old[4096];
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return;
	snprintf(old, sizeof(old), "%s.old", path);
	if (rename(path, old) != 0)
		pmuctl_warn("cannot rename %s to %s: %s (it will be overwritten)", path, old,
			    strerror(errno));
}

struct pmufile_writer *output__open(const char *path, const struct session *s, int argc,
				    char **argv)
{
	struct pmufile_header *hdr = calloc(1, sizeof(*hdr));
	struct pmufile_writer *w;
	char err[1024];

	if (!hdr) {
		pmuctl_err("out of memory");
		return NULL;
	}
	rename_old(path);
	fill_header(s, hdr, argc, argv);
	/* --call-graph dwarf: stack copies packed (format version 2: only
	 * their valid bytes, and what differs from the thread's previous
	 * copy; docs/FORMAT.md), unless PMUCTL_PACK_STACKS=0 asks for the
	 * version 1 form older pmuconv versions read. */
	const char *pack = getenv("PMUCTL_PACK_STACKS");
	unsigned int wflags =
		(s->cfg.flags & PMUPROF_CF_USTACK_COPY) && !(pack && !strcmp(pack, "0"))
			? PMUFILE_WRITE_PACK_UCOPY
			: 0;

	w = pmufile_writer__open_flags(path, hdr, wflags, err, sizeof(err));
	if (!w)
		pmuctl_err("%s", err);
	free(hdr);
	return w;
}

int output__write_meta(struct pmufile_writer *w, const struct session *s)
{
	int i, ret;

	for (i = 0; i < s->nr_ev; i++) {
		struct pmufile_event e;

		memset(&e, 0, sizeof(e));
		e.index = (uint32_t)i;
		e.source = s->cfg.events[i].source;
		e.flags = s->cfg.events[i].flags;
		e.config = s->cfg.events[i].config;
		e.period = s->cfg.events[i].period;
		snprintf(e.name, sizeof(e.name), "%s", s->ev[i].name);
		if (s->ev[i].source == PMUPROF_SOURCE_PMU || s->ev[i].source == PMUPROF_SOURCE_PEBS)
			snprintf(e.resolved, sizeof(e.resolved), "%s", s->ev[i].resolved);
		snprintf(e.unit, sizeof(e.unit), "%s", s->ev[i].unit);
		ret = pmufile_writer__event(w, &e);
		if (ret < 0)
			return ret;
	}
	ret = output__write_numa(w, NULL);
	if (ret < 0)
		return ret;
	ret = kbuildid__write(w, NULL);
	return ret < 0 ? ret : vdso__write(w);
}

int output__write_numa(struct pmufile_writer *w, const char *sysfs_root)
{
	struct pmufile_numa n;
	char err[512];
	int ret = numa__read(sysfs_root, &n, err, sizeof(err));

	if (ret == -ENOENT)
		return 0; /* no NUMA in this kernel: nodes stay unknown */
	if (ret < 0) {
		pmuctl_warn("NUMA layout not recorded (data nodes will be unknown): %s", err);
		return 0;
	}
	ret = pmufile_writer__numa(w, &n);
	pmufile__numa_free(&n);
	return ret;
}

int output__close(struct pmufile_writer *w, const char *path, const struct pmuprof_stats *st,
		  int write_err, uint64_t end_mono, uint64_t *bytes)
{
	struct stat sb;
	char err[1024];
	int ret;

	if (st && !write_err && (ret = pmufile_writer__stats(w, st)) < 0)
		write_err = ret;
	if (write_err) {
		pmuctl_err("writing %s failed: %s; recording stopped. %s is INCOMPLETE (no "
			   "trailer): free space and record again (pmuconv --salvage reads what "
			   "was written)",
			   path, strerror(-write_err), path);
		pmufile_writer__abort(w);
		return write_err;
	}
	*bytes = pmufile_writer__bytes(w);
	ret = pmufile_writer__close(w, now_ns(CLOCK_REALTIME), end_mono, err, sizeof(err));
	if (ret < 0) {
		pmuctl_err("finishing %s failed: %s; the file is INCOMPLETE", path, err);
		return ret;
	}
	/* the file's size when it is a regular file (includes the trailer); a
	 * device (-o /dev/vdX) keeps the writer's count */
	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
		*bytes = (uint64_t)sb.st_size;
	return 0;
}
