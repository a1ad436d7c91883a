/* SPDX-License-Identifier: GPL-2.0 */
/* Host test platform: cpu part (CPUID, MSRs, LVTPC, reservation, clock). */
#include "platform_test_cpu.h"
#include "pmuprof/x86_pmu_regs.h"

struct cpuid_entry {
	u32 cpu, leaf, subleaf;
	u32 r[4];
};

struct msr_entry {
	u32 msr;
	u64 val;
	u64 writable;
};

struct owner_entry {
	u32 msr;
	u8 owner;
};

#define MAX_OWNERS 64

static struct {
	struct cpuid_entry cpuid[PLAT_TEST_MAX_CPUID];
	unsigned int nr_cpuid;
	unsigned int cpuid_calls;

	struct msr_entry msrs[PLAT_TEST_MAX_MSRS];
	unsigned int nr_msrs;
	unsigned int faults;
	u32 last_fault;
	unsigned int safe_failures;
	struct plat_test_msr_handler handler;
	bool have_handler;

	u32 lvtpc;

	struct owner_entry perfctr[MAX_OWNERS], evntsel[MAX_OWNERS];
	unsigned int nr_perfctr, nr_evntsel;
	unsigned int bad_releases;

	u64 now, step;
	unsigned int cpu;

	u64 cr4[PLAT_TEST_MAX_CPUS];
	unsigned int cr4_queries;

	struct plat_test_access log[PLAT_TEST_LOG_MAX];
	unsigned int log_len, log_dropped;
} T;

void plat_test_cpu_reset(void)
{
	memset(&T, 0, sizeof(T));
}

static void log_op(enum plat_test_op op, bool ok, u32 msr, u64 val)
{
	if (T.log_len >= PLAT_TEST_LOG_MAX) {
		T.log_dropped++;
		return;
	}
	T.log[T.log_len++] =
		(struct plat_test_access){.op = (u8)op, .ok = ok, .msr = msr, .val = val};
}

/* --- CPUID ------------------------------------------------------------- */
void plat_test_set_cpuid_on(u32 cpu, u32 leaf, u32 subleaf, u32 eax, u32 ebx, u32 ecx, u32 edx)
{
	struct cpuid_entry *e = NULL;

	for (unsigned int i = 0; i < T.nr_cpuid; i++)
		if (T.cpuid[i].cpu == cpu && T.cpuid[i].leaf == leaf &&
		    T.cpuid[i].subleaf == subleaf)
			e = &T.cpuid[i];
	if (!e) {
		if (T.nr_cpuid >= PLAT_TEST_MAX_CPUID)
			return;
		e = &T.cpuid[T.nr_cpuid++];
	}
	*e = (struct cpuid_entry){cpu, leaf, subleaf, {eax, ebx, ecx, edx}};
}

void plat_test_set_cpuid(u32 leaf, u32 subleaf, u32 eax, u32 ebx, u32 ecx, u32 edx)
{
	plat_test_set_cpuid_on(PLAT_TEST_ANY_CPU, leaf, subleaf, eax, ebx, ecx, edx);
}

void plat_test_set_vendor(const char *v, u32 max_leaf)
{
	u32 w[3] = {0, 0, 0};
	size_t n = strlen(v);

	memcpy(w, v, n < sizeof(w) ? n : sizeof(w));
	/* vendor string order is EBX, EDX, ECX */
	plat_test_set_cpuid(X86_CPUID_LEAF_VENDOR, PLAT_TEST_ANY_SUBLEAF, max_leaf, w[0], w[2],
			    w[1]);
}

void plat_test_set_cpuid1(u32 eax, u32 ecx, u32 edx)
{
	plat_test_set_cpuid(X86_CPUID_LEAF_FEATURE, PLAT_TEST_ANY_SUBLEAF, eax, 0, ecx, edx);
}

unsigned int plat_test_cpuid_calls(void)
{
	return T.cpuid_calls;
}

void plat_cpuid(u32 leaf, u32 subleaf, u32 *eax, u32 *ebx, u32 *ecx, u32 *edx)
{
	const struct cpuid_entry *hit = NULL;
	int best = -1;

	T.cpuid_calls++;
	/* this cpu's entry beats an every-cpu one; an exact subleaf beats any */
	for (unsigned int i = 0; i < T.nr_cpuid; i++) {
		const struct cpuid_entry *e = &T.cpuid[i];
		int score;

		if (e->leaf != leaf || (e->cpu != T.cpu && e->cpu != PLAT_TEST_ANY_CPU) ||
		    (e->subleaf != subleaf && e->subleaf != PLAT_TEST_ANY_SUBLEAF))
			continue;
		score = (e->cpu == T.cpu ? 2 : 0) + (e->subleaf == subleaf ? 1 : 0);
		if (score > best) {
			best = score;
			hit = e;
		}
	}
	*eax = hit ? hit->r[0] : 0;
	*ebx = hit ? hit->r[1] : 0;
	*ecx = hit ? hit->r[2] : 0;
	*edx = hit ? hit->r[3] : 0;
}

