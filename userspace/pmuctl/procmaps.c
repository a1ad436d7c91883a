/* SPDX-License-Identifier: MIT */
/* Process table, memory maps and build-ids captured while recording
 * (procmaps.h). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "procmaps.h"
#include "util.h"

#define REFRESH_NS	  1000000000ull	 /* re-read a known pid's maps at most once a second */
#define FORGET_NS	  30000000000ull /* forget a gone pid 30 s after its last sample */
#define NOTE_MAX	  (64u << 10)	 /* PT_NOTE bytes read per segment */
#define BUILDID_CACHE_MAX 4096
#define MAPS_READ_MAX	  (16u << 20)

struct pid_ent {
	int pid; /* 0 = empty slot */
	bool gone;
	uint64_t last_ns;
	uint64_t maps_hash;
};

struct bid_ent {
	char *path;
	int len; /* build-id length, 0 none, < 0 unreadable */
	uint8_t id[BUILD_ID_MAX];
};

struct procmaps {
	struct pmufile_writer *w;
	char proc[PATH_MAX];
	struct pid_ent *pids;
	size_t cap, used;
	struct bid_ent *bids;
	size_t nr_bids;
	size_t nr_processes, nr_mmaps;
	struct pmufile_mmap m;	  /* scratch (4 KiB path) */
	struct pmufile_process p; /* scratch */
};

/* ---------------------------------------------------------------- */
/* ELF notes                                                         */
/* ---------------------------------------------------------------- */
static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

int buildid__parse_notes(const void *notes, size_t len, size_t align, uint8_t *id)
{
	const uint8_t *p = notes;
	size_t off = 0;

	if (align != 8)
		align = 4;
	while (off + sizeof(Elf64_Nhdr) <= len) {
		Elf64_Nhdr nh;
		size_t name_off, desc_off, next;

		memcpy(&nh, p + off, sizeof(nh));
		name_off = off + sizeof(nh);
		desc_off = align_up(name_off + nh.n_namesz, align);
		next = align_up(desc_off + nh.n_descsz, align);
		if (desc_off > len || nh.n_descsz > len - desc_off || next <= off)
			return 0; /* damaged note: stop, no id */
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(p + name_off, "GNU", 4) && nh.n_descsz > 0) {
			size_t n = nh.n_descsz < BUILD_ID_MAX ? nh.n_descsz : BUILD_ID_MAX;

			memcpy(id, p + desc_off, n);
			return (int)n;
		}
		off = next;
	}
	return 0;
}

static int pread_full(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return n == (ssize_t)len ? 0 : -EIO;
}

static int notes_at(int fd, uint64_t off, uint64_t size, uint64_t align, uint8_t *id)
{
	uint8_t *buf;
	int ret;

	if (size == 0 || size > NOTE_MAX)
		return 0;
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	ret = pread_full(fd, buf, size, (off_t)off);
	if (ret == 0)
		ret = buildid__parse_notes(buf, size, align, id);
	free(buf);
	return ret;
}

static int buildid__from_elf_fd(int fd, uint8_t *id)
{
	Elf64_Ehdr eh;
	unsigned int i;
	int ret;

	if (pread_full(fd, &eh, sizeof(eh), 0) < 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return -ENOEXEC;
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return 0; /* 32-bit or big-endian: not something pmuprof profiles */
	if (eh.e_phentsize == sizeof(Elf64_Phdr)) {
		for (i = 0; i < eh.e_phnum && i < 256; i++) {
			Elf64_Phdr ph;

			if (pread_full(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))))
				break;
			if (ph.p_type != PT_NOTE)
				continue;
			ret = notes_at(fd, ph.p_offset, ph.p_filesz, ph.p_align, id);
			if (ret != 0)
				return ret;
		}
	}
	/* No PT_NOTE with an id (e.g. a relocatable object): try SHT_NOTE. */
	if (eh.e_shentsize == sizeof(Elf64_Shdr)) {
		for (i = 0; i < eh.e_shnum && i < 4096; i++) {
			Elf64_Shdr sh;

			if (pread_full(fd, &sh, sizeof(sh), (off_t)(eh.e_shoff + i * sizeof(sh))))
				break;
			if (sh.sh_type != SHT_NOTE)
				continue;
			ret = notes_at(fd, sh.sh_offset, sh.sh_size, sh.sh_addralign, id);
			if (ret != 0)
				return ret;
		}
	}
	return 0;
}

