// SPDX-License-Identifier: MIT
/*
 * `pmuconv pprof`'s writer: the sample stream -> profile.proto (protobuf-c,
 * from host/pmuconv/profile.proto; code generated at build time) -> gzip
 * (zlib).
 *
 * While the input streams, every sample is turned into pprof's shape at
 * once: its frames into location ids (a location is a (mapping, address,
 * function); a function a (name, binary)); its data-address parts into one
 * sample per data page size (label data_page_size), the rest without that
 * label. Tables are deduplicated with the one hash index (hashtab.h), so
 * memory grows with unique stacks, names and addresses, never with the
 * samples a stack stands for.
 *
 * Writing: a serialized protobuf message may be split into several
 * concatenated ones (repeated fields append), so the tables go out as one
 * Profile message and then every sample as a Profile holding that one
 * sample, packed straight into the compressor: no sample is held in
 * protobuf form, only one at a time.
 */
#include "export_pprof.h"
#include "host/pmuconv/profile.pb-c.h"
#include "textparse.h"

#include <errno.h>
#include <stdlib.h>
#include <zlib.h>

struct pp_str {
	const char *s; /* in the arena, NUL-terminated */
	uint32_t len;
};

struct pp_map {
	uint64_t start, limit, offset;
	uint32_t file, build_id; /* string ids */
};

struct pp_mapref { /* stream pointer -> mapping id, so most frames skip the content hash */
	const struct pc_map *p;
	uint32_t id;
};

struct pp_func {
	uint32_t name, file; /* string ids */
};

struct pp_loc {
	uint64_t addr;
	uint32_t map, func; /* ids (1-based; map 0: none) */
};

struct pp_fref { /* a pmuprof frame as the stream gives it -> location id */
	const char *name;
	const struct pc_map *map;
	uint64_t addr;
	uint32_t len, loc;
};

struct pp_sample {
	size_t off; /* location ids in pool */
	uint32_t nr;
	uint32_t event;
	uint64_t value;
	uint32_t pid_s, tid_s, cpu_s; /* string ids of the numbers (0: none) */
	uint32_t comm;		      /* string id, 0 none */
	uint8_t page;		      /* enum ps_page, PS_NONE: no data_page_size label */
	uint32_t node_s;	      /* string id of the numa_node label's value, 0 none */
	uint8_t has_ids;
};

/*
 * Labels. All are strings: pprof drops a numeric label whose value is 0
 * (CPU 0, pid 0), and Pyroscope and Parca make series of string labels.
 * data_page_size is also a number with the unit K, M or G, because pprof
 * reads `-tagfocus data_page_size=2M` as a number and unit, never as text
 * (text needs `=^2M$`); so both forms select the same samples.
 * numa_node: the NUMA node of the data page (pmuprof recordings with a node
 * map and physical addresses, nodemap.h); its key is added to the string
 * table only when a sample has it, so other profiles stay byte-identical.
 */
enum { K_PID, K_TID, K_CPU, K_COMM, K_PAGE, K__NR };
static const char *const key_names[K__NR] = {"pid", "tid", "cpu", "comm", "data_page_size"};
static const char *const page_names[PS__NR] = {
	[PS_4K] = "4K", [PS_2M] = "2M", [PS_1G] = "1G", [PS_UNKNOWN] = "unknown"};
static const struct {
	int64_t num;
	const char *unit;
} page_nums[PS__NR] = {[PS_4K] = {4, "K"}, [PS_2M] = {2, "M"}, [PS_1G] = {1, "G"}};
#define NR_LABELS (K__NR + 2) /* data_page_size twice, numa_node */

struct pprof_acc {
	int mode;
	struct pc_arena arena;
	struct pp_str *strs;
	size_t nr_strs, cap_strs;
	struct pc_htab str_index;
	struct pp_map *maps;
	size_t nr_maps, cap_maps;
	struct pc_htab map_index;
	struct pp_mapref *refs;
	size_t nr_refs, cap_refs;
	struct pc_htab ref_index;
	struct pp_func *funcs;
	size_t nr_funcs, cap_funcs;
	struct pc_htab func_index;
	struct pp_loc *locs;
	size_t nr_locs, cap_locs;
	struct pc_htab loc_index;
	struct pp_fref *frefs;
	size_t nr_frefs, cap_frefs;
	struct pc_htab fref_index;
	uint64_t *pool;
	size_t pool_nr, pool_cap;
	struct pp_sample *samples;
	size_t nr_samples, cap_samples;
	uint32_t keys[K__NR], pages[PS__NR], page_units[PS__NR]; /* string ids */
	uint32_t node_key; /* "numa_node", interned on first use (0: not yet) */
	char num[32];
};

