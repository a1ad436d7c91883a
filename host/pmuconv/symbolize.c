// SPDX-License-Identifier: MIT
/* Addresses to names: ELF files (libelf), kallsyms, vmlinux; see symbolize.h. */
#include "symbolize.h"
#include "demangle.h"
#include "hashtab.h"
#include "msort.h"
#include "profile.h"
#include "textparse.h"
#include "util.h"

#include "lib/pmufile/bsearch.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Paths are built into PATH_MAX buffers; a longer one is simply not found,
 * which is the right outcome, so truncation warnings are noise here. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define BUILD_ID_MAX 20
/* A kernel address farther than this past the last symbol is unknown. */
#define KSYM_TAIL_MAX (64u << 10)

struct sym {
	uint64_t addr, size;
	const char *name;
	int bind_rank; /* lower is preferred when two symbols share an address */
	bool named;    /* name is final: demangled (or left as is) on first use */
};

struct symtab {
	struct sym *v;
	size_t nr, cap;
};

struct load_seg {
	uint64_t off, filesz, vaddr, align;
};

/* What symfile_load() found, for the warnings of sym__warn_binaries(). */
enum symfile_state {
	SF_OK,	    /* .symtab, or a separate debug file */
	SF_PSEUDO,  /* "", [vdso], [stack]...: no file to read */
	SF_MISSING, /* no file at the recorded path (under --symfs), nor by build-id */
	SF_NOT_ELF, /* a file, but not an ELF one */
	SF_STRIPPED /* no .symtab and no debug file: .dynsym at most */
};

struct symfile {
	char *key; /* recorded path + build-id */
	const char *path;
	const char *base;   /* basename for "bin+0xoff" */
	const char *opened; /* the file read, when not path itself (or NULL) */
	const char *debug;  /* the separate debug file read (or NULL) */
	bool have_bin;	    /* the binary itself was found and read */
	bool bid_mismatch;  /* ... but its build-id is not the recorded one */
	bool loaded, found;
	enum symfile_state state;
	uint8_t bid[BUILD_ID_MAX]; /* as recorded */
	size_t bid_len;
	uint64_t unresolved; /* lookups that found no function */
	struct symtab syms;
	struct load_seg *segs;
	size_t nr_segs;
	/* the binary's own headers (sym__binary_loads): segs[0, bin_nr_segs)
	 * came from it, of ELF type bin_type; false if unread */
	bool bin_loads_ok;
	uint16_t bin_type;
	size_t bin_nr_segs;
};

struct symbolizer {
	struct sym_opts o;
	struct pc_arena arena;
	struct symfile **files;
	size_t nr_files, cap_files;
	struct pc_htab file_index; /* "path@build-id" -> file */
	struct symtab ksyms;
	bool have_kallsyms;
	struct symtab vmlinux;
	bool have_vmlinux;
	int64_t vmlinux_slide;
	struct sym_stats st;
};

static bool elf_ready;

uint32_t sym_crc32(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t table[256];
	const unsigned char *p = buf;

	if (!table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

struct symbolizer *sym__new(const struct sym_opts *o)
{
	struct symbolizer *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (o)
		s->o = *o;
	if (!s->o.debug_dir)
		s->o.debug_dir = "/usr/lib/debug";
	if (!elf_ready) {
		if (elf_version(EV_CURRENT) == EV_NONE) {
			free(s);
			errno = ENOSYS;
			return NULL;
		}
		elf_ready = true;
	}
	return s;
}

static void symfile_free(struct symfile *f)
{
	if (!f)
		return;
	free(f->syms.v);
	free(f->segs);
	free(f);
}

void sym__free(struct symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_files; i++)
		symfile_free(s->files[i]);
	free(s->files);
	pc_htab__free(&s->file_index);
	free(s->ksyms.v);
	free(s->vmlinux.v);
	pc_arena__free(&s->arena);
	free(s);
}

void sym__stats(const struct symbolizer *s, struct sym_stats *out)
{
	*out = s->st;
}

static int symtab_push(struct symtab *t, uint64_t addr, uint64_t size, const char *name, int rank)
{
	if (pc_grow((void **)&t->v, &t->cap, t->nr + 1, sizeof(*t->v)))
		return -ENOMEM;
	t->v[t->nr++] = (struct sym){.addr = addr, .size = size, .name = name, .bind_rank = rank};
	return 0;
}

static int cmp_sym(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->bind_rank != b->bind_rank)
		return a->bind_rank - b->bind_rank;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return strcmp(a->name, b->name);
}

