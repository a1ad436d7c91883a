// SPDX-License-Identifier: MIT
/*
 * pmuconv's argument parsers, from tables that give the source line, the
 * argument, and the expected result or the expected error: CPU lists
 * (--cpu), time ranges (--time), sort keys (report --sort), the
 * --dso/--symbol match of a sampled IP, and the common option parser.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/pmuconv/cli.h"
#include "host/pmuconv/filterspec.h"
#include "host/pmuconv/sorttab.h"
#include "host/pmuconv/where.h"
#include "check_main.h"

/* ---- CPU lists -------------------------------------------------------- */

static const struct {
	int line;
	const char *in;
	const char *cpus; /* the set as "0,1,5" (ascending), or NULL: error */
	const char *err;  /* substring of the error */
} cpu_cases[] = {
	{__LINE__, "0", "0", NULL},
	{__LINE__, "7", "7", NULL},
	{__LINE__, "0-3", "0,1,2,3", NULL},
	{__LINE__, "0-3,7", "0,1,2,3,7", NULL},
	{__LINE__, "7,0-1", "0,1,7", NULL},
	{__LINE__, "2-2", "2", NULL},
	{__LINE__, "1,1,1", "1", NULL},
	{__LINE__, "63-65", "63,64,65", NULL},
	{__LINE__, "4095", "4095", NULL},
	{__LINE__, "", NULL, "is not a CPU list"},
	{__LINE__, "x", NULL, "is not a CPU list"},
	{__LINE__, "1,", NULL, "is not a CPU list"},
	{__LINE__, ",1", NULL, "is not a CPU list"},
	{__LINE__, "1,,2", NULL, "is not a CPU list"},
	{__LINE__, "1-", NULL, "is not a CPU list"},
	{__LINE__, "-1", NULL, "is not a CPU list"},
	{__LINE__, "1-2-3", NULL, "is not a CPU list"},
	{__LINE__, "1 2", NULL, "is not a CPU list"},
	{__LINE__, "3-1", NULL, "runs backwards"},
	{__LINE__, "4096", NULL, "above 4095"},
	{__LINE__, "0-99999999999999999999", NULL, "above 4095"},
};

START_TEST(test_cpulist)
{
	struct pc_cpuset s;
	char err[256] = "", got[8192] = "";
	int r = pc_cpuset__parse(&s, cpu_cases[_i].in, err, sizeof(err));

	if (!cpu_cases[_i].cpus) {
		ck_assert_msg(r == -EINVAL, "line %d: '%s' accepted", cpu_cases[_i].line,
			      cpu_cases[_i].in);
		ck_assert_msg(strstr(err, cpu_cases[_i].err), "line %d: error '%s'",
			      cpu_cases[_i].line, err);
		return;
	}
	ck_assert_msg(r == 0, "line %d: '%s': %s", cpu_cases[_i].line, cpu_cases[_i].in, err);
	for (uint32_t c = 0; c < PC_MAX_CPUS + 10; c++)
		if (pc_cpuset__has(&s, c))
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%u",
				 got[0] ? "," : "", c);
	ck_assert_msg(!strcmp(got, cpu_cases[_i].cpus), "line %d: '%s' gave %s", cpu_cases[_i].line,
		      cpu_cases[_i].in, got);
}
END_TEST

/* ---- time ranges ------------------------------------------------------ */

#define OPEN UINT64_MAX
static const struct {
	int line;
	const char *in;
	int ok;
	uint64_t start, end; /* ns, inclusive */
	const char *err;
} time_cases[] = {
	{__LINE__, "1,2", 1, 1000000000ull, 2000000999ull, NULL},
	{__LINE__, "1054.564438,1056.5", 1, 1054564438000ull, 1056500000999ull, NULL},
	{__LINE__, "0.5,0.500000", 1, 500000000ull, 500000999ull, NULL},
	{__LINE__, "0,0.000000001", 1, 0, 1, NULL},
	{__LINE__, "2.5,", 1, 2500000000ull, OPEN, NULL},
	{__LINE__, ",3", 1, 0, 3000000999ull, NULL},
	{__LINE__, "3,3", 1, 3000000000ull, 3000000999ull, NULL},
	{__LINE__, "", 0, 0, 0, "is not a time range"},
	{__LINE__, ",", 0, 0, 0, "is not a time range"},
	{__LINE__, "5", 0, 0, 0, "is not a time range"},
	{__LINE__, "1-2", 0, 0, 0, "is not a time range"},
	{__LINE__, "a,b", 0, 0, 0, "is not a time range"},
	{__LINE__, "1.,2", 0, 0, 0, "is not a time range"},
	{__LINE__, "1,2,3", 0, 0, 0, "is not a time range"},
	{__LINE__, "1.0000000001,", 0, 0, 0, "is not a time range"},
	{__LINE__, "-1,2", 0, 0, 0, "is not a time range"},
	{__LINE__, "99999999999999999999,", 0, 0, 0, "is not a time range"},
	{__LINE__, "3,2", 0, 0, 0, "ends before it starts"},
	{__LINE__, "2.000001,2", 0, 0, 0, "ends before it starts"},
};

