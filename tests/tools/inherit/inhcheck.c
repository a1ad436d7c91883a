// SPDX-License-Identifier: MIT
/*
 * inhcheck: host-side checker of the inherit_tree VM scenario. Reads a
 * pmuprof data file recorded around tests/tools/inherit/inhtree (strictly
 * through lib/pmufile) and the lines inhtree printed, and checks:
 *
 *  --tree: every process of the tree (parent, child_a, child_b, grandchild)
 *    has samples; no sample comes from a process outside the tree; each
 *    process's user IPs fall in its own recorded maps (>= 90 %) and
 *    symbolize (the host copy of inhtree, same build-id) mostly (>= 60 %,
 *    the parent's calibrate() aside) to its own spin function and never to
 *    another's (no process is credited with another's function); with
 *    user stacks the caller of each spin function is its run_* function;
 *    child_b's second thread is sampled under child_b's pid with its own
 *    tid; each process's share of the samples in the spin functions is within
 *    --tol points of its share of the work, the nominal 10/20/30/40 % (work
 *    is counted in loop iterations, so the split does not depend on how
 *    much time the guest's vCPUs lose to the host; the CPU time inhtree
 *    measured is printed for information); the file header says
 *    PMUPROF_CF_INHERIT.
 *  --tree --absent ROLE: as --tree, but ROLE must have (next to) no samples
 *    (filtered by the kernel: at most 3 or 1 %, taken before it turned
 *    invisible) and the split is not checked.
 *  --only-parent: samples come from the parent alone, none symbolizes to a
 *    child's function, the parent's do to spin_parent; the header does not
 *    say PMUPROF_CF_INHERIT.
 *
 *   inhcheck FILE --roles INHTREE_OUTPUT --binary HOST_INHTREE
 *            (--tree | --only-parent) [--tol POINTS] [--min-samples N]
 *            [--stacks] [--absent ROLE]
 * Prints key=value lines; exit 0 when every check passes, 1 otherwise with
 * "inhcheck: FAIL: ..." lines on stderr.
 */
#include <getopt.h>

#include "tests/tools/common.h"
#include "tests/tools/opts.h"

#define NR_ROLES 4

enum { R_PARENT, R_CHILD_A, R_CHILD_B, R_GRANDCHILD };

static const struct role_def {
	const char *role;
	const char *func, *func2; /* spin functions (func2: child_b's thread) */
	const char *caller, *caller2;
	unsigned int nominal_pct;
} roles[NR_ROLES] = {
	{"parent", "spin_parent", NULL, "run_parent", NULL, 10},
	{"child_a", "spin_child_a", NULL, "run_child_a", NULL, 20},
	{"child_b", "spin_child_b", "spin_child_b_thr", "run_child_b", "child_b_thread", 30},
	{"grandchild", "spin_grandchild", NULL, "run_grandchild", NULL, 40},
};

struct role_st {
	int pid;
	uint64_t cpu_us;
	uint64_t samples, user, mapped, in_binary, own_func, other_func;
	uint64_t calib; /* the parent's calibration loop (not work) */
	uint64_t with_caller, right_caller;
	uint64_t thr_samples, thr_other_tid;
};

static struct {
	struct pmufile *f;
	struct tt_elf elf;
	const char *binbase;
	struct role_st r[NR_ROLES];
	uint64_t samples, foreign, id_mismatch;
	int foreign_pid;
} c;

/* Function of user address ip in process pid at time t, or NULL. Sets
 * *mapped / *in_binary as it gets there. */
static const char *symbolize(int pid, uint64_t ip, uint64_t t, bool *mapped, bool *in_binary)
{
	const struct pmufile_mmap *m = pmufile__find_mmap(c.f, pid, ip, t);
	const struct tt_func *fn;

	*mapped = m != NULL;
	*in_binary = m && !strcmp(tt_basename(m->path), c.binbase);
	if (!*in_binary)
		return NULL;
	if (!tt_elf__same_build(&c.elf, m))
		c.id_mismatch++;
	fn = tt_elf__at(&c.elf, m, ip);
	return fn ? fn->name : NULL;
}

