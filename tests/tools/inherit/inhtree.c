// SPDX-License-Identifier: GPL-2.0
/*
 * inhtree: a small process tree with a known CPU split, for the
 * PMUPROF_CF_INHERIT VM scenario (tests/vm/scenarios/inherit_tree.sh).
 *
 *   parent      spin_parent        1 unit of CPU time
 *   +- child_a  spin_child_a       2 units
 *   |  +- grandchild spin_grandchild 4 units
 *   +- child_b  spin_child_b       2 units  (main thread)
 *               spin_child_b_thr   1 unit   (a second thread of child_b)
 *
 * so a profile of the whole tree splits 10/20/40/30 % between the four
 * processes (child_b's two threads together). A unit is a fixed number of
 * loop iterations (the same loop in every spin function), so the split
 * holds however the scheduler shares the CPUs and however much time a VM's
 * vCPU loses to its host (a CPU-time budget would count stolen time, during
 * which no sampling NMI can arrive). The parent calibrates the unit first
 * (in calibrate(), about 1/10 of -u of CPU time, not a spin_* function).
 * Each spin function is
 * called from its own run_* function and keeps a frame pointer (see
 * tests/tools/kproto/spin7030.c), so a user stack's second entry names the
 * caller.
 *
 *   inhtree [-u MS] [-c CPU] [-n] [-w FIFO]
 *     -u MS    one unit is about MS ms of CPU time (default 300)
 *     -c CPU   pin the whole tree to CPU (inherited by every process), so
 *              the tree competes with nothing but itself
 *     -n       the grandchild makes itself non-dumpable (PR_SET_DUMPABLE 0)
 *              before it spins: an opener without CAP_SYS_PTRACE must not
 *              get its samples
 *     -w FIFO  build the tree, then wait until a line can be read from FIFO
 *              before any process starts spinning (lets a recorder attach
 *              with -p to an existing tree)
 *
 * Each process prints one line when done (single write, so lines never mix):
 *   inhtree: role=ROLE pid=P ppid=Q func=FUNC cpu_us=N units=U
 * with cpu_us its process CPU time (child_b: both threads; FUNC lists both)
 * and U its units of work.
 * Exit status 0 when every process finished its work and was reaped.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 100000ull /* iterations between CPU-time checks (calibration) */

static unsigned long long unit_ns = 300ull * 1000000;
static unsigned long long unit_iters; /* iterations per unit, calibrated */
static int go_fd = -1;		      /* read end of the start pipe, -1: start at once */
static int gc_nondumpable;
volatile unsigned long long sink;

static unsigned long long cpu_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

#define SPIN_LOOP(x, n)                                                                            \
	for (unsigned long long i = 0; i < (n); i++) {                                             \
		x = x * 6364136223846793005ull + 1442695040888963407ull;                           \
		x ^= x >> 29;                                                                      \
		__asm__ volatile("" : "+r"(x));                                                    \
	}

/* `units` units of work; the frame-address use keeps a frame pointer. */
#define SPIN_BODY(units)                                                                           \
	do {                                                                                       \
		unsigned long long x = (units) | 1, n = (units)*unit_iters;                        \
		__asm__ volatile("" : : "r"(__builtin_frame_address(0)));                          \
		SPIN_LOOP(x, n);                                                                   \
		sink += x;                                                                         \
	} while (0)

/* Iterations per unit: run the loop for a tenth of unit_ns of CPU time. */
__attribute__((noipa)) static void calibrate(void)
{
	unsigned long long x = 1, n = 0, t0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID), dt;

	do {
		SPIN_LOOP(x, CHUNK);
		n += CHUNK;
		dt = cpu_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	} while (dt < unit_ns / 10);
	sink += x;
	unit_iters = (unsigned long long)((double)n * (double)unit_ns / (double)dt);
	if (!unit_iters)
		unit_iters = 1;
}

__attribute__((noipa)) void spin_parent(unsigned long long units)
{
	SPIN_BODY(units);
}

__attribute__((noipa)) void spin_child_a(unsigned long long units)
{
	SPIN_BODY(units);
}

__attribute__((noipa)) void spin_child_b(unsigned long long units)
{
	SPIN_BODY(units);
}

__attribute__((noipa)) void spin_child_b_thr(unsigned long long units)
{
	SPIN_BODY(units);
}

__attribute__((noipa)) void spin_grandchild(unsigned long long units)
{
	SPIN_BODY(units);
}

