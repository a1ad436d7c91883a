// SPDX-License-Identifier: MIT
/* Demangles C++ and Rust symbol names with libiberty; see demangle.h. */
#include "demangle.h"

#include <libiberty/demangle.h>

char *pc_demangle(const char *name)
{
	/* Itanium C++ and Rust legacy start "_Z", Rust v0 "_R"; a name some
	 * toolchains prefix with one more underscore ("__Z") is not ELF's */
	if (!name || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}
