/* SPDX-License-Identifier: MIT */
/* pmuctl record: kernel symbols written on demand (ksyms.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksyms.h"
#include "lib/pmufile/bsearch.h"
#include "util.h"

#define KSYMS_READ_MAX (256u << 20)
/* Direct-mapped memo of addresses already looked up: most samples repeat a
 * few thousand addresses, so most lookups end here instead of in a binary
 * search over ~100k symbols. */
#define KSYMS_MEMO_BITS 12

struct ksym_ent {
	uint64_t addr;
	uint32_t off, len; /* the line in text, without its newline */
};

struct ksyms {
	char *text;
	struct ksym_ent *v; /* sorted by address, then by position in text */
	size_t nr;
	uint8_t *written; /* per entry */
	char *pend;	  /* queued lines, each ending in '\n' */
	size_t pend_len, pend_cap;
	size_t nr_written;
	uint64_t memo[1u << KSYMS_MEMO_BITS]; /* addr + 1; 0: empty */
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "ADDR T NAME[\t[module]]": the address of a text symbol (t, T, w, W, the
 * types pmuconv's kallsyms reader keeps), or 0 for any other line. */
static uint64_t text_symbol_addr(const char *p, const char *le)
{
	uint64_t addr = 0;
	int digits = 0, d;

	while (p < le && (d = hexval(*p)) >= 0 && digits <= 16) {
		addr = addr << 4 | (uint64_t)d;
		p++;
		digits++;
	}
	if (!digits || digits > 16 || le - p < 4 || p[0] != ' ' || p[2] != ' ')
		return 0;
	if (p[1] != 't' && p[1] != 'T' && p[1] != 'w' && p[1] != 'W')
		return 0;
	return addr;
}

static int cmp_ent(const void *pa, const void *pb)
{
	const struct ksym_ent *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return (a->off > b->off) - (a->off < b->off);
}

static int queue_line(struct ksyms *ks, size_t i)
{
	const struct ksym_ent *e = &ks->v[i];

	if (ks->written[i])
		return 0;
	if (ks->pend_len + e->len + 1 > ks->pend_cap) {
		size_t cap = ks->pend_cap ? ks->pend_cap * 2 : 4096;
		char *n;

		while (cap < ks->pend_len + e->len + 1)
			cap *= 2;
		n = realloc(ks->pend, cap);
		if (!n)
			return -ENOMEM;
		ks->pend = n;
		ks->pend_cap = cap;
	}
	memcpy(ks->pend + ks->pend_len, ks->text + e->off, e->len);
	ks->pend_len += e->len;
	ks->pend[ks->pend_len++] = '\n';
	ks->written[i] = 1;
	ks->nr_written++;
	return 0;
}

/* Every line at v[i]'s address (pmuconv picks one name among them). */
static int queue_group(struct ksyms *ks, size_t i)
{
	uint64_t a = ks->v[i].addr;
	int ret = 0;

	while (i > 0 && ks->v[i - 1].addr == a)
		i--;
	for (; !ret && i < ks->nr && ks->v[i].addr == a; i++)
		ret = queue_line(ks, i);
	return ret;
}

/* _text, _stext or _etext: written whether or not a sample hits them. */
static bool is_anchor(const struct ksyms *ks, const struct ksym_ent *e)
{
	static const char *const anchors[] = {"_text", "_stext", "_etext"};
	const char *line = ks->text + e->off, *name = memchr(line, ' ', e->len);
	size_t nlen;

	if (!name) /* text_symbol_addr() saw "ADDR T NAME" */
		return false;
	name += 3;
	nlen = e->len - (size_t)(name - line);
	nlen = strcspn(name, " \t\n") < nlen ? strcspn(name, " \t\n") : nlen;
	for (size_t i = 0; i < sizeof(anchors) / sizeof(anchors[0]); i++)
		if (strlen(anchors[i]) == nlen && !memcmp(name, anchors[i], nlen))
			return true;
	return false;
}

struct ksyms *ksyms__open(const char *proc_root)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));
	char path[4096];
	size_t len = 0, n = 0, ll;
	const char *p, *end, *line;

	if (!ks)
		goto nomem;
	snprintf(path, sizeof(path), "%s/kallsyms", proc_root ? proc_root : "/proc");
	ks->text = read_whole_file(path, KSYMS_READ_MAX, &len);
	if (!ks->text)
		return ks; /* no kernel symbols: an empty table */
	for (p = ks->text, end = ks->text + len; p < end; p++)
		n += *p == '\n';
	ks->v = malloc((n + 1) * sizeof(*ks->v));
	if (!ks->v)
		goto nomem;
	for (p = ks->text; (line = next_line(&p, end, &ll));) {
		uint64_t a = text_symbol_addr(line, line + ll);

		if (a && line + ll - ks->text <= UINT32_MAX)
			ks->v[ks->nr++] = (struct ksym_ent){
				.addr = a, .off = (uint32_t)(line - ks->text), .len = (uint32_t)ll};
	}
	qsort(ks->v, ks->nr, sizeof(*ks->v), cmp_ent);
	ks->written = calloc(ks->nr ? ks->nr : 1, 1);
	if (!ks->written)
		goto nomem;
	for (size_t i = 0; i < ks->nr; i++)
		if (is_anchor(ks, &ks->v[i]) && queue_line(ks, i))
			goto nomem;
	return ks;
