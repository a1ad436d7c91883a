// SPDX-License-Identifier: GPL-2.0
/*
 * ppfuzz: ioctl abuse test for /dev/pmuprof (issue 3, the short version of
 * issue 8's fuzzer).
 *
 *   ppfuzz [-n ITERATIONS] [-j THREADS] [-s SEED]
 *
 * Phase 1 (one thread, checked): random and boundary CONFIGUREs (sizes
 * 0..4096, every flag bit, periods 0/1/huge, depths 0..1e9, cpu masks past
 * nr_cpus, pids that do not exist), random ioctl numbers, GET_INFO/STATS
 * with odd sizes and bad pointers, START/STOP in every state, reads of odd
 * sizes. After every failed call the session state and configured periods
 * (GET_STATS) must be unchanged; known-invalid inputs must fail with the
 * documented errno. A second open() must get EBUSY.
 * Phase 2 (THREADS threads on one fd): the same calls without checks,
 * interleaved with START/STOP/read, plus threads racing open()/close().
 * Phase 3: the device still works: a clean session yields samples and exact
 * accounting. Prints "ppfuzz: calls=N failures=F" and exits 0 only if F==0.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <time.h>

#include "tests/tools/common.h"
#include "tests/tools/opts.h"

static int failures;
static unsigned long calls;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define FAILF(...)                                                                                 \
	do {                                                                                       \
		pthread_mutex_lock(&lock);                                                         \
		failures++;                                                                        \
		if (failures <= 20)                                                                \
			printf("ppfuzz: FAIL: " __VA_ARGS__);                                      \
		pthread_mutex_unlock(&lock);                                                       \
	} while (0)

static const uint64_t periods[] = {0,
				   1,
				   2,
				   999,
				   1000,
				   19999,
				   20000,
				   1000000,
				   50000,
				   50001,
				   1ull << 40,
				   1ull << 62,
				   (1ull << 62) + 1,
				   ~0ull};
static const uint32_t depths[] = {0, 1, 64, 255, 256, 257, 1000, 1000000000u, ~0u};
static const uint32_t rings[] = {0, 1, 4096, 16384, 16385, 65536, 1u << 26, 1u << 27, ~0u};

/* Mutate a valid config; *expect gets the errno it must produce, or -1
 * when the outcome is not predicted (several mutations may combine). */
static void mutate(struct pmuprof_config *c, uint64_t *s, int *expect)
{
	unsigned int k = tt_rnd(s) % 16;

	*expect = -1;
	switch (k) {
	case 0:
		c->flags = (uint32_t)tt_rnd(s);
		if (c->flags & ~PMUPROF_CF__ALL)
			*expect = EINVAL;
		break;
	case 1:
		c->events[0].period = periods[tt_rnd(s) % (sizeof(periods) / 8)];
		if (c->events[0].period < PMUPROF_MIN_CLOCK_PERIOD_NS)
			*expect = EINVAL;
		break;
	case 2:
		c->stack_depth = depths[tt_rnd(s) % (sizeof(depths) / 4)];
		*expect = c->stack_depth > PMUPROF_MAX_DEPTH ? EINVAL : 0;
		break;
	case 3:
		c->ring_size = rings[tt_rnd(s) % (sizeof(rings) / 4)];
		break;
	case 4:
		c->target = PMUPROF_TARGET_CPUS;
		c->cpu_mask[tt_rnd(s) % (PMUPROF_MAX_CPUS / 64)] = tt_rnd(s);
		break;
	case 5:
		c->target = PMUPROF_TARGET_PID;
		c->pid = (int32_t)(tt_rnd(s) % 2 ? 999999 : tt_rnd(s));
		*expect = c->pid <= 0 ? EINVAL : ESRCH;
		break;
	case 6:
		c->nr_events = (uint32_t)(tt_rnd(s) % 40);
		if (c->nr_events == 0 || c->nr_events > PMUPROF_MAX_EVENTS)
			*expect = EINVAL;
		break;
	case 7:
		c->events[0].source = (uint32_t)(tt_rnd(s) % 8);
		if (c->events[0].source == 0 || c->events[0].source >= PMUPROF_SOURCE__MAX)
			*expect = EINVAL;
		break;
	case 8:
		c->events[0].flags = (uint32_t)tt_rnd(s);
		if (c->events[0].flags & ~PMUPROF_EVF__ALL)
			*expect = EINVAL;
		break;
	case 9:
		c->__reserved[tt_rnd(s) % 3] = tt_rnd(s) | 1;
		*expect = EINVAL;
		break;
	case 10:
		c->events[0].__reserved[tt_rnd(s) % 2] = tt_rnd(s) | 1;
		*expect = EINVAL;
		break;
	case 11:
		c->events[0].config = tt_rnd(s) | 1;
		*expect = EINVAL; /* a cpu-clock event takes no config */
		break;
	case 12:
		c->target = (uint32_t)(tt_rnd(s) % 5);
		break;
	case 13:
		c->wakeup_bytes = (uint32_t)tt_rnd(s);
		break;
	case 14:
		c->events[0].source = PMUPROF_SOURCE_PMU;
		c->events[0].config = tt_rnd(s) & 0xffffff;
		c->events[0].period = periods[tt_rnd(s) % (sizeof(periods) / 8)];
		break;
	default:
		c->events[3].period = 5; /* slot beyond nr_events */
		*expect = EINVAL;
		break;
	}
}

