// SPDX-License-Identifier: MIT
/*
 * ptsnap: a --call-graph dwarf recording made without the kernel module,
 * for host tests of pmuconv's unwinder. Runs COMMAND under ptrace, stops
 * it -n times (SIGSTOP at random 0.2-2 ms intervals: the sampler, not a
 * timing assertion), and at each stop takes what the module's NMI handler
 * takes: the user registers in DWARF order (PTRACE_GETREGS) and SIZE bytes
 * of stack from %rsp (process_vm_readv, a page at a time, stopping at the
 * first unreadable one), plus a frame-pointer walk of the copy (ustack[],
 * as the module's -g walk would read it). Writes a real .pmu with
 * lib/pmufile's writer: the process, its mappings from /proc/PID/maps with
 * build-ids, one cpu-clock event, samples with PMUPROF_SF_USTACK_COPY.
 *
 *   ptsnap -o OUT.pmu [-n SAMPLES] [-s SIZE] [--cut BYTES] [--corrupt K] [--seed N] -- CMD...
 *
 * COMMAND must print one line on stdout once it is ready to be sampled.
 * --cut BYTES: every copy claims only BYTES valid (a snapshot cut short).
 * -r R: write every sample R times (benchmarks: many samples, few stops).
 * -i US: stop at random 0.2 ms..US intervals (default 2000).
 * --corrupt K: every K-th sample's copy claims more valid bytes than its size.
 * --no-vdso: no VDSO frame (the [vdso] image, as pmuctl writes it: a
 *   recording from before it, whose [vdso] frames cannot be unwound).
 * --garble: well-formed records with random registers and stack bytes (a
 *   seeded mix: random pc, sp, all registers, stack words), for the
 *   unwinder's robustness replay (tests/suites/fuzz_replay_pmufile.sh).
 */
#include <elf.h>
#include <gelf.h>
#include <getopt.h>
#include <libelf.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>

#include "tests/tools/common.h"

#define MAX_FP 64

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ptsnap: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static size_t file_build_id(const char *path, uint8_t *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	Elf *e;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !n && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		while (!n && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0)
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && nh.n_descsz <= 20 &&
			    !memcmp((char *)d->d_buf + noff, "GNU", 4)) {
				memcpy(out, (char *)d->d_buf + doff, nh.n_descsz);
				n = nh.n_descsz;
			}
	}
	elf_end(e);
	close(fd);
	return n;
}

static int with_vdso = 1;

/* The target's [vdso] image (read from it, as pmuctl writes its own). */
static void write_vdso(struct pmufile_writer *w, pid_t pid, uint64_t s, uint64_t e)
{
	size_t len = (size_t)(e - s);
	void *buf = len && len <= (1u << 20) ? malloc(len) : NULL;
	struct iovec l = {buf, len}, r = {(void *)(uintptr_t)s, len};

	if (buf && process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t)len &&
	    pmufile_writer__vdso(w, buf, len))
		die("%s", pmufile_writer__error(w));
	free(buf);
}

static void write_maps(struct pmufile_writer *w, pid_t pid, uint64_t t)
{
	char path[64], line[4608];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct pmufile_mmap m;
		unsigned long long s, e, off;
		char perms[8], file[4096] = "";
		int n = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perms, &off, &n) < 4)
			continue;
		sscanf(line + n, "%4095[^\n]", file);
		memset(&m, 0, sizeof(m));
		m.pid = pid;
		m.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
			 (perms[2] == 'x' ? PROT_EXEC : 0);
		m.time_ns = t;
		m.start = s;
		m.end = e;
		m.pgoff = off;
		snprintf(m.path, sizeof(m.path), "%s", file);
		if (file[0] == '/')
			m.build_id_size = (uint32_t)file_build_id(file, m.build_id);
		if (pmufile_writer__mmap(w, &m))
			die("%s", pmufile_writer__error(w));
		if (with_vdso && !strcmp(file, "[vdso]"))
			write_vdso(w, pid, s, e);
	}
	fclose(f);
}

/* The copy, a page at a time from sp: bytes read until the first fault. */
static uint32_t copy_stack(pid_t pid, uint64_t sp, uint8_t *buf, uint32_t size)
{
	uint32_t got = 0;

	while (got < size) {
		uint64_t a = sp + got;
		uint32_t chunk = (uint32_t)(4096 - (a & 4095));
		if (chunk > size - got)
			chunk = size - got;
		struct iovec l = {buf + got, chunk}, r = {(void *)(uintptr_t)a, chunk};
		if (process_vm_readv(pid, &l, 1, &r, 1, 0) != (ssize_t)chunk)
			break;
		got += chunk;
	}
	return got;
}

