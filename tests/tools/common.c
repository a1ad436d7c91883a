// SPDX-License-Identifier: MIT
/* tests/tools: what the test tools share (common.h). */
#include <elf.h>
#include <stdarg.h>
#include <time.h>

#include "tests/tools/common.h"

const char *tt_prog = "test";
int tt_failures;

const char *tt_errname(int err)
{
	const char *name = err ? strerrorname_np(err) : "OK";

	return name ? name : "E?";
}

int tt_errnum(const char *name)
{
	for (int e = 0; e < 4096; e++)
		if (!strcmp(tt_errname(e), name))
			return e;
	return -1;
}

const char *tt_second_open(int flags)
{
	static __thread char msg[128];
	int fd2 = open(PMUPROF_DEVICE, flags);

	if (fd2 >= 0) {
		close(fd2);
		return "second open() succeeded while the device is held";
	}
	if (errno != EBUSY) {
		snprintf(msg, sizeof(msg), "second open(): %s, want EBUSY", strerror(errno));
		return msg;
	}
	return NULL;
}

double tt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *tt_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

char *tt_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *p = NULL, *q;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 65536 > cap) {
			q = realloc(p, cap = cap ? cap * 2 : 1 << 20);
			if (!q) {
				free(p);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			p = q;
		}
		r = fread(p + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return p;
}

void tt_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: FAIL: ", tt_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	tt_failures++;
}

void tt_clock_config(struct pmuprof_config *c, uint64_t period_ns, uint32_t ring)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->nr_events = 1;
	c->flags = PMUPROF_CF_KSTACK | PMUPROF_CF_USTACK;
	c->ring_size = ring;
	c->events[0].source = PMUPROF_SOURCE_NMI_IPI;
	c->events[0].period = period_ns;
}

int tt_stats(int fd, struct pmuprof_stats *st, struct pmuprof_cpu_stats *cpus, uint32_t nr)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	st->cpu_stats_size = sizeof(struct pmuprof_cpu_stats);
	st->nr_cpus = cpus ? nr : 0;
	st->cpus_ptr = (uintptr_t)cpus;
	return ioctl(fd, PMUPROF_IOC_GET_STATS, st) ? -errno : 0;
}

int tt_tally_buf(struct tt_tally *t, const void *buf, size_t len)
{
	for (size_t off = 0; off < len;) {
		const struct pmuprof_record_header *h = (const void *)((const char *)buf + off);

		t->bad = pmufile__check_record(h, len - off, PMUFILE_CHECK_EXACT);
		if (t->bad) {
			t->bad_off = off;
			return -1;
		}
		pmufile__count_record(&t->n, h);
		if (h->type == PMUPROF_REC_SAMPLE) {
			const struct pmuprof_sample *s = (const void *)h;

			if (s->source <= PMUPROF_SOURCE_PEBS)
				t->by_source[s->source]++;
		}
		off += h->size;
	}
	t->bytes += len;
	return 0;
}

int tt_check_stats(const char *prefix, const struct pmufile_counts *n,
		   const struct pmuprof_stats *st)
{
	int bad = 0;

#define CHECK(ok, ...)                                                                             \
	do {                                                                                       \
		if (!(ok)) {                                                                       \
			printf("%sCHECK FAILED: ", prefix);                                        \
			printf(__VA_ARGS__);                                                       \
			putchar('\n');                                                             \
			bad++;                                                                     \
		}                                                                                  \
	} while (0)
#define U(x) ((unsigned long long)(x))
	CHECK(n->samples == st->total.samples, "samples read %llu != stats.samples %llu",
	      U(n->samples), U(st->total.samples));
	CHECK(n->samples + n->lost == st->total.captured,
	      "samples %llu + lost %llu != captured %llu", U(n->samples), U(n->lost),
	      U(st->total.captured));
	CHECK(n->lost == st->total.lost, "LOST records sum %llu != stats.lost %llu", U(n->lost),
	      U(st->total.lost));
	for (unsigned int e = 0; e < PMUPROF_MAX_EVENTS; e++)
		CHECK(n->event_samples[e] == st->event_samples[e],
		      "event %u: read %llu != stats %llu", e, U(n->event_samples[e]),
		      U(st->event_samples[e]));
	/* missed samples: every NMI IPI taken was sent, and the sum adds up */
	CHECK(st->total.ipis_taken <= st->total.ipis_sent, "NMI IPIs taken %llu > sent %llu",
	      U(st->total.ipis_taken), U(st->total.ipis_sent));
	CHECK(st->ipis_unanswered == st->total.ipis_sent - st->total.ipis_taken,
	      "ipis_unanswered %llu != sent %llu - taken %llu", U(st->ipis_unanswered),
	      U(st->total.ipis_sent), U(st->total.ipis_taken));
	CHECK(st->missed == st->ticks_missed + st->total.ipis_outstanding + st->ipis_unanswered,
	      "missed %llu != ticks %llu + outstanding %llu + unanswered %llu", U(st->missed),
	      U(st->ticks_missed), U(st->total.ipis_outstanding), U(st->ipis_unanswered));
#undef U
#undef CHECK
	return bad;
}

