// SPDX-License-Identifier: MIT
/*
 * "Would huge pages help?": the rules over one event view's per-mapping
 * table, and their text. A mapping is judged when it takes at least
 * PSV_MIN_SHARE % of the view's samples with a data address:
 *   - mostly (PSV_MOSTLY %) on 2M/1G pages   -> already huge;
 *   - its touched 4K pages fit the first-level DTLB -> nothing to gain;
 *   - a file mapping                         -> madvise/THP does not apply;
 *   - [stack], [vdso]...                      -> not eligible;
 *   (mostly on pages the walk found unmapped   -> not judged)
 *   - no whole 2 MiB-aligned region inside    -> too small to cover;
 *   - else a candidate: the TLB entries its touched data needs on 4K pages
 *     (distinct 4K pages, estimated) against on 2M pages (distinct 2M
 *     regions), measured against the TLB sizes of tlbinfo.h, and how to get
 *     huge pages for it.
 * The kernel view is not judged: its data addresses are the kernel's own
 * (its first-touch zeroing of new pages is named instead).
 *
 * When the event counts page walks (dtlb-load-misses, DTLB_LOAD_MISSES.
 * WALK_COMPLETED[_4K], STLB_MISS_LOADS...; tlbevent.c), the shares are of
 * walks and the verdict predicts them: a candidate keeps the fraction
 * remain_on_2m() of its walks on 2M pages, the view's walks with a data
 * address fall by what the candidates lose. The model: N4 entries needed on
 * 4K pages, N2 on 2M, an STLB of S entries shared by both (tlbinfo.h);
 *   - N2 <= S: on 2M pages only the first touch of each region after a TLB
 *     flush walks; walks per flush interval scale with the entries needed,
 *     so at most N2/N4 of the walks remain;
 *   - N2 > S: uniform accesses over N entries miss the STLB 1 - S/N of the
 *     time: (1 - S/N2) / (1 - S/N4) of the walks remain.
 * The same work and the same event, recorded after the change, measure it
 * (pmuconv pagesize --compare BEFORE AFTER prints both).
 */
#include "verdict.h"
#include "psnames.h"
#include "tlbevent.h"
#include "tlbinfo.h"
#include "util.h"

#include <string.h>

#define PSV_MIN_SHARE 10.0 /* % of the view's data-address weight */
#define PSV_MOSTLY    50.0 /* % of a mapping's weight */
#define SZ_2M	      (2ull << 20)
#define SZ_1G	      (1ull << 30)

/* The kernel's page zeroing on first touch (a new anonymous page, a huge
 * page, a hugetlb page), by function name as kallsyms spells it. */
