/* SPDX-License-Identifier: MIT */
/*
 * tests/tools/opts.h: the option table the test tools, bench tools and
 * workloads read their command line with, in place of a getopt switch of
 * "case 'x': var = conversion(optarg); break;" per tool. Each row names an
 * option, how its argument converts (the very conversion the tool used:
 * atoi, strtoull base 0, ...) and the variable it lands in (type-checked).
 * Header-only, so a workload stays one static .c file.
 */
#ifndef TT_OPTS_H
#define TT_OPTS_H

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum tt_opt_kind {
	TT_OPT_STR,   /* const char *: optarg itself */
	TT_OPT_INT,   /* int: atoi */
	TT_OPT_LONG,  /* long: atol */
	TT_OPT_LONG0, /* long: strtol base 0 */
	TT_OPT_UL,    /* unsigned long: strtoul base 0 */
	TT_OPT_U32,   /* uint32_t: strtoul base 0, truncated */
	TT_OPT_ULL,   /* unsigned long long: strtoull base 0 */
	TT_OPT_U64,   /* uint64_t: strtoull base 0 */
	TT_OPT_HEX,   /* uint64_t: strtoull base 16 */
	TT_OPT_SEED,  /* uint64_t: strtoull base 0, | 1 (a non-zero xorshift seed) */
	TT_OPT_DBL,   /* double: atof */
	TT_OPT_SET,   /* int: set to 1 (no argument) */
	TT_OPT_TRUE,  /* bool: set to true (no argument) */
	TT_OPT_NUM,   /* unsigned long long: tt_num (exit 2 on junk), what names it */
	TT_OPT_NUMUL, /* unsigned long: the same, converted */
	TT_OPT_NUMU,  /* unsigned int: the same, cast */
	TT_OPT_NUMI,  /* int: the same, cast */
	TT_OPT_SECS,  /* double: tt_seconds (exit 2 on junk) */
};

struct tt_opt {
	int opt;
	enum tt_opt_kind kind;
	void *var;
	const char *what;
};

/* A row; compiles only when P points to the type the kind writes. */
#define TT_OPT_(c, kind, T, p)                                                                     \
	{                                                                                          \
		(c), (kind), _Generic((p), T * : (p)), NULL                                        \
	}
#define TT_STR(c, p)   TT_OPT_(c, TT_OPT_STR, const char *, p)
#define TT_INT(c, p)   TT_OPT_(c, TT_OPT_INT, int, p)
#define TT_LONG(c, p)  TT_OPT_(c, TT_OPT_LONG, long, p)
#define TT_LONG0(c, p) TT_OPT_(c, TT_OPT_LONG0, long, p)
#define TT_UL(c, p)    TT_OPT_(c, TT_OPT_UL, unsigned long, p)
#define TT_U32(c, p)   TT_OPT_(c, TT_OPT_U32, uint32_t, p)
#define TT_ULL(c, p)   TT_OPT_(c, TT_OPT_ULL, unsigned long long, p)
#define TT_U64(c, p)   TT_OPT_(c, TT_OPT_U64, uint64_t, p)
#define TT_HEX(c, p)   TT_OPT_(c, TT_OPT_HEX, uint64_t, p)
#define TT_SEED(c, p)  TT_OPT_(c, TT_OPT_SEED, uint64_t, p)
#define TT_DBL(c, p)   TT_OPT_(c, TT_OPT_DBL, double, p)
#define TT_SET(c, p)   TT_OPT_(c, TT_OPT_SET, int, p)
#define TT_TRUE(c, p)  TT_OPT_(c, TT_OPT_TRUE, bool, p)
#define TT_SECS(c, p)  TT_OPT_(c, TT_OPT_SECS, double, p)
/* tt_num into the integer P points to (its type picks the kind); W names it. */
#define TT_NUM(c, p, w)                                                                                     \
	{                                                                                                   \
		(c),                                                                                      \
	 _Generic((p), unsigned long long *: TT_OPT_NUM, unsigned long *: TT_OPT_NUMUL,            \
		  unsigned int *: TT_OPT_NUMU, int *: TT_OPT_NUMI),                                \
	 (p), (w) \
	}
