// SPDX-License-Identifier: MIT
/*
 * pmugen: write a synthetic but valid pmuprof data file, deterministically
 * from a seed, for pmuconv tests and benchmarks.
 *
 * User frames point into real ELF files when --binary is given: addresses
 * are taken inside the binaries' function symbols (.symtab, else .dynsym)
 * and every PT_LOAD segment is recorded as a memory map with the file's
 * build-id, so pmuconv can symbolize them on this host. Kernel frames point
 * into a kallsyms snapshot (--kallsyms FILE, or a synthesized one).
 *
 * Stacks are drawn from a table of --stacks unique stacks with a skewed
 * distribution; generating a sample is a header fill plus one memcpy, so
 * 10 million 32-deep samples take seconds (bounded by disk speed).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/pmufile/pmufile.h"
#include "tests/tools/common.h"

#define MAX_BINARIES 16
#define SYNTH_KFUNCS 512
#define BATCH_BYTES  (4u << 20)

struct opts {
	const char *out;
	uint64_t samples;
	unsigned depth, kdepth;
	int kdepth_set;
	unsigned events, processes, stacks, cpus;
	uint64_t seed;
	uint64_t lost_every;
	int data_addr;
	int abort_file;
	const char *kallsyms;
	const char *binaries[MAX_BINARIES];
	unsigned nr_binaries;
};

static uint64_t rng_state;

static uint64_t rnd_below(uint64_t n)
{
	return n ? tt_splitmix(&rng_state) % n : 0;
}

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "pmugen: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

/* ------------------------------------------------------------------ */
/* ELF binaries                                                        */
/* ------------------------------------------------------------------ */
struct func {
	uint64_t addr, size; /* link-time address */
};

struct segment {
	uint64_t vaddr, memsz, offset;
	uint32_t prot;
};

struct binary {
	char path[4096];
	int pie; /* ET_DYN: loaded at a base */
	uint8_t build_id[20];
	uint32_t build_id_size;
	struct segment segs[8];
	unsigned nr_segs;
	struct func *funcs;
	size_t nr_funcs;
};

static int in_file(size_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

static void elf_funcs(struct binary *b, const uint8_t *m, size_t size, const Elf64_Ehdr *eh,
		      uint32_t want)
{
	const Elf64_Shdr *sh = (const void *)(m + eh->e_shoff);

	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *s = &sh[i];
		size_t n;

		if (s->sh_type != want || s->sh_entsize != sizeof(Elf64_Sym) ||
		    !in_file(size, s->sh_offset, s->sh_size))
			continue;
		n = s->sh_size / sizeof(Elf64_Sym);
		b->funcs = realloc(b->funcs, (b->nr_funcs + n) * sizeof(*b->funcs));
		if (!b->funcs)
			die("out of memory reading %s", b->path);
		for (size_t k = 0; k < n; k++) {
			const Elf64_Sym *sym = (const void *)(m + s->sh_offset + k * sizeof(*sym));

			if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC || !sym->st_value ||
			    !sym->st_size || sym->st_shndx == SHN_UNDEF)
				continue;
			b->funcs[b->nr_funcs++] = (struct func){sym->st_value, sym->st_size};
		}
	}
}

static void load_binary(struct binary *b, const char *path)
{
	struct stat st;
	const uint8_t *m;
	const Elf64_Ehdr *eh;
	int fd = open(path, O_RDONLY);

	memset(b, 0, sizeof(*b));
	snprintf(b->path, sizeof(b->path), "%s", path);
	if (fd < 0 || fstat(fd, &st) < 0)
		die("cannot open binary %s", path);
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED || (size_t)st.st_size < sizeof(Elf64_Ehdr))
		die("cannot map binary %s", path);
	eh = (const void *)m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_file((size_t)st.st_size, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)) ||
	    (eh->e_shnum && (eh->e_shentsize != sizeof(Elf64_Shdr) ||
			     !in_file((size_t)st.st_size, eh->e_shoff,
				      (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))))
		die("%s is not a 64-bit ELF file pmugen can read", path);
	b->pie = eh->e_type == ET_DYN;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const void *)(m + eh->e_phoff + i * sizeof(*ph));

		if (ph->p_type == PT_NOTE && !b->build_id_size &&
		    in_file((size_t)st.st_size, ph->p_offset, ph->p_filesz))
			b->build_id_size = (uint32_t)tt_elf_note_build_id(
				m, ph->p_offset, ph->p_offset + ph->p_filesz, b->build_id);
		if (ph->p_type == PT_LOAD && b->nr_segs < 8) {
			struct segment *s = &b->segs[b->nr_segs++];

			s->vaddr = ph->p_vaddr;
			s->memsz = ph->p_memsz;
			s->offset = ph->p_offset;
			s->prot = ((ph->p_flags & PF_R) ? PROT_READ : 0) |
				  ((ph->p_flags & PF_W) ? PROT_WRITE : 0) |
				  ((ph->p_flags & PF_X) ? PROT_EXEC : 0);
		}
	}
	elf_funcs(b, m, (size_t)st.st_size, eh, SHT_SYMTAB);
	if (!b->nr_funcs)
		elf_funcs(b, m, (size_t)st.st_size, eh, SHT_DYNSYM);
	munmap((void *)m, (size_t)st.st_size);
	if (!b->nr_segs)
		die("%s has no loadable segments", path);
}