PC_DEFINE_MSORT(sort_syms, struct sym, cmp_sym)

/* v sorted by address alone, stably: LSD radix on 8-bit digits, a digit
 * skipped when all the addresses share it (a binary's offsets span ~3
 * bytes). False (v untouched) without memory for the copy. */
static bool sort_syms_by_addr(struct sym *v, size_t n)
{
	struct sym *tmp = malloc(n * sizeof(*v)), *src = v, *dst = tmp;
	uint64_t any = 0, all = ~(uint64_t)0;

	if (!tmp)
		return false;
	for (size_t i = 0; i < n; i++) {
		any |= v[i].addr;
		all &= v[i].addr;
	}
	for (unsigned int shift = 0; shift < 64; shift += 8) {
		size_t pos[256] = {0}, sum = 0;
		if (!((any ^ all) >> shift & 0xff))
			continue;
		for (size_t i = 0; i < n; i++)
			pos[src[i].addr >> shift & 0xff]++;
		for (int d = 0; d < 256; d++) {
			size_t c = pos[d];
			pos[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[pos[src[i].addr >> shift & 0xff]++] = src[i];
		struct sym *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	return true;
}

/* Sort and keep one symbol per address (global before weak before local,
 * then the larger, then by name: deterministic): the least by cmp_sym of
 * each address, which a full sort by cmp_sym would put first (the earlier
 * on a full tie, as that sort is stable). The full sort (msort) costs ~40
 * instructions a comparison on libc's 2822 symbols; the radix sort by
 * address and a pass over each address's few symbols a fifth of that. */
static void symtab_finish(struct symtab *t)
{
	size_t n = 0;

	if (!t->nr)
		return; /* t->v may be NULL */
	if (!sort_syms_by_addr(t->v, t->nr)) {
		sort_syms(t->v, t->nr);
		for (size_t i = 0; i < t->nr; i++)
			if (!n || t->v[n - 1].addr != t->v[i].addr)
				t->v[n++] = t->v[i];
		t->nr = n;
		return;
	}
	for (size_t i = 0, j; i < t->nr; i = j) {
		size_t best = i;
		for (j = i + 1; j < t->nr && t->v[j].addr == t->v[i].addr; j++)
			if (cmp_sym(&t->v[j], &t->v[best]) < 0)
				best = j;
		t->v[n++] = t->v[best];
	}
	t->nr = n;
}

/* Last symbol with addr <= a, or NULL. */
static const struct sym *symtab_find(const struct symtab *t, uint64_t a, size_t *idx)
{
	size_t lo = PMUFILE_PARTITION(t->nr, i, t->v[i].addr <= a);

	if (!lo)
		return NULL;
	*idx = lo - 1;
	return &t->v[lo - 1];
}

/* The name a lookup returns: demangled the first time the symbol is hit
 * (most symbols of a binary never are, so nothing is demangled up front). */
static const char *sym_name(struct symbolizer *s, const struct sym *csy)
{
	struct sym *sy = (struct sym *)csy; /* the tables belong to s */
	char *d;

	if (sy->named)
		return sy->name;
	sy->named = true;
	if (s->o.no_demangle || !(d = pc_demangle(sy->name)))
		return sy->name;
	const char *copy = pc_arena__strndup(&s->arena, d, strlen(d));
	free(d);
	if (copy)
		sy->name = copy;
	return sy->name;
}

/* ---- ELF ------------------------------------------------------------- */

struct elf_handle {
	int fd;
	Elf *e;
	char path[4096]; /* as opened */
};

static int elf_open(struct elf_handle *h, const char *path)
{
	snprintf(h->path, sizeof(h->path), "%s", path);
	h->fd = open(path, O_RDONLY | O_CLOEXEC);
	h->e = NULL;
	if (h->fd < 0)
		return -errno;
	h->e = elf_begin(h->fd, ELF_C_READ_MMAP, NULL);
	if (!h->e || elf_kind(h->e) != ELF_K_ELF) {
		if (h->e)
			elf_end(h->e);
		close(h->fd);
		h->e = NULL;
		h->fd = -1;
		return -ENOEXEC;
	}
	return 0;
}

static void elf_close(struct elf_handle *h)
{
	if (h->e)
		elf_end(h->e);
	if (h->fd >= 0)
		close(h->fd);
	h->e = NULL;
	h->fd = -1;
}

static Elf_Scn *find_section(Elf *e, const char *want, GElf_Shdr *out)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, want)) {
			*out = sh;
			return scn;
		}
	}
	return NULL;
}