/* The frame-pointer walk the module does, over the copy. */
static uint16_t fp_walk(const struct user_regs_struct *r, const uint8_t *stk, uint32_t valid,
			uint64_t *out)
{
	uint64_t fp = r->rbp;
	uint16_t n = 0;

	out[n++] = r->rip;
	while (n < MAX_FP && fp >= r->rsp && fp - r->rsp + 16 <= valid) {
		uint64_t next, ret;
		memcpy(&next, stk + (fp - r->rsp), 8);
		memcpy(&ret, stk + (fp - r->rsp) + 8, 8);
		if (!ret)
			break;
		out[n++] = ret;
		if (next <= fp)
			break;
		fp = next;
	}
	return n;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{"cut", required_argument, 0, 'c'},	{"seed", required_argument, 0, 'S'},
		{"corrupt", required_argument, 0, 'K'}, {"garble", no_argument, 0, 'G'},
		{"no-vdso", no_argument, 0, 'V'},	{0, 0, 0, 0}};
	const char *out = NULL;
	unsigned long n = 200, size = 8192, cut = 0, corrupt = 0, repeat = 1, ius = 2000;
	uint64_t seed = 1;
	int garble = 0;
	int o, pfd[2];
	char err[512];

	tt_prog = "ptsnap";
	while ((o = getopt_long(argc, argv, "+o:n:s:r:i:", lo, NULL)) != -1) {
		if (o == 'o')
			out = optarg;
		else if (o == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (o == 's')
			size = strtoul(optarg, NULL, 0);
		else if (o == 'r')
			repeat = strtoul(optarg, NULL, 0);
		else if (o == 'i')
			ius = strtoul(optarg, NULL, 0);
		else if (o == 'c')
			cut = strtoul(optarg, NULL, 0);
		else if (o == 'G')
			garble = 1;
		else if (o == 'V')
			with_vdso = 0;
		else if (o == 'K')
			corrupt = strtoul(optarg, NULL, 0);
		else if (o == 'S')
			seed = strtoull(optarg, NULL, 0) | 1;
		else
			die("usage: ptsnap -o OUT [-n N] [-s SIZE] [--cut BYTES] [--seed N] -- "
			    "CMD...");
	}
	if (!out || optind >= argc || !n || !repeat || ius < 200 || size < 8 || size % 8 ||
	    size > PMUPROF_USTACK_COPY_MAX)
		die("usage: ptsnap -o OUT [-n N] [-s SIZE (8..65536, multiple of 8)] [--cut BYTES] "
		    "-- CMD...");
	if (pipe(pfd))
		die("pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	close(pfd[1]);
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st)) /* the exec stop */
		die("%s did not start", argv[optind]);
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	char ready[64];
	FILE *rf = fdopen(pfd[0], "r");
	if (!rf || !fgets(ready, sizeof(ready), rf))
		die("%s exited before saying it was ready", argv[optind]);

	struct pmufile_header h;
	memset(&h, 0, sizeof(h));
	snprintf(h.kernel_release, sizeof(h.kernel_release), "ptsnap");
	snprintf(h.hostname, sizeof(h.hostname), "ptsnap");
	snprintf(h.cmdline, sizeof(h.cmdline), "ptsnap %s", argv[optind]);
	h.nr_cpus = 1;
	h.page_size = 4096;
	h.start_session_ns = 1000000000ull;
	h.config_flags = PMUPROF_CF_USTACK | PMUPROF_CF_USTACK_COPY;
	h.stack_depth = MAX_FP;
	h.target = PMUPROF_TARGET_PID;
	h.pid = pid;
	h.info.size = sizeof(h.info);
	h.info.abi_version = PMUPROF_ABI_VERSION;
	h.info.nr_cpus = 1;
	h.info.nr_online = 1;
	struct pmufile_writer *w = pmufile_writer__open(out, &h, err, sizeof(err));
	if (!w)
		die("%s", err);
	pmufile_writer__no_fsync(w);
	struct pmufile_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.source = PMUPROF_SOURCE_NMI_IPI;
	ev.period = 1000000;
	snprintf(ev.name, sizeof(ev.name), "cpu-clock");
	snprintf(ev.unit, sizeof(ev.unit), "ns");
	if (pmufile_writer__event(w, &ev))
		die("%s", pmufile_writer__error(w));
	struct pmufile_process pr;
	memset(&pr, 0, sizeof(pr));
	pr.pid = pid;
	pr.ppid = getpid();
	pr.time_ns = h.start_session_ns;
	snprintf(pr.comm, sizeof(pr.comm), "%s", tt_basename(argv[optind]));
	char exe[64];
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	ssize_t el = readlink(exe, pr.exe, sizeof(pr.exe) - 1);
	if (el > 0)
		pr.build_id_size = (uint32_t)file_build_id(pr.exe, pr.build_id);
	if (pmufile_writer__process(w, &pr))
		die("%s", pmufile_writer__error(w));
	write_maps(w, pid, h.start_session_ns);

	size_t cap = sizeof(struct pmuprof_sample) + MAX_FP * 8 +
		     sizeof(struct pmuprof_sample_ustack) + size;
	uint8_t *rec = calloc(1, cap);
	if (!rec)
		die("out of memory");
	uint64_t t = h.start_session_ns;
	for (unsigned long i = 0; i < n; i++) {
		struct timespec d = {0, (long)(200000 + tt_rnd(&seed) % ((ius - 199) * 1000))};
		nanosleep(&d, NULL);
		kill(pid, SIGSTOP);
		if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
			die("%s ended while being sampled", argv[optind]);
		struct user_regs_struct r;
		if (ptrace(PTRACE_GETREGS, pid, NULL, &r))
			die("PTRACE_GETREGS: %s", strerror(errno));
		memset(rec, 0, cap);
		struct pmuprof_sample *s = (void *)rec;
		uint64_t fp[MAX_FP];
		uint8_t *stk = rec + sizeof(*s) + MAX_FP * 8 + sizeof(struct pmuprof_sample_ustack);
		uint32_t valid = copy_stack(pid, r.rsp, stk, (uint32_t)size);
		uint16_t nu = fp_walk(&r, stk, valid, fp);
		if (cut && cut < valid) {
			memset(stk + cut, 0, valid - cut);
			valid = (uint32_t)cut;
		}
		/* the layout: sample, ustack[nu], ustack copy header, bytes */
		struct pmuprof_sample_ustack u;
		memset(&u, 0, sizeof(u));
		u.regs[PMUPROF_UREG_AX] = r.rax;
		u.regs[PMUPROF_UREG_DX] = r.rdx;
		u.regs[PMUPROF_UREG_CX] = r.rcx;
		u.regs[PMUPROF_UREG_BX] = r.rbx;
		u.regs[PMUPROF_UREG_SI] = r.rsi;
		u.regs[PMUPROF_UREG_DI] = r.rdi;
		u.regs[PMUPROF_UREG_BP] = r.rbp;
		u.regs[PMUPROF_UREG_SP] = r.rsp;
		u.regs[8] = r.r8;
		u.regs[9] = r.r9;
		u.regs[10] = r.r10;
		u.regs[11] = r.r11;
		u.regs[12] = r.r12;
		u.regs[13] = r.r13;
		u.regs[14] = r.r14;
		u.regs[15] = r.r15;
		u.regs[PMUPROF_UREG_IP] = r.rip;
		if (garble) {
			uint64_t g = tt_rnd(&seed);
			if (g & 1) /* pc anywhere, or a few bytes off a real one */
				u.regs[PMUPROF_UREG_IP] =
					g & 2 ? tt_rnd(&seed) : r.rip + (g >> 8) % 64;
			if (g & 4)
				u.regs[PMUPROF_UREG_SP] =
					g & 8 ? tt_rnd(&seed) : r.rsp - 8 * (g >> 16 & 7);
			if (g & 16)
				for (int j = 0; j < PMUPROF_NR_UREGS; j++)
					u.regs[j] = tt_rnd(&seed);
			for (uint32_t j = 0; j + 8 <= valid && (g & 32); j += 8)
				if (tt_rnd(&seed) % 4 == 0) {
					uint64_t x = tt_rnd(&seed);
					memcpy(stk + j, &x, 8);
				}
		}
		u.size = (uint32_t)size;
		u.valid = corrupt && i % corrupt == 0 ? (uint32_t)size + 8 : valid;
		uint8_t *p = rec + sizeof(*s);
		memcpy(p, fp, nu * 8u);
		p += nu * 8u;
		memcpy(p, &u, sizeof(u));
		p += sizeof(u);
		memmove(p, stk, size);
		p += size;
		t += 1000000;
		s->hdr.type = PMUPROF_REC_SAMPLE;
		s->hdr.misc = PMUPROF_MISC_USER;
		s->hdr.size = (uint32_t)(p - rec);
		s->time_ns = t;
		s->ip = r.rip;
		s->period = 1000000;
		s->pid = (uint32_t)pid;
		s->tid = (uint32_t)pid;
		s->source = PMUPROF_SOURCE_NMI_IPI;
		s->sample_flags = PMUPROF_SF_USTACK_COPY;
		s->nr_ustack = nu;
		memcpy(s->comm, pr.comm, sizeof(s->comm));
		for (unsigned long k = 0; k < repeat; k++) {
			s->time_ns = t + k;
			if (pmufile_writer__records(w, rec, s->hdr.size))
				die("%s", pmufile_writer__error(w));
		}
		ptrace(PTRACE_CONT, pid, NULL, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	free(rec);
	if (pmufile_writer__close(w, 0, t, err, sizeof(err)))
		die("%s", err);
	printf("ptsnap: %lu samples of %s into %s\n", n * repeat, argv[optind], out);
	return 0;
}