START_TEST(test_time_range)
{
	uint64_t a = 7, b = 7;
	char err[256] = "";
	int r = pc_time_range__parse(time_cases[_i].in, &a, &b, err, sizeof(err));

	if (!time_cases[_i].ok) {
		ck_assert_msg(r == -EINVAL, "line %d: '%s' accepted", time_cases[_i].line,
			      time_cases[_i].in);
		ck_assert_msg(strstr(err, time_cases[_i].err), "line %d: error '%s'",
			      time_cases[_i].line, err);
		return;
	}
	ck_assert_msg(r == 0, "line %d: %s", time_cases[_i].line, err);
	ck_assert_msg(a == time_cases[_i].start && b == time_cases[_i].end,
		      "line %d: '%s' gave %llu,%llu", time_cases[_i].line, time_cases[_i].in,
		      (unsigned long long)a, (unsigned long long)b);
}
END_TEST

/* ---- event names: -e in the spellings users type ----------------------- */

#define RESOLVED_WALK "skl::DTLB_LOAD_MISSES:MISS_CAUSES_A_WALK:k=1:u=1:e=0:i=0:c=0:t=0"

static const struct {
	int line;
	const char *want, *name, *resolved;
	bool match;
} event_cases[] = {
	{__LINE__, "dtlb_load_misses.miss_causes_a_walk", "DTLB_LOAD_MISSES.MISS_CAUSES_A_WALK", "",
	 true},
	{__LINE__, "DTLB_LOAD_MISSES:MISS_CAUSES_A_WALK", "dtlb-load-misses", RESOLVED_WALK, true},
	{__LINE__, "DTLB_LOAD_MISSES.MISS_CAUSES_A_WALK:u", "dtlb-load-misses", RESOLVED_WALK,
	 true},
	{__LINE__, "dtlb_load_misses.miss_causes_a_walk:upp", "x", RESOLVED_WALK, true},
	{__LINE__, "DTLB_LOAD_MISSES.STLB_HIT", "dtlb-load-misses", RESOLVED_WALK, false},
	{__LINE__, "DTLB_LOAD_MISSES", "dtlb-load-misses", RESOLVED_WALK, false},
	{__LINE__, "cycles", "cycles:u", "", true},
	{__LINE__, "CYCLES:k", "cycles:u", "", true},
	{__LINE__, "instructions", "cycles", "", false},
	{__LINE__, "instructions", "cycles", NULL, false},
	{__LINE__, "", "cycles", "", false},
	{__LINE__, ":u", "cycles", "", false},
	{__LINE__, "u", "u", "", true}, /* a first token is never a modifier */
	{__LINE__, "mem_inst_retired.all_loads:p", "MEM_INST_RETIRED.ALL_LOADS:pp", "", true},
};

START_TEST(test_event_match)
{
	ck_assert_msg(pc_event__matches(event_cases[_i].want, event_cases[_i].name,
					event_cases[_i].resolved) == event_cases[_i].match,
		      "line %d: '%s' vs '%s' / '%s'", event_cases[_i].line, event_cases[_i].want,
		      event_cases[_i].name,
		      event_cases[_i].resolved ? event_cases[_i].resolved : "");
}
END_TEST

/* ---- sort keys -------------------------------------------------------- */

static const struct {
	int line;
	const char *in;
	int nr; /* keys parsed, or -1: error */
	const char *err;
} sort_cases[] = {
	{__LINE__, "comm,dso,sym", 3, NULL},
	{__LINE__, "symbol", 1, NULL},
	{__LINE__, "pid,cpu,data_page_size,code_page_size", 4, NULL},
	{__LINE__, "comm,comm", 2, NULL},
	{__LINE__, "", -1, "unknown sort key ''"},
	{__LINE__, "comm,", -1, "unknown sort key ''"},
	{__LINE__, "Comm", -1, "unknown sort key 'Comm'"},
	{__LINE__, "comm,bogus", -1, "unknown sort key 'bogus' (keys: comm, pid"},
	{__LINE__, "overhead", -1, "unknown sort key 'overhead'"},
	{__LINE__, "sym,sym,sym,sym,sym,sym,sym,sym,sym", -1, "at most 8 sort keys"},
};