/* Read NT_GNU_BUILD_ID; returns its size or 0. */
static size_t elf_build_id(Elf *e, uint8_t *out)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + noff, "GNU", 4) && nh.n_descsz > 0) {
				size_t n = nh.n_descsz < BUILD_ID_MAX ? nh.n_descsz : BUILD_ID_MAX;
				memcpy(out, (char *)d->d_buf + doff, n);
				return n;
			}
		}
	}
	return 0;
}

/* Load STT_FUNC/IFUNC symbols of `section` into t. Returns how many. */
static long elf_load_syms(struct symbolizer *s, Elf *e, const char *section, struct symtab *t,
			  const char *suffix)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(e, section, &sh);
	Elf_Data *d;
	long n = 0;

	if (!scn || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || !sh.sh_entsize)
		return 0;
	d = elf_getdata(scn, NULL);
	if (!d)
		return 0;
	size_t cnt = sh.sh_size / sh.sh_entsize;
	for (size_t i = 0; i < cnt; i++) {
		GElf_Sym sym;
		const char *name;
		int type, bind;
		if (!gelf_getsym(d, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		bind = GELF_ST_BIND(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
		    !sym.st_value)
			continue;
		name = elf_strptr(e, sh.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (suffix) {
			size_t l = strlen(name) + strlen(suffix) + 1;
			char *nm = pc_arena__alloc(&s->arena, l);
			if (!nm)
				return -ENOMEM;
			snprintf(nm, l, "%s%s", name, suffix);
			name = nm;
		} else {
			name = pc_arena__strndup(&s->arena, name, strlen(name));
			if (!name)
				return -ENOMEM;
		}
		int rank = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
		if (symtab_push(t, sym.st_value, sym.st_size, name, rank))
			return -ENOMEM;
		n++;
	}
	return n;
}

static int elf_load_segs(Elf *e, struct symfile *f)
{
	size_t nph;

	if (elf_getphdrnum(e, &nph))
		return -ENOEXEC;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		struct load_seg *ns = realloc(f->segs, (f->nr_segs + 1) * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		f->segs = ns;
		f->segs[f->nr_segs++] = (struct load_seg){.off = ph.p_offset,
							  .filesz = ph.p_filesz,
							  .vaddr = ph.p_vaddr,
							  .align = ph.p_align};
	}
	return 0;
}

static const char *under_symfs(struct symbolizer *s, const char *path, char *buf, size_t len)
{
	if (!s->o.symfs || !*s->o.symfs)
		return path;
	snprintf(buf, len, "%s/%s", s->o.symfs, path[0] == '/' ? path + 1 : path);
	return buf;
}

/* Lower-case hex of a build-id. Not sprintf: get_file() builds a key with
 * it for every unique address resolved, and "%02x" costs ~1k instructions
 * a byte (a third of a 10M-sample conversion's fixed cost, measured). */
static void hex_id(char *out, const uint8_t *id, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 0xf];
	}
	out[2 * n] = 0;
}

/* DIR/.build-id/ab/cdef...SUFFIX, the layout of /usr/lib/debug, perf's
 * ~/.debug and 'pmuconv archive'. */