nomem:
	ksyms__free(ks);
	errno = ENOMEM;
	return NULL;
}

void ksyms__free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->text);
	free(ks->v);
	free(ks->written);
	free(ks->pend);
	free(ks);
}

int ksyms__see_addr(struct ksyms *ks, uint64_t addr)
{
	uint64_t *m = &ks->memo[(addr * 0x9e3779b97f4a7c15ull) >> (64 - KSYMS_MEMO_BITS)];
	size_t lo;
	int ret;

	if (*m == addr + 1 || !ks->nr || addr < ks->v[0].addr)
		return 0;
	/* the last symbol at or below addr */
	lo = PMUFILE_PARTITION(ks->nr, i, ks->v[i].addr <= addr);
	ret = queue_group(ks, lo - 1);
	/* lo: the first symbol above addr, which bounds the one covering it */
	if (!ret && lo < ks->nr)
		ret = queue_line(ks, lo);
	if (!ret)
		*m = addr + 1;
	return ret;
}

int ksyms__see(struct ksyms *ks, const void *buf, size_t len)
{
	const uint8_t *p = buf, *end = p + len;
	int ret = 0;

	if (!ks->nr)
		return 0;
	while (!ret && end - p >= (ptrdiff_t)sizeof(struct pmuprof_record_header)) {
		const struct pmuprof_record_header *h = (const void *)p;
		struct pmufile_sample_view v;

		if (pmufile__check_record(h, (size_t)(end - p), 0))
			break; /* as drain.c's scan_records: the sink reports it */
		p += h->size;
		if (h->type != PMUPROF_REC_SAMPLE || pmufile__sample_view(h, &v))
			continue;
		ret = ksyms__see_addr(ks, v.s->ip);
		for (uint32_t i = 0; !ret && i < (uint32_t)v.s->nr_kstack + v.s->nr_ustack; i++) {
			/* kstack and ustack are adjacent; return addresses are
			 * looked up one byte back */
			uint64_t a = v.kstack[i];

			ret = ksyms__see_addr(ks, a);
			if (!ret && a)
				ret = ksyms__see_addr(ks, a - 1);
		}
	}
	return ret;
}

int ksyms__flush(struct ksyms *ks, struct pmufile_writer *w)
{
	int ret;

	if (!ks->pend_len)
		return 0;
	ret = pmufile_writer__kallsyms(w, ks->pend, ks->pend_len);
	ks->pend_len = 0;
	return ret;
}

size_t ksyms__nr_symbols(const struct ksyms *ks)
{
	return ks->nr;
}

size_t ksyms__nr_written(const struct ksyms *ks)
{
	return ks->nr_written;
}