bool ps_is_zeroing_fn(const char *name)
{
	static const char *const prefixes[] = {"clear_page",	      "clear_huge_page",
					       "clear_gigantic_page", "clear_subpage",
					       "folio_zero_user",     "clear_user_highpage"};

	for (size_t i = 0; i < PC_ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static void judge(struct ps_verdict_item *it, const struct ps_mapping *m, const struct ps_tlb *t)
{
	uint64_t huge = m->page_weight[PS_2M] + m->page_weight[PS_1G];
	uint64_t all = m->weight ? m->weight : 1;

	if (!m->weight) { /* --weight samples with no periods: judge by samples */
		huge = m->page_samples[PS_2M] + m->page_samples[PS_1G];
		all = m->samples ? m->samples : 1;
	}
	it->tlb_4k = m->pages_4k.estimate;
	it->tlb_2m = m->regions_2m.estimate;
	it->huge_start = (m->start + SZ_2M - 1) & ~(SZ_2M - 1);
	it->huge_end = m->end & ~(SZ_2M - 1);
	if (it->huge_end < it->huge_start)
		it->huge_end = it->huge_start;
	if (pc_pct(huge, all) >= PSV_MOSTLY || m->kind == PS_MAP_HUGETLB) {
		it->kind = PSV_ALREADY_HUGE;
		it->huge_page = m->page_samples[PS_1G] > m->page_samples[PS_2M] ? PS_1G : PS_2M;
	} else if (m->kind == PS_MAP_STACK || m->kind == PS_MAP_SPECIAL) {
		it->kind = PSV_NOT_ELIGIBLE;
	} else if (it->tlb_4k <= t->l1d_4k && (m->pages_4k.confidence != PS_CONF_LOW ||
					       (m->pages_4k.cap && m->pages_4k.cap <= t->l1d_4k))) {
		it->kind = PSV_FITS_TLB;
	} else if (m->kind == PS_MAP_FILE) {
		it->kind = PSV_FILE_BACKED;
	} else if (it->huge_end - it->huge_start < SZ_2M) {
		it->kind = PSV_TOO_SMALL;
	} else {
		it->kind = PSV_CANDIDATE;
	}
}

double ps_remain_on_2m(uint64_t n4, uint64_t n2, unsigned stlb)
{
	if (!n4 || n2 >= n4)
		return 1.0;
	if (n2 <= stlb)
		return (double)n2 / (double)n4;
	/* here n4 > n2 > stlb */
	return (1.0 - (double)stlb / (double)n2) / (1.0 - (double)stlb / (double)n4);
}

/* Walk events: each candidate's walks and those left on 2M pages, and the
 * view's total before and after. */
static void predict_walks(struct ps_event *e, const struct ps_tlb *t, bool by_weight)
{
	struct ps_verdict *v = &e->verdict;
	uint64_t saved = 0;

	v->walks = by_weight ? e->data.total_weight : e->data.total_samples;
	for (size_t i = 0; i < v->nr; i++) {
		struct ps_verdict_item *it = &v->item[i];
		const struct ps_mapping *m = &e->maps[it->map];
		if (it->kind != PSV_CANDIDATE)
			continue;
		it->walks = by_weight ? m->weight : m->samples;
		it->remain = ps_remain_on_2m(it->tlb_4k, it->tlb_2m, t->stlb);
		it->walks_after = (uint64_t)((double)it->walks * it->remain + 0.5);
		saved += it->walks - it->walks_after;
	}
	v->walks_after = v->walks - saved;
}

void ps_verdict__decide(struct ps_event *e, const struct ps_tlb *t)
{
	struct ps_verdict *v = &e->verdict;
	uint64_t total = e->data.total_weight ? e->data.total_weight : e->data.total_samples;
	bool by_weight = e->data.total_weight != 0;
	size_t cand = 0, huge = 0;

	memset(v, 0, sizeof(*v));
	v->ev_kind = e->kind;
	/* a summary built without the kind (PS_EV_OTHER): judge the name */
	v->time_event = e->kind == PS_EV_TIME ||
			(e->kind == PS_EV_OTHER && ps_is_time_event(e->event, e->unit));
	if (!e->data.total_samples) {
		v->answer = PSA_NO_DATA;
		return;
	}
	if (e->view == PS_VIEW_KERNEL) {
		v->answer = PSA_KERNEL_VIEW;
		return;
	}
	if (!e->has_maps) {
		v->answer = PSA_NO_MAPS;
		return;
	}
	for (size_t i = 0; i < e->nr_maps; i++) {
		const struct ps_mapping *m = &e->maps[i];
		double share = pc_pct(by_weight ? m->weight : m->samples, total);
		/* addresses the page walk found unmapped say nothing of page sizes */
		if (share < PSV_MIN_SHARE || m->kind == PS_MAP_KERNEL ||
		    m->kind == PS_MAP_UNMAPPED ||
		    pc_pct(m->page_samples[PS_UNKNOWN], m->samples) >= PSV_MOSTLY)
			continue;
		struct ps_verdict_item *it = &v->item[v->nr++];
		*it = (struct ps_verdict_item){.map = i, .share = share};
		judge(it, m, t);
		cand += it->kind == PSV_CANDIDATE;
		huge += it->kind == PSV_ALREADY_HUGE;
	}
	/* candidates first, each group in mapping (weight) order */
	struct ps_verdict_item tmp[PS_MAP_MAX];
	size_t n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < v->nr; i++)
			if ((v->item[i].kind == PSV_CANDIDATE) == !pass)
				tmp[n++] = v->item[i];
	memcpy(v->item, tmp, n * sizeof(*tmp));
	v->answer = cand ? PSA_LIKELY : huge ? PSA_ALREADY_HUGE : PSA_NO_CANDIDATE;
	if (ps_event_kind_walks(e->kind))
		predict_walks(e, t, by_weight);
}

double ps_verdict__reduction(const struct ps_verdict *v)
{
	return v->walks ? 100.0 * (double)(v->walks - v->walks_after) / (double)v->walks : 0.0;
}

static const char *const kind_names[] = {"candidate",	"already-huge", "fits-tlb",
					 "file-backed", "too-small",	"not-eligible"};
static const char *const answer_names[] = {"no-data",	   "likely",	  "already-huge",
					   "no-candidate", "kernel-view", "no-maps"};

static void mib(char *buf, size_t len, uint64_t bytes)
{
	if (bytes >= SZ_1G)
		snprintf(buf, len, "%.1f GiB", (double)bytes / (double)SZ_1G);
	else if (bytes >= (1ull << 20))
		snprintf(buf, len, "%.1f MiB", (double)bytes / (double)(1ull << 20));
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(bytes >> 10));
}

