// SPDX-License-Identifier: GPL-2.0
/*
 * ringbench: cost of the per-CPU ring (kernel/nmi/ring.c) on the host.
 *
 *   ringbench throughput [-n RECORDS] [-s RING_BYTES]
 *       one producer thread writes RECORDS samples with a 32-frame stack
 *       (reserve + fill + commit) while a consumer thread drains and copies
 *       them out. The producer retries when the ring is full (an NMI would
 *       drop the sample), so records/s is what passes through the ring end
 *       to end; the failed attempts are printed too.
 *   ringbench producer [-n RECORDS]
 *       producer only: writes RECORDS samples, draining inline whenever
 *       half the ring is queued (bench_drain, timed apart and subtracted);
 *       prints the producer's own records/s. For `valgrind --tool=callgrind`
 *       count instructions with --toggle-collect=ring__reserve_sample
 *       --toggle-collect=ring__commit (ring cost only) or
 *       --toggle-collect=bench_write_one (ring + filling the record).
 *   ringbench producer-nmi [-n RECORDS]
 *       the same through the NMI writer's path (ring__reserve_sample_nmi,
 *       ring__commit_nmi: no writer open, so its fast path); count with
 *       --toggle-collect=bench_nmi_reserve --toggle-collect=bench_nmi_commit.
 *   ringbench full [-n RECORDS]
 *       producer only on a full ring: every reservation fails (lost path).
 *
 * Output lines are "key value" pairs; bench/ring/run.sh builds the table.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/nmi/ring.h"

#define FRAMES	    32
#define SAMPLE_SIZE ((u32)(sizeof(struct pmuprof_sample) + FRAMES * sizeof(u64)))

static struct ring R;
static u64 frames[FRAMES];
static int done;
static u64 consumed_records, consumed_bytes;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/* The NMI writer's reserve and commit (inline in ring.h), out of line
 * here so that callgrind can count them (--toggle-collect). */
__attribute__((__noinline__)) static void *bench_nmi_reserve(u64 i)
{
	return ring__reserve_sample_nmi(&R, SAMPLE_SIZE, i);
}

__attribute__((__noinline__)) static bool bench_nmi_commit(void *s)
{
	return ring__commit_nmi(&R, s);
}

static bool use_nmi; /* producer-nmi: the NMI writer's path */

/* One sample as the NMI handler writes it: fixed part + kernel stack. */
__attribute__((__noinline__)) static bool bench_write_one(u64 i)
{
	struct pmuprof_sample *s =
		use_nmi ? bench_nmi_reserve(i) : ring__reserve_sample(&R, SAMPLE_SIZE, i);

	if (!s)
		return false;
	s->hdr.type = PMUPROF_REC_SAMPLE;
	s->hdr.misc = PMUPROF_MISC_KERNEL;
	s->hdr.size = SAMPLE_SIZE;
	s->time_ns = i;
	s->ip = 0xffffffff81000000ull + i;
	s->period = 1000000;
	s->pid = 42;
	s->tid = 42;
	s->cpu = 0;
	s->event = 0;
	s->source = PMUPROF_SOURCE_NMI_IPI;
	s->__pad0 = 0;
	s->sample_flags = 0;
	s->nr_kstack = FRAMES;
	s->nr_ustack = 0;
	memcpy(s->comm, "bench", 6);
	memcpy(s + 1, frames, sizeof(frames)); /* the stack copy */
	if (use_nmi)
		bench_nmi_commit(s);
	else
		ring__commit(&R, s);
	return true;
}

/* Consumer work: copy every record out, as read() does. */
__attribute__((__noinline__)) static u64 bench_drain(u8 *out)
{
	const struct pmuprof_record_header *h;
	u64 n = 0;

	while ((h = ring__peek(&R))) {
		memcpy(out, h, h->size);
		consumed_bytes += h->size;
		n += h->type == PMUPROF_REC_SAMPLE;
		ring__consume(&R, h);
	}
	return n;
}