START_TEST(test_sort_keys)
{
	struct pc_sort_spec s;
	char err[512] = "";
	int r = pc_sort_spec__parse(&s, sort_cases[_i].in, err, sizeof(err));

	if (sort_cases[_i].nr < 0) {
		ck_assert_msg(r == -EINVAL, "line %d: '%s' accepted", sort_cases[_i].line,
			      sort_cases[_i].in);
		ck_assert_msg(strstr(err, sort_cases[_i].err), "line %d: error '%s'",
			      sort_cases[_i].line, err);
		return;
	}
	ck_assert_msg(r == 0, "line %d: %s", sort_cases[_i].line, err);
	ck_assert_int_eq(s.nr, sort_cases[_i].nr);
}
END_TEST

/* ---- --dso / --symbol ------------------------------------------------- */

static const struct {
	int line;
	const char *dso, *symbol; /* the filter */
	const char *name, *where_dso;
	size_t sym_len;
	bool match;
} match_cases[] = {
	{__LINE__, NULL, NULL, "main", "/usr/bin/app", 4, true},
	{__LINE__, "app", NULL, "main", "/usr/bin/app", 4, true},
	{__LINE__, "/usr/bin/app", NULL, "main", "/usr/bin/app", 4, true},
	{__LINE__, "bin/app", NULL, "main", "/usr/bin/app", 4, false},
	{__LINE__, "libc.so.6", NULL, "main", "/usr/bin/app", 4, false},
	{__LINE__, "[kernel.kallsyms]", NULL, "vfs_read", "[kernel.kallsyms]", 8, true},
	{__LINE__, "[xfs]", NULL, "xfs_ilock [xfs]", "[xfs]", 9, true},
	{__LINE__, "xfs", NULL, "xfs_ilock [xfs]", "[xfs]", 9, false},
	{__LINE__, NULL, "xfs_ilock", "xfs_ilock [xfs]", "[xfs]", 9, true},
	{__LINE__, NULL, "xfs_ilock [xfs]", "xfs_ilock [xfs]", "[xfs]", 9, true},
	{__LINE__, NULL, "xfs_i", "xfs_ilock [xfs]", "[xfs]", 9, false},
	{__LINE__, NULL, "main", "main", "/usr/bin/app", 4, true},
	{__LINE__, NULL, "mai", "main", "/usr/bin/app", 4, false},
	{__LINE__, "app", "main", "main", "/usr/bin/app", 4, true},
	{__LINE__, "app", "other", "main", "/usr/bin/app", 4, false},
	{__LINE__, "db", "main", "main", "/usr/bin/app", 4, false},
};

START_TEST(test_where_match)
{
	struct pc_filter f = {.dso = match_cases[_i].dso, .symbol = match_cases[_i].symbol};
	struct pc_where w = {.name = match_cases[_i].name,
			     .sym_len = match_cases[_i].sym_len,
			     .dso = match_cases[_i].where_dso};

	ck_assert_msg(pc_where__match(&f, &w) == match_cases[_i].match, "line %d",
		      match_cases[_i].line);
}
END_TEST

/* ---- the common option parser (pc_cli_parse) -------------------------- */