static void wait_go(void)
{
	char c;

	if (go_fd < 0)
		return;
	/* EOF once the parent closed the last write end: everyone starts */
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	close(go_fd);
	go_fd = -1;
}

static void report(const char *role, const char *func, unsigned int units)
{
	char line[256];
	int n;

	n = snprintf(line, sizeof(line),
		     "inhtree: role=%s pid=%d ppid=%d func=%s cpu_us=%llu units=%u\n", role,
		     (int)getpid(), (int)getppid(), func, cpu_ns(CLOCK_PROCESS_CPUTIME_ID) / 1000,
		     units);
	if (write(STDOUT_FILENO, line, (size_t)n) != n)
		_exit(3);
}

static int reap(pid_t pid, const char *what)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "inhtree: waitpid %s: %s\n", what, strerror(errno));
			return -1;
		}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "inhtree: %s (pid %d) failed: status 0x%x\n", what, (int)pid, st);
		return -1;
	}
	return 0;
}

static pid_t fork_or_die(void)
{
	pid_t p;

	fflush(NULL);
	p = fork();
	if (p < 0) {
		perror("inhtree: fork");
		exit(1);
	}
	return p;
}

__attribute__((noipa)) static void run_grandchild(void)
{
	if (gc_nondumpable && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		perror("inhtree: PR_SET_DUMPABLE");
		_exit(1);
	}
	wait_go();
	spin_grandchild(4);
	report("grandchild", "spin_grandchild", 4);
	_exit(0);
}

__attribute__((noipa)) static void run_child_a(void)
{
	pid_t gc = fork_or_die();

	if (gc == 0)
		run_grandchild();
	wait_go();
	spin_child_a(2);
	if (reap(gc, "grandchild") < 0)
		_exit(1);
	report("child_a", "spin_child_a", 2);
	_exit(0);
}

__attribute__((noipa)) static void *child_b_thread(void *arg)
{
	(void)arg;
	spin_child_b_thr(1);
	return NULL;
}

__attribute__((noipa)) static void run_child_b(void)
{
	pthread_t t;

	wait_go();
	if (pthread_create(&t, NULL, child_b_thread, NULL) != 0) {
		fprintf(stderr, "inhtree: pthread_create failed\n");
		_exit(1);
	}
	spin_child_b(2);
	pthread_join(t, NULL);
	report("child_b", "spin_child_b+spin_child_b_thr", 3);
	_exit(0);
}

__attribute__((noipa)) static int run_parent(const char *fifo)
{
	int gp[2] = {-1, -1}, rc = 0;
	pid_t a, b;

	if (fifo && pipe(gp) < 0) {
		perror("inhtree: pipe");
		return 1;
	}
	go_fd = gp[0];
	calibrate();
	a = fork_or_die();
	if (a == 0) {
		close(gp[1]);
		run_child_a();
	}
	b = fork_or_die();
	if (b == 0) {
		close(gp[1]);
		run_child_b();
	}
	if (fifo) {
		char line[64];
		int fd = open(fifo, O_RDONLY); /* blocks until a writer opens it */

		if (fd < 0 || read(fd, line, sizeof(line)) < 0) {
			perror("inhtree: reading the start FIFO");
			rc = 1;
		}
		if (fd >= 0)
			close(fd);
		close(gp[0]);
		go_fd = -1;
		close(gp[1]); /* EOF on the start pipe: the tree starts */
	}
	spin_parent(1);
	if (reap(a, "child_a") < 0 || reap(b, "child_b") < 0)
		rc = 1;
	report("parent", "spin_parent", 1);
	return rc;
}

int main(int argc, char **argv)
{
	const char *fifo = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "u:c:nw:")) != -1) {
		switch (opt) {
		case 'u':
			unit_ns = strtoull(optarg, NULL, 10) * 1000000ull;
			break;
		case 'c': {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(atoi(optarg), &set);
			if (sched_setaffinity(0, sizeof(set), &set) < 0) {
				perror("inhtree: sched_setaffinity");
				return 1;
			}
			break;
		}
		case 'n':
			gc_nondumpable = 1;
			break;
		case 'w':
			fifo = optarg;
			break;
		default:
			fprintf(stderr, "usage: inhtree [-u MS] [-c CPU] [-n] [-w FIFO]\n");
			return 2;
		}
	}
	if (!unit_ns) {
		fprintf(stderr, "inhtree: -u must be > 0\n");
		return 2;
	}
	return run_parent(fifo);
}