static void *consumer(void *arg)
{
	u8 *out = arg;
	u64 n;

	for (;;) {
		int d = __atomic_load_n(&done, __ATOMIC_ACQUIRE);

		n = bench_drain(out);
		consumed_records += n;
		if (!n) {
			if (d)
				break;
			sched_yield();
		}
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: ringbench throughput|producer|producer-nmi|full [-n RECORDS] [-s "
			"RING_BYTES]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	u64 n = 2000000, i, ok = 0, t0, t1;
	u32 size = 2u << 20; /* PMUPROF_RING_DEFAULT */
	struct ring_stats st;
	const char *mode;
	pthread_t th;
	u8 *out;
	void *mem;
	int a;

	if (argc < 2)
		usage();
	mode = argv[1];
	for (a = 2; a + 1 < argc; a += 2) {
		if (!strcmp(argv[a], "-n"))
			n = strtoull(argv[a + 1], NULL, 0);
		else if (!strcmp(argv[a], "-s"))
			size = (u32)strtoul(argv[a + 1], NULL, 0);
		else
			usage();
	}
	if (a != argc)
		usage();
	for (i = 0; i < FRAMES; i++)
		frames[i] = 0xffffffff81000000ull + i * 0x1234;
	mem = aligned_alloc(4096, size);
	out = malloc(PMUPROF_MAX_RECORD);
	if (!mem || !out) {
		fprintf(stderr, "ringbench: out of memory for a %u-byte ring\n", size);
		return 1;
	}
	memset(mem, 0, size);
	if (ring__init(&R, mem, size, 0, 0)) {
		fprintf(stderr, "ringbench: ring size %u is not a power of two in [%u, %u]\n", size,
			PMUPROF_RING_MIN, PMUPROF_RING_MAX);
		return 1;
	}

	if (!strcmp(mode, "throughput")) {
		if (pthread_create(&th, NULL, consumer, out)) {
			perror("ringbench: pthread_create");
			return 1;
		}
		t0 = now_ns();
		for (i = 0; i < n; i++)
			while (!bench_write_one(i))
				;
		ok = n;
		__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
		pthread_join(th, NULL);
		t1 = now_ns();
		ring__stats(&R, &st);
		printf("record_bytes %u\n", SAMPLE_SIZE);
		printf("attempted %llu\nwritten %llu\nlost %llu\n",
		       (unsigned long long)st.attempted, (unsigned long long)st.written,
		       (unsigned long long)st.lost_total);
		printf("consumed %llu\n", (unsigned long long)consumed_records);
		printf("seconds %.3f\n", (double)(t1 - t0) / 1e9);
		printf("records_per_s %.0f\n", (double)ok * 1e9 / (double)(t1 - t0));
		printf("mb_per_s %.1f\n", (double)ok * SAMPLE_SIZE * 1e3 / (double)(t1 - t0));
		return consumed_records == st.written ? 0 : 1;
	}
	use_nmi = !strcmp(mode, "producer-nmi");
	if (use_nmi || !strcmp(mode, "producer")) {
		u64 drain_ns = 0, d0;

		t0 = now_ns();
		for (i = 0; i < n; i++) {
			if (!bench_write_one(i))
				return 1; /* drained below: must never be full */
			if (ring__queued(&R) > size / 2) {
				d0 = now_ns();
				bench_drain(out);
				drain_ns += now_ns() - d0;
			}
		}
		t1 = now_ns();
		printf("records %llu\n", (unsigned long long)n);
		printf("producer_records_per_s %.0f\n",
		       (double)n * 1e9 / (double)(t1 - t0 - drain_ns));
		return 0;
	}
	if (!strcmp(mode, "full")) {
		while (bench_write_one(0))
			;
		for (i = 0; i < n; i++)
			ok += bench_write_one(i);
		printf("records %llu\nwritten %llu\n", (unsigned long long)n,
		       (unsigned long long)ok);
		return ok == 0 ? 0 : 1;
	}
	usage();
	return 2;
}