static uint64_t str_hash_of(const char *s, size_t len)
{
	return pc_hash_bytes(s, len, PC_HASH_SEED);
}
static uint64_t str_hash(const void *ctx, uint32_t i)
{
	const struct pp_str *e = &((const struct pprof_acc *)ctx)->strs[i];
	return str_hash_of(e->s, e->len);
}

/* String id of (s, len): 0 is "". Returns the id or a negative errno. */
static int64_t intern(struct pprof_acc *p, const char *s, size_t len)
{
	struct pc_htab *t = &p->str_index;
	uint64_t h = str_hash_of(s, len);
	size_t j;

	if (pc_htab__reserve(t, 1024, str_hash, p))
		return -ENOMEM;
	for (j = pc_htab__slot(t, h); t->slots[j]; j = pc_htab__next(t, j)) {
		const struct pp_str *e = &p->strs[t->slots[j] - 1];
		if (e->len == len && !memcmp(e->s, s, len))
			return t->slots[j] - 1;
	}
	if (len > UINT32_MAX ||
	    pc_grow((void **)&p->strs, &p->cap_strs, p->nr_strs + 1, sizeof(*p->strs)))
		return -ENOMEM;
	char *c = pc_arena__strndup(&p->arena, s, len);
	if (!c)
		return -ENOMEM;
	p->strs[p->nr_strs] = (struct pp_str){c, (uint32_t)len};
	pc_htab__set(t, j, (uint32_t)p->nr_strs);
	return (int64_t)p->nr_strs++;
}

/* The records found by their whole content (mappings, functions, locations:
 * structs without padding) share one find-or-add. */
struct rec_array {
	const char *v;
	size_t size;
};
static uint64_t rec_hash(const void *ctx, uint32_t i)
{
	const struct rec_array *a = ctx;
	return pc_hash_bytes(a->v + (size_t)i * a->size, a->size, PC_HASH_SEED);
}

/* Id (1-based) of the record KEY (SIZE bytes) in the array *V of *NR (*CAP
 * allocated) indexed by T, appended when new; negative errno. */
static int64_t rec_id(struct pc_htab *t, void **v, size_t *nr, size_t *cap, const void *key,
		      size_t size)
{
	struct rec_array a = {*v, size};
	size_t j;

	if (pc_htab__reserve(t, 1024, rec_hash, &a))
		return -ENOMEM;
	for (j = pc_htab__slot(t, pc_hash_bytes(key, size, PC_HASH_SEED)); t->slots[j];
	     j = pc_htab__next(t, j))
		if (!memcmp(a.v + (size_t)(t->slots[j] - 1) * size, key, size))
			return t->slots[j];
	if (pc_grow(v, cap, *nr + 1, size))
		return -ENOMEM;
	memcpy((char *)*v + *nr * size, key, size);
	pc_htab__set(t, j, (uint32_t)(*nr)++);
	return (int64_t)*nr;
}

static uint64_t ref_hash_of(const struct pc_map *m)
{
	return pc_fmix(pc_mix(PC_HASH_SEED, (uint64_t)(uintptr_t)m));
}
static uint64_t ref_hash(const void *ctx, uint32_t i)
{
	return ref_hash_of(((const struct pprof_acc *)ctx)->refs[i].p);
}