/* One random call. checked: verify "no state change on error". */
static void one_call(int fd, uint64_t *s, int checked, char *big)
{
	struct pmuprof_stats before, after;
	struct pmuprof_config cfg;
	unsigned int op = tt_rnd(s) % 12;
	int ret, err, expect = -1;

	if (checked && tt_stats(fd, &before, NULL, 0))
		FAILF("GET_STATS: %s\n", strerror(errno));
	switch (op) {
	case 0:
	case 1:
	case 2: /* CONFIGURE, mutated */
		tt_clock_config(&cfg, 1000000, 16384);
		mutate(&cfg, s, &expect);
		if (tt_rnd(s) % 3 == 0)
			mutate(&cfg, s, &err), expect = -1;
		ret = ioctl(fd, PMUPROF_IOC_CONFIGURE, &cfg);
		break;
	case 3: { /* CONFIGURE with a random size and tail */
		uint32_t size = (uint32_t)(tt_rnd(s) % 4097);

		tt_clock_config(&cfg, 1000000, 16384);
		memset(big, 0, 8192);
		memcpy(big, &cfg, sizeof(cfg));
		((uint32_t *)big)[0] = size;
		if (size > sizeof(cfg) && tt_rnd(s) % 2) {
			big[sizeof(cfg) + tt_rnd(s) % (size - sizeof(cfg))] = 1;
			expect = E2BIG;
		} else if (size < sizeof(cfg)) {
			expect = EINVAL;
		}
		ret = ioctl(fd, PMUPROF_IOC_CONFIGURE, big);
		break;
	}
	case 4: { /* unknown ioctl numbers and magics */
		unsigned int magic = tt_rnd(s) % 2 ? PMUPROF_IOC_MAGIC : tt_rnd(s) & 0xff;

		/* Stay clear of the magics the VFS answers itself for any file
		 * (FIONBIO & co. 'T', FIFREEZE 'X', FICLONE 0x94, 'f', 0). */
		if (magic == 'T' || magic == 'X' || magic == 0x94 || magic == 'f' || magic == 0)
			magic = PMUPROF_IOC_MAGIC;
		ret = ioctl(fd, _IOC(tt_rnd(s) % 4, magic, 6 + tt_rnd(s) % 250, tt_rnd(s) % 4096),
			    big);
		expect = -1;
		if (ret == 0)
			FAILF("unknown ioctl succeeded\n");
		break;
	}
	case 5: { /* GET_INFO with odd sizes / pointers */
		uint32_t size = (uint32_t)(tt_rnd(s) % 8192);

		memset(big, 0, 8192);
		((uint32_t *)big)[0] = size;
		ret = ioctl(fd, PMUPROF_IOC_GET_INFO, tt_rnd(s) % 8 ? (void *)big : (void *)16);
		break;
	}
	case 6: { /* GET_STATS with odd cpu arrays */
		struct pmuprof_stats st;

		memset(&st, 0, sizeof(st));
		st.size = sizeof(st);
		st.nr_cpus = (uint32_t)tt_rnd(s);
		st.cpu_stats_size = (uint32_t)(tt_rnd(s) % 2 ? sizeof(struct pmuprof_cpu_stats)
							     : tt_rnd(s) % 9000);
		st.cpus_ptr = tt_rnd(s) % 2 ? (uintptr_t)big : tt_rnd(s) % 2 ? 8 : 0;
		if (st.cpus_ptr == (uintptr_t)big)
			st.nr_cpus %= 8192 / (st.cpu_stats_size ? st.cpu_stats_size : 1) + 1;
		ret = ioctl(fd, PMUPROF_IOC_GET_STATS, &st);
		break;
	}
	case 7:
		ret = ioctl(fd, PMUPROF_IOC_START);
		break;
	case 8:
		ret = ioctl(fd, PMUPROF_IOC_STOP);
		break;
	case 9: { /* reads of odd sizes, bad buffers */
		size_t len = tt_rnd(s) % 2 ? tt_rnd(s) % 8192 : PMUPROF_READ_MIN + tt_rnd(s) % 4096;

		ret = (int)read(fd, tt_rnd(s) % 8 ? big : (char *)8, len > 8192 ? 8192 : len);
		if (len < PMUPROF_READ_MIN && ret >= 0)
			FAILF("read of %zu bytes (< READ_MIN) returned %d\n", len, ret);
		return; /* reads may legitimately change nothing or drain */
	}
	case 10: { /* a second opener */
		const char *bad = tt_second_open(O_RDWR);

		if (bad)
			FAILF("%s\n", bad);
		return;
	}
	default: /* a valid config: moves the state */
		tt_clock_config(&cfg, 1000000, 16384);
		ret = ioctl(fd, PMUPROF_IOC_CONFIGURE, &cfg);
		expect = -1;
		break;
	}
	err = ret ? errno : 0;
	pthread_mutex_lock(&lock);
	calls++;
	pthread_mutex_unlock(&lock);
	if (!checked)
		return;
	if (expect > 0 && err != expect && !(op <= 2 && err == EBUSY))
		FAILF("op %u: got %s, want %s\n", op, tt_errname(err), tt_errname(expect));
	if (expect == 0 && err && err != EBUSY)
		FAILF("op %u: got %s, want success\n", op, tt_errname(err));
	if (ret && op != 8 && op != 7) {
		if (tt_stats(fd, &after, NULL, 0))
			FAILF("GET_STATS: %s\n", strerror(errno));
		if (after.state != before.state ||
		    memcmp(after.event_period, before.event_period, sizeof(after.event_period)))
			FAILF("op %u failed with %s but changed the session (state %u -> %u)\n", op,
			      tt_errname(err), before.state, after.state);
	}
}