static const struct {
	int line;
	const char *args; /* after the subcommand, split at spaces */
	unsigned allowed;
	int ret;
	const char *want; /* ret PC_CLI_RUN: the fields set (summary()); else the stderr text */
} parse_cases[] = {
	{__LINE__, "", 0, PC_CLI_RUN, "top=20"},
	{__LINE__, "-e cycles -o out.txt a.pmu", OPT_EVENT | OPT_OUTPUT, PC_CLI_RUN,
	 "ev=cycles out=out.txt top=20 pos=a.pmu"},
	{__LINE__, "--event=x --output - --svg s.svg", OPT_EVENT | OPT_OUTPUT, PC_CLI_RUN,
	 "ev=x out=- svg=s.svg top=20"},
	{__LINE__, "-p 42 --comm app -C 0-1 --time 1,2 -d libc.so -S main --kernel-only",
	 OPT_FILTER, PC_CLI_RUN,
	 "top=20 pid=42 comm=app cpu time=1000000000-2000000999 dso=libc.so sym=main mode=1"},
	{__LINE__, "--dsos a --symbols b --user-only", OPT_FILTER, PC_CLI_RUN,
	 "top=20 dso=a sym=b mode=2"},
	{__LINE__, "--weight samples -n 5 --json", OPT_WEIGHT | OPT_TOP | OPT_JSON, PC_CLI_RUN,
	 "json top=5 weight=1"},
	{__LINE__, "--annotate-kernel --no-process", OPT_ANNOTATE, PC_CLI_RUN,
	 "top=20 annotate noproc"},
	{__LINE__, "-s sym,dso --percent-limit 2.5% --callers f --callees g", OPT_SORT, PC_CLI_RUN,
	 "top=20 sort=sym,dso pct=2.5 callers=f callees=g"},
	{__LINE__,
	 "--input-format folded --vmlinux vm --salvage --event-name E --no-offsets --no-demangle "
	 "--call-graph fp --debug-dir /d",
	 OPT_INPUT, PC_CLI_RUN,
	 "top=20 salvage nodemangle fp fmt=4 vmlinux=vm debugdir=/d evname=E nooffsets"},
	{__LINE__, "-q --progress a b", 0, PC_CLI_RUN, "top=20 pos=a pos=b quiet progress=1"},
	{__LINE__, "--no-progress", 0, PC_CLI_RUN, "top=20 progress=-1"},
	{__LINE__, "-h", 0, 0, ""},
	{__LINE__, "--bogus", ~0u, 2,
	 "pmuconv t: unknown option or missing argument: --bogus\nsee 'pmuconv t --help'\n"},
	{__LINE__, "-e", ~0u, 2,
	 "pmuconv t: unknown option or missing argument: -e\n"
	 "see 'pmuconv t --help'\n"},
	{__LINE__, "-e cycles", OPT_OUTPUT, 2,
	 "pmuconv t: option -e does not apply here; see 'pmuconv t --help'\n"},
	{__LINE__, "--json", OPT_OUTPUT, 2,
	 "pmuconv t: option --json does not apply here; see 'pmuconv t --help'\n"},
	{__LINE__, "--pid x", ~0u, 2, "pmuconv t: --pid wants a process id, got 'x'\n"},
	{__LINE__, "--top 0", ~0u, 2, "pmuconv t: --top wants a positive count, got '0'\n"},
	{__LINE__, "--weight w", ~0u, 2, "pmuconv t: --weight is 'period' or 'samples', not 'w'\n"},
	{__LINE__, "--percent-limit 101", ~0u, 2,
	 "pmuconv t: --percent-limit wants a percentage from 0 to 100, got '101'\n"},
	{__LINE__, "--input-format x", ~0u, 2,
	 "pmuconv t: unknown --input-format 'x' (auto, pmuprof, perf-script, stap, folded)\n"},
	{__LINE__, "--call-graph lbr", ~0u, 2,
	 "pmuconv t: --call-graph 'lbr': want fp (the recorded frame-pointer walk) or dwarf "
	 "(unwind the stack copies, the default)\n"},
	{__LINE__, "a b c", ~0u, 2, "pmuconv t: too many arguments ('c'); see --help\n"},
};

#define ADD(...) (n += snprintf(out + n, len - n, __VA_ARGS__))
static void summary(const struct pc_cli *c, char *out, size_t len)
{
	const struct pc_filter *f = &c->load.filter;
	size_t n = 0;

	out[0] = 0;
	if (f->event)
		ADD("ev=%s ", f->event);
	if (c->out)
		ADD("out=%s ", c->out);
	if (c->svg)
		ADD("svg=%s ", c->svg);
	if (c->json)
		ADD("json ");
	ADD("top=%zu ", c->top);
	if (f->has_pid)
		ADD("pid=%d ", f->pid);
	if (f->comm)
		ADD("comm=%s ", f->comm);
	if (f->has_cpu)
		ADD("cpu ");
	if (f->has_time)
		ADD("time=%llu-%llu ", (unsigned long long)f->time_start,
		    (unsigned long long)f->time_end);
	if (f->dso)
		ADD("dso=%s ", f->dso);
	if (f->symbol)
		ADD("sym=%s ", f->symbol);
	if (f->mode)
		ADD("mode=%d ", f->mode);
	if (f->weight)
		ADD("weight=%d ", f->weight);
	if (c->annotate_kernel)
		ADD("annotate ");
	if (f->no_process)
		ADD("noproc ");
	if (c->sort)
		ADD("sort=%s ", c->sort);
	if (c->percent_limit)
		ADD("pct=%g ", c->percent_limit);
	if (c->callers)
		ADD("callers=%s ", c->callers);
	if (c->callees)
		ADD("callees=%s ", c->callees);
	if (f->salvage)
		ADD("salvage ");
	if (f->no_demangle && c->load.sym.no_demangle)
		ADD("nodemangle ");
	if (f->call_graph_fp)
		ADD("fp ");
	if (c->load.format)
		ADD("fmt=%d ", c->load.format);
	if (c->load.sym.vmlinux)
		ADD("vmlinux=%s ", c->load.sym.vmlinux);
	if (c->load.sym.debug_dir)
		ADD("debugdir=%s ", c->load.sym.debug_dir);
	if (c->load.event_name)
		ADD("evname=%s ", c->load.event_name);
	if (c->load.sym.no_offsets)
		ADD("nooffsets ");
	for (int i = 0; i < c->npos; i++)
		ADD("pos=%s ", c->pos[i]);
	if (pc_quiet)
		ADD("quiet ");
	if (pc_progress_mode)
		ADD("progress=%d ", pc_progress_mode);
	if (n)
		out[n - 1] = 0;
}