/* Mapping id (1-based) of a stream mapping, 0 for none; negative errno. */
static int64_t map_id(struct pprof_acc *p, const struct pc_map *m)
{
	static const char hex[] = "0123456789abcdef";
	struct pc_htab *t = &p->ref_index;
	size_t j;

	if (!m)
		return 0;
	if (pc_htab__reserve(t, 256, ref_hash, p))
		return -ENOMEM;
	for (j = pc_htab__slot(t, ref_hash_of(m)); t->slots[j]; j = pc_htab__next(t, j))
		if (p->refs[t->slots[j] - 1].p == m)
			return p->refs[t->slots[j] - 1].id;
	/* a new pointer: find or add the mapping by content */
	char bid[41];
	uint32_t n = m->build_id_size <= 20 ? m->build_id_size : 20;
	for (uint32_t i = 0; i < n; i++) {
		bid[2 * i] = hex[m->build_id[i] >> 4];
		bid[2 * i + 1] = hex[m->build_id[i] & 15];
	}
	int64_t file = intern(p, m->file, strlen(m->file)), b = intern(p, bid, 2 * n);
	if (file < 0 || b < 0)
		return -ENOMEM;
	struct pp_map key = {m->start, m->limit, m->offset, (uint32_t)file, (uint32_t)b};
	int64_t id = rec_id(&p->map_index, (void **)&p->maps, &p->nr_maps, &p->cap_maps, &key,
			    sizeof(key));
	if (id < 0)
		return id;
	/* the probe for the pointer table is still valid: nothing was added to it */
	if (pc_grow((void **)&p->refs, &p->cap_refs, p->nr_refs + 1, sizeof(*p->refs)))
		return -ENOMEM;
	p->refs[p->nr_refs] = (struct pp_mapref){m, (uint32_t)id};
	pc_htab__set(t, j, (uint32_t)p->nr_refs++);
	return id;
}

static uint64_t fref_hash_of(const char *name, const struct pc_map *map, uint64_t addr)
{
	return pc_fmix(pc_mix(
		pc_mix(pc_mix(PC_HASH_SEED, (uint64_t)(uintptr_t)name), (uint64_t)(uintptr_t)map),
		addr));
}
static uint64_t fref_hash(const void *ctx, uint32_t i)
{
	const struct pp_fref *f = &((const struct pprof_acc *)ctx)->frefs[i];
	return fref_hash_of(f->name, f->map, f->addr);
}

/* Location id (1-based) of one frame; negative errno. */
static int64_t loc_id_slow(struct pprof_acc *p, const struct pc_frame *fr);
static int64_t loc_id(struct pprof_acc *p, const struct pc_frame *fr)
{
	struct pc_htab *t = &p->fref_index;
	int64_t id;
	size_t j;

	/* Frames with a mapping come from the pmuprof input, whose names are
	 * the symbolizer's, fixed for the whole load: the same (name pointer,
	 * mapping, address) is the same location, found without hashing the
	 * name's bytes. (Text inputs may reuse a name buffer: no shortcut.) */
	if (!fr->map)
		return loc_id_slow(p, fr);
	if (pc_htab__reserve(t, 4096, fref_hash, p))
		return -ENOMEM;
	for (j = pc_htab__slot(t, fref_hash_of(fr->name, fr->map, fr->addr)); t->slots[j];
	     j = pc_htab__next(t, j)) {
		const struct pp_fref *f = &p->frefs[t->slots[j] - 1];
		if (f->name == fr->name && f->map == fr->map && f->addr == fr->addr &&
		    f->len == fr->len)
			return f->loc;
	}
	if ((id = loc_id_slow(p, fr)) < 0 ||
	    pc_grow((void **)&p->frefs, &p->cap_frefs, p->nr_frefs + 1, sizeof(*p->frefs)))
		return id < 0 ? id : -ENOMEM;
	p->frefs[p->nr_frefs] =
		(struct pp_fref){fr->name, fr->map, fr->addr, fr->len, (uint32_t)id};
	pc_htab__set(t, j, (uint32_t)p->nr_frefs++);
	return id;
}

static int64_t loc_id_slow(struct pprof_acc *p, const struct pc_frame *fr)
{
	int64_t name = intern(p, fr->name, fr->len), map = map_id(p, fr->map), func;

	if (name < 0 || map < 0)
		return -ENOMEM;
	/* function: (name, binary); the binary is its mapping's file */
	struct pp_func fk = {(uint32_t)name, map ? p->maps[map - 1].file : 0};
	func = rec_id(&p->func_index, (void **)&p->funcs, &p->nr_funcs, &p->cap_funcs, &fk,
		      sizeof(fk));
	if (func < 0)
		return func;
	struct pp_loc lk = {fr->addr, (uint32_t)map, (uint32_t)func};
	return rec_id(&p->loc_index, (void **)&p->locs, &p->nr_locs, &p->cap_locs, &lk, sizeof(lk));
}

