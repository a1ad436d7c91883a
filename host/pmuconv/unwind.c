// SPDX-License-Identifier: MIT
/*
 * Offline user-stack unwinding with libdwfl (see unwind.h): the Dwfl cache
 * per process map set (shared by map sets of the same layout), the memory and register callbacks
 * served from a sample, and the per-sample outcome.
 */
#include "unwind.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "unwind_memo.h"
#include "util.h"

#define UNW_MAX_MODULES 512	    /* files reported per map set */
#define UNW_CFI_CACHE	4096	    /* has_cfi() answers kept per map set */
#define UNW_STACK_SPAN	(64u << 20) /* reads this far above sp count as stack */
#define UNW_MAX_READS	1024	    /* reads one unwind logs for the memo */
#define UNW_CHECK_MAX	1024	    /* frames PMUCONV_UNWIND_MEMO=check compares */
#define UNW_SYM_LOADS	16	    /* PT_LOADs taken from the symbolizer, else read here */

/* A file reported in a map set: its separate debug file (find_debuginfo),
 * and what it is reported as (set_same compares sets by these). */
struct unw_file {
	const char *debug;	      /* owned by the symbolizer, or NULL */
	const struct pmufile_mmap *m; /* the mapping it was reported for */
	const char *bin;	      /* the file opened, owned by the symbolizer; NULL: vDSO */
	uint64_t bias;		      /* dwfl_report_elf's base */
};

/* One process map set: a pid's maps snapshot (mmaps with one time_ns). */
struct unw_set {
	int32_t pid;
	uint64_t snap;	 /* time_ns of the snapshot */
	uint64_t t0, t1; /* the sample times [t0, t1) that pick it */
	Dwfl *dwfl;	 /* NULL: nothing could be reported (samples fall back) */
	struct unw_file files[UNW_MAX_MODULES];
	uint32_t nr_files;
	bool attached;
	/* has_cfi() answers by pc, direct-mapped: return addresses repeat, and
	 * each answer costs a CFI lookup (an FDE search and a malloc) */
	uint64_t cfi_pc[UNW_CFI_CACHE]; /* pc + 1; 0: empty */
	bool cfi_ok[UNW_CFI_CACHE];
	struct unw_memo *memo; /* unwinds stored by their inputs; NULL: none */
	/* the earlier set whose Dwfl, memo and CFI answers this one uses: it
	 * reports the same files at the same addresses (a later snapshot of
	 * the same process, or another process with the same layout); NULL:
	 * this set has its own */
	struct unw_set *owner;
};

struct unwinder {
	const struct pmufile *f;
	struct symbolizer *sym;
	/* the recorded vDSO image (pmufile.vdso) as a file for libdwfl: a
	 * memfd, dup()ed for each map set that reports it; -1 until needed */
	int vdso_fd;
	uint64_t vdso_stops; /* samples stopped in a [vdso] without an image */
	struct unw_set **sets;
	size_t nr_sets, cap_sets;
	struct unw_set *last;
	/* the sample being unwound (the callbacks' context) */
	const struct pmufile_sample_view *v;
	uint64_t *out;
	uint32_t nr, max;
	uint32_t cap; /* unw__sample's max: out[] entries */
	int stop;     /* enum unw_outcome of a stop noticed in a callback, or -1 */
	struct unw_set *set;
	bool limit;	  /* the walk filled out[] (a deep stack, cut at max) */
	bool cfi_stop;	  /* on_frame stopped on a pc without CFI */
	bool in_frame_pc; /* inside on_frame's dwfl_frame_pc (it unwinds that frame) */
	/* PMUCONV_UNWIND_MEMO: 0 off, 1 on (default), 2 "check": every
	 * answer from the memo is unwound again and compared */
	int memo_mode;
	uint64_t memo_checked, memo_bad; /* check mode: answers compared, differing */
	uint64_t memo_hits, memo_misses;
	/* the sample's memory reads, for the memo (unwind_memo.h) */
	struct unw_read reads[UNW_MAX_READS];
	uint32_t nr_reads;
	bool reads_lost; /* more than UNW_MAX_READS */
	/* each reported frame's registers (for the memo's steps): cap x
	 * PMUPROF_NR_UREGS, and which are set; NULL: not kept */
	uint64_t *fregs;
	uint32_t *fset;
	uint32_t cap_fregs;
	uint64_t memo_stepped; /* of the answers (hits or checked): from steps */
	/* the PT_LOAD headers of files the symbolizer has none for (the
	 * vDSO image, > UNW_SYM_LOADS headers) for file_bias, read once for
	 * all map sets: each process reports the same binaries */
	struct unw_phdrs *phdrs;
	size_t nr_phdrs, cap_phdrs;
};

