/* SPDX-License-Identifier: MIT */
/*
 * pmuconv internals shared by every stage: hashing, a bump arena, growable
 * arrays, diagnostics, progress, mmap input and the --json values and dump
 * (jansson). Not a public API.
 */
#ifndef PMUCONV_UTIL_H
#define PMUCONV_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#define PC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* 64-bit hashing. Word-at-a-time multiply/xor mixing: the hot path hashes
 * whole stacks (32 x u64) per sample, so this must run near memory speed. */
#define PC_HASH_SEED 0x2545f4914f6cdd1dull
static inline uint64_t pc_mix(uint64_t h, uint64_t w)
{
	h ^= w;
	h *= 0x9e3779b97f4a7c15ull;
	h ^= h >> 29;
	return h;
}
static inline uint64_t pc_fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}
uint64_t pc_hash_bytes(const void *p, size_t len, uint64_t seed);
static inline uint64_t pc_hash_u64s(const uint64_t *w, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++)
		h = pc_mix(h, w[i]);
	return pc_fmix(h);
}

/* Same job for long arrays: four independent lanes so the multiplies
 * overlap (a single chain is latency-bound at ~5 cycles per word). */
static inline uint64_t pc_hash_u64s_4(const uint64_t *w, size_t n, uint64_t h)
{
	uint64_t a = h, b = h ^ 0x6a09e667f3bcc909ull, c = h ^ 0xbb67ae8584caa73bull,
		 d = h ^ 0x3c6ef372fe94f82bull;
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		a = (a ^ w[i]) * 0x9e3779b97f4a7c15ull;
		b = (b ^ w[i + 1]) * 0xc2b2ae3d27d4eb4full;
		c = (c ^ w[i + 2]) * 0x165667b19e3779f9ull;
		d = (d ^ w[i + 3]) * 0xd6e8feb86659fd93ull;
		a ^= a >> 31;
		b ^= b >> 29;
		c ^= c >> 32;
		d ^= d >> 30;
	}
	for (; i < n; i++)
		a = pc_mix(a, w[i]);
	return pc_fmix(pc_mix(pc_mix(pc_mix(a, b), c), d) ^ n);
}

/*
 * Hash of a raw stack: PC_STACK_KEY_WORDS key words (what identifies a
 * sample besides its frames: pid, event, mode, comm, frame counts) and n
 * frame words. Native input hashes every sample's whole stack, so two
 * implementations:
 *  - hardware (x86-64 with SSE4.2, chosen at run time): four crc32q lanes,
 *    one instruction per word, the lanes overlapping the instruction's
 *    3-cycle latency (about 4x fewer instructions than the multiply lanes);
 *  - portable: the key mixed into pc_hash_u64s_4.
 * Both end in pc_fmix, so any bits of the result can index a table. The two
 * give different values: a table must use one function throughout, the
 * one pc_stack_hash_select() returns (PMUCONV_HASH_SOFT=1 in the
 * environment forces the portable one, for tests and comparisons).
 */
#define PC_STACK_KEY_WORDS 4
typedef uint64_t (*pc_stack_hash_fn)(const uint64_t *key, const uint64_t *w, size_t n);
uint64_t pc_stack_hash_soft(const uint64_t *key, const uint64_t *w, size_t n);
pc_stack_hash_fn pc_stack_hash_select(void);

/* Bump allocator: many small strings, freed all at once. */
struct pc_arena {
	struct pc_arena_chunk *head;
	size_t used, cap;
};
void *pc_arena__alloc(struct pc_arena *a, size_t len); /* NULL + ENOMEM */
char *pc_arena__strndup(struct pc_arena *a, const char *s, size_t len);
void pc_arena__free(struct pc_arena *a);

/* Grow *arr (element size esz) so that it holds at least `need` elements.
 * Geometric growth; returns 0 or -ENOMEM. */
int pc_grow(void **arr, size_t *cap, size_t need, size_t esz);

/* Diagnostics: every message is prefixed "pmuconv: ". */
void pc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int pc_quiet;

/* Progress on stderr for long inputs: silent for the first second, then a
 * status line refreshed at most 4 times a second. */
struct pc_progress {
	const char *what;
	uint64_t total; /* bytes (or records if !bytes), 0 if unknown */
	int bytes;
	uint64_t start_ns, last_ns;
	int shown;
};
extern int pc_progress_mode; /* -1 never, 0 if stderr is a tty, 1 always */
void pc_progress__begin(struct pc_progress *p, const char *what, uint64_t total);
void pc_progress__update(struct pc_progress *p, uint64_t done, uint64_t items);
void pc_progress__end(struct pc_progress *p);
uint64_t pc_now_ns(void);

/* Map a whole file read-only (or read a pipe into memory). */
struct pc_input_buf {
	const char *data;
	size_t len;
	int mapped; /* 0 malloc, 1 mmap, 2 static */
};
int pc_input_buf__open(struct pc_input_buf *b, const char *path, char *err, size_t errlen);
void pc_input_buf__close(struct pc_input_buf *b);

/* part as a percentage of whole (0 when whole is 0) */
static inline double pc_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Strings */
int pc_parse_u64(const char *s, uint64_t *out);
/* --json outputs (report, pagesize, diff) are jansson trees. A string from
 * the data (NULL: null; bytes that are not UTF-8 become '?'); a number as the
 * text output prints it with that many decimals; root dumped (and freed) as
 * every --json output is. */
json_t *pc_json_str(const char *s);
json_t *pc_json_real(double v, int decimals);
json_t *pc_json_hex(uint64_t v);   /* "%#llx", as the text prints addresses */
#define PC_JI(v) ((json_int_t)(v)) /* a count for json_pack's "I" */
/* Reals at 15 significant digits: every value pc_json_real made (at most
 * 15 digits, as the text shows it) prints as that decimal, 29.4118 and not
 * the double's 17-digit 29.411799999999999. */
#define PC_JSON_REALS JSON_REAL_PRECISION(15)
int pc_json_dump(FILE *out, json_t *root); /* 0, -ENOMEM (root NULL) or -EIO */
const char *pc_basename(const char *path);
/* Replace characters that break a file name ("/", control) for per-event files. */
void pc_safe_filename(char *dst, size_t len, const char *src);

#endif
