/* SPDX-License-Identifier: MIT */
/*
 * Event resolution for pmuctl. See events.h.
 *
 * Generic names are a table of (PMU list, generic event, libpfm4 name) rows:
 * a model row overrides the "*" default row, a row with a NULL name says the
 * model has no such event. Code never branches on model names.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib.h>

#include "include/uapi/pmuprof.h"
#include "evtsel.h"
#include "events.h"

enum gen_event {
	GEN_CYCLES,
	GEN_INSTRUCTIONS,
	GEN_REF_CYCLES,
	GEN_LLC_REFERENCES,
	GEN_LLC_MISSES,
	GEN_BRANCHES,
	GEN_BRANCH_MISSES,
	GEN_DTLB_LOAD_MISSES,
	GEN_DTLB_STORE_MISSES,
	GEN_ITLB_MISSES,
	GEN__N,
};

static const struct {
	const char *name, *unit, *desc;
} gen_info[GEN__N] = {
	[GEN_CYCLES] = {"cycles", "cycles", "core clock cycles while not halted"},
	[GEN_INSTRUCTIONS] = {"instructions", "instructions", "instructions retired"},
	[GEN_REF_CYCLES] = {"ref-cycles", "cycles", "reference (TSC-rate) cycles while not halted"},
	[GEN_LLC_REFERENCES] = {"llc-references", "events", "last-level cache references"},
	[GEN_LLC_MISSES] = {"llc-misses", "events", "last-level cache misses"},
	[GEN_BRANCHES] = {"branches", "events", "branch instructions retired"},
	[GEN_BRANCH_MISSES] = {"branch-misses", "events", "mispredicted branches retired"},
	[GEN_DTLB_LOAD_MISSES] = {"dtlb-load-misses", "events", "loads whose DTLB miss walked"},
	[GEN_DTLB_STORE_MISSES] = {"dtlb-store-misses", "events", "stores whose DTLB miss walked"},
	[GEN_ITLB_MISSES] = {"itlb-misses", "events", "instruction fetches whose ITLB miss walked"},
};

struct gen_row {
	const char *pmus; /* comma-separated libpfm4 PMU names, or "*" */
	enum gen_event ev;
	const char *pfm; /* libpfm4 event string; NULL: not on these models */
};

/* First matching row wins: model rows first, the "*" rows last. */
static const struct gen_row gen_rows[] = {
	{"wsm,ivb,hsw,bdw,skl,skx,clx,spr,glm", GEN_LLC_REFERENCES, "LONGEST_LAT_CACHE:REFERENCE"},
	{"icl,icx", GEN_LLC_REFERENCES, NULL}, /* libpfm4 4.13 has no LLC reference event */
	{"wsm,ivb,hsw,bdw,skl,skx,clx,icl,icx,spr,glm", GEN_LLC_MISSES, "LONGEST_LAT_CACHE:MISS"},
	{"icl,icx,spr", GEN_BRANCHES, "BR_INST_RETIRED:ALL_BRANCHES"},
	{"icl,icx,spr", GEN_BRANCH_MISSES, "BR_MISP_RETIRED:ALL_BRANCHES"},
	{"glm", GEN_DTLB_LOAD_MISSES, "MEM_UOPS_RETIRED:DTLB_MISS_LOADS"},
	{"glm", GEN_DTLB_STORE_MISSES, "MEM_UOPS_RETIRED:DTLB_MISS_STORES"},
	{"glm", GEN_ITLB_MISSES, "ITLB:MISS"},
	{"*", GEN_CYCLES, "UNHALTED_CORE_CYCLES"},
	{"*", GEN_INSTRUCTIONS, "INSTRUCTION_RETIRED"},
	{"*", GEN_REF_CYCLES, "UNHALTED_REFERENCE_CYCLES"},
	{"*", GEN_LLC_REFERENCES, "LLC_REFERENCES"},
	{"*", GEN_LLC_MISSES, "LLC_MISSES"},
	{"*", GEN_BRANCHES, "BRANCH_INSTRUCTIONS_RETIRED"},
	{"*", GEN_BRANCH_MISSES, "MISPREDICTED_BRANCH_RETIRED"},
	{"*", GEN_DTLB_LOAD_MISSES, "DTLB_LOAD_MISSES:WALK_COMPLETED"},
	{"*", GEN_DTLB_STORE_MISSES, "DTLB_STORE_MISSES:WALK_COMPLETED"},
	{"*", GEN_ITLB_MISSES, "ITLB_MISSES:WALK_COMPLETED"},
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static bool pfm_ready;
static int core_pmu = -1; /* pfm_pmu_t of the core PMU, -1 if none */
static pfm_pmu_info_t core_info;

int events__init(char *err, size_t errlen)
{
	pfm_pmu_info_t pi;
	int p, ret, fallback = -1;

	if (pfm_ready)
		return 0;
	ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		snprintf(err, errlen, "libpfm4 failed to initialise: %s (check LIBPFM_FORCE_PMU)",
			 pfm_strerror(ret));
		return -EINVAL;
	}
	pfm_ready = true;
	/* Prefer a model-specific core PMU over the architectural one. */
	pfm_for_all_pmus(p)
	{
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present ||
		    pi.type != PFM_PMU_TYPE_CORE)
			continue;
		if (!strcmp(pi.name, "ix86arch")) {
			if (fallback < 0)
				fallback = p;
			continue;
		}
		core_pmu = p;
		core_info = pi;
		return 0;
	}
	if (fallback >= 0) {
		memset(&core_info, 0, sizeof(core_info));
		core_info.size = sizeof(core_info);
		pfm_get_pmu_info(fallback, &core_info);
		core_pmu = fallback;
	}
	return 0;
}