/* One file's ELF type and PT_LOAD segments, in header order. */
struct unw_phdrs {
	char *path;
	bool ok; /* an ELF file with program headers */
	GElf_Half type;
	uint32_t nr;
	struct unw_load {
		uint64_t vaddr, offset, filesz, align;
	} * load;
};

static const char *const outcome_names[UNW__NR] = {
	[UNW_FULL] = "unwound fully",
	[UNW_NO_CFI] = "stopped: no CFI",
	[UNW_SHORT] = "stopped: copy too small",
	[UNW_BAD_MEM] = "stopped: bad memory",
	[UNW_FP] = "FP fallback",
};

const char *unw__outcome_name(int oc)
{
	return oc >= 0 && oc < UNW__NR ? outcome_names[oc] : "?";
}

/* ---- callbacks --------------------------------------------------------- */

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const struct unw_file *uf = *userdata;
	int fd;

	(void)mod;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)debuglink_file;
	(void)debuglink_crc;
	if (!uf || !uf->debug)
		return -1;
	fd = open(uf->debug, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		*debuginfo_file_name = strdup(uf->debug);
	return fd;
}

static const Dwfl_Callbacks dwfl_cbs = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo,
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)arg;
	(void)thread_argp;
	return 0; /* threads are asked for by id only */
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/* 8 bytes at vaddr from the file image of the module covering it. */
static bool read_image(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
	Dwarf_Addr bias;
	Elf *e;
	size_t n;

	if (!mod || !(e = dwfl_module_getelf(mod, &bias)) || elf_getphdrnum(e, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t a = addr - bias;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || a < ph.p_vaddr ||
		    a + 8 > ph.p_vaddr + ph.p_filesz)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(e, (int64_t)(ph.p_offset + (a - ph.p_vaddr)), 8,
						   ELF_T_BYTE);
		if (!d || d->d_size < 8)
			return false;
		memcpy(result, d->d_buf, 8);
		return true;
	}
	return false;
}

/* Log a read for the memo: the frame being unwound is the one on_frame
 * is asking the pc of (dwfl_frame_pc unwinds it to tell an activation),
 * else the last one reported (dwfl_getthread_frames unwinds it next). */
static void log_read(struct unwinder *u, uint64_t addr, uint64_t val, uint32_t src)
{
	if (u->nr_reads >= UNW_MAX_READS) {
		u->reads_lost = true;
		return;
	}
	struct unw_read *r = &u->reads[u->nr_reads++];
	r->addr = addr;
	r->val = val;
	r->src = src;
	r->frame = u->in_frame_pc ? u->nr : u->nr - 1;
}

/* A word of the sample's memory: from the stack copy, else from a mapped
 * file image; a failed read notes why the walk will stop. */
static enum unw_read_src read_word(struct unwinder *u, Dwfl *dwfl, uint64_t addr, uint64_t *result)
{
	const struct pmuprof_sample_ustack *c = u->v->ucopy;
	uint64_t sp = c->regs[PMUPROF_UREG_SP];

	if (addr >= sp && addr - sp <= (uint64_t)c->valid - 8 && c->valid >= 8) {
		memcpy(result, u->v->ucopy_stack + (addr - sp), 8);
		return UNW_READ_COPY;
	}
	if (read_image(dwfl, addr, result))
		return UNW_READ_IMAGE;
	*result = 0;
	/* above the copy (within a plausible stack): the copy was too small
	 * or cut short (the NMI copy also stops at a page not present) */
	if (u->stop < 0)
		u->stop = addr >= sp && addr - sp < UNW_STACK_SPAN ? UNW_SHORT : UNW_BAD_MEM;
	return UNW_READ_FAIL;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *u = arg;
	uint64_t w;
	enum unw_read_src src = read_word(u, dwfl, addr, &w);

	log_read(u, addr, w, src);
	*result = w;
	return src != UNW_READ_FAIL;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct unwinder *u = arg;
	Dwarf_Word regs[PMUPROF_NR_UREGS];

	memcpy(regs, u->v->ucopy->regs, sizeof(regs));
	return dwfl_thread_state_registers(thread, 0, PMUPROF_NR_UREGS, regs);
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* ---- map sets ---------------------------------------------------------- */

/* Read file's ELF type and PT_LOAD headers into p. False if it cannot be
 * read as ELF. */
static bool read_phdrs(const char *file, struct unw_phdrs *p)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	bool ok = false;
	Elf *e;
	GElf_Ehdr eh;
	size_t n;

	if (fd < 0)
		return false;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && gelf_getehdr(e, &eh) && !elf_getphdrnum(e, &n) &&
	    (p->load = calloc(n ? n : 1, sizeof(*p->load)))) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			p->load[p->nr++] =
				(struct unw_load){ph.p_vaddr, ph.p_offset, ph.p_filesz, ph.p_align};
		}
		p->type = eh.e_type;
		ok = true;
	}
	elf_end(e);
	close(fd);
	return ok;
}