int buildid__from_path(const char *path, uint8_t *id)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int ret;

	if (fd < 0)
		return -errno;
	ret = buildid__from_elf_fd(fd, id);
	close(fd);
	return ret;
}

/* ---------------------------------------------------------------- */
/* Caches                                                            */
/* ---------------------------------------------------------------- */
static int cached_buildid(struct procmaps *pm, const char *path, const char *alt, uint8_t *id)
{
	size_t i;
	int len;

	for (i = 0; i < pm->nr_bids; i++)
		if (!strcmp(pm->bids[i].path, path)) {
			if (pm->bids[i].len > 0)
				memcpy(id, pm->bids[i].id, (size_t)pm->bids[i].len);
			return pm->bids[i].len;
		}
	len = buildid__from_path(path, id);
	if (len < 0 && alt) /* deleted or in another mount namespace */
		len = buildid__from_path(alt, id);
	if (pm->nr_bids < BUILDID_CACHE_MAX) {
		struct bid_ent *n = realloc(pm->bids, (pm->nr_bids + 1) * sizeof(*n));

		if (n) {
			pm->bids = n;
			n[pm->nr_bids].path = strdup(path);
			if (n[pm->nr_bids].path) {
				n[pm->nr_bids].len = len;
				if (len > 0)
					memcpy(n[pm->nr_bids].id, id, (size_t)len);
				pm->nr_bids++;
			}
		}
	}
	return len;
}

/*
 * Whether a table entry may be forgotten when the table is rebuilt: its pid
 * was last seen FORGET_NS ago or more and the process is gone. Samples reach
 * pmuctl within a drain or two of being taken, so no sample of it can still
 * come; if the pid is reused later, the new process is snapshot afresh.
 * Without this the table grows with every pid ever seen (a build server
 * spawns thousands a second) instead of with the processes alive.
 */
static bool pid_forgettable(const struct procmaps *pm, const struct pid_ent *e, uint64_t now_ns)
{
	char path[PATH_MAX + 32];

	if (!now_ns || now_ns <= e->last_ns || now_ns - e->last_ns < FORGET_NS)
		return false;
	if (e->gone)
		return true;
	snprintf(path, sizeof(path), "%s/%d", pm->proc, e->pid);
	return access(path, F_OK) != 0;
}

/* Rebuild the open-addressing table with room for one more entry, dropping
 * forgettable entries; the new capacity keeps the load at most 1/4, so
 * rebuilds (and their access() calls) are amortised over many inserts. */
static int pid_table_rebuild(struct procmaps *pm, uint64_t now_ns)
{
	size_t ncap = 256, live = 0, i, j;
	struct pid_ent *n;

	for (j = 0; j < pm->cap; j++) {
		if (!pm->pids[j].pid)
			continue;
		if (pid_forgettable(pm, &pm->pids[j], now_ns))
			pm->pids[j].pid = -pm->pids[j].pid; /* marked: not copied */
		else
			live++;
	}
	while ((live + 1) * 4 > ncap)
		ncap *= 2;
	n = calloc(ncap, sizeof(*n));
	if (!n) {
		for (j = 0; j < pm->cap; j++) /* undo the marks: the table stays as it was */
			if (pm->pids[j].pid < 0)
				pm->pids[j].pid = -pm->pids[j].pid;
		return -ENOMEM;
	}
	for (j = 0; j < pm->cap; j++) {
		if (pm->pids[j].pid <= 0)
			continue;
		for (i = (size_t)pm->pids[j].pid & (ncap - 1); n[i].pid; i = (i + 1) & (ncap - 1))
			;
		n[i] = pm->pids[j];
	}
	free(pm->pids);
	pm->pids = n;
	pm->cap = ncap;
	pm->used = live;
	return 0;
}

static struct pid_ent *pid_slot(struct procmaps *pm, int pid, bool insert, uint64_t now_ns)
{
	size_t i, mask;