static void buildid_path(char *buf, size_t len, const char *dir, const uint8_t *id, size_t n,
			 const char *suffix)
{
	char hex[2 * BUILD_ID_MAX + 1];

	hex_id(hex, id, n);
	snprintf(buf, len, "%s/.build-id/%.2s/%s%s", dir, hex, hex + 2, suffix);
}

/* --buildid-dir DIR/.build-id/ab/cdef...debug, then DEBUG_DIR/.build-id/
 * ab/cdef....debug (under --symfs). */
static bool open_buildid_debug(struct symbolizer *s, const uint8_t *id, size_t n,
			       struct elf_handle *h)
{
	char p1[4096], p2[4096];

	if (n < 2)
		return false;
	if (s->o.buildid_dir) {
		buildid_path(p1, sizeof(p1), s->o.buildid_dir, id, n, ".debug");
		if (elf_open(h, p1) == 0)
			return true;
	}
	buildid_path(p1, sizeof(p1), s->o.debug_dir, id, n, ".debug");
	return elf_open(h, under_symfs(s, p1, p2, sizeof(p2))) == 0;
}

/* The binary itself: --buildid-dir DIR/.build-id/ab/cdef... first (it names
 * the exact build), else the recorded path (under --symfs). */
static int open_binary(struct symbolizer *s, struct symfile *f, struct elf_handle *h)
{
	char buf[4096];
	int r;

	if (s->o.buildid_dir && f->bid_len >= 2) {
		buildid_path(buf, sizeof(buf), s->o.buildid_dir, f->bid, f->bid_len, "");
		if (elf_open(h, buf) == 0) {
			f->opened = pc_arena__strndup(&s->arena, buf, strlen(buf));
			return 0;
		}
	}
	r = elf_open(h, under_symfs(s, f->path, buf, sizeof(buf)));
	if (r == 0 && s->o.symfs && *s->o.symfs)
		f->opened = pc_arena__strndup(&s->arena, buf, strlen(buf));
	return r;
}

static bool file_crc_matches(const char *path, uint32_t want)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	bool ok = false;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			ok = sym_crc32(0, m, (size_t)st.st_size) == want;
			munmap(m, (size_t)st.st_size);
		}
	}
	close(fd);
	return ok;
}

/* .gnu_debuglink: NAME\0 pad4 CRC32. Look in the binary's directory, its
 * .debug/ subdirectory, and DEBUG_DIR/<directory>/ (all under --symfs). */
static bool open_debuglink(struct symbolizer *s, Elf *e, const char *recorded_path,
			   struct elf_handle *h)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(e, ".gnu_debuglink", &sh);
	Elf_Data *d;
	char dir[4096], cand[4096], full[4096];

	if (!scn || !(d = elf_getdata(scn, NULL)) || d->d_size < 8)
		return false;
	const char *name = d->d_buf;
	size_t nl = strnlen(name, d->d_size);
	size_t crc_off = (nl + 4) & ~(size_t)3;
	if (nl == 0 || crc_off + 4 > d->d_size || memchr(name, '/', nl))
		return false;
	uint32_t crc;
	memcpy(&crc, (const char *)d->d_buf + crc_off, 4);
	snprintf(dir, sizeof(dir), "%s", recorded_path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	for (int i = 0; i < 3; i++) {
		if (i == 0)
			snprintf(cand, sizeof(cand), "%s/%.*s", dir, (int)nl, name);
		else if (i == 1)
			snprintf(cand, sizeof(cand), "%s/.debug/%.*s", dir, (int)nl, name);
		else
			snprintf(cand, sizeof(cand), "%s%s/%.*s", s->o.debug_dir, dir, (int)nl,
				 name);
		const char *p = under_symfs(s, cand, full, sizeof(full));
		if (access(p, R_OK))
			continue;
		if (!file_crc_matches(p, crc)) {
			pc_warn("symbolize: %s: debuglink CRC does not match %s; ignoring it",
				recorded_path, p);
			continue;
		}
		if (elf_open(h, p) == 0)
			return true;
	}
	return false;
}