/* file's headers, read on first use. NULL if it cannot be read. */
static const struct unw_phdrs *get_phdrs(struct unwinder *u, const char *file)
{
	for (size_t i = 0; i < u->nr_phdrs; i++)
		if (!strcmp(u->phdrs[i].path, file))
			return u->phdrs[i].ok ? &u->phdrs[i] : NULL;
	struct unw_phdrs p = {0};
	p.ok = read_phdrs(file, &p);
	if (!(p.path = strdup(file)) ||
	    pc_grow((void **)&u->phdrs, &u->cap_phdrs, u->nr_phdrs + 1, sizeof(*u->phdrs))) {
		free(p.path);
		free(p.load);
		return NULL;
	}
	u->phdrs[u->nr_phdrs++] = p;
	return p.ok ? &u->phdrs[u->nr_phdrs - 1] : NULL;
}

/* The link-time-to-run-time bias of the file mapped at m (its PT_LOAD
 * holding file offset m->pgoff), and the address of its first PT_LOAD for
 * dwfl_report_elf's ET_DYN base. False if the file has no such segment. */
static bool file_bias(const struct unw_phdrs *p, const struct pmufile_mmap *m, GElf_Half *type,
		      uint64_t *base)
{
	uint64_t first = UINT64_MAX, bias = 0;
	bool found = false;

	if (!p)
		return false;
	for (uint32_t i = 0; i < p->nr; i++) {
		const struct unw_load *ph = &p->load[i];
		uint64_t al = ph->align > 1 ? ph->align : 1;
		if (first == UINT64_MAX)
			first = ph->vaddr & ~(al - 1);
		uint64_t off0 = ph->offset & ~(uint64_t)4095;
		if (!found && m->pgoff >= off0 && m->pgoff < ph->offset + ph->filesz) {
			bias = m->start - (ph->vaddr - (ph->offset - m->pgoff));
			found = true;
		}
	}
	*type = p->type;
	*base = bias + first;
	return found && first != UINT64_MAX;
}

/* The recorded vDSO image as a file libdwfl can read: a memfd written
 * once; its /proc/self/fd path in path. False if the recording has no
 * image (or it does not fit the mapping m: a 32-bit process's vDSO). */
static bool vdso_file(struct unwinder *u, const struct pmufile_mmap *m, char *path, size_t len)
{
	const struct pmufile *f = u->f;

	if (!f->vdso || m->end - m->start != ((f->vdso_len + 4095) & ~(uint64_t)4095))
		return false;
	if (u->vdso_fd < 0) {
		int fd = memfd_create("pmuconv-vdso", MFD_CLOEXEC);
		if (fd < 0)
			return false;
		if (write(fd, f->vdso, f->vdso_len) != (ssize_t)f->vdso_len) {
			close(fd);
			return false;
		}
		u->vdso_fd = fd;
	}
	snprintf(path, len, "/proc/self/fd/%d", u->vdso_fd);
	return true;
}

/* Plan to report the file mapped at m (append it to s->files, with what
 * it is reported as) unless its path is planned already or its range
 * overlaps one that is. */
static void plan_one(struct unwinder *u, struct unw_set *s, const struct pmufile_mmap *m)
{
	const char *bin = NULL, *dbg = NULL;
	char vdso[64];

	if ((m->path[0] != '/' && strcmp(m->path, "[vdso]")) || !(m->prot & PROT_EXEC) ||
	    s->nr_files >= UNW_MAX_MODULES)
		return;
	for (uint32_t i = 0; i < s->nr_files; i++) {
		const struct pmufile_mmap *o = s->files[i].m;
		if (!strcmp(o->path, m->path) || (m->start < o->end && o->start < m->end))
			return;
	}
	if (m->path[0] == '[') {
		if (!vdso_file(u, m, vdso, sizeof(vdso)))
			return;
		bin = vdso;
	} else if (sym__files(u->sym, m->path, m->build_id,
			      m->build_id_size <= 20 ? m->build_id_size : 20, &bin, &dbg) < 0 ||
		   !bin) {
		return;
	}
	/* the headers as the symbolizer read them when it opened bin (one
	 * open per file), else (the vDSO, many headers) read here once */
	struct sym_load sl[UNW_SYM_LOADS];
	struct unw_load ul[UNW_SYM_LOADS];
	struct unw_phdrs own = {.ok = true, .load = ul};
	const struct unw_phdrs *ph = &own;
	uint16_t et;
	size_t nl;
	if (bin != vdso &&
	    sym__binary_loads(u->sym, m->path, m->build_id,
			      m->build_id_size <= 20 ? m->build_id_size : 20, &et, &nl, sl,
			      UNW_SYM_LOADS) &&
	    nl <= UNW_SYM_LOADS) {
		own.type = et;
		own.nr = (uint32_t)nl;
		for (size_t i = 0; i < nl; i++)
			ul[i] = (struct unw_load){sl[i].vaddr, sl[i].off, sl[i].filesz,
						  sl[i].align};
	} else {
		ph = get_phdrs(u, bin);
	}
	GElf_Half type;
	uint64_t base;
	if (!ph || !file_bias(ph, m, &type, &base))
		return;
	struct unw_file *uf = &s->files[s->nr_files];
	uf->debug = dbg;
	uf->m = m;
	uf->bin = bin == vdso ? NULL : bin;
	uf->bias = type == ET_DYN ? base : 0;
	s->nr_files++;
}

