// SPDX-License-Identifier: MIT
/* Symbol and DSO of a sample's address, and the --dso/--symbol match. */
#include "where.h"

#include <string.h>

#include "lib/pmufile/pmufile.h"
#include "textparse.h"

const char *pc_where__short_dso(const char *dso)
{
	const char *s = strrchr(dso, '/');

	return s && s[1] && dso[0] != '[' ? s + 1 : dso;
}

bool pc_where__match(const struct pc_filter *f, const struct pc_where *w)
{
	if (f->dso && strcmp(f->dso, w->dso) && strcmp(f->dso, pc_where__short_dso(w->dso)))
		return false;
	if (f->symbol && strcmp(f->symbol, w->name) &&
	    (strlen(f->symbol) != w->sym_len || strncmp(f->symbol, w->name, w->sym_len)))
		return false;
	return true;
}

struct pc_where pc_where__resolve(struct symbolizer *sym, const struct pmufile *f, int32_t pid,
				  uint64_t addr, bool kernel, unsigned adj, uint64_t t)
{
	struct pc_where w = {.kernel = kernel || addr >= KERNEL_ADDR_MIN};
	struct sym_result r;

	if (w.kernel) {
		r = sym__kernel(sym, addr - adj);
		w.dso = "[kernel.kallsyms]";
		w.name = r.name;
		w.sym_len = strlen(r.name);
		/* module symbols are "func [module]": the DSO is "[module]" */
		const char *mod = strrchr(r.name, '[');
		if (mod && mod > r.name + 1 && mod[-1] == ' ' && r.name[w.sym_len - 1] == ']') {
			w.dso = mod;
			w.sym_len = (size_t)(mod - 1 - r.name);
		}
		w.kind = r.kind;
		return w;
	}
	const struct pmufile_mmap *m = pmufile__find_mmap(f, pid, addr - adj, t);
	if (!m) {
		w.name = w.dso = "[unknown]";
		w.sym_len = 9;
		w.kind = PC_FRAME_UNKNOWN;
		return w;
	}
	r = sym__user(sym, m->path, m->build_id, m->build_id_size <= 20 ? m->build_id_size : 20,
		      addr - m->start + m->pgoff, adj);
	w.name = r.name;
	w.sym_len = strlen(r.name);
	w.kind = r.kind;
	w.dso = m->path[0] ? m->path : "//anon";
	return w;
}