struct thr {
	int fd;
	unsigned long n;
	uint64_t seed;
	int opener;
};

static void *thread_main(void *arg)
{
	struct thr *t = arg;
	char *big = aligned_alloc(4096, 8192);

	for (unsigned long i = 0; i < t->n; i++) {
		if (t->opener) {
			/* Race open()/close() against the ioctls on the shared fd:
			 * every open must fail with EBUSY while it is held. */
			int fd2 = open(PMUPROF_DEVICE, O_RDWR | O_NONBLOCK);

			if (fd2 >= 0) {
				FAILF("open() succeeded while another file is open\n");
				close(fd2);
			}
		}
		one_call(t->fd, &t->seed, 0, big);
	}
	free(big);
	return NULL;
}

static int final_session(void)
{
	struct pmuprof_config cfg;
	struct pmuprof_stats st;
	static char buf[1 << 20];
	struct tt_tally t = {0};
	int fd = open(PMUPROF_DEVICE, O_RDWR), nonempty = 0;
	ssize_t n;

	if (fd < 0) {
		FAILF("device not reopenable after the fuzzing: %s\n", strerror(errno));
		return -1;
	}
	tt_clock_config(&cfg, 1000000, 16384);
	cfg.ring_size = 1 << 20;
	if (ioctl(fd, PMUPROF_IOC_CONFIGURE, &cfg) || ioctl(fd, PMUPROF_IOC_START)) {
		FAILF("clean session: %s\n", strerror(errno));
		return -1;
	}
	for (volatile unsigned long spin = 0; spin < 300000000ul; spin++)
		;
	if (ioctl(fd, PMUPROF_IOC_STOP)) {
		FAILF("clean session STOP: %s\n", strerror(errno));
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (tt_tally_buf(&t, buf, (size_t)n)) {
			FAILF("clean session: bad record: %s\n", t.bad);
			return -1;
		}
		nonempty = 1;
	}
	if (n < 0)
		FAILF("clean session read: %s\n", strerror(errno));
	if (tt_stats(fd, &st, NULL, 0))
		FAILF("clean session GET_STATS: %s\n", strerror(errno));
	if (!nonempty || !t.n.samples)
		FAILF("clean session produced no samples\n");
	if (t.n.samples + t.n.lost != st.total.captured)
		FAILF("clean session: samples %llu + lost %llu != captured %llu\n",
		      (unsigned long long)t.n.samples, (unsigned long long)t.n.lost,
		      (unsigned long long)st.total.captured);
	printf("ppfuzz: clean session samples=%llu lost=%llu\n", (unsigned long long)t.n.samples,
	       (unsigned long long)t.n.lost);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n = 3000;
	int threads = 3, fd;
	uint64_t seed = (uint64_t)time(NULL) | 1;
	char *big = aligned_alloc(4096, 8192);
	pthread_t tid[16];
	struct thr t[16];
	TT_OPTS(o, TT_UL('n', &n), TT_INT('j', &threads), TT_SEED('s', &seed));

	if (tt_opts_next(argc, argv, "n:j:s:", NULL, o, "ppfuzz") != -1)
		return 2;
	if (threads < 1 || threads > 16)
		threads = 3;
	printf("ppfuzz: seed=%llu iterations=%lu threads=%d\n", (unsigned long long)seed, n,
	       threads);
	fflush(stdout);

	fd = open(PMUPROF_DEVICE, O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		printf("ppfuzz: open: %s\n", strerror(errno));
		return 2;
	}
	for (unsigned long i = 0; i < n; i++)
		one_call(fd, &seed, 1, big);
	close(fd);
	printf("ppfuzz: phase 1 done calls=%lu failures=%d\n", calls, failures);
	fflush(stdout);

	fd = open(PMUPROF_DEVICE, O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		printf("ppfuzz: reopen: %s\n", strerror(errno));
		return 2;
	}
	for (int i = 0; i < threads; i++) {
		t[i].fd = fd;
		t[i].n = n / threads;
		t[i].seed = seed + 7919ull * (i + 1);
		t[i].opener = i == 0;
		pthread_create(&tid[i], NULL, thread_main, &t[i]);
	}
	for (int i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	close(fd); /* closing a possibly running session must stop it */
	printf("ppfuzz: phase 2 done calls=%lu failures=%d\n", calls, failures);
	fflush(stdout);

	final_session();
	printf("ppfuzz: calls=%lu failures=%d\n", calls, failures);
	free(big);
	return failures ? 1 : 0;
}