struct pprof_acc *pprof_acc__new(int mode)
{
	struct pprof_acc *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->mode = mode;
	if (intern(p, "", 0) != 0)
		goto fail;
	for (int i = 0; i < K__NR; i++) {
		int64_t id = intern(p, key_names[i], strlen(key_names[i]));
		if (id < 0)
			goto fail;
		p->keys[i] = (uint32_t)id;
	}
	for (int i = 0; i < PS__NR; i++) {
		const char *u = page_nums[i].unit ? page_nums[i].unit : "";
		int64_t id = intern(p, page_names[i], strlen(page_names[i])),
			uid = intern(p, u, strlen(u));
		if (id < 0 || uid < 0)
			goto fail;
		p->pages[i] = (uint32_t)id;
		p->page_units[i] = (uint32_t)uid;
	}
	return p;
fail:
	pprof_acc__free(p);
	return NULL;
}

void pprof_acc__free(struct pprof_acc *p)
{
	if (!p)
		return;
	pc_arena__free(&p->arena);
	free(p->strs);
	free(p->maps);
	free(p->refs);
	free(p->funcs);
	free(p->locs);
	free(p->frefs);
	pc_htab__free(&p->fref_index);
	free(p->pool);
	free(p->samples);
	pc_htab__free(&p->str_index);
	pc_htab__free(&p->map_index);
	pc_htab__free(&p->ref_index);
	pc_htab__free(&p->func_index);
	pc_htab__free(&p->loc_index);
	free(p);
}

size_t pprof_acc__nr_samples(const struct pprof_acc *p)
{
	return p->nr_samples;
}

static int64_t intern_num(struct pprof_acc *p, int64_t v)
{
	int n = snprintf(p->num, sizeof(p->num), "%lld", (long long)v);
	return intern(p, p->num, (size_t)n);
}

static int add_sample(struct pprof_acc *p, const struct pp_sample *tmpl, uint64_t value,
		      uint8_t page, uint16_t node1)
{
	uint32_t node_s = 0;

	if (node1) { /* numa_node = node1 - 1 */
		int64_t id = p->node_key ? 0 : intern(p, "numa_node", 9);

		if (id < 0)
			return -ENOMEM;
		if (!p->node_key)
			p->node_key = (uint32_t)id;
		if ((id = intern_num(p, node1 - 1u)) < 0)
			return -ENOMEM;
		node_s = (uint32_t)id;
	}
	if (pc_grow((void **)&p->samples, &p->cap_samples, p->nr_samples + 1, sizeof(*p->samples)))
		return -ENOMEM;
	struct pp_sample *o = &p->samples[p->nr_samples++];
	*o = *tmpl;
	o->value = value;
	o->page = page;
	o->node_s = node_s;
	return 0;
}

