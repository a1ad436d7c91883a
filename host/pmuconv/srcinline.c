// SPDX-License-Identifier: MIT
/*
 * Inline frames and definition positions from DWARF (see srcinline.h): the
 * per-file libdw handles, the file offset to link-time address mapping,
 * the scope walk, and the (file, address) cache.
 */
#include "srcinline.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demangle.h"
#include "hashtab.h"
#include "util.h"

#define INL_MAX_DEPTH 64 /* inlined instances kept per address */

struct inl_seg {
	uint64_t off, filesz, vaddr;
};

/* One file, by the binary path sym__files returned (a stable string). */
struct inl_file {
	const char *bin;
	int fd; /* of the file the DWARF is read from */
	Elf *elf;
	Dwarf *dw; /* NULL: no debug info */
	struct inl_seg *segs;
	size_t nr_segs;
};

/* One looked-up address: frames[first, first + nr) in the arena. */
struct inl_ent {
	uint32_t file;
	uint32_t nr;
	uint64_t va;
	const struct inl_frame *frames;
	const char *src;
};

struct srcinline {
	struct symbolizer *sym;
	int no_demangle;
	struct inl_file *files;
	size_t nr_files, cap_files;
	struct inl_ent *ents;
	size_t nr_ents, cap_ents;
	struct pc_htab index; /* hash(file, va) -> ents */
	struct pc_arena arena;
	struct inl_stats st;
};

struct srcinline *inl__new(struct symbolizer *sym, int no_demangle)
{
	struct srcinline *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	elf_version(EV_CURRENT);
	c->sym = sym;
	c->no_demangle = no_demangle;
	return c;
}

void inl__free(struct srcinline *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_files; i++) {
		struct inl_file *f = &c->files[i];
		if (f->dw)
			dwarf_end(f->dw);
		if (f->elf)
			elf_end(f->elf);
		if (f->fd >= 0)
			close(f->fd);
		free(f->segs);
	}
	free(c->files);
	free(c->ents);
	pc_htab__free(&c->index);
	pc_arena__free(&c->arena);
	free(c);
}

void inl__stats(const struct srcinline *c, struct inl_stats *out)
{
	*out = c->st;
}

/* ---- files ------------------------------------------------------------- */

/* The PT_LOAD segments of the binary (file offset -> link-time address):
 * the symbolizer's, read when it opened the file, else read here. */
static void load_segs(struct srcinline *c, struct inl_file *f, const char *path, const uint8_t *bid,
		      size_t bid_len)
{
	struct sym_load sl[16];
	uint16_t type;
	size_t nl;

	if (sym__binary_loads(c->sym, path, bid, bid_len, &type, &nl, sl, 16) && nl <= 16) {
		if (nl && (f->segs = calloc(nl, sizeof(*f->segs))))
			for (size_t i = 0; i < nl; i++)
				f->segs[f->nr_segs++] =
					(struct inl_seg){sl[i].off, sl[i].filesz, sl[i].vaddr};
		return;
	}
	int fd = open(f->bin, O_RDONLY | O_CLOEXEC);
	Elf *e;
	size_t n;

	if (fd < 0)
		return;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && !elf_getphdrnum(e, &n) && n && (f->segs = calloc(n, sizeof(*f->segs)))) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
				f->segs[f->nr_segs++] =
					(struct inl_seg){ph.p_offset, ph.p_filesz, ph.p_vaddr};
		}
	}
	elf_end(e);
	close(fd);
}

/* Open the DWARF of f: the separate debug file when there is one, else
 * the binary (a -g build that was not stripped). */
static void open_dwarf(struct inl_file *f, const char *debug)
{
	const char *cand[2] = {debug, f->bin};

	for (int i = 0; i < 2 && !f->dw; i++) {
		if (!cand[i])
			continue;
		f->fd = open(cand[i], O_RDONLY | O_CLOEXEC);
		if (f->fd < 0)
			continue;
		f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
		if (f->elf)
			f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
		if (!f->dw) {
			elf_end(f->elf);
			close(f->fd);
			f->elf = NULL;
			f->fd = -1;
		}
	}
}

/* The file entry for path's binary, opened on first use; -1 if the
 * symbolizer found no binary (or on ENOMEM). */
static int get_file(struct srcinline *c, const char *path, const uint8_t *bid, size_t bid_len)
{
	const char *bin = NULL, *debug = NULL;

	if (sym__files(c->sym, path, bid, bid_len, &bin, &debug) < 0 || !bin)
		return -1;
	for (size_t i = c->nr_files; i > 0; i--) /* few files: the newest first */
		if (c->files[i - 1].bin == bin)
			return (int)(i - 1);
	if (pc_grow((void **)&c->files, &c->cap_files, c->nr_files + 1, sizeof(*c->files)))
		return -1;
	struct inl_file *f = &c->files[c->nr_files];
	*f = (struct inl_file){.bin = bin, .fd = -1};
	c->st.files++;
	load_segs(c, f, path, bid, bid_len);
	if (f->nr_segs)
		open_dwarf(f, debug);
	if (f->dw)
		c->st.files_with_dwarf++;
	return (int)c->nr_files++;
}

/* ---- one address ------------------------------------------------------- */

/* The name to show for a function DIE (a subprogram or an inlined
 * instance: attributes come through its abstract origin/specification). */
