// SPDX-License-Identifier: MIT
/*
 * pmuctl-verify: host-side checker for the pmuctl VM scenarios (not
 * installed). Reads a pmuprof data file strictly through lib/pmufile and
 * checks what pmuctl promises: the file is complete (trailer present, sample
 * totals agree), the target process is in the process table, its user IPs
 * fall in recorded mappings, the mapping of the workload's binary carries the
 * same build-id as the host copy, and the IPs symbolize (its .symtab) to
 * the expected functions.
 *
 *   pmuctl-verify FILE [--pid PID | --comm COMM] [--binary HOSTPATH]
 *                 [--expect FUNC]... [--min-samples N] [--min-mapped PCT]
 *                 [--only-cpu N] [--only-pid] [--each-comm COMM]
 *                 [--ustack-copy SIZE]
 * --ustack-copy (a --call-graph dwarf recording of a frame-pointer build):
 * every sample of the target carries user regs and a SIZE-byte stack copy
 * whose IP is the FP walk's first frame, and the frame-pointer chain
 * followed inside the copied bytes from the copied RBP gives the same
 * return addresses as the walk the module did (for the frames that lie
 * inside the copy): the copy is the stack as it was, byte for byte.
 * Prints key=value lines; exits 0 when every check passes, 1 otherwise with
 * "verify: FAIL: reason" lines on stderr.
 */
#include <getopt.h>

#include "tests/tools/common.h"
#include "tests/tools/opts.h"

#define MAX_EXPECT 16
#define U(x)	   ((unsigned long long)(x))

struct ctx {
	struct pmufile *f;
	int pid;
	const char *comm;
	const char *binary, *binbase;
	struct tt_elf elf;
	bool have_elf;
	uint64_t samples, target, user, mapped, in_binary, symbolized, id_mismatch;
	uint64_t lost;
	int target_pid;
	int only_cpu; /* -1: any */
	bool only_pid;
	uint64_t wrong_cpu, wrong_pid;
	const char *each_comm; /* --each-comm: every process of this name */
	struct {
		int pid;
		uint64_t user, mapped;
	} each[256];
	int nr_each;
	uint32_t ucopy_size; /* --ustack-copy: expected size, 0 = no check */
	uint64_t ucopy, ucopy_bad, ucopy_empty, ucopy_frames, ucopy_frames_ok, ucopy_missing;
};

/* The FP chain inside the copied stack: frames found there that match the
 * module's walk (ustack[1..]), and frames compared. */
static void check_ucopy(struct ctx *c, const struct pmufile_sample_view *v)
{
	const struct pmuprof_sample_ustack *u = v->ucopy;
	uint64_t sp = u->regs[PMUPROF_UREG_SP], fp = u->regs[PMUPROF_UREG_BP];
	unsigned int i;

	c->ucopy++;
	if (u->size != c->ucopy_size || u->valid > u->size ||
	    (v->s->nr_ustack && u->regs[PMUPROF_UREG_IP] != v->ustack[0])) {
		c->ucopy_bad++;
		return;
	}
	if (!u->valid) {
		/* legal: the user stack could not be read at all (a page not
		 * present, or the mm being switched: exec) */
		c->ucopy_empty++;
		return;
	}
	for (i = 1; i < v->s->nr_ustack; i++) {
		uint64_t frame[2];

		if (fp < sp || fp - sp + 16 > u->valid)
			break; /* the rest of the chain lies above the copy */
		memcpy(frame, v->ucopy_stack + (fp - sp), sizeof(frame));
		c->ucopy_frames++;
		if (frame[1] == v->ustack[i])
			c->ucopy_frames_ok++;
		fp = frame[0];
	}
}