#define TT_OPT_END                                                                                 \
	{                                                                                          \
		0, TT_OPT_STR, NULL, NULL                                                          \
	}
/* Declares table NAME of the rows given, ended by TT_OPT_END. */
#define TT_OPTS(name, ...) const struct tt_opt name[] = {__VA_ARGS__, TT_OPT_END}

/* A non-negative number (decimal or 0x) or, on junk, "PROG: WHAT must be a
 * non-negative number, not 'S'" and exit status 2. */
static inline unsigned long long tt_num(const char *prog, const char *what, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-') {
		fprintf(stderr, "%s: %s must be a non-negative number, not '%s'\n", prog, what, s);
		exit(2);
	}
	return v;
}

/* A non-negative number of seconds or, on junk, "PROG: seconds must be a
 * non-negative number, not 'S'" and exit status 2. */
static inline double tt_seconds(const char *prog, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < 0) {
		fprintf(stderr, "%s: seconds must be a non-negative number, not '%s'\n", prog, s);
		exit(2);
	}
	return v;
}

/* Stores ARG as row O says. */
static inline void tt_opt_store(const struct tt_opt *o, const char *prog, char *arg)
{
	switch (o->kind) {
	case TT_OPT_STR:
		*(const char **)o->var = arg;
		break;
	case TT_OPT_INT:
		*(int *)o->var = atoi(arg);
		break;
	case TT_OPT_LONG:
		*(long *)o->var = atol(arg);
		break;
	case TT_OPT_LONG0:
		*(long *)o->var = strtol(arg, NULL, 0);
		break;
	case TT_OPT_UL:
		*(unsigned long *)o->var = strtoul(arg, NULL, 0);
		break;
	case TT_OPT_U32:
		*(uint32_t *)o->var = (uint32_t)strtoul(arg, NULL, 0);
		break;
	case TT_OPT_ULL:
		*(unsigned long long *)o->var = strtoull(arg, NULL, 0);
		break;
	case TT_OPT_U64:
		*(uint64_t *)o->var = strtoull(arg, NULL, 0);
		break;
	case TT_OPT_HEX:
		*(uint64_t *)o->var = strtoull(arg, NULL, 16);
		break;
	case TT_OPT_SEED:
		*(uint64_t *)o->var = strtoull(arg, NULL, 0) | 1;
		break;
	case TT_OPT_DBL:
		*(double *)o->var = atof(arg);
		break;
	case TT_OPT_SET:
		*(int *)o->var = 1;
		break;
	case TT_OPT_TRUE:
		*(bool *)o->var = true;
		break;
	case TT_OPT_NUM:
		*(unsigned long long *)o->var = tt_num(prog, o->what, arg);
		break;
	case TT_OPT_NUMUL:
		*(unsigned long *)o->var = tt_num(prog, o->what, arg);
		break;
	case TT_OPT_NUMU:
		*(unsigned int *)o->var = (unsigned int)tt_num(prog, o->what, arg);
		break;
	case TT_OPT_NUMI:
		*(int *)o->var = (int)tt_num(prog, o->what, arg);
		break;
	case TT_OPT_SECS:
		*(double *)o->var = tt_seconds(prog, arg);
		break;
	}
}

/*
 * getopt_long(argc, argv, SHORT, LONG) (LONG may be NULL: plain getopt),
 * storing every option table T (ended by TT_OPT_END) holds; returns the
 * first option it does not hold ('?' for an unknown one) for the caller's
 * own switch, or -1 at the end of the options.
 */
static inline int tt_opts_next(int argc, char **argv, const char *shortopts,
			       const struct option *longopts, const struct tt_opt *t,
			       const char *prog)
{
	const struct tt_opt *o;
	int opt;

	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		for (o = t; o->var && o->opt != opt; o++)
			;
		if (!o->var)
			return opt;
		tt_opt_store(o, prog, optarg);
	}
	return -1;
}

#endif