/* --- MSR file ---------------------------------------------------------- */
static struct msr_entry *msr_find(u32 msr)
{
	for (unsigned int i = 0; i < T.nr_msrs; i++)
		if (T.msrs[i].msr == msr)
			return &T.msrs[i];
	return NULL;
}

void plat_test_msr_define(u32 msr, u64 val, u64 writable_mask)
{
	struct msr_entry *e = msr_find(msr);

	if (!e) {
		if (T.nr_msrs >= PLAT_TEST_MAX_MSRS)
			return;
		e = &T.msrs[T.nr_msrs++];
	}
	*e = (struct msr_entry){msr, val, writable_mask};
}

void plat_test_msr_undefine(u32 msr)
{
	struct msr_entry *e = msr_find(msr);

	if (e)
		*e = T.msrs[--T.nr_msrs];
}

bool plat_test_msr_defined(u32 msr)
{
	return msr_find(msr) != NULL;
}

void plat_test_msr_poke(u32 msr, u64 val)
{
	struct msr_entry *e = msr_find(msr);

	if (e)
		e->val = val;
	else
		plat_test_msr_define(msr, val, ~0ull);
}

u64 plat_test_msr_peek(u32 msr)
{
	struct msr_entry *e = msr_find(msr);

	return e ? e->val : 0;
}

unsigned int plat_test_msr_faults(void)
{
	return T.faults;
}

u32 plat_test_msr_last_fault(void)
{
	return T.last_fault;
}

unsigned int plat_test_msr_safe_failures(void)
{
	return T.safe_failures;
}

void plat_test_msr_set_handler(const struct plat_test_msr_handler *h)
{
	T.have_handler = h != NULL;
	if (h)
		T.handler = *h;
}

/* 0, or -EIO when the access would #GP. */
static int msr_read(u32 msr, u64 *val)
{
	struct msr_entry *e;

	if (T.have_handler && T.handler.read) {
		int rc = T.handler.read(T.handler.ctx, msr, val);

		if (rc != -ENOENT)
			return rc;
	}
	e = msr_find(msr);
	if (!e)
		return -EIO;
	*val = e->val;
	return 0;
}

static int msr_write(u32 msr, u64 val)
{
	struct msr_entry *e;

	if (T.have_handler && T.handler.write) {
		int rc = T.handler.write(T.handler.ctx, msr, val);

		if (rc != -ENOENT)
			return rc;
	}
	e = msr_find(msr);
	if (!e || (val & ~e->writable))
		return -EIO;
	e->val = val;
	return 0;
}

/* The instruction boundary after an access: the handler's hook. */
static void after_access(void)
{
	if (T.have_handler && T.handler.after)
		T.handler.after(T.handler.ctx);
}

static void fault(u32 msr)
{
	T.faults++;
	T.last_fault = msr;
}

u64 plat_rdmsr(u32 msr)
{
	u64 val = 0;
	int rc = msr_read(msr, &val);

	if (rc) {
		fault(msr);
		val = 0;
	}
	log_op(PLAT_OP_RDMSR, rc == 0, msr, val);
	after_access();
	return val;
}

void plat_wrmsr(u32 msr, u64 val)
{
	int rc = msr_write(msr, val);

	if (rc)
		fault(msr);
	log_op(PLAT_OP_WRMSR, rc == 0, msr, val);
	after_access();
}

int plat_rdmsr_safe(u32 msr, u64 *val)
{
	u64 v = 0;
	int rc = msr_read(msr, &v);

	log_op(PLAT_OP_RDMSR_SAFE, rc == 0, msr, v);
	after_access();
	if (rc) {
		T.safe_failures++;
		return -EIO;
	}
	*val = v;
	return 0;
}

/* --- cpu and clock --------------------------------------------------------- */
unsigned int plat_cpu(void)
{
	return T.cpu;
}

void plat_test_set_cpu(unsigned int cpu)
{
	T.cpu = cpu;
}

u64 plat_now_ns(void)
{
	u64 now = T.now;

	T.now += T.step;
	return now;
}

void plat_test_set_now(u64 ns)
{
	T.now = ns;
}

void plat_test_advance_ns(u64 ns)
{
	T.now += ns;
}

void plat_test_set_clock_step(u64 step_ns)
{
	T.step = step_ns;
}

/* --- CR4 ------------------------------------------------------------------ */
u64 plat_cr4_any_cpu(void)
{
	u64 any = 0;

	T.cr4_queries++;
	for (unsigned int i = 0; i < PLAT_TEST_MAX_CPUS; i++)
		any |= T.cr4[i];
	return any;
}

void plat_test_set_cr4(unsigned int cpu, u64 val)
{
	if (cpu < PLAT_TEST_MAX_CPUS)
		T.cr4[cpu] = val;
}

unsigned int plat_test_cr4_queries(void)
{
	return T.cr4_queries;
}

