// SPDX-License-Identifier: MIT
/* Hashing, the arena, growable arrays, diagnostics, progress, mmap input,
 * --json values (util.h). */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/pmufile/cpu_sse42.h"

int pc_quiet;
int pc_progress_mode;

uint64_t pc_hash_bytes(const void *p, size_t len, uint64_t h)
{
	const unsigned char *c = p;
	uint64_t w;

	h = pc_mix(h, len);
	while (len >= 8) {
		memcpy(&w, c, 8);
		h = pc_mix(h, w);
		c += 8;
		len -= 8;
	}
	if (len) {
		w = 0;
		memcpy(&w, c, len);
		h = pc_mix(h, w);
	}
	return pc_fmix(h);
}

uint64_t pc_stack_hash_soft(const uint64_t *key, const uint64_t *w, size_t n)
{
	uint64_t h = PC_HASH_SEED;

	for (int i = 0; i < PC_STACK_KEY_WORDS; i++)
		h = pc_mix(h, key[i]);
	return pc_hash_u64s_4(w, n, h);
}

#if defined(__x86_64__)
/* Lane seeds: the first digits of pi, so that equal words in different
 * lanes give different lane values. */
__attribute__((target("sse4.2"))) static uint64_t stack_hash_crc(const uint64_t *key,
								 const uint64_t *w, size_t n)
{
	uint64_t a = __builtin_ia32_crc32di(0x243f6a88u, key[0]);
	uint64_t b = __builtin_ia32_crc32di(0x85a308d3u, key[1]);
	uint64_t c = __builtin_ia32_crc32di(0x13198a2eu, key[2]);
	uint64_t d = __builtin_ia32_crc32di(0x03707344u, key[3]);
	size_t i = 0;

	_Static_assert(PC_STACK_KEY_WORDS == 4, "one key word per lane");
	for (; i + 4 <= n; i += 4) {
		a = __builtin_ia32_crc32di(a, w[i]);
		b = __builtin_ia32_crc32di(b, w[i + 1]);
		c = __builtin_ia32_crc32di(c, w[i + 2]);
		d = __builtin_ia32_crc32di(d, w[i + 3]);
	}
	for (; i < n; i++)
		a = __builtin_ia32_crc32di(a, w[i]);
	/* 128 bits of lane state into 64: the multiply spreads c:d over the
	 * high bits, pc_fmix mixes the whole word down into the low ones. */
	return pc_fmix((a << 32 | b) ^ ((c << 32 | d) * 0x9e3779b97f4a7c15ull) ^ n);
}
#endif

pc_stack_hash_fn pc_stack_hash_select(void)
{
#if defined(__x86_64__)
	if (pmuprof_cpu_sse42() && !getenv("PMUCONV_HASH_SOFT"))
		return stack_hash_crc;
#endif
	return pc_stack_hash_soft;
}

struct pc_arena_chunk {
	struct pc_arena_chunk *next;
	size_t size;
	_Alignas(16) unsigned char data[];
};

#define PC_ARENA_CHUNK (1u << 20)

void *pc_arena__alloc(struct pc_arena *a, size_t len)
{
	size_t need = (len + 15) & ~(size_t)15;

	if (!a->head || a->cap - a->used < need) {
		size_t sz = need > PC_ARENA_CHUNK ? need : PC_ARENA_CHUNK;
		struct pc_arena_chunk *c = malloc(sizeof(*c) + sz);

		if (!c) {
			errno = ENOMEM;
			return NULL;
		}
		c->next = a->head;
		c->size = sz;
		a->head = c;
		a->used = 0;
		a->cap = sz;
	}
	void *r = a->head->data + a->used;
	a->used += need;
	return r;
}

char *pc_arena__strndup(struct pc_arena *a, const char *s, size_t len)
{
	char *d = pc_arena__alloc(a, len + 1);

	if (!d)
		return NULL;
	memcpy(d, s, len);
	d[len] = 0;
	return d;
}

void pc_arena__free(struct pc_arena *a)
{
	struct pc_arena_chunk *c = a->head, *n;

	for (; c; c = n) {
		n = c->next;
		free(c);
	}
	a->head = NULL;
	a->used = a->cap = 0;
}