const char *events__pmu_name(void)
{
	return core_pmu >= 0 ? core_info.name : NULL;
}

const pfm_pmu_info_t *events__core_pmu(void)
{
	return core_pmu >= 0 ? &core_info : NULL;
}

bool events__info(int idx, pfm_event_info_t *ei)
{
	memset(ei, 0, sizeof(*ei));
	ei->size = sizeof(*ei);
	return pfm_get_event_info(idx, PFM_OS_NONE, ei) == PFM_SUCCESS;
}

bool events__attr_info(int idx, int i, pfm_event_attr_info_t *ai)
{
	memset(ai, 0, sizeof(*ai));
	ai->size = sizeof(*ai);
	return pfm_get_event_attr_info(idx, i, PFM_OS_NONE, ai) == PFM_SUCCESS;
}

/* ---------------------------------------------------------------- */
/* Generic names                                                     */
/* ---------------------------------------------------------------- */
static bool pmu_in_list(const char *list, const char *pmu)
{
	size_t n = strlen(pmu);
	const char *p = list;

	if (!strcmp(list, "*"))
		return true;
	while (*p) {
		const char *q = strchr(p, ',');
		size_t len = q ? (size_t)(q - p) : strlen(p);

		if (len == n && !strncmp(p, pmu, n))
			return true;
		if (!q)
			break;
		p = q + 1;
	}
	return false;
}

static const struct gen_row *gen_lookup(enum gen_event ev, const char *pmu)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gen_rows); i++)
		if (gen_rows[i].ev == ev && pmu_in_list(gen_rows[i].pmus, pmu))
			return &gen_rows[i];
	return NULL;
}

int events__generic_count(void)
{
	return GEN__N;
}

const char *events__generic_name(int i)
{
	return i >= 0 && i < GEN__N ? gen_info[i].name : NULL;
}

const char *events__generic_desc(int i)
{
	return i >= 0 && i < GEN__N ? gen_info[i].desc : NULL;
}

const char *events__generic_mapping(int i)
{
	const struct gen_row *r;

	if (i < 0 || i >= GEN__N || core_pmu < 0)
		return NULL;
	r = gen_lookup((enum gen_event)i, core_info.name);
	return r ? r->pfm : NULL;
}

static int gen_find(const char *name, size_t len)
{
	int i;

	for (i = 0; i < GEN__N; i++)
		if (strlen(gen_info[i].name) == len && !strncasecmp(gen_info[i].name, name, len))
			return i;
	return -1;
}

/* ---------------------------------------------------------------- */
/* Suggestions                                                       */
/* ---------------------------------------------------------------- */
#define DIST_MAXLEN 128