static void symfile_load(struct symbolizer *s, struct symfile *f, const uint8_t *bid,
			 size_t bid_len)
{
	struct elf_handle bin = {.fd = -1}, dbg = {.fd = -1};
	uint8_t have[BUILD_ID_MAX];
	size_t have_len = 0;
	long n = 0;

	f->loaded = true;
	s->st.binaries++;
	f->bid_len = bid_len < BUILD_ID_MAX ? bid_len : BUILD_ID_MAX;
	if (f->bid_len)
		memcpy(f->bid, bid, f->bid_len);
	f->state = SF_PSEUDO;
	if (!f->path[0] || f->path[0] == '[') /* anon, [vdso], [heap]... */
		goto out;
	int open_err = open_binary(s, f, &bin);
	bool bin_ok = open_err == 0;
	if (bin_ok) {
		have_len = elf_build_id(bin.e, have);
		if (bid_len && have_len && (have_len != bid_len || memcmp(have, bid, bid_len))) {
			char h1[2 * BUILD_ID_MAX + 1], h2[2 * BUILD_ID_MAX + 1];
			hex_id(h1, have, have_len);
			hex_id(h2, bid, bid_len);
			pc_warn("symbolize: %s on this host has build-id %s but the recording saw "
				"%s; its symbols may be wrong (use --symfs with the recorded "
				"binaries)",
				f->path, h1, h2);
			s->st.build_id_mismatch++;
			f->bid_mismatch = true;
		}
		GElf_Ehdr eh;
		f->bin_loads_ok = elf_load_segs(bin.e, f) == 0 && gelf_getehdr(bin.e, &eh);
		f->bin_type = f->bin_loads_ok ? eh.e_type : 0;
		f->bin_nr_segs = f->nr_segs;
		n = elf_load_syms(s, bin.e, ".symtab", &f->syms, NULL);
	} else {
		s->st.binaries_missing++;
	}
	if (n <= 0) {
		/* stripped (or missing): a separate debug file, the recorded
		 * build-id first since it names the exact build; the file's own
		 * only when it differs (the same id looks up the same paths) */
		bool same = bid_len && have_len == bid_len && !memcmp(have, bid, bid_len);
		bool got = (bid_len && open_buildid_debug(s, bid, bid_len, &dbg)) ||
			   (have_len && !same && open_buildid_debug(s, have, have_len, &dbg));
		if (got)
			s->st.buildid_dir_used++;
		else if (bin_ok && (got = open_debuglink(s, bin.e, f->path, &dbg)))
			s->st.debuglink_used++;
		if (got) {
			f->debug = pc_arena__strndup(&s->arena, dbg.path, strlen(dbg.path));
			if (!f->nr_segs)
				elf_load_segs(dbg.e, f);
			n = elf_load_syms(s, dbg.e, ".symtab", &f->syms, NULL);
		}
	}
	f->have_bin = bin_ok;
	f->state = n > 0		  ? SF_OK
		   : bin_ok		  ? SF_STRIPPED
		   : open_err == -ENOEXEC ? SF_NOT_ELF
					  : SF_MISSING;
	if (n <= 0 && bin_ok)
		n = elf_load_syms(s, bin.e, ".dynsym", &f->syms, NULL);
	f->found = n > 0 && f->nr_segs > 0;
	symtab_finish(&f->syms);
out:
	elf_close(&bin);
	elf_close(&dbg);
}

static uint64_t file_hash(const void *s, uint32_t i)
{
	const char *key = ((const struct symbolizer *)s)->files[i]->key;

	return pc_hash_bytes(key, strlen(key), PC_HASH_SEED);
}