static void print_item(FILE *o, const struct ps_event *e, const struct ps_verdict_item *it,
		       const struct ps_tlb *t, const char *in)
{
	const struct ps_mapping *m = &e->maps[it->map];
	char sz[32], hz[32];

	mib(sz, sizeof(sz), m->end - m->start);
	fprintf(o, "%s%s: %s %#llx-%#llx (%s, pid %d), %.1f%% of the samples\n", in,
		it->kind == PSV_CANDIDATE ? "CANDIDATE" : "not a candidate", m->name,
		(unsigned long long)m->start, (unsigned long long)m->end, sz, (int)m->pid,
		it->share);
	switch (it->kind) {
	case PSV_ALREADY_HUGE:
		fprintf(o,
			"%s  already on %s pages: huge pages are in place; nothing to gain here\n",
			in, ps_page_names[it->huge_page]);
		return;
	case PSV_NOT_ELIGIBLE:
		fprintf(o, "%s  %s is not eligible for huge pages\n", in, m->name);
		return;
	case PSV_FITS_TLB:
		fprintf(o,
			"%s  touches ~%llu 4K pages, which fit the %u-entry first-level DTLB: "
			"huge pages cannot reduce its TLB misses much\n",
			in, (unsigned long long)it->tlb_4k, t->l1d_4k);
		return;
	case PSV_FILE_BACKED:
		fprintf(o,
			"%s  file-backed on 4K pages: madvise(MADV_HUGEPAGE) does not apply "
			"(THP for files needs CONFIG_READ_ONLY_THP_FOR_FS and read-only text, or "
			"tmpfs mounted huge=); copy the data into anonymous or hugetlbfs memory\n",
			in);
		return;
	case PSV_TOO_SMALL:
		fprintf(o,
			"%s  holds no whole 2 MiB-aligned region: a huge page cannot cover it "
			"(allocate it 2 MiB aligned and at least 2 MiB long)\n",
			in);
		return;
	default:
		break;
	}
	uint64_t reach4k = (uint64_t)t->stlb * 4096;
	char r4[32];
	mib(r4, sizeof(r4), reach4k);
	mib(hz, sizeof(hz), it->huge_end - it->huge_start);
	fprintf(o,
		"%s  on 4K pages it touched ~%llu distinct 4K pages (%llu seen, at most %llu; "
		"confidence %s) in ~%llu 2M regions (%llu seen; confidence %s)\n",
		in, (unsigned long long)it->tlb_4k, (unsigned long long)m->pages_4k.seen,
		(unsigned long long)m->pages_4k.cap, ps_confidence_names[m->pages_4k.confidence],
		(unsigned long long)it->tlb_2m, (unsigned long long)m->regions_2m.seen,
		ps_confidence_names[m->regions_2m.confidence]);
	fprintf(o,
		"%s  prediction: its data needs ~%llu TLB entries on 4K pages, ~%llu on 2M pages "
		"(%.0fx fewer); 4K: %s the %u-entry L1 DTLB, %s the %u-entry STLB (%s reach); "
		"2M: %s\n",
		in, (unsigned long long)it->tlb_4k, (unsigned long long)it->tlb_2m,
		it->tlb_2m ? (double)it->tlb_4k / (double)it->tlb_2m : 0.0,
		it->tlb_4k > t->l1d_4k ? "beyond" : "within", t->l1d_4k,
		it->tlb_4k > t->stlb ? "beyond" : "within", t->stlb, r4,
		it->tlb_2m <= t->l1d_2m ? "within the first-level DTLB"
		: it->tlb_2m <= t->stlb ? "within the STLB"
					: "still beyond the STLB");
	if (ps_event_kind_walks(e->kind) && e->verdict.walks) {
		fprintf(o,
			"%s  walks: ~%llu of the view's ~%llu %s walks with a data address "
			"(%.1f%%) "
			"are on it; on 2M pages ~%llu would remain (%.1f%% of its walks: ",
			in, (unsigned long long)it->walks, (unsigned long long)e->verdict.walks,
			e->event, pc_pct(it->walks, e->verdict.walks),
			(unsigned long long)it->walks_after, 100.0 * it->remain);
		if (it->tlb_2m <= t->stlb)
			fprintf(o,
				"its ~%llu 2M regions fit the %u-entry STLB, so only the first "
				"touch of each after a TLB flush walks)\n",
				(unsigned long long)it->tlb_2m, t->stlb);
		else
			fprintf(o,
				"its ~%llu 2M regions exceed the %u-entry STLB: uniform accesses "
				"still miss it 1 - %u/%llu of the time)\n",
				(unsigned long long)it->tlb_2m, t->stlb, t->stlb,
				(unsigned long long)it->tlb_2m);
	}
	fprintf(o,
		"%s  how: madvise((void *)%#llx, %#llx, MADV_HUGEPAGE) on its 2 MiB-aligned part "
		"[%#llx, %#llx) (%s), with /sys/kernel/mm/transparent_hugepage/enabled set to "
		"madvise or always and .../defrag to madvise or defer+madvise (so the fault may "
		"compact); or map it with MAP_HUGETLB (hugetlbfs pages reserved in "
		"/proc/sys/vm/nr_hugepages)",
		in, (unsigned long long)it->huge_start,
		(unsigned long long)(it->huge_end - it->huge_start),
		(unsigned long long)it->huge_start, (unsigned long long)it->huge_end, hz);
	if (m->kind == PS_MAP_HEAP || m->kind == PS_MAP_ANON)
		fprintf(o, "; if malloc allocates it: GLIBC_TUNABLES=glibc.malloc.hugetlb=1 "
			   "(THP for malloc's memory, glibc >= 2.35; =2: hugetlbfs pages)");
	if (m->end - m->start >= SZ_1G)
		fprintf(o, "; it spans 1 GiB or more: MAP_HUGETLB | MAP_HUGE_1GB covers it with "
			   "fewer entries still");
	fprintf(o, "\n");
}