static bool is_spin(const char *fn)
{
	return fn && !strncmp(fn, "spin_", 5);
}

static int on_record(void *arg, const struct pmuprof_record_header *rec)
{
	struct pmufile_sample_view v;
	struct role_st *st = NULL;
	const struct role_def *def = NULL;
	const char *fn;
	bool mapped, in_bin;
	uint64_t ip;
	int i, pid;

	(void)arg;
	if (rec->type != PMUPROF_REC_SAMPLE || pmufile__sample_view(rec, &v) < 0)
		return 0;
	c.samples++;
	pid = (int)v.s->pid;
	for (i = 0; i < NR_ROLES; i++)
		if (c.r[i].pid == pid) {
			st = &c.r[i];
			def = &roles[i];
		}
	if (!st) {
		c.foreign++;
		c.foreign_pid = pid;
		return 0;
	}
	st->samples++;
	ip = tt_user_ip(&v);
	if (!ip)
		return 0;
	st->user++;
	fn = symbolize(pid, ip, v.s->time_ns, &mapped, &in_bin);
	st->mapped += mapped;
	st->in_binary += in_bin;
	if (fn && !strcmp(fn, "calibrate")) {
		st->calib++;
		return 0;
	}
	if (!is_spin(fn))
		return 0; /* libc (the CPU-time syscall), fork, exit: neither */
	if (!strcmp(fn, def->func) || (def->func2 && !strcmp(fn, def->func2)))
		st->own_func++;
	else
		st->other_func++;
	if (def->func2 && !strcmp(fn, def->func2)) {
		st->thr_samples++;
		if (v.s->tid != v.s->pid)
			st->thr_other_tid++;
	}
	/* the caller: a user-mode sample's ustack[0] is the IP itself */
	if (v.s->nr_ustack >= 2 && v.ustack[0] == ip) {
		const char *caller =
			symbolize(pid, v.ustack[1] - 1, v.s->time_ns, &mapped, &in_bin);
		const char *want =
			def->func2 && !strcmp(fn, def->func2) ? def->caller2 : def->caller;

		st->with_caller++;
		if (caller && !strcmp(caller, want))
			st->right_caller++;
	}
	return 0;
}