/* A synthetic binary when none is given: 64 functions in one text segment. */
static void synth_binary(struct binary *b, unsigned i)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->path, sizeof(b->path), "/pmugen/lib%u.so", i);
	b->pie = 1;
	b->segs[0] = (struct segment){
		.vaddr = 0x1000, .memsz = 0x41000, .offset = 0x1000, .prot = PROT_READ | PROT_EXEC};
	b->nr_segs = 1;
	b->nr_funcs = 64;
	b->funcs = calloc(b->nr_funcs, sizeof(*b->funcs));
	for (size_t k = 0; k < b->nr_funcs; k++)
		b->funcs[k] = (struct func){0x1000 + k * 0x1000, 0x800};
	b->build_id_size = 20;
	for (int k = 0; k < 20; k++)
		b->build_id[k] = (uint8_t)(i * 31 + k);
}

/* ------------------------------------------------------------------ */
/* Kernel symbols                                                      */
/* ------------------------------------------------------------------ */
static char *ksyms_text;
static size_t ksyms_len;
static uint64_t *kfuncs;
static size_t nr_kfuncs;

static void load_kallsyms(const char *path)
{
	size_t cap = 1 << 16;
	FILE *fp;

	if (!path) {
		/* synthesized snapshot: ffffffff81000000 + i * 0x400 */
		ksyms_text = malloc(SYNTH_KFUNCS * 64);
		kfuncs = calloc(SYNTH_KFUNCS, sizeof(*kfuncs));
		for (unsigned i = 0; i < SYNTH_KFUNCS; i++) {
			kfuncs[nr_kfuncs++] = 0xffffffff81000000ull + i * 0x400ull;
			ksyms_len +=
				(size_t)sprintf(ksyms_text + ksyms_len,
						"%016" PRIx64 " T pmugen_kfunc_%u\n", kfuncs[i], i);
		}
		return;
	}
	fp = fopen(path, "r");
	if (!fp)
		die("cannot read kallsyms snapshot %s", path);
	ksyms_text = malloc(cap);
	for (;;) {
		size_t n = fread(ksyms_text + ksyms_len, 1, cap - ksyms_len, fp);

		ksyms_len += n;
		if (ksyms_len < cap)
			break;
		cap *= 2;
		ksyms_text = realloc(ksyms_text, cap);
	}
	fclose(fp);
	kfuncs = calloc(ksyms_len / 20 + 1, sizeof(*kfuncs));
	for (char *line = ksyms_text; line < ksyms_text + ksyms_len;) {
		char *nl = memchr(line, '\n', (size_t)(ksyms_text + ksyms_len - line));
		uint64_t a;
		char t;

		if (sscanf(line, "%" SCNx64 " %c", &a, &t) == 2 && (t == 'T' || t == 't') && a)
			kfuncs[nr_kfuncs++] = a;
		if (!nl)
			break;
		line = nl + 1;
	}
	if (!nr_kfuncs)
		die("no text symbols with addresses in %s (was it read without privileges?)", path);
}

/* ------------------------------------------------------------------ */
/* Processes, stacks, samples                                          */
/* ------------------------------------------------------------------ */
struct proc {
	int32_t pid;
	char comm[16];
	unsigned bins[4]; /* indexes into binaries[]; bins[0] is the executable */
	unsigned nr_bins;
	uint64_t base[4]; /* load bias of each */
};

struct stack {
	unsigned proc;
	uint16_t nk, nu;
	uint64_t *frames; /* kstack then ustack, innermost first */
};

static struct binary binaries[MAX_BINARIES + 4];
static unsigned nr_binaries;
static struct proc *procs;
static struct stack *stacks;