	if (insert && (pm->used + 1) * 2 > pm->cap && pid_table_rebuild(pm, now_ns) < 0)
		return NULL;
	if (!pm->cap)
		return NULL;
	mask = pm->cap - 1;
	for (i = (size_t)pid & mask; pm->pids[i].pid; i = (i + 1) & mask)
		if (pm->pids[i].pid == pid)
			return &pm->pids[i];
	if (!insert)
		return NULL;
	pm->pids[i].pid = pid;
	pm->used++;
	return &pm->pids[i];
}

struct procmaps *procmaps__new(struct pmufile_writer *w, const char *proc_root)
{
	struct procmaps *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return NULL;
	pm->w = w;
	snprintf(pm->proc, sizeof(pm->proc), "%s", proc_root ? proc_root : "/proc");
	return pm;
}

void procmaps__free(struct procmaps *pm)
{
	size_t i;

	if (!pm)
		return;
	for (i = 0; i < pm->nr_bids; i++)
		free(pm->bids[i].path);
	free(pm->bids);
	free(pm->pids);
	free(pm);
}

size_t procmaps__nr_processes(const struct procmaps *pm)
{
	return pm->nr_processes;
}

size_t procmaps__nr_tracked(const struct procmaps *pm)
{
	return pm->used;
}

/* ---------------------------------------------------------------- */
/* Snapshots                                                         */
/* ---------------------------------------------------------------- */
static uint64_t fnv1a(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

int procmaps__parse_line(const char *line, struct pmufile_mmap *m)
{
	unsigned long long start, end, off, inode;
	char perms[8];
	int n = 0;
	const char *path, *eol;

	if (sscanf(line, "%llx-%llx %7s %llx %*x:%*x %llu %n", &start, &end, perms, &off, &inode,
		   &n) < 5 ||
	    n == 0 || end < start)
		return -EINVAL;
	m->start = start;
	m->end = end;
	m->pgoff = off;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	/* the format's trailing blank skips newlines too: an anonymous
	 * mapping's %n lands on the next line; its path ends at its own line */
	eol = line + strcspn(line, "\n");
	path = line + n < eol ? line + n : eol;
	while (*path == ' ')
		path++;
	snprintf(m->path, sizeof(m->path), "%.*s", (int)strcspn(path, "\n"), path);
	return 0;
}

static void read_process(struct procmaps *pm, int pid, const char *comm_hint)
{
	struct pmufile_process *p = &pm->p;
	char path[PATH_MAX + 64], comm[64], *stat, *rp;
	size_t slen;
	ssize_t n;
	int len;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = -1;
	snprintf(p->comm, sizeof(p->comm), "%s", comm_hint ? comm_hint : "");
	if (!read_small_file_fmt(comm, sizeof(comm), "%s/%d/comm", pm->proc, pid) && comm[0])
		snprintf(p->comm, sizeof(p->comm), "%.15s", comm);
	snprintf(path, sizeof(path), "%s/%d/stat", pm->proc, pid);
	if ((stat = read_whole_file(path, 1024, &slen))) {
		if ((rp = strrchr(stat, ')'))) /* comm may contain spaces, ')' and '\n' */
			sscanf(rp + 1, " %*c %d", &p->ppid);
		free(stat);
	}
	snprintf(path, sizeof(path), "%s/%d/exe", pm->proc, pid);
	n = readlink(path, p->exe, sizeof(p->exe) - 1);
	if (n > 0) {
		p->exe[n] = '\0';
		len = buildid__from_path(path, p->build_id); /* via the link: survives deletion */
		p->build_id_size = len > 0 ? (uint32_t)len : 0;
	}
}

int procmaps__snapshot(struct procmaps *pm, int pid, bool exited, uint64_t now_ns)
{
	struct pid_ent *e = pid_slot(pm, pid, true, now_ns);
	char path[PATH_MAX + 64];
	char *maps;
	const char *p, *line;
	size_t len, ll;
	uint64_t h;
	int ret;

	if (!e)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/%d/maps", pm->proc, pid);
	maps = read_whole_file(path, MAPS_READ_MAX, &len);
	e->last_ns = now_ns;
	if (!maps) {
		if (e->maps_hash == 0 && !e->gone) {
			/* Gone before we could look: keep what the sample told us. */
			e->gone = true;
			read_process(pm, pid, NULL);
			pm->p.time_ns = now_ns;
			pm->p.exited = true;
			pm->nr_processes++;
			return pmufile_writer__process(pm->w, &pm->p);
		}
		return 0;
	}
	h = fnv1a(maps, len) | 1; /* never 0: 0 means "no snapshot yet" */
	/* Unchanged (or a zombie whose mm is gone): the last snapshot stands. */
	if (h == e->maps_hash || (len == 0 && e->maps_hash)) {
		free(maps);
		return 0;
	}
	e->maps_hash = h;
	read_process(pm, pid, NULL);
	pm->p.time_ns = now_ns;
	pm->p.exited = exited;
	ret = pmufile_writer__process(pm->w, &pm->p);
	pm->nr_processes++;
	for (p = maps; ret == 0 && (line = next_line(&p, maps + len, &ll));) {
		struct pmufile_mmap *m = &pm->m;
		int blen;

		memset(m, 0, offsetof(struct pmufile_mmap, path));
		if (procmaps__parse_line(line, m) < 0)
			continue;
		m->pid = pid;
		m->time_ns = now_ns;
		if (m->path[0] == '/') {
			char alt[PATH_MAX + 64];

			snprintf(alt, sizeof(alt), "%s/%d/map_files/%" PRIx64 "-%" PRIx64, pm->proc,
				 pid, m->start, m->end);
			blen = cached_buildid(pm, m->path, alt, m->build_id);
			m->build_id_size = blen > 0 ? (uint32_t)blen : 0;
		}
		ret = pmufile_writer__mmap(pm->w, m);
		pm->nr_mmaps++;
	}
	free(maps);
	return ret;
}

int procmaps__see(struct procmaps *pm, int pid, const char *comm, uint64_t now_ns)
{
	struct pid_ent *e;

	if (pid <= 0)
		return 0; /* idle / kernel context without a process */
	e = pid_slot(pm, pid, false, now_ns);
	if (e && (e->gone || now_ns - e->last_ns < REFRESH_NS))
		return 0;
	if (!e) {
		char path[PATH_MAX + 32];

		snprintf(path, sizeof(path), "%s/%d", pm->proc, pid);
		if (access(path, F_OK) != 0) {
			e = pid_slot(pm, pid, true, now_ns);
			if (!e)
				return -ENOMEM;
			e->gone = true;
			e->last_ns = now_ns;
			memset(&pm->p, 0, sizeof(pm->p));
			pm->p.pid = pid;
			pm->p.ppid = -1;
			pm->p.time_ns = now_ns;
			pm->p.exited = true;
			snprintf(pm->p.comm, sizeof(pm->p.comm), "%s", comm ? comm : "");
			pm->nr_processes++;
			return pmufile_writer__process(pm->w, &pm->p);
		}
	}
	return procmaps__snapshot(pm, pid, false, now_ns);
}

/* ---------------------------------------------------------------- */
/* The vDSO image                                                    */
/* ---------------------------------------------------------------- */
int vdso__write(struct pmufile_writer *w)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[PATH_MAX + 128];
	struct pmufile_mmap *m = calloc(1, sizeof(*m));
	int ret = 0;

	while (f && m && fgets(line, sizeof(line), f)) {
		if (procmaps__parse_line(line, m) || strcmp(m->path, "[vdso]"))
			continue;
		/* mapped and readable for as long as this process lives */
		ret = pmufile_writer__vdso(w, (const void *)(uintptr_t)m->start,
					   (size_t)(m->end - m->start));
		if (ret == -EINVAL) /* empty or absurdly large: not an image to keep */
			ret = 0;
		break;
	}
	if (f)
		fclose(f);
	free(m);
	return ret;
}

/* ---------------------------------------------------------------- */
/* The kernel's build-id (its symbols: ksyms.c)                      */
/* ---------------------------------------------------------------- */
int kbuildid__write(struct pmufile_writer *w, const char *sys_root)
{
	char path[PATH_MAX], *buf;
	uint8_t id[BUILD_ID_MAX];
	size_t len;
	int ret = 0, n;

	snprintf(path, sizeof(path), "%s/kernel/notes", sys_root ? sys_root : "/sys");
	buf = read_whole_file(path, NOTE_MAX, &len);
	if (buf) {
		n = buildid__parse_notes(buf, len, 4, id);
		free(buf);
		if (n > 0)
			ret = pmufile_writer__kernel_build_id(w, id, (size_t)n);
	}
	return ret;
}
