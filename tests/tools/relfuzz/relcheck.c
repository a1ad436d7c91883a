// SPDX-License-Identifier: MIT
/*
 * relcheck: host-side checker of the data files that the reliability VM
 * scenarios bring back (issue 8). Reads the file strictly through
 * lib/pmufile and checks that nothing was lost silently:
 *   - the file opens strictly (every frame CRC-checked) and has its trailer;
 *   - SAMPLE records in the file == trailer samples == stats.samples;
 *   - sum of LOST records == trailer lost == stats.lost;
 *   - samples + lost == stats.captured (what the kernel's handler tried);
 *   - per event the same.
 * With --hidden (a recording by an opener without CAP_SYS_ADMIN/CAP_SYSLOG):
 * no sample carries a kernel address (IP, kernel stack, user-stack entries,
 * data address) or any physical address, and at least --min-kernel samples
 * were in kernel mode (so the check is not vacuous).
 *
 *   relcheck FILE [--min-samples N] [--hidden [--min-kernel N]]
 * Prints key=value lines; exit 0 if every check holds, 1 otherwise
 * ("relcheck: FAIL: ..." lines on stderr), 2 if the file cannot be read.
 */
#include <getopt.h>

#include "tests/tools/common.h"

#define KERNEL_START 0xffff800000000000ull /* lowest canonical kernel address */

struct ctx {
	bool hidden;
	uint64_t samples, lost, lost_records, kernel_mode, user_mode;
	uint64_t ev_samples[PMUPROF_MAX_EVENTS], ev_lost_seen;
	uint64_t leak_ip, leak_kstack, leak_ustack, leak_data, leak_phys, addr_parts;
	uint64_t bad_view;
};

static int on_record(void *arg, const struct pmuprof_record_header *rec)
{
	struct ctx *c = arg;
	struct pmufile_sample_view v;

	if (rec->type == PMUPROF_REC_LOST) {
		c->lost += ((const struct pmuprof_lost *)rec)->lost;
		c->lost_records++;
		return 0;
	}
	if (rec->type != PMUPROF_REC_SAMPLE)
		return 0;
	if (pmufile__sample_view(rec, &v)) {
		c->bad_view++;
		return 0;
	}
	c->samples++;
	if (v.s->event < PMUPROF_MAX_EVENTS)
		c->ev_samples[v.s->event]++;
	if (v.s->hdr.misc & PMUPROF_MISC_KERNEL)
		c->kernel_mode++;
	else
		c->user_mode++;
	if (!c->hidden)
		return 0;
	if (v.s->ip >= KERNEL_START)
		c->leak_ip++;
	if (v.s->nr_kstack)
		c->leak_kstack++;
	for (unsigned int i = 0; i < v.s->nr_ustack; i++)
		if (v.ustack[i] >= KERNEL_START) {
			c->leak_ustack++;
			break;
		}
	if (v.addr) {
		c->addr_parts++;
		if (v.addr->data_addr >= KERNEL_START)
			c->leak_data++;
		if (v.addr->data_phys || v.addr->code_phys)
			c->leak_phys++;
	}
	return 0;
}

#define check(ok, ...)                                                                             \
	do {                                                                                       \
		if (!(ok))                                                                         \
			tt_fail(__VA_ARGS__);                                                      \
	} while (0)
#define U(x) ((unsigned long long)(x))