static int read_roles(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char role[32];
		int pid, ppid, i;
		unsigned long long cpu;

		if (sscanf(line, "inhtree: role=%31s pid=%d ppid=%d func=%*s cpu_us=%llu", role,
			   &pid, &ppid, &cpu) != 4)
			continue;
		for (i = 0; i < NR_ROLES; i++)
			if (!strcmp(role, roles[i].role) && !c.r[i].pid) {
				c.r[i].pid = pid;
				c.r[i].cpu_us = cpu;
				found++;
			}
	}
	fclose(f);
	return found;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"roles", required_argument, NULL, 'r'},
		{"binary", required_argument, NULL, 'b'},
		{"tree", no_argument, NULL, 't'},
		{"only-parent", no_argument, NULL, 'o'},
		{"tol", required_argument, NULL, 'T'},
		{"min-samples", required_argument, NULL, 'n'},
		{"stacks", no_argument, NULL, 's'},
		{"absent", required_argument, NULL, 'a'},
		{NULL, 0, NULL, 0},
	};
	const char *roles_path = NULL, *binary = NULL;
	int mode = 0, opt, i, nroles;
	double tol = 6.0;
	unsigned long long min_samples = 20;
	bool stacks = false;
	int absent = -1;
	uint64_t tree_samples = 0, tree_cpu = 0, tree_spin = 0;
	char err[512];
	TT_OPTS(o, TT_STR('r', &roles_path), TT_STR('b', &binary), TT_DBL('T', &tol),
		TT_ULL('n', &min_samples), TT_TRUE('s', &stacks));

	tt_prog = "inhcheck";
	while ((opt = tt_opts_next(argc, argv, "", opts, o, "inhcheck")) != -1) {
		switch (opt) {
		case 't':
		case 'o':
			mode = opt;
			break;
		case 'a':
			for (i = 0; i < NR_ROLES; i++)
				if (!strcmp(optarg, roles[i].role))
					absent = i;
			if (absent < 0) {
				fprintf(stderr, "inhcheck: --absent %s: not a role\n", optarg);
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	if (optind != argc - 1 || !roles_path || !binary || !mode) {
		fprintf(stderr, "usage: inhcheck FILE --roles OUT --binary INHTREE (--tree | "
				"--only-parent) [--tol P] [--min-samples N] [--stacks]\n");
		return 2;
	}
	nroles = read_roles(roles_path);
	if (nroles != NR_ROLES) {
		fprintf(stderr, "inhcheck: FAIL: %s has %d of the 4 inhtree role lines\n",
			roles_path, nroles);
		return 1;
	}
	c.binbase = tt_basename(binary);
	if (tt_elf__load(&c.elf, binary) < 0) {
		fprintf(stderr, "inhcheck: FAIL: cannot read the symbols of %s\n", binary);
		return 1;
	}
	c.f = pmufile__open(argv[optind], 0, err, sizeof(err));
	if (!c.f) {
		fprintf(stderr, "inhcheck: FAIL: %s is not a complete pmuprof file: %s\n",
			argv[optind], err);
		return 1;
	}
	if (pmufile__for_each_record(c.f, on_record, NULL, err, sizeof(err)) != 0)
		tt_fail("walking the records failed: %s", err);
	printf("file=%s samples=%llu trailer_samples=%llu config_flags=0x%x foreign=%llu "
	       "build_id_mismatch=%llu\n",
	       argv[optind], (unsigned long long)c.samples,
	       (unsigned long long)c.f->trailer.samples, c.f->hdr.config_flags,
	       (unsigned long long)c.foreign, (unsigned long long)c.id_mismatch);
	if (c.samples != c.f->trailer.samples)
		tt_fail("%llu sample records but the trailer says %llu",
			(unsigned long long)c.samples, (unsigned long long)c.f->trailer.samples);
	if (c.foreign)
		tt_fail("%llu samples from processes outside the tree (e.g. pid %d)",
			(unsigned long long)c.foreign, c.foreign_pid);
	if (c.id_mismatch)
		tt_fail("%llu IPs map to an inhtree whose build-id differs from the host copy",
			(unsigned long long)c.id_mismatch);
	for (i = 0; i < NR_ROLES; i++) {
		tree_samples += c.r[i].samples;
		tree_cpu += c.r[i].cpu_us;
		tree_spin += c.r[i].own_func;
	}
	for (i = 0; i < NR_ROLES; i++) {
		struct role_st *r = &c.r[i];

		printf("role=%s pid=%d cpu_us=%llu cpu_pct=%.1f nominal_pct=%u samples=%llu "
		       "sample_pct=%.1f spin_pct=%.1f user=%llu mapped=%llu in_binary=%llu "
		       "own_func=%llu "
		       "other_func=%llu calibrate=%llu with_caller=%llu right_caller=%llu "
		       "thr_samples=%llu "
		       "thr_other_tid=%llu\n",
		       roles[i].role, r->pid, (unsigned long long)r->cpu_us,
		       pct(r->cpu_us, tree_cpu), roles[i].nominal_pct,
		       (unsigned long long)r->samples, pct(r->samples, tree_samples),
		       pct(r->own_func, tree_spin), (unsigned long long)r->user,
		       (unsigned long long)r->mapped, (unsigned long long)r->in_binary,
		       (unsigned long long)r->own_func, (unsigned long long)r->other_func,
		       (unsigned long long)r->calib, (unsigned long long)r->with_caller,
		       (unsigned long long)r->right_caller, (unsigned long long)r->thr_samples,
		       (unsigned long long)r->thr_other_tid);
	}

	if (mode == 't') {
		if (!(c.f->hdr.config_flags & PMUPROF_CF_INHERIT))
			tt_fail("the file header lacks PMUPROF_CF_INHERIT (flags 0x%x)",
				c.f->hdr.config_flags);
		for (i = 0; i < NR_ROLES; i++) {
			struct role_st *r = &c.r[i];
			double sp = pct(r->own_func, tree_spin);

			if (i == absent) {
				/* a sample or two between fork and the change that
				 * made it invisible are legitimate; unfiltered it
				 * would have 40 % */
				if (r->samples > 3 && r->samples * 100 > tree_samples)
					tt_fail("%s (pid %d) has %llu samples; it should be "
						"filtered",
						roles[i].role, r->pid,
						(unsigned long long)r->samples);
				continue;
			}
			if (r->samples < min_samples) {
				tt_fail("%s (pid %d): %llu samples, want >= %llu", roles[i].role,
					r->pid, (unsigned long long)r->samples, min_samples);
				continue;
			}
			if (r->mapped * 100 < r->user * 90)
				tt_fail("%s: only %llu of %llu user IPs in recorded maps",
					roles[i].role, (unsigned long long)r->mapped,
					(unsigned long long)r->user);
			if (r->own_func * 100 < (r->user - r->calib) * 60)
				tt_fail("%s: only %llu of %llu user IPs symbolize to %s",
					roles[i].role, (unsigned long long)r->own_func,
					(unsigned long long)r->user, roles[i].func);
			if (r->other_func)
				tt_fail("%s: %llu samples credited with another process's function",
					roles[i].role, (unsigned long long)r->other_func);
			if (stacks && (r->with_caller * 100 < r->own_func * 80 ||
				       r->right_caller * 100 < r->with_caller * 90))
				tt_fail("%s: user stacks: %llu of %llu spin samples have a caller, "
					"%llu the right one",
					roles[i].role, (unsigned long long)r->with_caller,
					(unsigned long long)r->own_func,
					(unsigned long long)r->right_caller);
			if (absent >= 0)
				continue; /* the split is off by design */
			if (sp < roles[i].nominal_pct - tol || sp > roles[i].nominal_pct + tol)
				tt_fail("%s: %.1f %% of the spin samples for %u %% of the work "
					"(tolerance %.1f points)",
					roles[i].role, sp, roles[i].nominal_pct, tol);
		}
		if (c.r[R_CHILD_B].thr_samples == 0 ||
		    c.r[R_CHILD_B].thr_other_tid != c.r[R_CHILD_B].thr_samples)
			tt_fail("child_b's thread: %llu samples, %llu with a tid of its own",
				(unsigned long long)c.r[R_CHILD_B].thr_samples,
				(unsigned long long)c.r[R_CHILD_B].thr_other_tid);
	} else {
		struct role_st *p = &c.r[R_PARENT];

		if (c.f->hdr.config_flags & PMUPROF_CF_INHERIT)
			tt_fail("the file header says PMUPROF_CF_INHERIT (flags 0x%x)",
				c.f->hdr.config_flags);
		for (i = R_CHILD_A; i < NR_ROLES; i++)
			if (c.r[i].samples)
				tt_fail("%s (pid %d) has %llu samples; only the parent should",
					roles[i].role, c.r[i].pid,
					(unsigned long long)c.r[i].samples);
		if (p->samples < min_samples)
			tt_fail("parent: %llu samples, want >= %llu",
				(unsigned long long)p->samples, min_samples);
		if (p->own_func * 100 < (p->user - p->calib) * 60 || p->other_func)
			tt_fail("parent: %llu of %llu user IPs in spin_parent, %llu in others",
				(unsigned long long)p->own_func, (unsigned long long)p->user,
				(unsigned long long)p->other_func);
	}
	pmufile__close(c.f);
	tt_elf__free(&c.elf);
	printf("result=%s\n", tt_failures ? "FAIL" : "PASS");
	return tt_failures ? 1 : 0;
}