/* Report the planned file uf to libdwfl; false if it is not taken. */
static bool report_file(struct unwinder *u, struct unw_set *s, struct unw_file *uf)
{
	char vdso[64];
	const char *bin = uf->bin;
	int fd = -1;

	if (!bin) {
		if (!vdso_file(u, uf->m, vdso, sizeof(vdso)) ||
		    (fd = dup(u->vdso_fd)) < 0) /* each Dwfl consumes its fd */
			return false;
		bin = vdso;
	}
	Dwfl_Module *mod = dwfl_report_elf(s->dwfl, uf->m->path, bin, fd, uf->bias, false);
	if (!mod) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	void **ud = NULL;
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	if (ud)
		*ud = uf;
	return true;
}

/* Do sets a and b report the same files (in any order) at the same
 * addresses? Then one Dwfl answers both: an unwind reads only the
 * sample's registers and stack copy, and the reported files' CFI and
 * images. */
static bool set_same(const struct unw_set *a, const struct unw_set *b)
{
	if (a->nr_files != b->nr_files)
		return false;
	for (uint32_t i = 0; i < a->nr_files; i++) {
		const struct unw_file *x = &a->files[i];
		uint32_t j = 0;
		for (; j < b->nr_files; j++) {
			const struct unw_file *y = &b->files[j];
			if (x->bias == y->bias && x->m->start == y->m->start &&
			    !x->bin == !y->bin && (!x->bin || !strcmp(x->bin, y->bin)) &&
			    !x->debug == !y->debug && (!x->debug || !strcmp(x->debug, y->debug)) &&
			    !strcmp(x->m->path, y->m->path))
				break;
		}
		if (j == b->nr_files)
			return false;
	}
	return true;
}

/* The files of pid's mappings mm[lo, hi): those of the chosen snapshot,
 * then, where nothing overlaps them, those of later snapshots (nearest
 * first: a library loaded after the exec-time snapshot) and of earlier
 * ones, as the symbolizer's maps lookup (pmufile__find_mmap) falls back. */
static void plan_set(struct unwinder *u, struct unw_set *s, size_t lo, size_t hi)
{
	const struct pmufile_mmap *mm = u->f->mmaps;

	s->nr_files = 0;
	for (size_t i = lo; i < hi; i++)
		if (mm[i].time_ns == s->snap)
			plan_one(u, s, &mm[i]);
	for (size_t i = lo; i < hi; i++) /* same start: earlier times first */
		if (mm[i].time_ns > s->snap)
			plan_one(u, s, &mm[i]);
	for (size_t i = hi; i > lo; i--)
		if (mm[i - 1].time_ns < s->snap)
			plan_one(u, s, &mm[i - 1]);
}

/* Give s a Dwfl of the files in its plan: an earlier set's that reports
 * the same files at the same addresses (s->owner; libdwfl opens and maps
 * each binary and reads its CFI once per Dwfl, and the memo's unwinds
 * serve both), else its own. */
static void report_set(struct unwinder *u, struct unw_set *s, size_t lo, size_t hi)
{
	plan_set(u, s, lo, hi);
	for (size_t i = 0; s->nr_files && i < u->nr_sets; i++) {
		struct unw_set *o = u->sets[i];
		if (!o->owner && o->attached && set_same(s, o)) {
			s->owner = o;
			return;
		}
	}
	s->dwfl = dwfl_begin(&dwfl_cbs);
	if (!s->dwfl)
		return;
	dwfl_report_begin(s->dwfl);
	/* a file libdwfl does not take (it could not open or read it, though
	 * the symbolizer did) is left out, as before plans; unlike then, a
	 * mapping that overlaps it is not tried instead */
	uint32_t reported = 0;
	for (uint32_t i = 0; i < s->nr_files; i++)
		reported += report_file(u, s, &s->files[i]);
	dwfl_report_end(s->dwfl, NULL, NULL);
	if (!reported || !dwfl_attach_state(s->dwfl, NULL, s->pid ? s->pid : 1, &thread_cbs, u)) {
		dwfl_end(s->dwfl);
		s->dwfl = NULL;
		return;
	}
	s->attached = true;
	s->memo = unw_memo__new(s->dwfl); /* NULL: unwinds are not stored */
}