void ps_verdict__print(FILE *o, const struct ps_event *e, const struct ps_tlb *t, const char *in)
{
	const struct ps_verdict *v = &e->verdict;
	size_t cand = 0;

	for (size_t i = 0; i < v->nr; i++)
		cand += v->item[i].kind == PSV_CANDIDATE;
	fprintf(o, "%sWould huge pages help? ", in);
	switch (v->answer) {
	case PSA_NO_DATA:
		fprintf(o, "No samples with a data address in this view.\n");
		return;
	case PSA_NO_MAPS:
		fprintf(o, "Not judged: this input has no memory maps to attribute the addresses "
			   "to (a pmuprof recording has them).\n");
		return;
	case PSA_KERNEL_VIEW:
		fprintf(o,
			"Not judged here: these are kernel-mode samples, whose data addresses are "
			"the kernel's own; the user view judges the program's mappings.\n");
		return;
	case PSA_LIKELY:
		fprintf(o, "Likely, for %zu mapping%s on 4K pages:\n", cand, cand == 1 ? "" : "s");
		break;
	case PSA_ALREADY_HUGE:
		fprintf(o, "No: the mappings that take the samples are already on huge pages.\n");
		break;
	default:
		fprintf(o,
			"Unlikely: no mapping with %.0f%% or more of the samples is on 4K "
			"pages and eligible.\n",
			PSV_MIN_SHARE);
		break;
	}
	for (size_t i = 0; i < v->nr; i++)
		print_item(o, e, &v->item[i], t, in);
	uint64_t unmapped = 0;
	for (size_t i = 0; i < e->nr_maps; i++)
		if (e->maps[i].kind == PS_MAP_UNMAPPED)
			unmapped += e->maps[i].samples;
	if (pc_pct(unmapped, e->data.total_samples) >= PSV_MIN_SHARE)
		fprintf(o,
			"%s%.1f%% of the samples fall outside every recorded mapping (not mapped "
			"at the time, or the recording lacks that process's maps: pmuctl records "
			"them for the processes it samples), so they cannot be judged\n",
			in, pc_pct(unmapped, e->data.total_samples));
	if (v->answer == PSA_LIKELY && ps_event_kind_walks(v->ev_kind) && v->walks)
		fprintf(o,
			"%sPredicted: with the candidate%s on 2M pages, %s would count ~%llu walks "
			"with a data address instead of ~%llu: %.1f%% fewer, for the same work. "
			"Measure it with the same event: pmuconv pagesize --compare BEFORE AFTER\n",
			in, cand == 1 ? "" : "s", e->event, (unsigned long long)v->walks_after,
			(unsigned long long)v->walks, ps_verdict__reduction(v));
	fprintf(o, "%s(TLB sizes: %s: %u-entry L1 DTLB for 4K, %u for 2M, %u-entry STLB)\n", in,
		t->name, t->l1d_4k, t->l1d_2m, t->stlb);
	switch (v->ev_kind) {
	case PS_EV_TIME:
		if (e->walk_event[0]) {
			fprintf(o,
				"%sNote: %s samples measure time spent, not TLB misses: a share "
				"here is time on that data. This recording also has %s, which "
				"counts page walks: its verdict answers directly.\n",
				in, e->event, e->walk_event);
			break;
		}
		fprintf(o,
			"%sNote: %s samples measure time spent, not TLB misses: a share here is "
			"time on that data. On a machine with a PMU, record a TLB-miss event "
			"(e.g. -e dtlb-load-misses, or dtlb_load_misses.walk_completed) to answer "
			"directly.\n",
			in, e->event);
		break;
	case PS_EV_WALKS:
	case PS_EV_WALKS_4K:
		fprintf(o,
			"%sNote: %s counts %s: the shares here are shares of walks, which is what "
			"huge pages remove%s.\n",
			in, e->event, ps_event_kind_phrase(v->ev_kind),
			v->ev_kind == PS_EV_WALKS_4K ? " (walks of 2M and 1G pages are not counted "
						       "by it)"
						     : "");
		break;
	case PS_EV_WALKS_2M:
	case PS_EV_WALKS_1G:
		fprintf(o,
			"%sNote: %s counts %s only: what huge pages still cost, not what 4K pages "
			"do; record a TLB-miss event of every page size (e.g. -e dtlb-load-misses) "
			"to see which 4K mappings huge pages would help.\n",
			in, e->event, ps_event_kind_phrase(v->ev_kind));
		break;
	case PS_EV_STLB_HIT:
	case PS_EV_ACCESSES:
		fprintf(o,
			"%sNote: %s counts %s: a share here is of those, not of page walks; record "
			"a TLB-miss event (e.g. -e dtlb-load-misses) to answer directly.\n",
			in, e->event, ps_event_kind_phrase(v->ev_kind));
		break;
	default:
		break;
	}
}

