// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the pmuprof data file reader.
 *
 * Each input is read as a file (through a memfd, since the API opens by
 * path) in every reader mode, and every record is pushed through the
 * consumer helpers. A second pass repairs the frame CRCs of the input
 * first, so mutations reach the payload parsers instead of dying at the
 * CRC check. Built by `make fuzz-pmufile` (clang, -fsanitize=fuzzer) and,
 * with a main() from replay_main.c, as a corpus replayer under ASan/UBSan.
 */
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
			k->sum += v.addr->data_addr + v.addr->data_page;
		if (pmufile__find_mmap(k->f, (int32_t)v.s->pid, ip, v.s->time_ns))
			k->sum++;
		if (pmufile__find_process(k->f, (int32_t)v.s->pid))
			k->sum++;
		if (pmufile__event(k->f, v.s->event))
			k->sum++;
	}
	return 0;
}

static void exercise(const char *path)
{
	static const unsigned int modes[] = {
		0,
		PMUFILE_OPEN_SALVAGE,
		PMUFILE_OPEN_VERIFY,
		PMUFILE_OPEN_SALVAGE | PMUFILE_OPEN_NO_CRC,
	};
	char err[512];

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct pmufile *f = pmufile__open(path, modes[m], err, sizeof(err));
		struct sink k = {.f = f};

		if (!f)
			continue;
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
		pmufile__for_each_record(f, on_record, &k, err, sizeof(err));
		pmufile__for_each_record(f, on_record, &k, err, sizeof(err));
		pmufile__close(f);
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
