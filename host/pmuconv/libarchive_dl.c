// SPDX-License-Identifier: MIT
/* libarchive loaded on first use (dlopen); see libarchive_dl.h. */
#include "libarchive_dl.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

/* The soname of the libarchive whose <archive.h> pmuconv is built with
 * (Debian's libarchive13): ARCHIVE_VERSION_NUMBER 3.x is soname 13. */
#define LARC_SONAME "libarchive.so.13"
_Static_assert(ARCHIVE_VERSION_NUMBER / 1000000 == 3, "libarchive 3.x has the soname " LARC_SONAME);

struct larc_functions larc;

int larc__load(char *err, size_t errlen)
{
	static int state; /* 0: not tried, 1: loaded, -1: failed */
	static char why[512];
	void *h;

	if (!state) {
		state = -1;
		h = dlopen(LARC_SONAME, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			snprintf(why, sizeof(why),
				 "cannot load %s (%s): reading or writing archives needs "
				 "libarchive (Debian: apt-get install libarchive13)",
				 LARC_SONAME, dlerror());
			goto out;
		}
#define LARC_LOOKUP(name)                                                                          \
	if (!(*(void **)&larc.name = dlsym(h, #name))) {                                           \
		snprintf(why, sizeof(why),                                                         \
			 "%s has no %s: pmuconv needs libarchive 3.x (Debian: apt-get "            \
			 "install libarchive13)",                                                  \
			 LARC_SONAME, #name);                                                      \
		goto out; /* h stays loaded: harmless, and calls never reach it */                 \
	}
		LARC_FUNCTIONS(LARC_LOOKUP)
#undef LARC_LOOKUP
		state = 1;
	}
out:
	if (state < 0)
		snprintf(err, errlen, "%s", why);
	return state > 0 ? 0 : -ENOENT;
}