/* The map set of pid at time t: its latest snapshot at or before t, else
 * its earliest; built on first use. NULL if the pid has no mappings. */
static struct unw_set *get_set(struct unwinder *u, int32_t pid, uint64_t t)
{
	const struct pmufile_mmap *mm = u->f->mmaps;
	uint64_t before = 0, after = UINT64_MAX, snap;
	bool has_before = false;
	size_t lo, end;

	/* a set's time range answers without the search and scan of the
	 * pid's mappings below (~7 % of a conversion's instructions, once per
	 * sample) */
	if (u->last && u->last->pid == pid && t >= u->last->t0 && t < u->last->t1)
		return u->last->owner ? u->last->owner : u->last;
	for (size_t i = 0; i < u->nr_sets; i++)
		if (u->sets[i]->pid == pid && t >= u->sets[i]->t0 && t < u->sets[i]->t1) {
			u->last = u->sets[i];
			return u->last->owner ? u->last->owner : u->last;
		}
	lo = pmufile__first_mmap(u->f, pid);
	for (end = lo; end < u->f->nr_mmaps && mm[end].pid == pid; end++) {
		uint64_t tn = mm[end].time_ns;
		if (tn <= t && (!has_before || tn > before)) {
			before = tn;
			has_before = true;
		} else if (tn > t && tn < after) {
			after = tn;
		}
	}
	if (end == lo)
		return NULL;
	snap = has_before ? before : after;
	struct unw_set *s = NULL;
	if (u->last && u->last->pid == pid && u->last->snap == snap)
		s = u->last;
	for (size_t i = 0; !s && i < u->nr_sets; i++)
		if (u->sets[i]->pid == pid && u->sets[i]->snap == snap)
			s = u->sets[i];
	if (!s) {
		if (u->nr_sets == u->cap_sets) {
			size_t cap = u->cap_sets ? 2 * u->cap_sets : 16;
			void *p = realloc(u->sets, cap * sizeof(*u->sets));
			if (!p)
				return NULL;
			u->sets = p;
			u->cap_sets = cap;
		}
		if (!(s = calloc(1, sizeof(*s))))
			return NULL;
		s->pid = pid;
		s->snap = snap;
		/* the times that pick this snapshot: from it (from 0 when it is
		 * the earliest one, after t) up to the next one */
		s->t0 = has_before ? before : 0;
		s->t1 = after;
		report_set(u, s, lo, end);
		u->sets[u->nr_sets++] = s;
	}
	u->last = s;
	return s->owner ? s->owner : s;
}

/* ---- one sample -------------------------------------------------------- */

/* Does pc (a return address unless activation) have CFI? */
static bool lookup_cfi(Dwfl *dwfl, Dwarf_Addr pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;
	Dwarf_Frame *fr = NULL;

	if (!mod)
		return false;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (cfi && dwarf_cfi_addrframe(cfi, pc - bias, &fr) == 0) {
		free(fr);
		return true;
	}
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (cfi && dwarf_cfi_addrframe(cfi, pc - bias, &fr) == 0) {
		free(fr);
		return true;
	}
	return false;
}

static bool has_cfi(struct unw_set *s, Dwarf_Addr pc)
{
	size_t i = (size_t)((pc * 0x9e3779b97f4a7c15ull) >> 52) % UNW_CFI_CACHE;

	if (s->cfi_pc[i] != pc + 1) {
		s->cfi_ok[i] = lookup_cfi(s->dwfl, pc);
		s->cfi_pc[i] = pc + 1;
	}
	return s->cfi_ok[i];
}