int main(int argc, char **argv)
{
	static const struct option lo[] = {{"min-samples", required_argument, NULL, 's'},
					   {"hidden", no_argument, NULL, 'H'},
					   {"min-kernel", required_argument, NULL, 'k'},
					   {NULL, 0, NULL, 0}};
	struct ctx c;
	unsigned long long min_samples = 1, min_kernel = 1;
	char err[512];
	struct pmufile *f;
	int opt;

	memset(&c, 0, sizeof(c));
	tt_prog = "relcheck";
	while ((opt = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (opt) {
		case 's':
			min_samples = strtoull(optarg, NULL, 0);
			break;
		case 'H':
			c.hidden = true;
			break;
		case 'k':
			min_kernel = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: relcheck FILE [--min-samples N] [--hidden "
					"[--min-kernel N]]\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr,
			"usage: relcheck FILE [--min-samples N] [--hidden [--min-kernel N]]\n");
		return 2;
	}
	f = pmufile__open(argv[optind], PMUFILE_OPEN_VERIFY, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "relcheck: FAIL: %s: %s\n", argv[optind], err);
		return 2;
	}
	if (pmufile__for_each_record(f, on_record, &c, err, sizeof(err))) {
		fprintf(stderr, "relcheck: FAIL: records: %s\n", err);
		pmufile__close(f);
		return 1;
	}
	printf("file=%s trailer=%d stats=%d samples=%llu lost=%llu lost_records=%llu "
	       "kernel_mode=%llu user_mode=%llu\n",
	       argv[optind], f->has_trailer, f->has_stats, (unsigned long long)c.samples,
	       (unsigned long long)c.lost, (unsigned long long)c.lost_records,
	       (unsigned long long)c.kernel_mode, (unsigned long long)c.user_mode);
	check(f->has_trailer, "no trailer: the file is incomplete");
	check(f->has_stats, "no GET_STATS snapshot in the file");
	check(!c.bad_view, "%llu samples with inconsistent sizes", U(c.bad_view));
	check(c.samples >= min_samples, "only %llu samples, want at least %llu", U(c.samples),
	      U(min_samples));
	if (f->has_trailer) {
		check(c.samples == f->trailer.samples, "samples in file %llu != trailer %llu",
		      U(c.samples), U(f->trailer.samples));
		check(c.lost == f->trailer.lost, "LOST in file %llu != trailer %llu", U(c.lost),
		      U(f->trailer.lost));
	}
	if (f->has_stats) {
		const struct pmuprof_stats *st = &f->stats;

		printf("captured=%llu stats_samples=%llu stats_lost=%llu throttled=%llu\n",
		       (unsigned long long)st->total.captured,
		       (unsigned long long)st->total.samples, (unsigned long long)st->total.lost,
		       (unsigned long long)st->total.throttled);
		check(c.samples == st->total.samples, "samples in file %llu != stats.samples %llu",
		      U(c.samples), U(st->total.samples));
		check(c.lost == st->total.lost, "LOST in file %llu != stats.lost %llu", U(c.lost),
		      U(st->total.lost));
		check(c.samples + c.lost == st->total.captured,
		      "samples + LOST in file (%llu) != stats.captured %llu", U(c.samples + c.lost),
		      U(st->total.captured));
		for (unsigned int e = 0; e < PMUPROF_MAX_EVENTS; e++)
			check(c.ev_samples[e] == st->event_samples[e],
			      "event samples %llu != stats.event_samples %llu", U(c.ev_samples[e]),
			      U(st->event_samples[e]));
	}
	if (c.hidden) {
		printf("hidden: kernel_mode=%llu addr_parts=%llu leak_ip=%llu leak_kstack=%llu "
		       "leak_ustack=%llu leak_data=%llu leak_phys=%llu\n",
		       (unsigned long long)c.kernel_mode, (unsigned long long)c.addr_parts,
		       (unsigned long long)c.leak_ip, (unsigned long long)c.leak_kstack,
		       (unsigned long long)c.leak_ustack, (unsigned long long)c.leak_data,
		       (unsigned long long)c.leak_phys);
		check(c.kernel_mode >= min_kernel,
		      "only %llu kernel-mode samples, want %llu (the check would be vacuous)",
		      U(c.kernel_mode), U(min_kernel));
		check(!c.leak_ip, "%llu samples carry a kernel IP", U(c.leak_ip));
		check(!c.leak_kstack, "%llu samples carry a kernel stack", U(c.leak_kstack));
		check(!c.leak_ustack, "%llu user stacks hold kernel addresses", U(c.leak_ustack));
		check(!c.leak_data, "%llu samples carry a kernel data address", U(c.leak_data));
		check(!c.leak_phys, "%llu samples carry a physical address", U(c.leak_phys));
	}
	pmufile__close(f);
	printf("result=%s\n", tt_failures ? "FAIL" : "ok");
	return tt_failures ? 1 : 0;
}
