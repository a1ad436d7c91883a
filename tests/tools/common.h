/* SPDX-License-Identifier: MIT */
/*
 * tests/tools: what the test tools share (tests/tools/common.c, linked into
 * the host checkers and the static guest tools alike). Not installed, not a
 * user interface.
 */
#ifndef TT_COMMON_H
#define TT_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/pmufile/pmufile.h"

/* "EINVAL" for EINVAL, "OK" for 0, "E?" when unknown; and back (-1). */
const char *tt_errname(int err);
int tt_errnum(const char *name);
/* getopt's -h or an unknown option (opt): usage() on stdout and exit status
 * 0, or on stderr and 2 (a bad command line). */
static inline int tt_usage(int opt, void (*usage)(FILE *))
{
	usage(opt == 'h' ? stdout : stderr);
	return opt == 'h' ? 0 : 2;
}
/* xorshift64*: deterministic per seed, so a failure can be replayed. */
static inline uint64_t tt_rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}
/* splitmix64: the same sequence on every host (generators of test data). */
static inline uint64_t tt_splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
/* CLOCK_MONOTONIC in seconds. */
double tt_now(void);
const char *tt_basename(const char *path);
/* A whole file in memory (malloc'd), NULL with errno on failure. */
char *tt_slurp(const char *path, size_t *len);

/* "PROG: FAIL: ..." on stderr, counted in tt_failures. */
extern const char *tt_prog;
extern int tt_failures;
void tt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A second open() of /dev/pmuprof (with flags) while the caller holds it:
 * NULL when it fails with EBUSY as it must, else what went wrong (a
 * per-thread buffer). */
const char *tt_second_open(int flags);

/* A cpu-clock (NMI-IPI) configuration that CONFIGURE accepts. */
void tt_clock_config(struct pmuprof_config *c, uint64_t period_ns, uint32_t ring);
/* GET_STATS (with nr per-CPU entries into cpus when cpus); 0 or -errno. */
int tt_stats(int fd, struct pmuprof_stats *st, struct pmuprof_cpu_stats *cpus, uint32_t nr);

/* Records as read() returns them from /dev/pmuprof: each checked to be
 * exactly what the module emits (PMUFILE_CHECK_EXACT) and counted. */
struct tt_tally {
	struct pmufile_counts n;
	uint64_t by_source[PMUPROF_SOURCE_PEBS + 1]; /* samples per enum pmuprof_source */
	uint64_t bytes;
	const char *bad; /* the first malformed record's problem, NULL if none */
	size_t bad_off;	 /* its offset in that read() buffer */
};
/* 0, or -1 at the first malformed record (what precedes it is counted). */
int tt_tally_buf(struct tt_tally *t, const void *buf, size_t len);
/* The accounting the module promises (samples and LOST read against
 * GET_STATS, in total and per event): one "PREFIXCHECK FAILED: ..." line on
 * stdout per broken rule; returns how many. */
int tt_check_stats(const char *prefix, const struct pmufile_counts *n,
		   const struct pmuprof_stats *st);

/* The user-mode IP of a sample (its IP in user mode, else the first user
 * frame), 0 if it has none. */
uint64_t tt_user_ip(const struct pmufile_sample_view *v);

/* An ELF64 binary's function symbols (.symtab), build-id and PT_LOAD
 * segments; own parser, so the static guest tools can use it too. */
struct tt_func {
	const char *name;
	uint64_t start, end;
	uint64_t hits; /* for the caller */
};
struct tt_elf {
	char *image;
	size_t len;
	struct tt_func *funcs; /* in .symtab order */
	size_t nr_funcs;
	uint8_t build_id[20];
	int build_id_len;
};
/* The GNU build-id among the ELF notes in image[off, end) into id: its
 * length, 0 if there is none. */
int tt_elf_note_build_id(const void *image, uint64_t off, uint64_t end, uint8_t *id);
/* 0, or -errno (-ENOEXEC: not an ELF64 file, -ENOENT: no function symbols). */
int tt_elf__load(struct tt_elf *e, const char *path);
void tt_elf__free(struct tt_elf *e);
/* The first function (in .symtab order) holding vaddr / called name, or NULL. */
struct tt_func *tt_elf__func_at(const struct tt_elf *e, uint64_t vaddr);
struct tt_func *tt_elf__func(const struct tt_elf *e, const char *name);
/* A file offset of the binary -> its virtual address through PT_LOAD; 0 or -1. */
int tt_elf__vaddr(const struct tt_elf *e, uint64_t off, uint64_t *vaddr);
/* The function user IP ip lands in when mapping m of a recording maps this
 * binary, or NULL; whether m carries the binary's build-id. */
struct tt_func *tt_elf__at(const struct tt_elf *e, const struct pmufile_mmap *m, uint64_t ip);
bool tt_elf__same_build(const struct tt_elf *e, const struct pmufile_mmap *m);

#endif