static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	Dwarf_Addr pc;
	bool act;

	u->in_frame_pc = true;
	bool ok = dwfl_frame_pc(state, &pc, &act);
	u->in_frame_pc = false;
	if (!ok)
		return DWARF_CB_ABORT;
	if (u->nr >= u->max) {
		u->limit = true;
		return DWARF_CB_ABORT;
	}
	if (u->nr < u->cap_fregs) { /* this frame's registers, for the memo's steps */
		uint64_t *fr = u->fregs + (size_t)u->nr * PMUPROF_NR_UREGS;
		uint32_t set = 0;
		for (unsigned reg = 0; reg < PMUPROF_NR_UREGS; reg++)
			if (dwfl_frame_reg(state, reg, &fr[reg]) == 0)
				set |= 1u << reg;
		u->fset[u->nr] = set;
	}
	u->out[u->nr++] = pc;
	/* unwinding on from here needs this frame's CFI; without it libdw
	 * would guess with %rbp, which is not a frame pointer in such code */
	if (!has_cfi(u->set, act ? pc : pc - 1)) {
		u->stop = UNW_NO_CFI;
		u->cfi_stop = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* Is pc in a [vdso] mapping that no module covers (no image recorded)? */
static bool in_vdso(struct unwinder *u, struct unw_set *set, const struct pmuprof_sample *s,
		    uint64_t pc)
{
	const struct pmufile_mmap *mm = u->f->mmaps;
	size_t lo;

	if (set->dwfl && dwfl_addrmodule(set->dwfl, pc))
		return false;
	/* the pid's mappings (sorted by pid, then start) */
	for (lo = pmufile__first_mmap(u->f, (int32_t)s->pid);
	     lo < u->f->nr_mmaps && mm[lo].pid == (int32_t)s->pid; lo++)
		if (pc >= mm[lo].start && pc < mm[lo].end && !strcmp(mm[lo].path, "[vdso]"))
			return true;
	return false;
}

/* The outcome once the walk is over (or did not run: r < 0). */
static uint32_t stopped(struct unwinder *u, int r, enum unw_outcome *oc)
{
	const struct pmufile_sample_view *v = u->v;
	const struct pmuprof_sample *s = v->s;
	struct unw_set *set = u->set;
	uint64_t *out = u->out;
	uint32_t max = u->cap;

	/* libdw ends a walk quietly when the return address cannot be read
	 * (as at the outermost frame): a failed read means it stopped */
	if (u->stop < 0 && (r == 0 || u->limit)) {
		*oc = UNW_FULL;
		return u->nr;
	}
	/* a pc in a [vdso] the recording has no image of (older recorders):
	 * stop there; its FP walk would continue through code without frame
	 * pointers */
	if (u->nr <= 1 && set && in_vdso(u, set, s, v->ucopy->regs[PMUPROF_UREG_IP])) {
		u->vdso_stops++;
		u->nr = 0;
		out[u->nr++] = v->ucopy->regs[PMUPROF_UREG_IP];
		if (u->nr < max)
			out[u->nr++] = UNW_TRUNCATED_ADDR;
		*oc = UNW_NO_CFI;
		return u->nr;
	}
	if (u->nr <= 1 && s->nr_ustack > 1) {
		uint32_t n = s->nr_ustack < max ? s->nr_ustack : max;
		memcpy(out, v->ustack, n * sizeof(*out));
		*oc = UNW_FP;
		return n;
	}
	if (!u->nr && max) /* no module at all: the pc itself */
		out[u->nr++] = v->ucopy->regs[PMUPROF_UREG_IP];
	*oc = u->stop >= 0 ? (enum unw_outcome)u->stop : UNW_NO_CFI;
	if (u->nr < max)
		out[u->nr++] = UNW_TRUNCATED_ADDR;
	return u->nr;
}

/* The steps of a libdwfl walk of frames frames into the memo: each
 * frame's but the last with its caller's registers, the last's with its
 * reads only when libdwfl unwound it (ended: the walk's end). */
static void store_steps(struct unwinder *u, uint32_t frames, bool last_unwound)
{
	const struct unw_read *rd = u->reads, *rend = u->reads + u->nr_reads;

	if (!u->fregs)
		return;
	for (uint32_t k = 0; k < frames; k++) {
		const struct unw_read *re = rd;
		while (re < rend && re->frame == k)
			re++;
		if (k + 1 == frames && !last_unwound)
			break;
		struct unw_step_seen st = {
			.lookup_pc = k ? u->out[k] - 1 : u->out[0],
			.regs = u->fregs + (size_t)k * PMUPROF_NR_UREGS,
			.set = u->fset[k],
			.caller = k + 1 < frames ? u->fregs + (size_t)(k + 1) * PMUPROF_NR_UREGS
						 : NULL,
			.caller_set = k + 1 < frames ? u->fset[k + 1] : 0,
			.reads = rd,
			.nr_reads = (uint32_t)(re - rd),
		};
		if (rd < rend && rd->frame < k)
			return; /* reads out of frame order: not expected */
		unw_memo__step_store(u->set->memo, &st);
		rd = re;
	}
}

/* The result of a libdwfl walk that ran (r: dwfl_getthread_frames'),
 * stored in the map set's memo when it can be (unwind_memo.h). */
static uint32_t finish(struct unwinder *u, int r, enum unw_outcome *oc)
{
	uint32_t frames = u->nr;
	uint32_t n = stopped(u, r, oc);

	/* stored: walks that ended at a frame (its return address unread,
	 * undefined or 0) or on a pc without CFI, with a caller found */
	if (frames >= 2 && !u->limit && !u->reads_lost && (r == 0 || (u->cfi_stop && r > 0))) {
		struct unw_done d = {
			.v = u->v,
			.max = u->cap,
			.out = u->out,
			.nr = n,
			.nr_frames = frames,
			.last_unwound = r == 0,
			.oc = (int)*oc,
			.reads = u->reads,
			.nr_reads = u->nr_reads,
		};
		unw_memo__store(u->set->memo, &d);
		store_steps(u, frames, r == 0);
	}
	return n;
}

/* The per-walk state, as before any frame. */
static void begin(struct unwinder *u)
{
	u->nr = 0;
	u->stop = -1;
	u->limit = false;
	u->cfi_stop = false;
	u->nr_reads = 0;
	u->reads_lost = false;
}

/* A word for a stored step (unw_memo__step): read as libdwfl's reads are. */
static bool step_read(void *ctx, uint64_t addr, uint64_t *val)
{
	struct unwinder *u = ctx;

	return read_word(u, u->set->dwfl, addr, val) != UNW_READ_FAIL;
}

/*
 * The walk libdwfl would make, from the memo's stored steps: frame by
 * frame as dwfl_getthread_frames and on_frame go (a return address's step
 * is made by dwfl_frame_pc, before the frame limit is checked; the initial
 * frame's after it), ending where libdwfl's ends (the return address
 * undefined, unreadable or 0). False as soon as a step is not stored or a
 * frame has no usable rules (signal frames, no CFI): the state is then
 * reset and libdwfl walks. True: u->nr, u->stop, u->limit as on_frame and
 * memory_read would leave them, *r dwfl_getthread_frames' result.
 */
static bool replay(struct unwinder *u, int *r)
{
	struct unw_memo *m = u->set->memo;
	/* each step writes one buffer from the other's registers (no copy) */
	struct unw_step_out outs[2];
	uint64_t regs0[PMUPROF_NR_UREGS];
	const uint64_t *regs = regs0;
	uint32_t set = (1u << PMUPROF_NR_UREGS) - 1;
	uint64_t pc;

	memcpy(regs0, u->v->ucopy->regs, sizeof(regs0));
	pc = regs[PMUPROF_UREG_IP];
	for (uint32_t k = 0;; k++) {
		struct unw_step_out *op = &outs[k & 1];
		uint64_t lpc = k ? pc - 1 : pc;

		if (k && unw_memo__step(m, lpc, regs, set, op, u->v, step_read, u))
			return false;
		if (u->nr >= u->max) {
			u->limit = true;
			*r = DWARF_CB_ABORT;
			return true;
		}
		u->out[u->nr++] = pc;
		if (!has_cfi(u->set, lpc))
			return false;
		if (!k && unw_memo__step(m, lpc, regs, set, op, u->v, step_read, u))
			return false;
		/* the caller's pc: undefined, unread or 0 ends the walk */
		if (op->ra_undefined || !(op->set >> PMUPROF_UREG_IP & 1) ||
		    !op->regs[PMUPROF_UREG_IP]) {
			*r = 0;
			return true;
		}
		if (op->vals_unknown)
			return false;
		regs = op->regs;
		set = op->set;
		pc = regs[PMUPROF_UREG_IP];
	}
}

/* PMUCONV_UNWIND_MEMO=check: the memo's answer (out[0, n), outcome moc)
 * against libdwfl's; libdwfl's is returned, a difference counted. */
static uint32_t check(struct unwinder *u, uint32_t n, int moc, enum unw_outcome *oc)
{
	uint64_t memo[UNW_CHECK_MAX];
	uint32_t m;
	int r;

	if (n > UNW_CHECK_MAX)
		n = UNW_CHECK_MAX; /* compared as far as kept */
	memcpy(memo, u->out, n * sizeof(*memo));
	begin(u);
	r = dwfl_getthread_frames(u->set->dwfl, u->v->s->tid ? (pid_t)u->v->s->tid : 1, on_frame,
				  u);
	m = stopped(u, r, oc);
	u->memo_checked++;
	if (m < n || memcmp(memo, u->out, n * sizeof(*memo)) || (int)*oc != moc)
		u->memo_bad++;
	return m;
}

/* Room for the registers of max frames (for the memo's steps); without
 * memory the steps are not stored. */
static void want_fregs(struct unwinder *u, uint32_t max)
{
	if (u->fregs && u->cap_fregs >= max)
		return;
	free(u->fregs);
	free(u->fset);
	u->fregs = malloc((size_t)max * PMUPROF_NR_UREGS * sizeof(*u->fregs));
	u->fset = malloc((size_t)max * sizeof(*u->fset));
	u->cap_fregs = u->fregs && u->fset ? max : 0;
	if (!u->cap_fregs) {
		free(u->fregs);
		free(u->fset);
		u->fregs = NULL;
		u->fset = NULL;
	}
}

uint32_t unw__sample(struct unwinder *u, const struct pmufile_sample_view *v, uint64_t *out,
		     uint32_t max, enum unw_outcome *oc)
{
	const struct pmuprof_sample *s = v->s;
	struct unw_set *set = get_set(u, (int32_t)s->pid, s->time_ns);
	int r = -1;

	u->v = v;
	u->set = set;
	u->out = out;
	u->cap = max;
	u->max = max > 1 ? max - 1 : 0; /* room for the truncation mark */
	begin(u);
	if (set && set->dwfl && u->max) {
		bool memo = set->memo && u->memo_mode;
		int moc;
		uint32_t n = memo ? unw_memo__lookup(set->memo, v, max, out, &moc) : 0;
		if (n && u->memo_mode == 2)
			return check(u, n, moc, oc);
		if (n) {
			u->memo_hits++;
			*oc = (enum unw_outcome)moc;
			return n;
		}
		if (memo && replay(u, &r)) {
			n = stopped(u, r, oc);
			u->memo_stepped++;
			if (u->memo_mode == 2)
				return check(u, n, (int)*oc, oc);
			u->memo_hits++;
			return n;
		}
		begin(u);
		if (memo)
			want_fregs(u, u->max);
		r = dwfl_getthread_frames(set->dwfl, s->tid ? (pid_t)s->tid : 1, on_frame, u);
		if (memo) {
			u->memo_misses++;
			return finish(u, r, oc);
		}
	}
	return stopped(u, r, oc);
}

struct unwinder *unw__new(const struct pmufile *f, struct symbolizer *sym)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	elf_version(EV_CURRENT);
	u->f = f;
	u->sym = sym;
	u->vdso_fd = -1;
	const char *mm = getenv("PMUCONV_UNWIND_MEMO");
	u->memo_mode = !mm || !*mm ? 1 : !strcmp(mm, "check") ? 2 : strcmp(mm, "0") != 0;
	return u;
}