static struct symfile *get_file(struct symbolizer *s, const char *path, const uint8_t *bid,
				size_t bid_len)
{
	char key[4096 + 2 * BUILD_ID_MAX + 2];
	size_t plen = strlen(path);
	uint64_t h;
	size_t j;

	if (plen > 4096)
		plen = 4096;
	memcpy(key, path, plen);
	key[plen] = '@';
	hex_id(key + plen + 1, bid, bid_len < BUILD_ID_MAX ? bid_len : BUILD_ID_MAX);
	h = pc_hash_bytes(key, strlen(key), PC_HASH_SEED);
	if (pc_htab__reserve(&s->file_index, 256, file_hash, s))
		return NULL;
	for (j = pc_htab__slot(&s->file_index, h); s->file_index.slots[j];
	     j = pc_htab__next(&s->file_index, j))
		if (!strcmp(s->files[s->file_index.slots[j] - 1]->key, key))
			return s->files[s->file_index.slots[j] - 1];
	if (pc_grow((void **)&s->files, &s->cap_files, s->nr_files + 1, sizeof(*s->files)))
		return NULL;
	struct symfile *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->key = pc_arena__strndup(&s->arena, key, strlen(key));
	f->path = pc_arena__strndup(&s->arena, path, plen);
	if (!f->key || !f->path) {
		free(f);
		return NULL;
	}
	f->base = pc_basename(f->path);
	s->files[s->nr_files] = f;
	pc_htab__set(&s->file_index, j, (uint32_t)s->nr_files++);
	symfile_load(s, f, bid, bid_len);
	return f;
}

/* "base+0xoff" as snprintf(buf, 512, "%s+0x%llx") would write it (cut to
 * 511 bytes), without snprintf: with the binaries absent every unique
 * address takes this path, and printf formatting was most of its cost. */
static size_t format_bin_offset(char *buf, size_t size, const char *base, uint64_t off)
{
	char tail[3 + 16];
	size_t nt = 0, nb = strlen(base), n;
	int shift = 60;

	tail[nt++] = '+';
	tail[nt++] = '0';
	tail[nt++] = 'x';
	while (shift > 0 && !(off >> shift))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		tail[nt++] = "0123456789abcdef"[(off >> shift) & 0xf];
	n = nb < size - 1 ? nb : size - 1;
	memcpy(buf, base, n);
	if (nt > size - 1 - n)
		nt = size - 1 - n;
	memcpy(buf + n, tail, nt);
	buf[n + nt] = 0;
	return n + nt;
}

static struct sym_result unresolved(struct symbolizer *s, const char *base, uint64_t off)
{
	char buf[512];

	s->st.unresolved++;
	if (!base || !*base || s->o.no_offsets)
		return (struct sym_result){"[unknown]", PC_FRAME_UNKNOWN};
	size_t len = format_bin_offset(buf, sizeof(buf), base, off);
	const char *n = pc_arena__strndup(&s->arena, buf, len);
	return (struct sym_result){n ? n : "[unknown]", PC_FRAME_UNKNOWN};
}

struct sym_result sym__user(struct symbolizer *s, const char *path, const uint8_t *bid,
			    size_t bid_len, uint64_t file_off, unsigned adj)
{
	struct symfile *f;
	size_t idx;
	uint64_t shown = file_off;

	file_off -= adj;
	s->st.lookups++;
	if (!path || !*path)
		return unresolved(s, NULL, 0);
	f = get_file(s, path, bid, bid_len);
	if (!f)
		return unresolved(s, pc_basename(path), shown);
	if (!f->found) {
		f->unresolved++;
		return unresolved(s, f->base, shown);
	}
	for (size_t i = 0; i < f->nr_segs; i++) {
		const struct load_seg *g = &f->segs[i];
		if (file_off < g->off || file_off - g->off >= g->filesz)
			continue;
		uint64_t va = file_off - g->off + g->vaddr;
		const struct sym *sy = symtab_find(&f->syms, va, &idx);
		if (!sy)
			break;
		/* inside the symbol, or size unknown and before the next one */
		if ((sy->size && va - sy->addr < sy->size) ||
		    (!sy->size && (idx + 1 == f->syms.nr || va < f->syms.v[idx + 1].addr)))
			return (struct sym_result){sym_name(s, sy), PC_FRAME_USER};
		break;
	}
	f->unresolved++;
	return unresolved(s, f->base, shown);
}

int sym__files(struct symbolizer *s, const char *path, const uint8_t *bid, size_t bid_len,
	       const char **binary, const char **debug)
{
	struct symfile *f = get_file(s, path, bid, bid_len);

	if (!f)
		return -ENOMEM;
	*binary = f->have_bin ? (f->opened ? f->opened : f->path) : NULL;
	*debug = f->debug;
	return f->have_bin && f->bid_mismatch ? 1 : 0;
}