int pprof_acc__consume(void *ctx, const struct pc_sample *s)
{
	struct pprof_acc *p = ctx;
	uint32_t nr = s->nr < PC_MAX_FRAMES ? s->nr : PC_MAX_FRAMES;
	struct pp_sample t = {.event = s->event, .page = PS_NONE};
	int64_t id;

	if (pc_grow((void **)&p->pool, &p->pool_cap, p->pool_nr + nr, sizeof(*p->pool)))
		return -ENOMEM;
	t.off = p->pool_nr;
	for (uint32_t k = 0; k < nr; k++) { /* pprof lists the leaf first */
		const struct pc_frame *fr = &s->frames[s->root_first ? nr - 1 - k : k];
		if ((p->mode == PC_MODE_KERNEL_ONLY && !fr->kernel) ||
		    (p->mode == PC_MODE_USER_ONLY && fr->kernel))
			continue;
		if ((id = loc_id(p, fr)) < 0)
			return (int)id;
		p->pool[t.off + t.nr++] = (uint64_t)id;
	}
	if (p->mode != PC_MODE_ALL && !t.nr)
		return 0; /* the profile builder counts it as filtered */
	p->pool_nr += t.nr;
	if (s->comm) {
		if ((id = s->comm_len ? intern(p, s->comm, s->comm_len)
				      : intern(p, "[unknown]", 9)) < 0)
			return (int)id;
		t.comm = (uint32_t)id;
	}
	if ((t.has_ids = s->has_ids)) {
		int64_t a = intern_num(p, s->pid), b = intern_num(p, s->tid),
			c = intern_num(p, s->cpu);
		if (a < 0 || b < 0 || c < 0)
			return -ENOMEM;
		t.pid_s = (uint32_t)a;
		t.tid_s = (uint32_t)b;
		t.cpu_s = (uint32_t)c;
	}
	/* the samples with a data access, one pprof sample per page size and
	 * data node (a few combinations; past BY_MAX each part goes alone) */
	enum { BY_MAX = 32 };
	struct {
		uint64_t w;
		uint8_t page;
		uint16_t node1;
	} by[BY_MAX];
	uint64_t labelled = 0;
	size_t nby = 0;
	for (uint32_t i = 0; i < s->nr_addr; i++) {
		const struct pc_addr_part *a = &s->addr[i];
		size_t j;

		if (a->data_page >= PS__NR)
			continue;
		labelled += a->weight;
		for (j = 0; j < nby; j++)
			if (by[j].page == a->data_page && by[j].node1 == a->data_node1)
				break;
		if (j == BY_MAX) {
			if (add_sample(p, &t, a->weight, a->data_page, a->data_node1))
				return -ENOMEM;
			continue;
		}
		if (j == nby)
			by[nby++] = (typeof(by[0])){0, a->data_page, a->data_node1};
		by[j].w += a->weight;
	}
	for (int pg = 0; pg < PS__NR; pg++) /* page-size order, as before */
		for (size_t j = 0; j < nby; j++)
			if (by[j].page == pg && by[j].w &&
			    add_sample(p, &t, by[j].w, (uint8_t)pg, by[j].node1))
				return -ENOMEM;
	if (s->weight > labelled && add_sample(p, &t, s->weight - labelled, PS_NONE, 0))
		return -ENOMEM;
	return 0;
}

/* ---- writing ---------------------------------------------------------- */

struct gz_out {
	ProtobufCBuffer base;
	z_stream z;
	FILE *out;
	int err;
	unsigned char buf[1 << 16];
};

static void gz_run(struct gz_out *g, int flush)
{
	int r;

	do {
		g->z.next_out = g->buf;
		g->z.avail_out = sizeof(g->buf);
		r = deflate(&g->z, flush);
		if (r == Z_STREAM_ERROR) {
			g->err = -EIO;
			return;
		}
		size_t n = sizeof(g->buf) - g->z.avail_out;
		if (n && fwrite(g->buf, 1, n, g->out) != n)
			g->err = -EIO;
	} while (!g->err && (g->z.avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END)));
}