const char *unw__vdso_symbol(struct unwinder *u, int32_t pid, uint64_t t, uint64_t addr)
{
	struct unw_set *s = get_set(u, pid, t);
	Dwfl_Module *mod = s && s->dwfl ? dwfl_addrmodule(s->dwfl, addr) : NULL;
	const char *name;

	if (!mod || !(name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL)) ||
	    strcmp(name, "[vdso]"))
		return NULL;
	return dwfl_module_addrname(mod, addr);
}

size_t unw__nr_dwfls(const struct unwinder *u)
{
	size_t n = 0;

	for (size_t i = 0; u && i < u->nr_sets; i++)
		n += u->sets[i]->dwfl != NULL;
	return n;
}

void unw__warn(const struct unwinder *u, const char *path)
{
	if (u && u->memo_bad)
		pc_warn("%s: PMUCONV_UNWIND_MEMO=check: %llu of %llu answers from the unwind memo "
			"differ from libdwfl's unwind (libdwfl's were used); please report this "
			"with the recording",
			path, (unsigned long long)u->memo_bad, (unsigned long long)u->memo_checked);
	if (u && getenv("PMUCONV_STATS"))
		fprintf(stderr,
			"pmuconv: stats: %s: unwind memo: %llu of %llu unwinds answered, %llu "
			"checked, %llu differing; %llu of them walked from stored steps\n",
			path, (unsigned long long)(u->memo_hits + u->memo_checked),
			(unsigned long long)(u->memo_hits + u->memo_checked + u->memo_misses),
			(unsigned long long)u->memo_checked, (unsigned long long)u->memo_bad,
			(unsigned long long)u->memo_stepped);
	if (u && getenv("PMUCONV_STATS"))
		fprintf(stderr, "pmuconv: stats: %s: unwind: %zu map sets, %zu libdwfl sessions\n",
			path, u->nr_sets, unw__nr_dwfls(u));
	if (u && u->vdso_stops)
		pc_warn("%s: %llu sample(s) stopped in [vdso]: the recording has no image of "
			"it to unwind through (recorded by a pmuctl older than its VDSO frame); "
			"their callers are not shown. Record again with this pmuctl",
			path, (unsigned long long)u->vdso_stops);
}

void unw__free(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_sets; i++) {
		unw_memo__free(u->sets[i]->memo);
		if (u->sets[i]->dwfl)
			dwfl_end(u->sets[i]->dwfl);
		free(u->sets[i]);
	}
	free(u->sets);
	free(u->fregs);
	free(u->fset);
	for (size_t i = 0; i < u->nr_phdrs; i++) {
		free(u->phdrs[i].path);
		free(u->phdrs[i].load);
	}
	free(u->phdrs);
	if (u->vdso_fd >= 0)
		close(u->vdso_fd);
	free(u);
}