static uint64_t user_addr(const struct proc *p, unsigned which)
{
	const struct binary *b = &binaries[p->bins[which]];
	const struct func *f = &b->funcs[rnd_below(b->nr_funcs)];

	/* an address inside the function, past its first byte (a return
	 * address or a sampled IP, never the symbol start itself) */
	return p->base[which] + f->addr + 1 + rnd_below(f->size > 1 ? f->size - 1 : 1);
}

static void make_stacks(const struct opts *o)
{
	stacks = calloc(o->stacks, sizeof(*stacks));
	for (unsigned s = 0; s < o->stacks; s++) {
		struct stack *st = &stacks[s];
		const struct proc *p;
		unsigned nk = (rnd_below(10) < 3) ? o->kdepth : 0;
		unsigned nu = o->depth - nk;

		st->proc = (unsigned)rnd_below(o->processes);
		p = &procs[st->proc];
		/* vary depths a little so folded stacks differ in length */
		if (nu > 2)
			nu -= (unsigned)rnd_below(nu / 4 + 1);
		st->nk = (uint16_t)nk;
		st->nu = (uint16_t)nu;
		st->frames = calloc(nk + nu + 1, sizeof(uint64_t));
		for (unsigned i = 0; i < nk; i++)
			st->frames[i] = kfuncs[rnd_below(nr_kfuncs)] + 1 + rnd_below(0x100);
		/* outermost user frame in the executable, inner ones anywhere */
		for (unsigned i = 0; i < nu; i++) {
			unsigned which = i + 1 == nu ? 0 : (unsigned)rnd_below(p->nr_bins);

			st->frames[nk + i] = user_addr(p, which);
		}
	}
}

static void write_maps(struct pmufile_writer *w, const struct opts *o)
{
	for (unsigned i = 0; i < o->processes; i++) {
		struct proc *p = &procs[i];
		const struct binary *exe = &binaries[p->bins[0]];
		struct pmufile_process pr;

		memset(&pr, 0, sizeof(pr));
		pr.pid = p->pid;
		pr.ppid = 1;
		pr.time_ns = 1000000000ull;
		snprintf(pr.comm, sizeof(pr.comm), "%s", p->comm);
		snprintf(pr.exe, sizeof(pr.exe), "%s", exe->path);
		memcpy(pr.build_id, exe->build_id, sizeof(pr.build_id));
		pr.build_id_size = exe->build_id_size;
		pr.exited = i % 3 == 2;
		if (pmufile_writer__process(w, &pr))
			die("%s", pmufile_writer__error(w));
		for (unsigned k = 0; k < p->nr_bins; k++) {
			const struct binary *b = &binaries[p->bins[k]];

			for (unsigned s = 0; s < b->nr_segs; s++) {
				struct pmufile_mmap m;
				uint64_t start = (p->base[k] + b->segs[s].vaddr) & ~0xfffull;

				memset(&m, 0, sizeof(m));
				m.pid = p->pid;
				m.prot = b->segs[s].prot;
				m.time_ns = pr.time_ns;
				m.start = start;
				m.end = (p->base[k] + b->segs[s].vaddr + b->segs[s].memsz + 0xfff) &
					~0xfffull;
				m.pgoff = b->segs[s].offset & ~0xfffull;
				snprintf(m.path, sizeof(m.path), "%s", b->path);
				memcpy(m.build_id, b->build_id, sizeof(m.build_id));
				m.build_id_size = b->build_id_size;
				if (pmufile_writer__mmap(w, &m))
					die("%s", pmufile_writer__error(w));
			}
		}
	}
}

static const char *const event_names[] = {"cycles",	   "instructions",     "llc-misses",
					  "branch-misses", "dtlb-load-misses", "cpu-clock"};

static void usage(FILE *to)
{
	fprintf(to,
		"usage: pmugen -o FILE [options]\n"
		"  -o, --output FILE      file to write (required)\n"
		"  -n, --samples N        sample records (default 1000)\n"
		"  -d, --depth N          frames per stack, kernel + user (default 16, max %d)\n"
		"  -k, --kdepth N         kernel frames in kernel-mode stacks (default depth/4)\n"
		"  -e, --events N         events, samples spread over them (default 1, max 6)\n"
		"  -p, --processes N      processes (default 4)\n"
		"  -S, --stacks N         unique stacks to draw from (default 1000)\n"
		"  -c, --cpus N           CPUs (default 4)\n"
		"  -s, --seed N           random seed (default 1); same seed, same bytes\n"
		"  -b, --binary PATH      ELF file to map into processes (repeatable, max %d);\n"
		"                         user frames fall inside its function symbols\n"
		"  -K, --kallsyms FILE    kallsyms snapshot to embed (default: synthesized)\n"
		"  -l, --lost-every N     a LOST record after every N samples (default 0: none)\n"
		"  -a, --data-addr        samples carry data addresses and page sizes\n"
		"      --no-trailer       leave the file truncated (no trailer), as a killed "
		"recorder would\n",
		PMUPROF_MAX_DEPTH, MAX_BINARIES);
}