unsigned int events__distance(const char *a, const char *b)
{
	unsigned int row[DIST_MAXLEN + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > DIST_MAXLEN)
		la = DIST_MAXLEN;
	if (lb > DIST_MAXLEN)
		lb = DIST_MAXLEN;
	for (j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		unsigned int diag = row[0];

		row[0] = (unsigned int)i;
		for (j = 1; j <= lb; j++) {
			unsigned int up = row[j];
			unsigned int cost = tolower((unsigned char)a[i - 1]) !=
					    tolower((unsigned char)b[j - 1]);
			unsigned int best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

struct cand {
	const char *name;
	unsigned int dist;
};

static void cand_add(struct cand *c, int *n, int max, const char *name, unsigned int dist)
{
	int i, pos;

	for (i = 0; i < *n; i++)
		if (!strcasecmp(c[i].name, name))
			return;
	for (pos = *n; pos > 0 && c[pos - 1].dist > dist; pos--)
		;
	if (pos >= max)
		return;
	if (*n < max)
		(*n)++;
	for (i = *n - 1; i > pos; i--)
		c[i] = c[i - 1];
	c[pos].name = name;
	c[pos].dist = dist;
}

/* Name without "pmu::" prefix and without ":modifiers". */
static void base_name(const char *name, char *out, size_t outlen)
{
	const char *p = strstr(name, "::");
	size_t len;

	if (p)
		name = p + 2;
	len = strcspn(name, ":");
	if (len >= outlen)
		len = outlen - 1;
	memcpy(out, name, len);
	out[len] = '\0';
}

int events__suggest(const char *name, const char **out, int max)
{
	struct cand c[8];
	char base[EV_NAME_MAX];
	unsigned int limit;
	int n = 0, i;

	if (max > (int)ARRAY_SIZE(c))
		max = (int)ARRAY_SIZE(c);
	base_name(name, base, sizeof(base));
	/* Allow roughly one typo per three characters, at least two. */
	limit = (unsigned int)strlen(base) / 3;
	if (limit < 2)
		limit = 2;
	for (i = 0; i < GEN__N; i++) {
		unsigned int d = events__distance(base, gen_info[i].name);

		if (d <= limit)
			cand_add(c, &n, max, gen_info[i].name, d);
	}
	if (events__distance(base, EV_CPU_CLOCK) <= limit)
		cand_add(c, &n, max, EV_CPU_CLOCK, events__distance(base, EV_CPU_CLOCK));
	if (core_pmu >= 0) {
		int idx;

		for (idx = core_info.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			pfm_event_info_t ei;
			unsigned int d;

			if (!events__info(idx, &ei))
				continue;
			d = events__distance(base, ei.name);
			if (d <= limit)
				cand_add(c, &n, max, ei.name, d);
		}
	}
	for (i = 0; i < n; i++)
		out[i] = c[i].name;
	return n;
}

static void append_suggestions(char *err, size_t errlen, const char **s, int n)
{
	size_t len = strlen(err);
	int i;

	if (n <= 0) {
		snprintf(err + len, errlen - len, "; see 'pmuctl list' for the events of this CPU");
		return;
	}
	snprintf(err + len, errlen - len, "; did you mean ");
	for (i = 0; i < n; i++) {
		len = strlen(err);
		snprintf(err + len, errlen - len, "%s%s", i ? (i == n - 1 ? " or " : ", ") : "",
			 s[i]);
	}
	len = strlen(err);
	snprintf(err + len, errlen - len, "?");
}

/* Suggest umasks/modifiers of event idx close to the unknown attribute. */
static void suggest_attr(int idx, const char *spec, char *err, size_t errlen)
{
	pfm_event_info_t ei;
	const char *mods, *tok;
	char attr[EV_NAME_MAX];
	const char *s[3];
	struct cand c[3];
	int n = 0, i;

	if (!events__info(idx, &ei))
		return;
	mods = strstr(spec, "::");
	mods = strchr(mods ? mods + 2 : spec, ':');
	/* Find the first modifier that is neither a umask nor a modifier name. */
	for (tok = mods; tok && *tok == ':'; tok = strchr(tok + 1, ':')) {
		size_t len = strcspn(tok + 1, ":=");
		bool known = false;

		if (len >= sizeof(attr))
			len = sizeof(attr) - 1;
		memcpy(attr, tok + 1, len);
		attr[len] = '\0';
		for (i = 0; i < ei.nattrs && !known; i++) {
			pfm_event_attr_info_t ai;

			if (events__attr_info(ei.idx, i, &ai) && !strcasecmp(ai.name, attr))
				known = true;
		}
		if (known)
			continue;
		for (i = 0; i < ei.nattrs; i++) {
			pfm_event_attr_info_t ai;
			unsigned int d;

			if (!events__attr_info(ei.idx, i, &ai) || ai.type != PFM_ATTR_UMASK)
				continue;
			d = events__distance(attr, ai.name);
			if (d <= (strlen(attr) / 3 > 2 ? strlen(attr) / 3 : 2))
				cand_add(c, &n, 3, ai.name, d);
		}
		size_t l = strlen(err);
		snprintf(err + l, errlen - l, " ('%s' is not a unit mask or modifier of %s)", attr,
			 ei.name);
		for (i = 0; i < n; i++)
			s[i] = c[i].name;
		append_suggestions(err, errlen, s, n);
		return;
	}
	size_t l = strlen(err);
	snprintf(err + l, errlen - l, "; see 'pmuctl list %s' for its unit masks", ei.name);
}

/* ---------------------------------------------------------------- */
/* Resolution                                                        */
/* ---------------------------------------------------------------- */
static int parse_period(const char *s, uint64_t *out, const char *name, char *err, size_t errlen)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *end || errno || s[0] == '-') {
		snprintf(err, errlen,
			 "event '%s': period '%s' is not a number; write NAME/PERIOD, e.g. "
			 "%s/100000",
			 name, s, name);
		return -EINVAL;
	}
	if (v == 0) {
		snprintf(err, errlen,
			 "event '%s': period 0 is invalid (it would interrupt on every event); "
			 "give a "
			 "positive period",
			 name);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static bool is_raw(const char *base, size_t len)
{
	size_t i;

	if (len < 2 || (base[0] != 'r' && base[0] != 'R'))
		return false;
	for (i = 1; i < len; i++)
		if (!isxdigit((unsigned char)base[i]))
			return false;
	return true;
}

/*
 * Precise modifier, perf's spelling: a ":p", ":pp" or ":ppp" token anywhere
 * in the modifier list asks for PEBS (PMUPROF_SOURCE_PEBS: exact IP and, for
 * memory events, the data address from the PEBS record; the module refuses
 * it with ENODEV where PEBS is unusable). pmuprof has one precision level,
 * so the count of p's does not matter. The token is cut out of `name` so
 * that libpfm4 and the raw parser never see it. Returns true if found.
 */
static bool strip_precise(char *name)
{
	char *pmu_sep = strstr(name, "::");
	char *tok = strchr(pmu_sep ? pmu_sep + 2 : name, ':');
	bool found = false;

	while (tok && *tok == ':') {
		size_t len = strcspn(tok + 1, ":");

		if (len >= 1 && len <= 3 && strspn(tok + 1, "p") == len) {
			memmove(tok, tok + 1 + len, strlen(tok + 1 + len) + 1);
			found = true;
			continue; /* tok now points at the next token (or the end) */
		}
		tok = strchr(tok + 1, ':');
	}
	return found;
}

/* :u / :k on raw events; anything else is an error. */
static int raw_modifiers(const char *mods, uint64_t *config, const char *name, char *err,
			 size_t errlen)
{
	while (mods && *mods == ':') {
		const char *m = mods + 1;
		size_t len = strcspn(m, ":");

		if (len == 1 && (m[0] == 'u' || m[0] == 'U'))
			*config |= X86_EVTSEL_USR;
		else if (len == 1 && (m[0] == 'k' || m[0] == 'K'))
			*config |= X86_EVTSEL_OS;
		else {
			snprintf(err, errlen,
				 "event '%s': unknown modifier ':%.*s' (raw and generic events "
				 "take :u "
				 "and :k)",
				 name, (int)len, m);
			return -EINVAL;
		}
		mods = m + len;
	}
	return 0;
}

static void set_fixed(struct pmuctl_event *ev)
{
	const struct evtsel_fixed *f = evtsel__fixed(ev->config);

	ev->fixed = f ? f->counter : -1;
	ev->fixed_only = f ? f->fixed_only : false;
}

/* Encode a libpfm4 string for the core PMU. */
static int pfm_encode(const char *qualified, const char *shown, struct pmuctl_event *ev, char *err,
		      size_t errlen)
{
	pfm_pmu_encode_arg_t arg;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	char *fstr = NULL;
	int ret;

	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.fstr = &fstr;
	ret = pfm_get_os_event_encoding(qualified, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	if (ret == PFM_ERR_NOTFOUND) {
		const char *s[3];
		int n = events__suggest(shown, s, 3);

		snprintf(err, errlen, "unknown event '%s' for this CPU (libpfm4 PMU %s)", shown,
			 core_info.name);
		append_suggestions(err, errlen, s, n);
		return -ENOENT;
	}
	if (ret != PFM_SUCCESS) {
		pfm_event_info_t bi;
		char base[EV_NAME_MAX], q[EV_NAME_MAX + 64];
		int idx;

		snprintf(err, errlen, "event '%s': %s", shown, pfm_strerror(ret));
		base_name(qualified, base, sizeof(base));
		snprintf(q, sizeof(q), "%s::%s", core_info.name, base);
		idx = pfm_find_event(q);
		if (idx >= 0 && events__info(idx, &bi))
			suggest_attr(idx, qualified, err, errlen);
		return -EINVAL;
	}
	memset(&pi, 0, sizeof(pi));
	pi.size = sizeof(pi);
	if (!events__info(arg.idx, &ei) || pfm_get_pmu_info(ei.pmu, &pi) != PFM_SUCCESS ||
	    pi.type != PFM_PMU_TYPE_CORE || arg.count < 1) {
		snprintf(err, errlen,
			 "event '%s' is not a core PMU event (libpfm4 PMU %s); pmuprof programs "
			 "only IA32_PERFEVTSELx events",
			 shown, pi.name ? pi.name : "?");
		free(arg.codes);
		free(fstr);
		return -EINVAL;
	}
	/* The kernel owns EN and INT (ABI); libpfm4 sets them for PFM_OS_NONE. */
	ev->config = arg.codes[0] & ~(X86_EVTSEL_EN | X86_EVTSEL_INT);
	snprintf(ev->resolved, sizeof(ev->resolved), "%s", fstr ? fstr : qualified);
	free(arg.codes);
	free(fstr);
	return 0;
}

int events__resolve(const char *spec, struct pmuctl_event *ev, char *err, size_t errlen)
{
	char name[EV_NAME_MAX], q[EV_NAME_MAX + 300];
	const char *slash, *mods;
	size_t len, blen;
	int g, ret;

	memset(ev, 0, sizeof(*ev));
	ev->fixed = -1;
	err[0] = '\0';
	if (!pfm_ready && (ret = events__init(err, errlen)) < 0)
		return ret;
	slash = strrchr(spec, '/');
	len = slash ? (size_t)(slash - spec) : strlen(spec);
	if (len == 0) {
		snprintf(err, errlen, "empty event name in '%s'; see 'pmuctl list'", spec);
		return -EINVAL;
	}
	if (len >= sizeof(name)) {
		snprintf(err, errlen, "event name too long (%zu characters, at most %zu)", len,
			 sizeof(name) - 1);
		return -EINVAL;
	}
	memcpy(name, spec, len);
	name[len] = '\0';
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	if (slash && (ret = parse_period(slash + 1, &ev->period, name, err, errlen)) < 0)
		return ret;

	mods = strstr(name, "::") ? NULL : strchr(name, ':');
	blen = mods ? (size_t)(mods - name) : len;

	if (blen == strlen(EV_CPU_CLOCK) && !strncasecmp(name, EV_CPU_CLOCK, blen)) {
		if (mods) {
			snprintf(err, errlen,
				 "event '%s': cpu-clock takes no modifiers; use -u or -k for the "
				 "whole session",
				 name);
			return -EINVAL;
		}
		ev->source = PMUPROF_SOURCE_NMI_IPI;
		snprintf(ev->resolved, sizeof(ev->resolved), "%s", EV_CPU_CLOCK);
		snprintf(ev->unit, sizeof(ev->unit), "ns");
		return 0;
	}
	ev->source = strip_precise(name) ? PMUPROF_SOURCE_PEBS : PMUPROF_SOURCE_PMU;
	mods = strstr(name, "::") ? NULL : strchr(name, ':');
	blen = mods ? (size_t)(mods - name) : strlen(name);
	snprintf(ev->unit, sizeof(ev->unit), "events");

	if (is_raw(name, blen)) {
		char hex[EV_NAME_MAX];

		memcpy(hex, name + 1, blen - 1);
		hex[blen - 1] = '\0';
		if (blen - 1 > 16) {
			snprintf(err, errlen, "raw event '%s' is wider than 64 bits", name);
			return -EINVAL;
		}
		ev->config = strtoull(hex, NULL, 16);
		if (ev->config & ~EVTSEL_USER_BITS) {
			snprintf(
				err, errlen,
				"raw event '%s' sets IA32_PERFEVTSELx bits 0x%llx that pmuprof "
				"reserves (EN, INT, PC and bits above 31); give only event, umask, "
				"usr, os, edge, any, inv, cmask",
				name, (unsigned long long)(ev->config & ~EVTSEL_USER_BITS));
			return -EINVAL;
		}
		if ((ret = raw_modifiers(mods, &ev->config, name, err, errlen)) < 0)
			return ret;
		snprintf(ev->resolved, sizeof(ev->resolved), "raw 0x%llx",
			 (unsigned long long)ev->config);
		set_fixed(ev);
		return 0;
	}

	g = gen_find(name, blen);
	if (g >= 0) {
		const struct gen_row *row;

		ev->generic = gen_info[g].name;
		snprintf(ev->unit, sizeof(ev->unit), "%s", gen_info[g].unit);
		if (core_pmu < 0) {
			snprintf(err, errlen,
				 "event '%s' needs a hardware PMU, and libpfm4 knows none for this "
				 "CPU; use -e cpu-clock (NMI-IPI timer) instead",
				 name);
			return -ENODEV;
		}
		row = gen_lookup((enum gen_event)g, core_info.name);
		if (!row || !row->pfm) {
			snprintf(err, errlen,
				 "generic event '%s' has no mapping on this CPU model (libpfm4 PMU "
				 "%s); pick a model event from 'pmuctl list'",
				 gen_info[g].name, core_info.name);
			return -EOPNOTSUPP;
		}
		snprintf(q, sizeof(q), "%s::%s%s", core_info.name, row->pfm, mods ? mods : "");
		ret = pfm_encode(q, name, ev, err, errlen);
		if (ret == -ENOENT) {
			snprintf(err, errlen,
				 "generic event '%s' maps to %s, which libpfm4 does not know for "
				 "PMU "
				 "%s; pick a model event from 'pmuctl list'",
				 gen_info[g].name, row->pfm, core_info.name);
			return -EOPNOTSUPP;
		}
		if (ret < 0)
			return ret;
		set_fixed(ev);
		return 0;
	}

	if (core_pmu < 0) {
		const char *s[3];
		int n = events__suggest(name, s, 3);

		snprintf(err, errlen,
			 "unknown event '%s': libpfm4 knows no PMU for this CPU, so only generic "
			 "names, rNNNN and cpu-clock are accepted",
			 name);
		append_suggestions(err, errlen, s, n);
		return -ENOENT;
	}
	if (strstr(name, "::"))
		snprintf(q, sizeof(q), "%s", name);
	else
		snprintf(q, sizeof(q), "%s::%s", core_info.name, name);
	ret = pfm_encode(q, name, ev, err, errlen);
	if (ret < 0)
		return ret;
	set_fixed(ev);
	return 0;
}

int events__check_counters(const struct pmuctl_event *ev, int n, unsigned int nr_gp,
			   unsigned int nr_fixed, char *err, size_t errlen)
{
	unsigned int fixed_used = 0, gp_used = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (ev[i].source != PMUPROF_SOURCE_PMU && ev[i].source != PMUPROF_SOURCE_PEBS)
			continue;
		if (ev[i].fixed >= 0 && (unsigned int)ev[i].fixed < nr_fixed && ev[i].fixed < 32 &&
		    !(fixed_used & (1u << ev[i].fixed))) {
			fixed_used |= 1u << ev[i].fixed;
			continue;
		}
		if (ev[i].fixed_only) {
			snprintf(err, errlen,
				 "event '%s' can only be counted by fixed counter %d, which %s",
				 ev[i].name, ev[i].fixed,
				 (unsigned int)ev[i].fixed < nr_fixed ? "another event already uses"
								      : "this CPU lacks");
			return -EINVAL;
		}
		if (++gp_used > nr_gp) {
			snprintf(err, errlen,
				 "too many events for this CPU's counters: %u need general-purpose "
				 "counters, it has %u (plus %u fixed for cycles, instructions, "
				 "ref-cycles); record fewer events at once",
				 gp_used, nr_gp, nr_fixed);
			return -EINVAL;
		}
	}
	return 0;
}
