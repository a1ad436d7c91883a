// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the pmuprof data file reader.
 *
 * Each input is read as a file (through a memfd, since the API opens by
 * path) in every reader mode, and every record is pushed through the
 * consumer helpers; each mode runs with and without PMUFILE_OPEN_STREAM,
 * and the two must agree on every record and every message. A second pass repairs the frame CRCs of
 * the input first, so mutations reach the payload parsers instead of dying at the CRC check. Built
 * by `make fuzz-pmufile` (clang, -fsanitize=fuzzer) and, with a main() from replay_main.c, as a
 * corpus replayer under ASan/UBSan.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/pmufile/pmufile.h"
#include "lib/pmufile/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct sink {
	const struct pmufile *f;
	uint64_t n, sum;
};

static int on_record(void *ctx, const struct pmuprof_record_header *rec)
{
	struct sink *k = ctx;
	struct pmufile_sample_view v;

	k->n++;
	k->sum += rec->type + rec->size;
	if (pmufile__sample_view(rec, &v) == 0) {
		uint64_t ip = v.s->ip;

		for (unsigned i = 0; i < v.s->nr_kstack; i++)
			k->sum += v.kstack[i];
		for (unsigned i = 0; i < v.s->nr_ustack; i++)
			k->sum += v.ustack[i];
		if (v.addr)
			k->sum += v.addr->data_addr + v.addr->data_page + v.addr->data_node1;
		if (v.addr && k->f->has_numa) /* the node map's lookups */
			k->sum += (uint64_t)(pmufile__numa_node_of(&k->f->numa, v.addr->data_phys) +
					     pmufile__numa_cpu_node(&k->f->numa, v.s->cpu));
		if (v.ucopy) { /* every register and every valid stack byte */
			for (unsigned i = 0; i < PMUPROF_NR_UREGS; i++)
				k->sum += v.ucopy->regs[i];
			for (uint32_t i = 0; i < v.ucopy->valid; i++)
				k->sum += v.ucopy_stack[i];
		}
		if (pmufile__find_mmap(k->f, (int32_t)v.s->pid, ip, v.s->time_ns))
			k->sum++;
		if (pmufile__find_process(k->f, (int32_t)v.s->pid))
			k->sum++;
		if (pmufile__event(k->f, v.s->event))
			k->sum++;
	}
	return 0;
}

/* What one reader mode made of the input. */
struct outcome {
	bool opened;
	int walk[2];
	uint64_t n, sum, damage_offset, frames_skipped;
	bool has_trailer;
	char open_err[512], walk_err[512], damage[256];
};

static void run_mode(const char *path, unsigned int mode, struct outcome *o)
{
	char err[512] = "";
	struct pmufile *f = pmufile__open(path, mode, err, sizeof(err));
	struct sink k = {.f = f};

	memset(o, 0, sizeof(*o));
	snprintf(o->open_err, sizeof(o->open_err), "%s", err);
	if (!f)
		return;
	o->opened = true;
	/* touch every piece of metadata the reader returned */
	k.sum += strlen(f->hdr.cmdline) + strlen(f->kallsyms) + f->kallsyms_len;
	for (size_t i = 0; i < f->nr_processes; i++)
		k.sum += strlen(f->processes[i].exe) + f->processes[i].build_id_size;
	for (size_t i = 0; i < f->nr_mmaps; i++) {
		const struct pmufile_mmap *mm = &f->mmaps[i];

		k.sum += strlen(mm->path);
		if (pmufile__find_mmap(f, mm->pid, mm->start, mm->time_ns) == NULL &&
		    mm->start < mm->end)
			abort(); /* a mapping must find itself (or an overlapping one) */
	}
	for (uint32_t i = 0; i < f->nr_events; i++)
		k.sum += strlen(f->events[i].name);
	for (int pass = 0; pass < 2; pass++) {
		err[0] = 0;
		o->walk[pass] = pmufile__for_each_record(f, on_record, &k, err, sizeof(err));
		if (o->walk[pass])
			snprintf(o->walk_err, sizeof(o->walk_err), "%s", err);
	}
	o->n = k.n;
	o->sum = k.sum;
	o->damage_offset = f->damage_offset;
	o->frames_skipped = f->frames_skipped;
	o->has_trailer = f->has_trailer;
	snprintf(o->damage, sizeof(o->damage), "%s", f->damage);
	pmufile__close(f);
}

/* Every mode, and each one again with STREAM, which must read the same
 * records and report the same damage in the same words. */
static void exercise(const char *path)
{
	static const unsigned int modes[] = {
		0,
		PMUFILE_OPEN_SALVAGE,
		PMUFILE_OPEN_VERIFY,
		PMUFILE_OPEN_SALVAGE | PMUFILE_OPEN_NO_CRC,
	};
	struct outcome a, b;

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		run_mode(path, modes[m], &a);
		run_mode(path, modes[m] | PMUFILE_OPEN_STREAM, &b);
		if (a.opened != b.opened || strcmp(a.open_err, b.open_err) ||
		    a.walk[0] != b.walk[0] || a.walk[1] != b.walk[1] ||
		    strcmp(a.walk_err, b.walk_err) || a.n != b.n || a.sum != b.sum ||
		    a.damage_offset != b.damage_offset || a.frames_skipped != b.frames_skipped ||
		    a.has_trailer != b.has_trailer || strcmp(a.damage, b.damage)) {
			fprintf(stderr, "fuzz_pmufile: mode %#x: mapped and STREAM reads differ\n",
				modes[m]);
			abort();
		}
	}
}

/* Recompute the CRCs of every frame the size fields chain together. */
static void repair(uint8_t *d, size_t size)
{
	size_t off = PMUFILE_PREAMBLE_SIZE;

	if (size >= PMUFILE_PREAMBLE_SIZE)
		pf_put32(d + 20, pmufile__crc32(0, d, 20));
	while (size - off >= PMUFILE_FRAME_HDR_SIZE && off < size) {
		uint32_t len = pf_get32(d + off + 8);

		pf_put32(d + off, PMUFILE_SYNC);
		if (len % 8 || len > size - off - PMUFILE_FRAME_HDR_SIZE)
			len = (uint32_t)((size - off - PMUFILE_FRAME_HDR_SIZE) & ~(size_t)7);
		pf_put32(d + off + 8, len);
		pf_put32(d + off + 16, pmufile__crc32(0, d + off + PMUFILE_FRAME_HDR_SIZE, len));
		pf_put32(d + off + 20, pmufile__crc32(0, d + off, 20));
		off += PMUFILE_FRAME_HDR_SIZE + len;
	}
}

static int memfd = -1;
static char memfd_path[64];

static void run(const uint8_t *data, size_t size)
{
	if (ftruncate(memfd, 0) < 0 || (size && pwrite(memfd, data, size, 0) != (ssize_t)size))
		abort();
	exercise(memfd_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	if (memfd < 0) {
		memfd = memfd_create("fuzz_pmufile", MFD_CLOEXEC);
		if (memfd < 0)
			abort();
		snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
	}
	run(data, size);
	copy = malloc(size + 1);
	if (!copy)
		abort();
	memcpy(copy, data, size);
	repair(copy, size);
	run(copy, size);
	free(copy);
	return 0;
}