static const char *die_name(struct srcinline *c, Dwarf_Die *d)
{
	Dwarf_Attribute at;
	const char *ln = NULL, *n;

	if (dwarf_attr_integrate(d, DW_AT_linkage_name, &at) ||
	    dwarf_attr_integrate(d, DW_AT_MIPS_linkage_name, &at))
		ln = dwarf_formstring(&at);
	if (ln && !c->no_demangle) {
		char *dm = pc_demangle(ln);
		if (dm) {
			n = pc_arena__strndup(&c->arena, dm, strlen(dm));
			free(dm);
			if (n)
				return n;
		}
	}
	if (ln)
		return ln;
	n = dwarf_attr_integrate(d, DW_AT_name, &at) ? dwarf_formstring(&at) : NULL;
	return n ? n : "[unknown inline]";
}

/* "file:line" of the definition of the function DIE d, or NULL. */
static const char *die_src(struct srcinline *c, Dwarf_Die *d)
{
	const char *file = dwarf_decl_file(d);
	int line = 0;
	char buf[4096 + 16];

	if (!file)
		return NULL;
	dwarf_decl_line(d, &line);
	int n = line > 0 ? snprintf(buf, sizeof(buf), "%s:%d", file, line)
			 : snprintf(buf, sizeof(buf), "%s", file);
	if (n < 0)
		return NULL;
	return pc_arena__strndup(&c->arena, buf,
				 (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* Fill e for link-time address va of f: the instances inlined at va, then
 * the out-of-line function's position. */
static void lookup(struct srcinline *c, struct inl_file *f, struct inl_ent *e)
{
	Dwarf_Die cu, *scopes = NULL, *chain = NULL;
	struct inl_frame tmp[INL_MAX_DEPTH];
	uint32_t nr = 0;
	int ns, nc = 0, inner = -1;

	if (!f->dw || !dwarf_addrdie(f->dw, e->va, &cu))
		return;
	ns = dwarf_getscopes(&cu, e->va, &scopes);
	for (int i = 0; i < ns && inner < 0; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram)
			inner = i;
	}
	if (inner >= 0 && dwarf_tag(&scopes[inner]) == DW_TAG_subprogram) {
		e->src = die_src(c, &scopes[inner]);
	} else if (inner >= 0) {
		/* dwarf_getscopes continues from an inlined instance into its
		 * abstract definition's scopes; the physical nesting (the
		 * functions it was inlined into) comes from its DIE's parents */
		nc = dwarf_getscopes_die(&scopes[inner], &chain);
		for (int i = 0; i < nc; i++) {
			int tag = dwarf_tag(&chain[i]);
			if (tag == DW_TAG_subprogram) {
				e->src = die_src(c, &chain[i]);
				break;
			}
			if (tag == DW_TAG_inlined_subroutine && nr < INL_MAX_DEPTH)
				tmp[nr++] = (struct inl_frame){die_name(c, &chain[i]),
							       die_src(c, &chain[i])};
		}
	}
	free(scopes);
	free(chain);
	if (nr) {
		struct inl_frame *fr = pc_arena__alloc(&c->arena, nr * sizeof(*fr));
		if (fr) {
			memcpy(fr, tmp, nr * sizeof(*fr));
			e->frames = fr;
			e->nr = nr;
		}
	}
}

static uint64_t ent_hash(uint32_t file, uint64_t va)
{
	return pc_fmix(pc_mix(pc_mix(PC_HASH_SEED, file), va));
}

static uint64_t ent_hash_i(const void *c, uint32_t i)
{
	const struct inl_ent *e = &((const struct srcinline *)c)->ents[i];

	return ent_hash(e->file, e->va);
}

uint32_t inl__lookup(struct srcinline *c, const char *path, const uint8_t *bid, size_t bid_len,
		     uint64_t off, unsigned adj, const struct inl_frame **frames, const char **src)
{
	int fi;
	uint64_t va = 0;
	bool found = false;
	size_t j;

	*frames = NULL;
	*src = NULL;
	c->st.lookups++;
	if (!path || path[0] != '/' || (fi = get_file(c, path, bid, bid_len)) < 0 ||
	    !c->files[fi].dw)
		return 0;
	const struct inl_file *f = &c->files[fi];
	off -= adj;
	for (size_t i = 0; i < f->nr_segs && !found; i++)
		if (off >= f->segs[i].off && off - f->segs[i].off < f->segs[i].filesz) {
			va = off - f->segs[i].off + f->segs[i].vaddr;
			found = true;
		}
	if (!found || pc_htab__reserve(&c->index, 1024, ent_hash_i, c))
		return 0;
	for (j = pc_htab__slot(&c->index, ent_hash((uint32_t)fi, va)); c->index.slots[j];
	     j = pc_htab__next(&c->index, j)) {
		const struct inl_ent *e = &c->ents[c->index.slots[j] - 1];
		if (e->file == (uint32_t)fi && e->va == va) {
			c->st.cached++;
			*frames = e->frames;
			*src = e->src;
			return e->nr;
		}
	}
	if (pc_grow((void **)&c->ents, &c->cap_ents, c->nr_ents + 1, sizeof(*c->ents)))
		return 0;
	struct inl_ent *e = &c->ents[c->nr_ents];
	*e = (struct inl_ent){.file = (uint32_t)fi, .va = va};
	lookup(c, &c->files[fi], e);
	pc_htab__set(&c->index, j, (uint32_t)c->nr_ents++);
	*frames = e->frames;
	*src = e->src;
	return e->nr;
}