/* --- LVTPC ---------------------------------------------------------------- */
u32 plat_lvtpc_read(void)
{
	return T.lvtpc;
}

void plat_lvtpc_write(u32 val)
{
	T.lvtpc = val;
	log_op(PLAT_OP_LVTPC_WRITE, true, 0, val);
	after_access();
}

void plat_lvtpc_set_nmi(void)
{
	plat_lvtpc_write(X86_LVT_DM_NMI);
}

void plat_test_lvtpc_poke(u32 val)
{
	T.lvtpc = val;
}

u32 plat_test_lvtpc_peek(void)
{
	return T.lvtpc;
}

/* --- reservation ----------------------------------------------------------- */
static struct owner_entry *owner_find(struct owner_entry *tab, unsigned int *nr, u32 msr,
				      bool create)
{
	for (unsigned int i = 0; i < *nr; i++)
		if (tab[i].msr == msr)
			return &tab[i];
	if (!create || *nr >= MAX_OWNERS)
		return NULL;
	tab[*nr] = (struct owner_entry){msr, PLAT_TEST_FREE};
	return &tab[(*nr)++];
}

static bool reserve(struct owner_entry *tab, unsigned int *nr, u32 msr)
{
	struct owner_entry *e = owner_find(tab, nr, msr, true);

	if (!e || e->owner != PLAT_TEST_FREE)
		return false;
	e->owner = PLAT_TEST_OURS;
	return true;
}

static void release(struct owner_entry *tab, unsigned int *nr, u32 msr)
{
	struct owner_entry *e = owner_find(tab, nr, msr, false);

	if (!e || e->owner != PLAT_TEST_OURS) {
		T.bad_releases++;
		return;
	}
	e->owner = PLAT_TEST_FREE;
}

bool plat_reserve_perfctr(u32 msr)
{
	bool ok = reserve(T.perfctr, &T.nr_perfctr, msr);

	log_op(PLAT_OP_RESERVE_PERFCTR, ok, msr, 0);
	return ok;
}

void plat_release_perfctr(u32 msr)
{
	release(T.perfctr, &T.nr_perfctr, msr);
	log_op(PLAT_OP_RELEASE_PERFCTR, true, msr, 0);
}

bool plat_reserve_evntsel(u32 msr)
{
	bool ok = reserve(T.evntsel, &T.nr_evntsel, msr);

	log_op(PLAT_OP_RESERVE_EVNTSEL, ok, msr, 0);
	return ok;
}

void plat_release_evntsel(u32 msr)
{
	release(T.evntsel, &T.nr_evntsel, msr);
	log_op(PLAT_OP_RELEASE_EVNTSEL, true, msr, 0);
}

void plat_test_hold_perfctr(u32 msr)
{
	struct owner_entry *e = owner_find(T.perfctr, &T.nr_perfctr, msr, true);

	if (e)
		e->owner = PLAT_TEST_FOREIGN;
}

void plat_test_hold_evntsel(u32 msr)
{
	struct owner_entry *e = owner_find(T.evntsel, &T.nr_evntsel, msr, true);

	if (e)
		e->owner = PLAT_TEST_FOREIGN;
}

enum plat_test_owner plat_test_perfctr_owner(u32 msr)
{
	struct owner_entry *e = owner_find(T.perfctr, &T.nr_perfctr, msr, false);

	return e ? (enum plat_test_owner)e->owner : PLAT_TEST_FREE;
}

enum plat_test_owner plat_test_evntsel_owner(u32 msr)
{
	struct owner_entry *e = owner_find(T.evntsel, &T.nr_evntsel, msr, false);

	return e ? (enum plat_test_owner)e->owner : PLAT_TEST_FREE;
}

unsigned int plat_test_reserved_count(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < T.nr_perfctr; i++)
		n += T.perfctr[i].owner == PLAT_TEST_OURS;
	for (unsigned int i = 0; i < T.nr_evntsel; i++)
		n += T.evntsel[i].owner == PLAT_TEST_OURS;
	return n;
}

unsigned int plat_test_bad_releases(void)
{
	return T.bad_releases;
}

/* --- log -------------------------------------------------------------------- */
unsigned int plat_test_log_len(void)
{
	return T.log_len;
}

unsigned int plat_test_log_dropped(void)
{
	return T.log_dropped;
}

const struct plat_test_access *plat_test_log_get(unsigned int i)
{
	return i < T.log_len ? &T.log[i] : NULL;
}

void plat_test_log_clear(void)
{
	T.log_len = 0;
	T.log_dropped = 0;
}

int plat_test_log_last(enum plat_test_op op, u32 msr)
{
	for (int i = (int)T.log_len - 1; i >= 0; i--)
		if (T.log[i].op == op && (msr == 0 || T.log[i].msr == msr))
			return i;
	return -1;
}

unsigned int plat_test_log_count(enum plat_test_op op, u32 msr)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < T.log_len; i++)
		n += T.log[i].op == op && (msr == 0 || T.log[i].msr == msr);
	return n;
}