START_TEST(test_cli_parse)
{
	static const struct pc_cmd_help help = {"t", ""};
	char buf[512], *argv[32], got[512], *err = NULL;
	size_t errlen = 0;
	int argc = 0, r;
	struct pc_cli c;
	FILE *saved = stderr;

	snprintf(buf, sizeof(buf), "t %s", parse_cases[_i].args);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	pc_quiet = 0;
	pc_progress_mode = 0;
	stderr = open_memstream(&err, &errlen);
	r = pc_cli_parse(&c, argc, argv, parse_cases[_i].allowed, &help, 0, 2);
	fclose(stderr);
	stderr = saved;
	ck_assert_msg(r == parse_cases[_i].ret, "line %d: returned %d (%s)", parse_cases[_i].line,
		      r, err);
	if (r == PC_CLI_RUN)
		summary(&c, got, sizeof(got));
	ck_assert_msg(!strcmp(r != PC_CLI_RUN ? err : got, parse_cases[_i].want),
		      "line %d: got '%s'", parse_cases[_i].line, r != PC_CLI_RUN ? err : got);
	free(err);
}
END_TEST

/* A subcommand's own flags taken out before the common parser. */
static const struct {
	int line;
	const char *args, *left, *set; /* set: "10" = --together, not --compare */
} take_cases[] = {
	{__LINE__, "t a.pmu", "t a.pmu", "00"},
	{__LINE__, "t --together a.pmu", "t a.pmu", "10"},
	{__LINE__, "t --compare a b --together", "t a b", "11"},
	{__LINE__, "t a -- --compare", "t a -- --compare", "00"},
	{__LINE__, "t --together=x --compar", "t --together=x --compar", "00"},
};

START_TEST(test_take_flags)
{
	static const char *const own[] = {"--together", "--compare", NULL};
	char buf[256], *argv[16], left[256] = "", set[3];
	bool on[2] = {false, false};
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", take_cases[_i].args);
	for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
		argv[argc++] = t;
	argc = pc_cli_take_flags(argc, argv, own, on);
	for (int i = 0; i < argc; i++)
		snprintf(left + strlen(left), sizeof(left) - strlen(left), "%s%s", i ? " " : "",
			 argv[i]);
	snprintf(set, sizeof(set), "%d%d", on[0], on[1]);
	ck_assert_msg(!strcmp(left, take_cases[_i].left) && !strcmp(set, take_cases[_i].set),
		      "line %d: left '%s', set %s", take_cases[_i].line, left, set);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pmuconv_cli");
	TCase *t = tcase_create("parsers");

	tcase_add_loop_test(t, test_cpulist, 0, (int)(sizeof(cpu_cases) / sizeof(cpu_cases[0])));
	tcase_add_loop_test(t, test_time_range, 0,
			    (int)(sizeof(time_cases) / sizeof(time_cases[0])));
	tcase_add_loop_test(t, test_event_match, 0,
			    (int)(sizeof(event_cases) / sizeof(event_cases[0])));
	tcase_add_loop_test(t, test_sort_keys, 0,
			    (int)(sizeof(sort_cases) / sizeof(sort_cases[0])));
	tcase_add_loop_test(t, test_where_match, 0,
			    (int)(sizeof(match_cases) / sizeof(match_cases[0])));
	tcase_add_loop_test(t, test_cli_parse, 0,
			    (int)(sizeof(parse_cases) / sizeof(parse_cases[0])));
	tcase_add_loop_test(t, test_take_flags, 0,
			    (int)(sizeof(take_cases) / sizeof(take_cases[0])));
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return pp_check_run(suite());
}