static void gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_out *g = (struct gz_out *)b;

	while (len && !g->err) {
		uInt n = len > (1u << 30) ? 1u << 30 : (uInt)len;
		g->z.next_in = (Bytef *)(uintptr_t)data;
		g->z.avail_in = n;
		gz_run(g, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

/* pprof's unit names for pmuconv's */
static const char *unit_name(const char *u)
{
	if (!strcmp(u, "ns"))
		return "nanoseconds";
	if (!strcmp(u, "events") || !strcmp(u, "samples"))
		return "count";
	return u;
}

static int64_t clamp64(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* The tables: everything but the samples. */
static int write_tables(struct pprof_acc *p, const struct pc_set *s, struct gz_out *g)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType *vt = NULL, **vtp = NULL, period;
	Perftools__Profiles__Mapping *mp = NULL, **mpp = NULL;
	Perftools__Profiles__Function *fn = NULL, **fnp = NULL;
	Perftools__Profiles__Location *lc = NULL, **lcp = NULL;
	Perftools__Profiles__Line *ln = NULL, **lnp = NULL;
	char **strs = NULL;
	int64_t comments[8];
	int r = -ENOMEM;

	/* sample types (and the strings they need) first: interning may grow strs */
	int64_t *types = calloc(2 * (s->nr ? s->nr : 1), sizeof(*types));
	if (!types)
		goto out;
	for (size_t i = 0; i < s->nr; i++) {
		const struct pc_profile *pr = &s->ev[i]->prof;
		const char *u = unit_name(pr->unit);
		if ((types[2 * i] = intern(p, pr->event, strlen(pr->event))) < 0 ||
		    (types[2 * i + 1] = intern(p, u, strlen(u))) < 0)
			goto out;
	}
	size_t nc = 0;
	char line[1200];
	const struct pc_accounting *ac = &s->acct;
	const char *lines[] = {ac->source, ac->hostname, ac->kernel, ac->cmdline};
	const char *what[] = {"pmuconv pprof of", "host", "kernel", "command"};
	for (size_t i = 0; i < PC_ARRAY_SIZE(lines); i++) {
		if (!lines[i][0])
			continue;
		int n = snprintf(line, sizeof(line), "%s %s", what[i], lines[i]);
		if ((comments[nc++] = intern(
			     p, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1)) < 0)
			goto out;
	}
	if (ac->has_lost) {
		int n = snprintf(line, sizeof(line), "lost samples %llu",
				 (unsigned long long)ac->lost);
		if ((comments[nc++] = intern(p, line, (size_t)n)) < 0)
			goto out;
	}
	vt = calloc(s->nr + 1, sizeof(*vt));
	vtp = calloc(s->nr + 1, sizeof(*vtp));
	mp = calloc(p->nr_maps + 1, sizeof(*mp));
	mpp = calloc(p->nr_maps + 1, sizeof(*mpp));
	fn = calloc(p->nr_funcs + 1, sizeof(*fn));
	fnp = calloc(p->nr_funcs + 1, sizeof(*fnp));
	lc = calloc(p->nr_locs + 1, sizeof(*lc));
	lcp = calloc(p->nr_locs + 1, sizeof(*lcp));
	ln = calloc(p->nr_locs + 1, sizeof(*ln));
	lnp = calloc(p->nr_locs + 1, sizeof(*lnp));
	strs = calloc(p->nr_strs, sizeof(*strs));
	if (!vt || !vtp || !mp || !mpp || !fn || !fnp || !lc || !lcp || !ln || !lnp || !strs)
		goto out;
	for (size_t i = 0; i < s->nr; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		vt[i].type = types[2 * i];
		vt[i].unit = types[2 * i + 1];
		vtp[i] = &vt[i];
	}
	/* pprof names the first mapping as the profile's program: user
	 * mappings first, then the kernel (ids stay as assigned) */
	size_t nm = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < p->nr_maps; i++)
			if ((p->maps[i].start >= KERNEL_ADDR_MIN) == pass)
				mpp[nm++] = &mp[i];
	for (size_t i = 0; i < p->nr_maps; i++) {
		const struct pp_map *m = &p->maps[i];
		perftools__profiles__mapping__init(&mp[i]);
		mp[i].id = i + 1;
		mp[i].memory_start = m->start;
		mp[i].memory_limit = m->limit;
		mp[i].file_offset = m->offset;
		mp[i].filename = m->file;
		mp[i].build_id = m->build_id;
		mp[i].has_functions = 1; /* symbolized here: pprof must not try again */
	}
	for (size_t i = 0; i < p->nr_funcs; i++) {
		perftools__profiles__function__init(&fn[i]);
		fn[i].id = i + 1;
		fn[i].name = fn[i].system_name = p->funcs[i].name;
		fn[i].filename = p->funcs[i].file;
		fnp[i] = &fn[i];
	}
	for (size_t i = 0; i < p->nr_locs; i++) {
		perftools__profiles__location__init(&lc[i]);
		perftools__profiles__line__init(&ln[i]);
		ln[i].function_id = p->locs[i].func;
		lnp[i] = &ln[i];
		lc[i].id = i + 1;
		lc[i].mapping_id = p->locs[i].map;
		lc[i].address = p->locs[i].addr;
		lc[i].n_line = 1;
		lc[i].line = &lnp[i];
		lcp[i] = &lc[i];
	}
	for (size_t i = 0; i < p->nr_strs; i++)
		strs[i] = (char *)p->strs[i].s;
	prof.n_sample_type = s->nr;
	prof.sample_type = vtp;
	prof.n_mapping = p->nr_maps;
	prof.mapping = mpp;
	prof.n_location = p->nr_locs;
	prof.location = lcp;
	prof.n_function = p->nr_funcs;
	prof.function = fnp;
	prof.n_string_table = p->nr_strs;
	prof.string_table = strs;
	prof.n_comment = nc;
	prof.comment = comments;
	if (ac->has_time)
		prof.duration_nanos = clamp64(ac->duration_ns);
	if (s->nr) { /* the first event's configured period */
		perftools__profiles__value_type__init(&period);
		period.type = vt[0].type;
		period.unit = vt[0].unit;
		prof.period_type = &period;
		prof.period = clamp64(s->ev[0]->prof.period);
	}
	protobuf_c_message_pack_to_buffer(&prof.base, &g->base);
	r = g->err;
out:
	free(types);
	free(vt);
	free(vtp);
	free(mp);
	free(mpp);
	free(fn);
	free(fnp);
	free(lc);
	free(lcp);
	free(ln);
	free(lnp);
	free(strs);
	return r;
}

static int write_samples(struct pprof_acc *p, size_t nr_events, struct gz_out *g)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Sample smp = PERFTOOLS__PROFILES__SAMPLE__INIT, *smpp = &smp;
	Perftools__Profiles__Label lab[NR_LABELS], *labp[NR_LABELS];
	int64_t *values = calloc(nr_events ? nr_events : 1, sizeof(*values));

	if (!values)
		return -ENOMEM;
	prof.n_sample = 1;
	prof.sample = &smpp;
	smp.n_value = nr_events;
	smp.value = values;
	smp.label = labp;
	for (int i = 0; i < NR_LABELS; i++) {
		labp[i] = &lab[i];
		perftools__profiles__label__init(&lab[i]);
	}
	for (size_t i = 0; i < p->nr_samples && !g->err; i++) {
		const struct pp_sample *o = &p->samples[i];
		size_t nl = 0;
		values[o->event] = clamp64(o->value);
		smp.n_location_id = o->nr;
		smp.location_id = p->pool + o->off;
		if (o->has_ids) {
			lab[nl] = (Perftools__Profiles__Label)PERFTOOLS__PROFILES__LABEL__INIT;
			lab[nl].key = p->keys[K_PID];
			lab[nl++].str = o->pid_s;
			lab[nl] = (Perftools__Profiles__Label)PERFTOOLS__PROFILES__LABEL__INIT;
			lab[nl].key = p->keys[K_TID];
			lab[nl++].str = o->tid_s;
			lab[nl] = (Perftools__Profiles__Label)PERFTOOLS__PROFILES__LABEL__INIT;
			lab[nl].key = p->keys[K_CPU];
			lab[nl++].str = o->cpu_s;
		}
		if (o->comm) {
			lab[nl] = (Perftools__Profiles__Label)PERFTOOLS__PROFILES__LABEL__INIT;
			lab[nl].key = p->keys[K_COMM];
			lab[nl++].str = o->comm;
		}
		if (o->page < PS__NR) {
			lab[nl] = (Perftools__Profiles__Label)PERFTOOLS__PROFILES__LABEL__INIT;
			lab[nl].key = p->keys[K_PAGE];
			lab[nl++].str = p->pages[o->page];
			if (page_nums[o->page].num) {
				lab[nl] = (Perftools__Profiles__Label)
					PERFTOOLS__PROFILES__LABEL__INIT;
				lab[nl].key = p->keys[K_PAGE];
				lab[nl].num = page_nums[o->page].num;
				lab[nl++].num_unit = p->page_units[o->page];
			}
		}
		if (o->node_s) {
			lab[nl] = (Perftools__Profiles__Label)PERFTOOLS__PROFILES__LABEL__INIT;
			lab[nl].key = p->node_key;
			lab[nl++].str = o->node_s;
		}
		smp.n_label = nl;
		protobuf_c_message_pack_to_buffer(&prof.base, &g->base);
		values[o->event] = 0;
	}
	free(values);
	return g->err;
}

int pprof_acc__write(struct pprof_acc *p, const struct pc_set *s, FILE *out)
{
	struct gz_out *g = calloc(1, sizeof(*g));
	int r;

	if (!g)
		return -ENOMEM;
	g->base.append = gz_append;
	g->out = out;
	/* windowBits 15 + 16: a gzip header and trailer, as pprof files have */
	if (deflateInit2(&g->z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return -ENOMEM;
	}
	r = write_tables(p, s, g);
	if (!r)
		r = write_samples(p, s->nr, g);
	if (!r) {
		gz_run(g, Z_FINISH);
		r = g->err;
	}
	deflateEnd(&g->z);
	free(g);
	return r;
}