json_t *ps_verdict__json(const struct ps_event *e)
{
	const struct ps_verdict *v = &e->verdict;
	json_t *maps = json_array();

	for (size_t i = 0; i < v->nr; i++) {
		const struct ps_verdict_item *it = &v->item[i];
		const struct ps_mapping *m = &e->maps[it->map];
		json_t *j =
			json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:I, s:I, s:o, s:o}", "verdict",
				  kind_names[it->kind], "mapping", PC_JI(it->map), "name",
				  pc_json_str(m->name), "start", pc_json_hex(m->start), "end",
				  pc_json_hex(m->end), "share_percent", pc_json_real(it->share, 4),
				  "tlb_entries_4k", PC_JI(it->tlb_4k), "tlb_entries_2m",
				  PC_JI(it->tlb_2m), "huge_start", pc_json_hex(it->huge_start),
				  "huge_end", pc_json_hex(it->huge_end));

		if (it->kind == PSV_ALREADY_HUGE)
			json_object_set_new(j, "page", json_string(ps_page_names[it->huge_page]));
		if (it->kind == PSV_CANDIDATE && ps_event_kind_walks(v->ev_kind)) {
			json_object_set_new(j, "walks", json_integer(PC_JI(it->walks)));
			json_object_set_new(j, "predicted_walks_after",
					    json_integer(PC_JI(it->walks_after)));
			json_object_set_new(j, "remain_on_2m", pc_json_real(it->remain, 6));
		}
		json_array_append_new(maps, j);
	}
	json_t *r = json_pack("{s:s, s:b, s:s}", "answer", answer_names[v->answer], "time_event",
			      v->time_event, "event_kind", ps_event_kind_name(v->ev_kind));
	if (ps_event_kind_walks(v->ev_kind)) {
		json_object_set_new(r, "walks", json_integer(PC_JI(v->walks)));
		json_object_set_new(r, "predicted_walks_after",
				    json_integer(PC_JI(v->walks_after)));
		json_object_set_new(r, "predicted_walk_reduction_percent",
				    pc_json_real(ps_verdict__reduction(v), 4));
	}
	json_object_set_new(r, "mappings", maps);
	return r;
}
