// SPDX-License-Identifier: MIT
/*
 * `pmuconv speedscope`'s writer: the per-event profiles -> speedscope's
 * file format (https://www.speedscope.app/file-format-schema.json), built
 * as a jansson tree and dumped once.
 *
 *   {"$schema": ..., "shared": {"frames": [{"name": N}, ...]},
 *    "profiles": [{"type": "sampled", "name": EVENT, "unit": U,
 *                  "startValue": 0, "endValue": TOTAL,
 *                  "samples": [[frame, ...] root first, ...],
 *                  "weights": [W, ...]}, ...],
 *    "name": INPUT, "activeProfileIndex": 0, "exporter": "pmuconv"}
 *
 * One entry of "samples" per unique stack (speedscope adds the weights of
 * equal stacks anyway), weights in the event's unit: nanoseconds for
 * time-based events, "none" (a count) otherwise. Frames are shared by name
 * across events. Names that are not valid UTF-8 (JSON strings must be)
 * get '?' for every byte above 0x7f.
 */
#include "export_speedscope.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>

struct frames {
	json_t *arr;
	const struct pc_name **names; /* by frame index */
	size_t nr, cap;
	struct pc_htab index;
};

static uint64_t name_hash_of(const char *s)
{
	return pc_hash_bytes(s, strlen(s), PC_HASH_SEED);
}
static uint64_t name_hash(const void *ctx, uint32_t i)
{
	return name_hash_of(((const struct frames *)ctx)->names[i]->name);
}

static json_t *str(const char *s)
{
	json_t *j = json_string(s);
	char *c;

	if (j)
		return j;
	if (!(c = strdup(s)))
		return NULL;
	for (char *p = c; *p; p++)
		if ((unsigned char)*p > 0x7f)
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

/* Index of a name in the shared frame table; negative errno. */
static int64_t frame_of(struct frames *f, const struct pc_name *n)
{
	struct pc_htab *t = &f->index;
	size_t j;

	if (pc_htab__reserve(t, 1024, name_hash, f))
		return -ENOMEM;
	for (j = pc_htab__slot(t, name_hash_of(n->name)); t->slots[j]; j = pc_htab__next(t, j))
		if (!strcmp(f->names[t->slots[j] - 1]->name, n->name))
			return t->slots[j] - 1;
	if (pc_grow((void **)&f->names, &f->cap, f->nr + 1, sizeof(*f->names)))
		return -ENOMEM;
	json_t *fr = json_object();
	if (!fr || json_object_set_new(fr, "name", str(n->name)) ||
	    json_array_append_new(f->arr, fr))
		return -ENOMEM;
	f->names[f->nr] = n;
	pc_htab__set(t, j, (uint32_t)f->nr);
	return (int64_t)f->nr++;
}

static json_t *profile_json(struct frames *f, const struct pc_profile *p)
{
	json_t *o = json_object(), *smp = json_array(), *w = json_array();
	int64_t *map = calloc(p->nr_names ? p->nr_names : 1, sizeof(*map));
	int bad = !o || !smp || !w || !map;

	for (size_t i = 0; !bad && i < p->nr_names; i++)
		bad = (map[i] = frame_of(f, &p->names[i])) < 0;
	for (size_t i = 0; !bad && i < p->nr_stacks; i++) {
		const struct pc_stack *st = &p->stacks[i];
		json_t *a = json_array();
		bad = !a || json_array_append_new(smp, a) ||
		      json_array_append_new(w, json_integer((json_int_t)st->weight));
		for (uint32_t k = 0; !bad && k < st->nr; k++)
			bad = json_array_append_new(a, json_integer(map[st->frames[k]]));
	}
	free(map);
	if (!bad)
		bad = json_object_set_new(o, "type", json_string("sampled")) ||
		      json_object_set_new(o, "name", str(p->event)) ||
		      json_object_set_new(
			      o, "unit",
			      json_string(strcmp(p->unit, "ns") ? "none" : "nanoseconds")) ||
		      json_object_set_new(o, "startValue", json_integer(0)) ||
		      json_object_set_new(o, "endValue",
					  json_integer((json_int_t)p->total_weight)) ||
		      json_object_set_new(o, "samples", smp) ||
		      json_object_set_new(o, "weights", w);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int dump_cb(const char *buf, size_t size, void *data)
{
	return fwrite(buf, 1, size, data) == size ? 0 : -1;
}

int speedscope_write(const struct pc_set *s, FILE *out)
{
	struct frames f = {.arr = json_array()};
	json_t *root = json_object(), *shared = json_object(), *profs = json_array();
	int r = -ENOMEM;

	/* set_new takes the reference even when it fails: only root is ours */
	if (!root ||
	    json_object_set_new(root, "$schema",
				json_string("https://www.speedscope.app/"
					    "file-format-schema.json")) ||
	    json_object_set_new(root, "shared", shared) || !shared ||
	    json_object_set_new(shared, "frames", f.arr) || !f.arr ||
	    json_object_set_new(root, "profiles", profs) || !profs)
		goto out;
	for (size_t i = 0; i < s->nr; i++)
		if (json_array_append_new(profs, profile_json(&f, &s->ev[i]->prof)))
			goto out;
	if (json_object_set_new(root, "name", str(s->acct.source)) ||
	    json_object_set_new(root, "activeProfileIndex", json_integer(0)) ||
	    json_object_set_new(root, "exporter", json_string("pmuconv")))
		goto out;
	r = json_dump_callback(root, dump_cb, out, JSON_COMPACT) ? -EIO : 0;
	if (!r && fputc('\n', out) == EOF)
		r = -EIO;
out:
	if (!root) {
		json_decref(shared);
		json_decref(f.arr);
		json_decref(profs);
	}
	json_decref(root);
	free(f.names);
	pc_htab__free(&f.index);
	return r;
}