bool sym__binary_loads(struct symbolizer *s, const char *path, const uint8_t *bid, size_t bid_len,
		       uint16_t *type, size_t *nr, struct sym_load *out, size_t max)
{
	struct symfile *f = get_file(s, path, bid, bid_len);

	if (!f || !f->have_bin || !f->bin_loads_ok)
		return false;
	*type = f->bin_type;
	*nr = f->bin_nr_segs;
	for (size_t i = 0; i < f->bin_nr_segs && i < max; i++)
		out[i] = (struct sym_load){f->segs[i].off, f->segs[i].filesz, f->segs[i].vaddr,
					   f->segs[i].align};
	return true;
}

/* "1a2b...ef" or "none recorded" */
static const char *bid_text(const struct symfile *f, char *buf)
{
	if (!f->bid_len)
		return "none recorded";
	hex_id(buf, f->bid, f->bid_len);
	return buf;
}

size_t sym__warn_binaries(const struct symbolizer *s)
{
	char hex[2 * BUILD_ID_MAX + 1], where[4200] = "";
	size_t n = 0;

	if (s->o.symfs && *s->o.symfs)
		snprintf(where, sizeof(where), " under --symfs %s", s->o.symfs);
	if (s->o.buildid_dir)
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "%s in --buildid-dir %s", where[0] ? " or" : "", s->o.buildid_dir);
	for (size_t i = 0; i < s->nr_files; i++) {
		const struct symfile *f = s->files[i];
		if (!f->unresolved)
			continue;
		switch (f->state) {
		case SF_MISSING:
			pc_warn("symbolize: %s (build-id %s) is not on this host%s; its %llu "
				"address(es) show as %s+0xOFFSET. Copy it here and use --symfs, "
				"or run 'pmuconv archive' where it was recorded and read the "
				"archive with --symfs",
				f->path, bid_text(f, hex), where, (unsigned long long)f->unresolved,
				f->base);
			break;
		case SF_NOT_ELF:
			pc_warn("symbolize: %s (build-id %s)%s is not an ELF file; its %llu "
				"address(es) show as %s+0xOFFSET. Use --symfs with the recorded "
				"binaries",
				f->path, bid_text(f, hex), where, (unsigned long long)f->unresolved,
				f->base);
			break;
		case SF_STRIPPED:
			pc_warn("symbolize: %s (build-id %s) is stripped (no .symtab) and no debug "
				"file was found for it (%s/.build-id/, .gnu_debuglink); %llu "
				"address(es) outside its exported functions show as %s+0xOFFSET. "
				"Install its debug symbols (Debian: the -dbgsym package), or "
				"point --debug-dir/--buildid-dir at them",
				f->opened ? f->opened : f->path, bid_text(f, hex), s->o.debug_dir,
				(unsigned long long)f->unresolved, f->base);
			break;
		default:
			continue;
		}
		n++;
	}
	return n;
}

long sym__load_kallsyms(struct symbolizer *s, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	long n = 0;
	bool nonzero = false;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		const char *q = p;
		uint64_t addr = 0;
		int digits = 0;
		p = nl ? nl + 1 : end;
		while (q < le && digits < 17) {
			int d = hex_digit((unsigned char)*q);
			if (d < 0)
				break;
			addr = addr << 4 | (uint64_t)d;
			q++;
			digits++;
		}
		if (!digits || digits > 16 || q + 3 > le || *q != ' ' || q[2] != ' ')
			continue;
		char type = q[1];
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		const char *nm = q + 3, *ne = nm;
		while (ne < le && *ne != '\t' && *ne != ' ')
			ne++;
		if (ne == nm)
			continue;
		const char *mod = NULL, *me = NULL;
		const char *b = memchr(ne, '[', (size_t)(le - ne));
		if (b) {
			mod = b + 1;
			me = memchr(mod, ']', (size_t)(le - mod));
			if (!me)
				mod = NULL;
		}
		char buf[600];
		int l = mod ? snprintf(buf, sizeof(buf), "%.*s [%.*s]", (int)(ne - nm), nm,
				       (int)(me - mod), mod)
			    : snprintf(buf, sizeof(buf), "%.*s", (int)(ne - nm), nm);
		if (l < 0 || (size_t)l >= sizeof(buf))
			continue;
		const char *name = pc_arena__strndup(&s->arena, buf, (size_t)l);
		if (!name || symtab_push(&s->ksyms, addr, 0, name, type == 'T' ? 0 : 1))
			return -ENOMEM;
		nonzero |= addr != 0;
		n++;
	}
	if (!nonzero) {
		/* an unprivileged snapshot lists every address as 0 */
		s->ksyms.nr = 0;
		return 0;
	}
	symtab_finish(&s->ksyms);
	s->have_kallsyms = s->ksyms.nr > 0;
	return (long)s->ksyms.nr;
}