uint64_t tt_user_ip(const struct pmufile_sample_view *v)
{
	if (v->s->hdr.misc & PMUPROF_MISC_USER)
		return v->s->ip;
	return v->s->nr_ustack ? v->ustack[0] : 0;
}

/* ---- ELF ---------------------------------------------------------------- */

static bool in_image(const struct tt_elf *e, uint64_t off, uint64_t size)
{
	return off <= e->len && size <= e->len - off;
}

int tt_elf_note_build_id(const void *image, uint64_t off, uint64_t end, uint8_t *id)
{
	const char *m = image;

	while (end - off >= sizeof(Elf64_Nhdr)) {
		const Elf64_Nhdr *nh = (const void *)(m + off);
		uint64_t name = off + sizeof(*nh), desc = name + ((nh->n_namesz + 3) & ~3u);

		if (desc + nh->n_descsz > end)
			break;
		if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
		    !memcmp(m + name, "GNU", 4) && nh->n_descsz <= 20) {
			memcpy(id, m + desc, nh->n_descsz);
			return (int)nh->n_descsz;
		}
		off = desc + ((nh->n_descsz + 3) & ~3u);
	}
	return 0;
}

int tt_elf__load(struct tt_elf *e, const char *path)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;

	memset(e, 0, sizeof(*e));
	e->image = tt_slurp(path, &e->len);
	if (!e->image)
		return -errno;
	eh = (const void *)e->image;
	if (e->len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    !in_image(e, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(*sh)) ||
	    !in_image(e, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)))
		return -ENOEXEC;
	sh = (const void *)(e->image + eh->e_shoff);
	for (unsigned int i = 0; i < eh->e_shnum && !e->build_id_len; i++)
		if (sh[i].sh_type == SHT_NOTE && in_image(e, sh[i].sh_offset, sh[i].sh_size))
			e->build_id_len =
				tt_elf_note_build_id(e->image, sh[i].sh_offset,
						     sh[i].sh_offset + sh[i].sh_size, e->build_id);
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *st = &sh[i], *str = &sh[st->sh_link % eh->e_shnum];
		size_t n = st->sh_size / sizeof(Elf64_Sym);

		if (st->sh_type != SHT_SYMTAB || !in_image(e, st->sh_offset, st->sh_size) ||
		    !in_image(e, str->sh_offset, str->sh_size))
			continue;
		e->funcs = realloc(e->funcs, (e->nr_funcs + n) * sizeof(*e->funcs));
		if (!e->funcs)
			return -ENOMEM;
		for (size_t k = 0; k < n; k++) {
			const Elf64_Sym *s = (const Elf64_Sym *)(e->image + st->sh_offset) + k;
			struct tt_func *fn = &e->funcs[e->nr_funcs];

			if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || !s->st_value ||
			    s->st_name >= str->sh_size ||
			    !memchr(e->image + str->sh_offset + s->st_name, 0,
				    str->sh_size - s->st_name))
				continue;
			fn->name = e->image + str->sh_offset + s->st_name;
			fn->start = s->st_value;
			fn->end = s->st_value + (s->st_size ? s->st_size : 1);
			fn->hits = 0;
			e->nr_funcs++;
		}
	}
	return e->nr_funcs ? 0 : -ENOENT;
}

void tt_elf__free(struct tt_elf *e)
{
	free(e->funcs);
	free(e->image);
	memset(e, 0, sizeof(*e));
}

struct tt_func *tt_elf__func_at(const struct tt_elf *e, uint64_t vaddr)
{
	for (size_t i = 0; i < e->nr_funcs; i++)
		if (vaddr >= e->funcs[i].start && vaddr < e->funcs[i].end)
			return &e->funcs[i];
	return NULL;
}

struct tt_func *tt_elf__func(const struct tt_elf *e, const char *name)
{
	for (size_t i = 0; i < e->nr_funcs; i++)
		if (!strcmp(e->funcs[i].name, name))
			return &e->funcs[i];
	return NULL;
}

int tt_elf__vaddr(const struct tt_elf *e, uint64_t off, uint64_t *vaddr)
{
	const Elf64_Ehdr *eh = (const void *)e->image;
	const Elf64_Phdr *ph = (const void *)(e->image + eh->e_phoff);

	for (unsigned int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && off >= ph[i].p_offset &&
		    off < ph[i].p_offset + ph[i].p_filesz) {
			*vaddr = off - ph[i].p_offset + ph[i].p_vaddr;
			return 0;
		}
	return -1;
}

struct tt_func *tt_elf__at(const struct tt_elf *e, const struct pmufile_mmap *m, uint64_t ip)
{
	uint64_t vaddr;

	if (tt_elf__vaddr(e, ip - m->start + m->pgoff, &vaddr))
		return NULL;
	return tt_elf__func_at(e, vaddr);
}

bool tt_elf__same_build(const struct tt_elf *e, const struct pmufile_mmap *m)
{
	return m->build_id_size == (uint32_t)e->build_id_len &&
	       !memcmp(m->build_id, e->build_id, (size_t)e->build_id_len);
}
