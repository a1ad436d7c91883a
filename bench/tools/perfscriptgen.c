// SPDX-License-Identifier: GPL-2.0
/*
 * perfscriptgen: write a synthetic `perf script` text (call chains) of a
 * given size, deterministically, for the converter benchmark in bench/.
 *
 *   perfscriptgen -o FILE [-m MB] [-d DEPTH] [-S STACKS] [-s SEED] [-u]
 *
 * Each sample looks like what `perf script` prints for a recording made
 * with `perf record -e cpu-clock -g`:
 *
 *   benchwork  1201/1203 [001] 5012.000123:     250123 cpu-clock:
 *   \t    ffffffff8107a2c1 kfunc_17+0x41 ([kernel.kallsyms])
 *   \t          401a3c app_func_321+0x1c (/usr/local/bin/benchwork)
 *   (blank line)
 *
 * leaf first, DEPTH frames (a kernel part of 0..DEPTH/3 frames on a third
 * of the stacks), stacks drawn with a skewed distribution from STACKS unique
 * ones, 4 processes, 4 CPUs. -u prints every symbol as "[unknown]" (what
 * perf script shows for binaries it could not symbolize). Prints
 * "samples=N bytes=B" on stdout at the end.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tools/common.h"
#include "tests/tools/opts.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
	return tt_splitmix(&rng_state);
}

struct block {
	char *text;
	size_t len;
};

static const char *const dsos[] = {
	"/usr/local/bin/benchwork", "/usr/lib/x86_64-linux-gnu/libc.so.6",
	"/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30", "/opt/app/lib/libengine.so"};
static const char *const comms[] = {"benchwork", "app worker", "kworker/1:2", "engine"};

static void usage(FILE *f)
{
	fprintf(f, "usage: perfscriptgen -o FILE [-m MB] [-d DEPTH] [-S STACKS] [-s SEED] [-u]\n"
		   "  defaults: 64 MB, depth 32, 4000 unique stacks, seed 1\n");
}

static char *make_stack(unsigned depth, int unknown, size_t *len)
{
	size_t cap = (size_t)depth * 160 + 1, n = 0;
	char *s = malloc(cap);
	unsigned i, kd = 0;

	if (!s)
		return NULL;
	if (rnd() % 3 == 0)
		kd = (unsigned)(rnd() % (depth / 3 + 1));
	for (i = 0; i < depth; i++) {
		int w;

		if (i < kd) {
			uint64_t a = 0xffffffff81000000ull + (rnd() & 0xffffff);
			if (unknown)
				w = snprintf(s + n, cap - n,
					     "\t    %" PRIx64 " [unknown] ([kernel.kallsyms])\n",
					     a);
			else
				w = snprintf(s + n, cap - n,
					     "\t    %" PRIx64
					     " kfunc_%u+0x%x ([kernel.kallsyms])\n",
					     a, (unsigned)(rnd() % 400), (unsigned)(rnd() % 0x200));
		} else {
			uint64_t a = 0x401000 + (rnd() & 0xfffff);
			unsigned d = (unsigned)(rnd() % 4), fn = (unsigned)(rnd() % 3000);

			if (unknown)
				w = snprintf(s + n, cap - n, "\t    %16" PRIx64 " [unknown] (%s)\n",
					     a, dsos[d]);
			else if (fn % 9 == 0)
				w = snprintf(s + n, cap - n,
					     "\t    %16" PRIx64
					     " std::vector<int, std::allocator<int> "
					     ">::_M_fn_%u+0x%x (%s)\n",
					     a, fn, (unsigned)(rnd() % 0x200), dsos[d]);
			else
				w = snprintf(s + n, cap - n,
					     "\t    %16" PRIx64 " app_func_%u+0x%x (%s)\n", a, fn,
					     (unsigned)(rnd() % 0x200), dsos[d]);
		}
		if (w < 0 || (size_t)w >= cap - n) {
			free(s);
			return NULL;
		}
		n += (size_t)w;
	}
	*len = n;
	return s;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	uint64_t mb = 64, limit, written = 0, samples = 0;
	unsigned depth = 32, nstacks = 4000, i;
	int unknown = 0, opt;
	struct block *blocks;
	double t = 5012.000001;
	static char buf[1 << 20];
	size_t used = 0;
	FILE *f;

	TT_OPTS(o, TT_STR('o', &out), TT_U64('m', &mb), TT_U32('d', &depth), TT_U32('S', &nstacks),
		TT_U64('s', &rng_state), TT_SET('u', &unknown));

	rng_state = 1;
	opt = tt_opts_next(argc, argv, "o:m:d:S:s:uh", NULL, o, "perfscriptgen");
	if (opt != -1) /* -h, or an option it does not know */
		return tt_usage(opt, usage);
	if (!out || optind != argc || !mb || !depth || depth > 256 || !nstacks) {
		usage(stderr);
		return 2;
	}
	limit = mb << 20;
	blocks = calloc(nstacks, sizeof(*blocks));
	if (!blocks) {
		fprintf(stderr, "perfscriptgen: out of memory\n");
		return 1;
	}
	for (i = 0; i < nstacks; i++) {
		blocks[i].text = make_stack(depth, unknown, &blocks[i].len);
		if (!blocks[i].text) {
			fprintf(stderr, "perfscriptgen: out of memory\n");
			return 1;
		}
	}
	f = fopen(out, "w");
	if (!f) {
		fprintf(stderr, "perfscriptgen: cannot create %s: %s\n", out, strerror(errno));
		return 1;
	}
	while (written < limit) {
		/* Skewed choice: the square of a uniform number favours low
		 * indices, so a few stacks are hot and many are rare. */
		uint64_t r = rnd() % 65536;
		const struct block *b = &blocks[(r * r / 65536) * nstacks / 65536];
		unsigned c = (unsigned)(rnd() % 4);
		char hdr[160];
		int w;

		t += 0.000250 + (double)(rnd() % 1000) / 1e9;
		w = snprintf(hdr, sizeof(hdr), "%s %5u/%-5u [%03u] %.6f: %10u cpu-clock: \n",
			     comms[c], 1200 + c, 1200 + c + (unsigned)(rnd() % 3),
			     (unsigned)(rnd() % 4), t, 250000 + (unsigned)(rnd() % 2000));
		if (used + (size_t)w + b->len + 1 > sizeof(buf)) {
			if (fwrite(buf, 1, used, f) != used)
				goto write_err;
			used = 0;
		}
		memcpy(buf + used, hdr, (size_t)w);
		used += (size_t)w;
		memcpy(buf + used, b->text, b->len);
		used += b->len;
		buf[used++] = '\n';
		written += (uint64_t)w + b->len + 1;
		samples++;
	}
	if (fwrite(buf, 1, used, f) != used)
		goto write_err;
	if (fclose(f) != 0) {
		fprintf(stderr, "perfscriptgen: writing %s failed: %s\n", out, strerror(errno));
		return 1;
	}
	for (i = 0; i < nstacks; i++)
		free(blocks[i].text);
	free(blocks);
	printf("samples=%" PRIu64 " bytes=%" PRIu64 "\n", samples, written);
	return 0;
write_err:
	fprintf(stderr, "perfscriptgen: writing %s failed: %s\n", out, strerror(errno));
	fclose(f);
	return 1;
}