static void load_vmlinux(struct symbolizer *s)
{
	struct elf_handle h = {.fd = -1};

	s->have_vmlinux = false;
	if (elf_open(&h, s->o.vmlinux)) {
		pc_warn("symbolize: cannot read --vmlinux %s; using kallsyms", s->o.vmlinux);
		s->o.vmlinux = NULL;
		return;
	}
	if (elf_load_syms(s, h.e, ".symtab", &s->vmlinux, NULL) <= 0) {
		pc_warn("symbolize: %s has no .symtab; using kallsyms", s->o.vmlinux);
		s->o.vmlinux = NULL;
		elf_close(&h);
		return;
	}
	symtab_finish(&s->vmlinux);
	s->have_vmlinux = true;
	/* KASLR: shift by the _stext difference when kallsyms knows it */
	uint64_t ks = 0, vs = 0;
	for (size_t i = 0; i < s->ksyms.nr; i++)
		if (!strcmp(s->ksyms.v[i].name, "_stext"))
			ks = s->ksyms.v[i].addr;
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(h.e, ".symtab", &sh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			break;
		const char *nm = elf_strptr(h.e, sh.sh_link, sym.st_name);
		if (nm && !strcmp(nm, "_stext")) {
			vs = sym.st_value;
			break;
		}
	}
	s->vmlinux_slide = (ks && vs) ? (int64_t)(ks - vs) : 0;
	elf_close(&h);
}

struct sym_result sym__kernel(struct symbolizer *s, uint64_t addr)
{
	const struct sym *sy;
	size_t idx;

	s->st.lookups++;
	if (s->o.vmlinux && !s->have_vmlinux && !s->vmlinux.nr)
		load_vmlinux(s);
	if (s->have_vmlinux) {
		uint64_t a = addr - (uint64_t)s->vmlinux_slide;
		sy = symtab_find(&s->vmlinux, a, &idx);
		if (sy &&
		    ((sy->size && a - sy->addr < sy->size) ||
		     (!sy->size && idx + 1 < s->vmlinux.nr && a < s->vmlinux.v[idx + 1].addr)))
			return (struct sym_result){sym_name(s, sy), PC_FRAME_KERNEL};
	}
	if (s->have_kallsyms) {
		sy = symtab_find(&s->ksyms, addr, &idx);
		if (sy && (idx + 1 < s->ksyms.nr ? addr < s->ksyms.v[idx + 1].addr
						 : addr - sy->addr < KSYM_TAIL_MAX))
			return (struct sym_result){sym_name(s, sy), PC_FRAME_KERNEL};
	}
	s->st.unresolved++;
	return (struct sym_result){"[unknown]", PC_FRAME_UNKNOWN};
}

size_t sym__file_build_id(const char *symfs, const char *path, uint8_t *out)
{
	struct symbolizer s = {.o = {.symfs = symfs}};
	struct elf_handle h;
	char buf[4096];
	size_t n;

	if (elf_version(EV_CURRENT) == EV_NONE ||
	    elf_open(&h, under_symfs(&s, path, buf, sizeof(buf))))
		return 0;
	n = elf_build_id(h.e, out);
	elf_close(&h);
	return n;
}
