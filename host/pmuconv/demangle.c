// SPDX-License-Identifier: MIT
/* Demangles C++ and Rust symbol names with libiberty; see demangle.h. */
#include "demangle.h"

#include <errno.h>
#include <libiberty/demangle.h>
#include <stdlib.h>

char *pc_demangle(const char *name)
{
	/* Itanium C++ and Rust legacy start "_Z", Rust v0 "_R"; a name some
	 * toolchains prefix with one more underscore ("__Z") is not ELF's */
	if (!name || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}

const char *pc_demangle_cached(struct pc_demangle_cache *c, const char *s, size_t len,
			       size_t *out_len)
{
	char tmp[1024];
	int64_t id;

	*out_len = len;
	if (len < 3 || s[0] != '_' || (s[1] != 'Z' && s[1] != 'R') || len >= sizeof(tmp))
		return s;
	if ((id = pc_strtab__intern(&c->raw, s, len, 0)) < 0)
		return NULL;
	if ((size_t)id == c->nr) { /* a new name: demangle it once */
		size_t c1 = c->cap, c2 = c->cap;
		if (pc_grow((void **)&c->out, &c1, c->nr + 1, sizeof(*c->out)) ||
		    pc_grow((void **)&c->out_len, &c2, c->nr + 1, sizeof(*c->out_len)))
			return NULL;
		c->cap = c1 < c2 ? c1 : c2;
		c->out[id] = NULL;
		c->nr++;
		memcpy(tmp, s, len);
		tmp[len] = 0;
		char *d = pc_demangle(tmp);
		if (d) {
			c->out_len[id] = (uint32_t)strlen(d);
			c->out[id] = pc_arena__strndup(&c->arena, d, c->out_len[id]);
			free(d);
			if (!c->out[id])
				return NULL;
		}
	}
	if (!c->out[id])
		return s;
	*out_len = c->out_len[id];
	return c->out[id];
}

void pc_demangle_cache__free(struct pc_demangle_cache *c)
{
	pc_strtab__free(&c->raw);
	free(c->out);
	free(c->out_len);
	pc_arena__free(&c->arena);
	memset(c, 0, sizeof(*c));
}