static uint64_t num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end)
		die("%s expects a number", what);
	return v;
}

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{"output", 1, 0, 'o'},	  {"samples", 1, 0, 'n'},
		{"depth", 1, 0, 'd'},	  {"kdepth", 1, 0, 'k'},
		{"events", 1, 0, 'e'},	  {"processes", 1, 0, 'p'},
		{"stacks", 1, 0, 'S'},	  {"cpus", 1, 0, 'c'},
		{"seed", 1, 0, 's'},	  {"binary", 1, 0, 'b'},
		{"kallsyms", 1, 0, 'K'},  {"lost-every", 1, 0, 'l'},
		{"data-addr", 0, 0, 'a'}, {"no-trailer", 0, 0, 'T'},
		{"help", 0, 0, 'h'},	  {0, 0, 0, 0},
	};
	int c;

	*o = (struct opts){.samples = 1000,
			   .depth = 16,
			   .events = 1,
			   .processes = 4,
			   .stacks = 1000,
			   .cpus = 4,
			   .seed = 1};
	while ((c = getopt_long(argc, argv, "o:n:d:k:e:p:S:c:s:b:K:l:ah", lo, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'n':
			o->samples = num(optarg, "--samples");
			break;
		case 'd':
			o->depth = (unsigned)num(optarg, "--depth");
			break;
		case 'k':
			o->kdepth = (unsigned)num(optarg, "--kdepth");
			o->kdepth_set = 1;
			break;
		case 'e':
			o->events = (unsigned)num(optarg, "--events");
			break;
		case 'p':
			o->processes = (unsigned)num(optarg, "--processes");
			break;
		case 'S':
			o->stacks = (unsigned)num(optarg, "--stacks");
			break;
		case 'c':
			o->cpus = (unsigned)num(optarg, "--cpus");
			break;
		case 's':
			o->seed = num(optarg, "--seed");
			break;
		case 'b':
			if (o->nr_binaries == MAX_BINARIES)
				die("at most %s --binary options", "16");
			o->binaries[o->nr_binaries++] = optarg;
			break;
		case 'K':
			o->kallsyms = optarg;
			break;
		case 'l':
			o->lost_every = num(optarg, "--lost-every");
			break;
		case 'a':
			o->data_addr = 1;
			break;
		case 'T':
			o->abort_file = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (!o->out || optind != argc) {
		usage(stderr);
		exit(2);
	}
	if (!o->depth || o->depth > PMUPROF_MAX_DEPTH)
		die("--depth must be 1..%s", "256");
	if (!o->kdepth_set)
		o->kdepth = o->depth / 4;
	if (o->kdepth >= o->depth)
		die("--kdepth must be below --depth (user frames are always present)%s", "");
	if (!o->events || o->events > 6)
		die("--events must be 1..%s", "6");
	if (!o->processes || o->processes > 100000 || !o->stacks || !o->cpus)
		die("--processes, --stacks and --cpus must be positive%s", "");
}

int main(int argc, char **argv)
{
	struct opts o;
	struct pmufile_header h;
	struct pmufile_writer *w;
	struct pmuprof_stats st;
	char err[1024];
	uint8_t *batch;
	size_t len = 0;
	uint64_t t, lost = 0, ev_samples[PMUPROF_MAX_EVENTS] = {0};

	parse(argc, argv, &o);
	rng_state = o.seed;

	/* binaries: the given ones, else synthetic stand-ins */
	for (unsigned i = 0; i < o.nr_binaries; i++) {
		load_binary(&binaries[nr_binaries], o.binaries[i]);
		if (!binaries[nr_binaries].nr_funcs)
			die("%s has no function symbols to sample", o.binaries[i]);
		nr_binaries++;
	}
	if (!nr_binaries)
		for (unsigned i = 0; i < 4; i++)
			synth_binary(&binaries[nr_binaries++], i);
	load_kallsyms(o.kallsyms);

	procs = calloc(o.processes, sizeof(*procs));
	for (unsigned i = 0; i < o.processes; i++) {
		struct proc *p = &procs[i];
		const char *slash;

		p->pid = 1000 + (int32_t)i;
		p->bins[0] = i % nr_binaries;
		p->nr_bins = 1;
		/* a couple of other binaries as "libraries" */
		for (unsigned k = 1; k < 3 && k < nr_binaries; k++)
			p->bins[p->nr_bins++] = (i + k) % nr_binaries;
		for (unsigned k = 0; k < p->nr_bins; k++) {
			const struct binary *b = &binaries[p->bins[k]];

			if (!b->pie)
				p->base[k] = 0;
			else if (k == 0)
				p->base[k] = 0x555555554000ull;
			else
				p->base[k] = 0x7f0000000000ull + (uint64_t)k * 0x10000000ull;
		}
		slash = strrchr(binaries[p->bins[0]].path, '/');
		snprintf(p->comm, sizeof(p->comm), "%s",
			 slash ? slash + 1 : binaries[p->bins[0]].path);
	}
	/* two non-PIE executables cannot share a process's address space */
	for (unsigned i = 0; i < o.processes; i++)
		for (unsigned k = 1; k < procs[i].nr_bins; k++)
			if (!binaries[procs[i].bins[k]].pie)
				procs[i].nr_bins = k;
	make_stacks(&o);

	memset(&h, 0, sizeof(h));
	snprintf(h.kernel_release, sizeof(h.kernel_release), "6.1.0-pmugen");
	snprintf(h.hostname, sizeof(h.hostname), "pmugen");
	snprintf(h.cmdline, sizeof(h.cmdline), "pmugen seed=%" PRIu64, o.seed);
	h.cpu_vendor = PMUPROF_VENDOR_INTEL;
	h.cpu_family = 6;
	h.cpu_model = 0x55;
	snprintf(h.cpu_vendor_string, sizeof(h.cpu_vendor_string), "GenuineIntel");
	h.nr_cpus = o.cpus;
	h.page_size = 4096;
	h.start_realtime_ns = 1700000000000000000ull;
	h.start_session_ns = 1000000000ull;
	h.config_flags =
		PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK | (o.data_addr ? PMUPROF_CF_DATA_ADDR : 0);
	h.stack_depth = o.depth;
	h.target = PMUPROF_TARGET_ALL;
	h.pid = -1;
	h.info.size = sizeof(h.info);
	h.info.abi_version = PMUPROF_ABI_VERSION;
	h.info.nr_cpus = o.cpus;
	h.info.nr_online = o.cpus;

	w = pmufile_writer__open(o.out, &h, err, sizeof(err));
	if (!w)
		die("%s", err);
	pmufile_writer__no_fsync(w); /* scratch data: the page cache is enough */
	for (unsigned i = 0; i < o.events; i++) {
		struct pmufile_event ev;
		int clock = !strcmp(event_names[i], "cpu-clock");

		memset(&ev, 0, sizeof(ev));
		ev.index = i;
		ev.source = clock ? PMUPROF_SOURCE_NMI_IPI : PMUPROF_SOURCE_PMU;
		ev.config = clock ? 0 : 0x53003c + i;
		ev.period = clock ? 1000000 : 100000;
		snprintf(ev.name, sizeof(ev.name), "%s", event_names[i]);
		snprintf(ev.unit, sizeof(ev.unit), "%s", clock ? "ns" : "events");
		if (pmufile_writer__event(w, &ev))
			die("%s", pmufile_writer__error(w));
	}
	if (pmufile_writer__kallsyms(w, ksyms_text, ksyms_len))
		die("%s", pmufile_writer__error(w));
	{
		uint8_t kid[20];

		for (int i = 0; i < 20; i++)
			kid[i] = (uint8_t)(0x40 + i);
		pmufile_writer__kernel_build_id(w, kid, sizeof(kid));
	}
	write_maps(w, &o);

	batch = malloc(BATCH_BYTES);
	t = h.start_session_ns;
	for (uint64_t n = 0; n < o.samples; n++) {
		/* skewed choice: min of two uniforms favours low indexes */
		uint64_t r1 = rnd_below(o.stacks), r2 = rnd_below(o.stacks);
		const struct stack *sk = &stacks[r1 < r2 ? r1 : r2];
		const struct proc *p = &procs[sk->proc];
		struct pmuprof_sample *s;
		size_t size = sizeof(*s) + (sk->nk + sk->nu) * sizeof(uint64_t) +
			      (o.data_addr ? sizeof(struct pmuprof_sample_addr) : 0);
		uint8_t *q;

		if (len + size + sizeof(struct pmuprof_lost) > BATCH_BYTES) {
			if (pmufile_writer__records(w, batch, len))
				die("%s", pmufile_writer__error(w));
			len = 0;
		}
		s = (void *)(batch + len);
		memset(s, 0, sizeof(*s));
		s->hdr.type = PMUPROF_REC_SAMPLE;
		s->hdr.misc = sk->nk ? PMUPROF_MISC_KERNEL : PMUPROF_MISC_USER;
		s->hdr.size = (uint32_t)size;
		s->time_ns = t;
		s->ip = sk->frames[0]; /* kstack[0] in kernel mode, else ustack[0] */
		s->event = (uint16_t)(n % o.events);
		s->source = !strcmp(event_names[s->event], "cpu-clock") ? PMUPROF_SOURCE_NMI_IPI
									: PMUPROF_SOURCE_PMU;
		s->period = s->source == PMUPROF_SOURCE_NMI_IPI ? 1000000 : 100000;
		s->pid = (uint32_t)p->pid;
		s->tid = (uint32_t)p->pid + (uint32_t)(n & 1);
		s->cpu = (uint32_t)(n % o.cpus);
		s->nr_kstack = sk->nk;
		s->nr_ustack = sk->nu;
		memcpy(s->comm, p->comm, sizeof(s->comm));
		q = (uint8_t *)(s + 1);
		if (o.data_addr) {
			struct pmuprof_sample_addr *a = (void *)q;
			static const uint8_t pages[] = {PMUPROF_PAGE_4K, PMUPROF_PAGE_4K,
							PMUPROF_PAGE_2M, PMUPROF_PAGE_1G,
							PMUPROF_PAGE_UNKNOWN};

			s->sample_flags |= PMUPROF_SF_ADDR;
			memset(a, 0, sizeof(*a));
			a->data_page = pages[(n * 7 + sk->proc) % 5];
			a->data_addr = a->data_page == PMUPROF_PAGE_UNKNOWN
					       ? 0
					       : 0x7f1000000000ull + ((n * 64) & 0xffffff);
			a->code_page = PMUPROF_PAGE_4K;
			a->addr_source = PMUPROF_ADDR_SRC_DECODE;
			a->precision = PMUPROF_ADDR_PREC_EXACT;
			a->addr_status =
				a->data_addr ? PMUPROF_ADDR_OK : PMUPROF_ADDR_NO_MEM_OPERAND;
			a->access = a->data_addr ? 1 : 0;
			a->access_size = a->data_addr ? 8 : 0;
			q += sizeof(*a);
		}
		memcpy(q, sk->frames, (sk->nk + sk->nu) * sizeof(uint64_t));
		len += size;
		ev_samples[s->event]++;
		t += 1000 + (n & 0x3ff);

		if (o.lost_every && (n + 1) % o.lost_every == 0) {
			struct pmuprof_lost *l = (void *)(batch + len);

			memset(l, 0, sizeof(*l));
			l->hdr.type = PMUPROF_REC_LOST;
			l->hdr.size = sizeof(*l);
			l->cpu = (uint32_t)(n % o.cpus);
			l->time_ns = t;
			l->lost = 1 + (n / o.lost_every) % 7;
			lost += l->lost;
			len += sizeof(*l);
		}
	}
	if (len && pmufile_writer__records(w, batch, len))
		die("%s", pmufile_writer__error(w));
	free(batch);

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	st.nr_cpus = o.cpus;
	st.cpu_stats_size = sizeof(struct pmuprof_cpu_stats);
	st.state = PMUPROF_STATE_STOPPED;
	st.start_ns = h.start_session_ns;
	st.stop_ns = t;
	st.total.samples = o.samples;
	st.total.captured = o.samples + lost;
	st.total.lost = lost;
	for (unsigned i = 0; i < o.events; i++) {
		st.event_samples[i] = ev_samples[i];
		st.event_period[i] = 100000;
	}
	st.event_lost[0] = lost; /* LOST records carry no event: charge the first */
	if (pmufile_writer__stats(w, &st))
		die("%s", pmufile_writer__error(w));
	if (o.abort_file) {
		pmufile_writer__abort(w);
		return 0;
	}
	if (pmufile_writer__close(w, h.start_realtime_ns + (t - h.start_session_ns), t, err,
				  sizeof(err)))
		die("%s", err);
	return 0;
}