int pc_grow(void **arr, size_t *cap, size_t need, size_t esz)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2 / esz)
			return -ENOMEM;
		n *= 2;
	}
	p = realloc(*arr, n * esz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

void pc_warn(const char *fmt, ...)
{
	va_list ap;

	if (pc_quiet)
		return;
	fputs("pmuconv: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

uint64_t pc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void pc_progress__begin(struct pc_progress *p, const char *what, uint64_t total)
{
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->total = total;
	p->bytes = 1;
	p->start_ns = p->last_ns = pc_now_ns();
}

void pc_progress__update(struct pc_progress *p, uint64_t done, uint64_t items)
{
	uint64_t now;

	if (pc_progress_mode < 0 || (pc_progress_mode == 0 && !isatty(2)))
		return;
	now = pc_now_ns();
	if (now - p->start_ns < 1000000000ull || now - p->last_ns < 250000000ull)
		return;
	p->last_ns = now;
	p->shown = 1;
	if (p->total && !p->bytes)
		fprintf(stderr, "\rpmuconv: %s: %3u%% (%llu samples, %.1f s)", p->what,
			(unsigned)(done * 100 / p->total), (unsigned long long)items,
			(double)(now - p->start_ns) / 1e9);
	else if (p->total)
		fprintf(stderr, "\rpmuconv: %s: %3u%% (%llu MB, %llu samples, %.1f s)", p->what,
			(unsigned)(done * 100 / p->total), (unsigned long long)(done >> 20),
			(unsigned long long)items, (double)(now - p->start_ns) / 1e9);
	else
		fprintf(stderr, "\rpmuconv: %s: %llu MB, %llu samples (%.1f s)", p->what,
			(unsigned long long)(done >> 20), (unsigned long long)items,
			(double)(now - p->start_ns) / 1e9);
}

void pc_progress__end(struct pc_progress *p)
{
	if (p->shown)
		fprintf(stderr, "\rpmuconv: %s: done in %.1f s%-30s\n", p->what,
			(double)(pc_now_ns() - p->start_ns) / 1e9, "");
}

int pc_input_buf__open(struct pc_input_buf *b, const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	memset(b, 0, sizeof(*b));
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if (st.st_size == 0) {
			close(fd);
			b->data = "";
			b->mapped = 2; /* static empty string */
			return 0;
		}
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
			close(fd);
			b->data = m;
			b->len = (size_t)st.st_size;
			b->mapped = 1;
			return 0;
		}
	}
	/* Pipe or unmappable: read it all. */
	size_t cap = 0, len = 0;
	char *buf = NULL;
	for (;;) {
		if (pc_grow((void **)&buf, &cap, len + 65536 + 1, 1)) {
			free(buf);
			close(fd);
			snprintf(err, errlen, "%s: out of memory reading input", path);
			return -ENOMEM;
		}
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			close(fd);
			snprintf(err, errlen, "%s: read failed: %s", path, strerror(e));
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!buf)
		buf = calloc(1, 1);
	b->data = buf;
	b->len = len;
	return 0;
}

void pc_input_buf__close(struct pc_input_buf *b)
{
	if (!b->data)
		return;
	if (b->mapped == 1)
		munmap((void *)b->data, b->len);
	else if (b->mapped == 0)
		free((void *)b->data);
	memset(b, 0, sizeof(*b));
}

int pc_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

json_t *pc_json_str(const char *s)
{
	json_t *j;
	char *c;

	if (!s)
		return json_null();
	if ((j = json_string(s)) || !(c = strdup(s)))
		return j;
	for (char *p = c; *p; p++) /* not UTF-8: keep ASCII, as folded names do */
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

json_t *pc_json_real(double v, int decimals)
{
	char buf[64];

	/* the value the text shows, read back: JSON carries what the eye sees */
	if (!isfinite(v)) /* e.g. a rate over a zero run time */
		return json_null();
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return json_real(strtod(buf, NULL));
}

json_t *pc_json_hex(uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%#llx", (unsigned long long)v);
	return json_string(b);
}

int pc_json_dump(FILE *out, json_t *root)
{
	int r;

	if (!root)
		return -ENOMEM;
	r = json_dumpf(root, out, JSON_INDENT(1) | PC_JSON_REALS) || fputc('\n', out) == EOF ||
	    ferror(out);
	json_decref(root);
	return r ? -EIO : 0;
}

const char *pc_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

void pc_safe_filename(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; *src && i + 1 < len; src++) {
		unsigned char c = (unsigned char)*src;
		dst[i++] = (c == '/' || c < 0x20 || c == 0x7f || c == ' ') ? '_' : (char)c;
	}
	dst[i] = 0;
	if (!i || !strcmp(dst, ".") || !strcmp(dst, ".."))
		snprintf(dst, len, "event");
}