static int on_record(void *arg, const struct pmuprof_record_header *rec)
{
	struct ctx *c = arg;
	struct pmufile_sample_view v;
	const struct pmufile_mmap *m;
	struct tt_func *fn;
	uint64_t ip;

	if (rec->type == PMUPROF_REC_LOST) {
		c->lost += ((const struct pmuprof_lost *)rec)->lost;
		return 0;
	}
	if (rec->type != PMUPROF_REC_SAMPLE || pmufile__sample_view(rec, &v) < 0)
		return 0;
	c->samples++;
	if (c->each_comm && !strncmp(v.s->comm, c->each_comm, 15)) {
		int i;
		uint64_t uip = tt_user_ip(&v);

		for (i = 0; i < c->nr_each && c->each[i].pid != (int)v.s->pid; i++)
			;
		if (i == c->nr_each && i < 256)
			c->each[c->nr_each++].pid = (int)v.s->pid;
		if (i < 256 && uip) {
			c->each[i].user++;
			if (pmufile__find_mmap(c->f, (int)v.s->pid, uip, v.s->time_ns))
				c->each[i].mapped++;
		}
	}
	if (c->only_cpu >= 0 && (int)v.s->cpu != c->only_cpu)
		c->wrong_cpu++;
	if (c->only_pid && c->target_pid > 0 && (int)v.s->pid != c->target_pid)
		c->wrong_pid++;
	if (c->target_pid <= 0 && c->comm && !strncmp(v.s->comm, c->comm, 15))
		c->target_pid = (int)v.s->pid;
	if (c->target_pid <= 0 || (int)v.s->pid != c->target_pid)
		return 0;
	c->target++;
	if (c->ucopy_size) {
		if (v.ucopy)
			check_ucopy(c, &v);
		else if (v.s->hdr.misc & PMUPROF_MISC_USER)
			c->ucopy_missing++;
	}
	ip = tt_user_ip(&v);
	if (!ip)
		return 0;
	c->user++;
	m = pmufile__find_mmap(c->f, c->target_pid, ip, v.s->time_ns);
	if (!m)
		return 0;
	c->mapped++;
	if (!c->binary || strcmp(tt_basename(m->path), c->binbase))
		return 0;
	c->in_binary++;
	if (!tt_elf__same_build(&c->elf, m))
		c->id_mismatch++;
	if (c->have_elf && (fn = tt_elf__at(&c->elf, m, ip)) != NULL) {
		fn->hits++;
		c->symbolized++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"pid", required_argument, NULL, 'p'},
		{"comm", required_argument, NULL, 'c'},
		{"binary", required_argument, NULL, 'b'},
		{"expect", required_argument, NULL, 'x'},
		{"min-samples", required_argument, NULL, 'n'},
		{"min-mapped", required_argument, NULL, 'm'},
		{"only-cpu", required_argument, NULL, 'C'},
		{"only-pid", no_argument, NULL, 'P'},
		{"each-comm", required_argument, NULL, 'E'},
		{"ustack-copy", required_argument, NULL, 'U'},
		{NULL, 0, NULL, 0},
	};
	static struct ctx c;
	const char *expect[MAX_EXPECT];
	int nexpect = 0, opt, i;
	unsigned long long min_samples = 1, min_mapped = 90;
	char err[512];
	size_t k;
	TT_OPTS(o, TT_INT('p', &c.pid), TT_STR('c', &c.comm), TT_STR('b', &c.binary),
		TT_ULL('n', &min_samples), TT_ULL('m', &min_mapped), TT_INT('C', &c.only_cpu),
		TT_TRUE('P', &c.only_pid), TT_STR('E', &c.each_comm), TT_U32('U', &c.ucopy_size));

	tt_prog = "verify";
	c.only_cpu = -1;
	while ((opt = tt_opts_next(argc, argv, "", opts, o, "verify")) != -1) {
		switch (opt) {
		case 'x':
			if (nexpect < MAX_EXPECT)
				expect[nexpect++] = optarg;
			break;
		default:
			fprintf(stderr, "usage: pmuctl-verify FILE [--pid PID | --comm COMM] "
					"[--binary PATH] [--expect FUNC]... [--min-samples N] "
					"[--min-mapped PCT]\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "pmuctl-verify: give one FILE\n");
		return 2;
	}
	c.f = pmufile__open(argv[optind], 0, err, sizeof(err));
	if (!c.f) {
		fprintf(stderr, "verify: FAIL: %s is not a complete pmuprof file: %s\n",
			argv[optind], err);
		return 1;
	}
	printf("file=%s version=%u events=%u processes=%zu mmaps=%zu trailer=%d kallsyms=%zu "
	       "kernel_build_id=%u\n",
	       argv[optind], c.f->version, c.f->nr_events, c.f->nr_processes, c.f->nr_mmaps,
	       c.f->has_trailer, c.f->kallsyms_len, c.f->kernel_build_id_size);
	for (k = 0; k < c.f->nr_events; k++)
		printf("event=%u name=%s source=%u period=%llu\n", c.f->events[k].index,
		       c.f->events[k].name, c.f->events[k].source,
		       (unsigned long long)c.f->events[k].period);
	c.target_pid = c.pid;
	if (c.binary) {
		int ret = tt_elf__load(&c.elf, c.binary);

		c.binbase = tt_basename(c.binary);
		c.have_elf = ret == 0 || ret == -ENOENT;
		if (!c.have_elf)
			tt_fail("cannot read symbols of %s", c.binary);
	}
	if (pmufile__for_each_record(c.f, on_record, &c, err, sizeof(err)) != 0)
		tt_fail("walking the records failed: %s", err);
	printf("samples=%llu trailer_samples=%llu lost=%llu trailer_lost=%llu\n",
	       (unsigned long long)c.samples, (unsigned long long)c.f->trailer.samples,
	       (unsigned long long)c.lost, (unsigned long long)c.f->trailer.lost);
	if (c.wrong_cpu)
		tt_fail("%llu samples come from other CPUs than --only-cpu", U(c.wrong_cpu));
	if (c.wrong_pid)
		tt_fail("%llu samples come from other processes than the target", U(c.wrong_pid));
	if (c.samples != c.f->trailer.samples)
		tt_fail("sample count %llu disagrees with the trailer", U(c.samples));
	if (c.pid || c.comm) {
		const struct pmufile_process *p =
			c.target_pid > 0 ? pmufile__find_process(c.f, c.target_pid) : NULL;

		printf("target_pid=%d target_samples=%llu user=%llu mapped=%llu in_binary=%llu "
		       "symbolized=%llu build_id_mismatch=%llu\n",
		       c.target_pid, (unsigned long long)c.target, (unsigned long long)c.user,
		       (unsigned long long)c.mapped, (unsigned long long)c.in_binary,
		       (unsigned long long)c.symbolized, (unsigned long long)c.id_mismatch);
		if (c.target < min_samples)
			tt_fail("target has %llu samples", U(c.target));
		if (!p)
			tt_fail("no process record for pid %d", c.target_pid);
		else
			printf("process pid=%d comm=%s exe=%s build_id_size=%u exited=%d\n", p->pid,
			       p->comm, p->exe, p->build_id_size, p->exited);
		if (c.user && c.mapped * 100 < c.user * min_mapped)
			tt_fail("only %llu%% of user IPs fall in recorded mappings",
				U(c.mapped * 100 / c.user));
		if (c.binary && c.in_binary == 0)
			tt_fail("no user IP maps to %s", c.binbase);
		if (c.id_mismatch)
			tt_fail("%llu samples map to a binary whose build-id differs from the host "
				"copy",
				U(c.id_mismatch));
	}
	if (c.ucopy_size) {
		printf("ustack_copies=%llu bad=%llu empty=%llu missing=%llu frames_in_copy=%llu "
		       "frames_match=%llu\n",
		       U(c.ucopy), U(c.ucopy_bad), U(c.ucopy_empty), U(c.ucopy_missing),
		       U(c.ucopy_frames), U(c.ucopy_frames_ok));
		if (c.ucopy_empty * 100 > c.ucopy)
			tt_fail("%llu of %llu user stack copies are empty (more than 1 %%)",
				U(c.ucopy_empty), U(c.ucopy));
		if (!c.ucopy || c.ucopy_bad || c.ucopy_missing)
			tt_fail("user stack copies: %llu, %llu malformed, %llu user samples "
				"without "
				"one",
				U(c.ucopy), U(c.ucopy_bad), U(c.ucopy_missing));
		if (c.ucopy_frames < c.ucopy || c.ucopy_frames_ok != c.ucopy_frames)
			tt_fail("the frame-pointer chain inside the copies matches the module's "
				"walk in %llu of %llu frames",
				U(c.ucopy_frames_ok), U(c.ucopy_frames));
	}
	if (c.each_comm) {
		int with_user = 0, with_maps = 0;

		for (i = 0; i < c.nr_each; i++) {
			if (!c.each[i].user)
				continue;
			with_user++;
			if (c.each[i].mapped * 100 >= c.each[i].user * min_mapped)
				with_maps++;
		}
		printf("each_comm=%s pids=%d with_user_samples=%d with_maps=%d\n", c.each_comm,
		       c.nr_each, with_user, with_maps);
		if (with_user == 0 || with_maps * 4 < with_user * 3)
			tt_fail("%s: fewer than 75%% of its processes have their user IPs in "
				"recorded "
				"maps (%d)",
				c.each_comm, with_maps);
	}
	for (k = 0; k < c.elf.nr_funcs; k++)
		if (c.elf.funcs[k].hits)
			printf("func=%s hits=%llu\n", c.elf.funcs[k].name, U(c.elf.funcs[k].hits));
	for (i = 0; i < nexpect; i++) {
		uint64_t hits = 0;

		for (k = 0; k < c.elf.nr_funcs; k++)
			if (!strcmp(c.elf.funcs[k].name, expect[i]))
				hits += c.elf.funcs[k].hits;
		if (!hits)
			tt_fail("no sample symbolized to %s", expect[i]);
	}
	pmufile__close(c.f);
	tt_elf__free(&c.elf);
	return tt_failures ? 1 : 0;
}
