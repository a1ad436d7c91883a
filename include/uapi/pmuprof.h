/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * pmuprof user/kernel ABI: /dev/pmuprof ioctls and the records read() returns.
 *
 * Shared verbatim by the kernel module (kernel/), pmuctl (userspace/) and the
 * host tools (host/, lib/). Rules, as in include/uapi/linux/perf_event.h:
 *
 *  - Every ioctl struct starts with `__u32 size` set by the caller to
 *    sizeof(the struct it was compiled against). The kernel accepts any size
 *    >= the *_SIZE_VER0 of that struct; bytes beyond what the kernel knows
 *    must be zero (else -E2BIG), bytes the caller lacks read as zero. Output
 *    structs are filled up to min(size, kernel's size).
 *  - Every reserved field and unknown flag bit must be zero (else -EINVAL).
 *  - Enums and flag sets are append-only. Struct layouts only grow at the end.
 *  - Every record starts with struct pmuprof_record_header; a reader skips
 *    record types it does not know by `size`. Records are 8-byte aligned and
 *    `size` (whole record, header included) is a multiple of 8.
 *
 * Not ABI: the ring buffer's internal layout (rings are drained by read(),
 * not mmap()), the order in which read() visits CPUs, the ioctl numbers'
 * size bits (the kernel dispatches on _IOC_NR and the struct's own size).
 */
#ifndef _UAPI_PMUPROF_H
#define _UAPI_PMUPROF_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/ioctl.h>
#else
#include <linux/types.h>
#include <sys/ioctl.h>
#endif

#define PMUPROF_DEVICE	    "/dev/pmuprof"
#define PMUPROF_ABI_VERSION 1

/* Limits the kernel enforces; GET_INFO reports the effective values. */
#define PMUPROF_MAX_EVENTS	    16	 /* events in one session */
#define PMUPROF_MAX_CPUS	    1024 /* width of cpu masks in the ABI */
#define PMUPROF_MAX_DEPTH	    256	 /* frames per stack (kernel or user) */
#define PMUPROF_DEFAULT_DEPTH	    64
#define PMUPROF_RING_MIN	    (16u << 10) /* bytes per CPU, power of two */
#define PMUPROF_RING_MAX	    (64u << 20)
#define PMUPROF_RING_DEFAULT	    (2u << 20)
#define PMUPROF_MIN_PMU_PERIOD	    1000  /* events between PMU samples */
#define PMUPROF_MIN_CLOCK_PERIOD_NS 20000 /* cpu-clock: at most 50 kHz */
#define PMUPROF_MAX_FREQ_HZ	    50000
#define PMUPROF_HIST_BUCKETS	    64

/* ------------------------------------------------------------------ */
/* Sample sources                                                      */
/* ------------------------------------------------------------------ */
enum pmuprof_source {
	PMUPROF_SOURCE_NONE = 0,
	PMUPROF_SOURCE_PMU = 1,	    /* counter overflow -> LVTPC NMI */
	PMUPROF_SOURCE_NMI_IPI = 2, /* hrtimer on cpu A sends NMI IPI to cpu B */
	PMUPROF_SOURCE_TIMER = 3,   /* hrtimer's own irq regs (see below) */
	PMUPROF_SOURCE_PEBS = 4,    /* PMU overflow, IP/address from PEBS */
	PMUPROF_SOURCE__MAX,
};

/* pmuprof_info.sources: bit (1 << enum pmuprof_source) set if usable.
 *
 * A cpu-clock event configured as NMI_IPI also yields TIMER samples: on one
 * CPU in each group of sampled CPUs that has no free (unsampled) online CPU
 * to send its NMIs, and on a lone online CPU. TIMER samples cannot land in
 * IRQ-disabled code. Each sample's `source` says which it is. */

/* Why the PMU source is unusable (pmuprof_info.pmu_unavailable). */
enum pmuprof_pmu_status {
	PMUPROF_PMU_OK = 0,
	PMUPROF_PMU_NOT_INTEL = 1,	 /* vendor without architectural PMU */
	PMUPROF_PMU_NO_ARCH_PERFMON = 2, /* CPUID.0AH version 0 (e.g. VM) */
	PMUPROF_PMU_BUSY = 3,		 /* counters held by perf/watchdog */
	PMUPROF_PMU_HYBRID = 4,		 /* P/E cores: counters differ per core type */
};

/* Architectural events, in CPUID.0AH:EBX bit order (SDM vol.3 "Pre-defined
 * architectural performance events"). pmuprof_info.arch_events has bit i
 * set when event i is AVAILABLE (note: CPUID's EBX bit set means NOT). */
enum pmuprof_arch_event {
	PMUPROF_ARCH_CORE_CYCLES = 0,
	PMUPROF_ARCH_INSTRUCTIONS = 1,
	PMUPROF_ARCH_REF_CYCLES = 2,
	PMUPROF_ARCH_LLC_REFERENCES = 3,
	PMUPROF_ARCH_LLC_MISSES = 4,
	PMUPROF_ARCH_BRANCH_INSTRUCTIONS = 5,
	PMUPROF_ARCH_BRANCH_MISSES = 6,
	PMUPROF_ARCH_TOPDOWN_SLOTS = 7,
	PMUPROF_ARCH__MAX,
};

/* ------------------------------------------------------------------ */
/* PMUPROF_IOC_GET_INFO                                                */
/* ------------------------------------------------------------------ */
enum pmuprof_cpu_vendor {
	PMUPROF_VENDOR_UNKNOWN = 0,
	PMUPROF_VENDOR_INTEL = 1,
	PMUPROF_VENDOR_AMD = 2,
	PMUPROF_VENDOR_OTHER = 3,
};

#define PMUPROF_INFO_HYPERVISOR (1u << 0) /* CPUID.1:ECX.hypervisor set */
#define PMUPROF_INFO_FULL_WIDTH (1u << 1) /* full-width counter writes */
#define PMUPROF_INFO_PRIVILEGED (1u << 2) /* opener may see kernel/phys addrs */
#define PMUPROF_INFO_PID_CPUS	(1u << 3) /* TARGET_PID takes a cpu_mask (-C with -p) */
#define PMUPROF_INFO_PEBS_KPTI	(1u << 4) /* PEBS refused: page-table isolation on */

struct pmuprof_info {
	__u32 size;		       /* in: sizeof(struct pmuprof_info) */
	__u32 abi_version;	       /* PMUPROF_ABI_VERSION */
	__u32 flags;		       /* PMUPROF_INFO_* */
	__u32 sources;		       /* bitmask of 1 << enum pmuprof_source */
	__u32 pmu_status;	       /* enum pmuprof_pmu_status */
	__u32 pmu_version;	       /* CPUID.0AH:EAX[7:0] */
	__u32 nr_gp;		       /* general-purpose counters */
	__u32 gp_width;		       /* bits */
	__u32 nr_fixed;		       /* fixed-function counters */
	__u32 fixed_width;	       /* bits */
	__u32 arch_events;	       /* bitmask of enum pmuprof_arch_event, 1 = available */
	__u32 arch_events_len;	       /* CPUID.0AH:EAX[31:24] */
	__u64 perf_capabilities;       /* IA32_PERF_CAPABILITIES, 0 if absent */
	__u32 vendor;		       /* enum pmuprof_cpu_vendor */
	__u32 family, model, stepping; /* display family/model */
	char vendor_string[16];	       /* CPUID.0:EBX,EDX,ECX, NUL-terminated */
	__u32 nr_cpus;		       /* nr_cpu_ids */
	__u32 nr_online;
	__u32 max_events;			/* PMUPROF_MAX_EVENTS */
	__u32 max_depth;			/* PMUPROF_MAX_DEPTH */
	__u32 ring_min, ring_max, ring_default; /* bytes per CPU */
	__u32 min_pmu_period;
	__u32 min_clock_period_ns;
	__u32 max_freq_hz;
	__u32 paging_levels; /* 4 or 5 */
	__u32 __reserved0;
};
#define PMUPROF_INFO_SIZE_VER0 sizeof(struct pmuprof_info)

/* ------------------------------------------------------------------ */
/* PMUPROF_IOC_CONFIGURE                                               */
/* ------------------------------------------------------------------ */

/*
 * One event. For PMUPROF_SOURCE_PMU/PEBS, `config` is an IA32_PERFEVTSELx
 * value: event select [7:0], umask [15:8], USR [16], OS [17], EDGE [18],
 * ANY [21], INV [23], CMASK [31:24]. The kernel owns INT [20] and EN [22]
 * (must be 0) and PC [19] (must be 0); other reserved bits must be 0. If
 * USR and OS are both 0, both are set (count everything), then
 * the session's EXCLUDE_* flags clear them.
 * Events that a fixed counter counts (instructions, core cycles, ref
 * cycles: event/umask 0xc0/0x00, 0x3c/0x00, 0x3c/0x01 or the fixed pseudo
 * encoding 0x00/0x03) go to that fixed counter when it is free.
 *
 * For PMUPROF_SOURCE_NMI_IPI (cpu-clock), `config` must be 0 and the
 * period is in nanoseconds.
 */
#define PMUPROF_EVF_FREQ    (1u << 0) /* period field holds a rate in Hz */
#define PMUPROF_EVF_PRECISE (1u << 1) /* request PEBS (ENODEV if unsupported) */
#define PMUPROF_EVF__ALL    (PMUPROF_EVF_FREQ | PMUPROF_EVF_PRECISE)

struct pmuprof_event_config {
	__u64 config; /* raw encoding, see above */
	__u64 period; /* events (PMU) or ns (cpu-clock); Hz if EVF_FREQ */
	__u32 source; /* enum pmuprof_source: PMU or NMI_IPI */
	__u32 flags;  /* PMUPROF_EVF_* */
	__u64 __reserved[2];
};

enum pmuprof_target {
	PMUPROF_TARGET_ALL = 0,	 /* every online CPU */
	PMUPROF_TARGET_CPUS = 1, /* cpu_mask */
	PMUPROF_TARGET_PID = 2,	 /* pid and its threads, on any CPU or (cpu_mask
				  * not all zero, PMUPROF_INFO_PID_CPUS) on those */
};

#define PMUPROF_CF_KSTACK	  (1u << 0) /* record kernel call stacks */
#define PMUPROF_CF_USTACK	  (1u << 1) /* record user call stacks (frame pointers) */
#define PMUPROF_CF_EXCLUDE_USER	  (1u << 2) /* drop samples in user mode */
#define PMUPROF_CF_EXCLUDE_KERNEL (1u << 3) /* drop samples in kernel mode */
#define PMUPROF_CF_DATA_ADDR	  (1u << 4) /* decode data address + page size */
#define PMUPROF_CF_PHYS_ADDR	  (1u << 5) /* also physical addresses (privileged) */
#define PMUPROF_CF_CODE_PAGE	  (1u << 6) /* page size backing the IP */
#define PMUPROF_CF_INHERIT	  (1u << 7) /* TARGET_PID: also its descendants, see below */
#define PMUPROF_CF_USTACK_COPY	  (1u << 8) /* user regs + a copy of the user stack, below */
#define PMUPROF_CF__ALL		  ((1u << 9) - 1)

/*
 * PMUPROF_CF_USTACK_COPY (perf's --call-graph dwarf: unwind offline): every
 * sample whose task has user state (user mode, or a user task in the
 * kernel: its registers at kernel entry) carries that state's general
 * registers and ustack_copy_size bytes copied from its user stack pointer
 * upwards (struct pmuprof_sample_ustack, PMUPROF_SF_USTACK_COPY). The copy
 * stops at the first byte that cannot be read (the top of the stack
 * mapping, a page not present: no fault is taken in the NMI); `valid` says
 * how far it got. ustack_copy_size: a multiple of 8 in
 * [8, PMUPROF_USTACK_COPY_MAX]; 0 with the flag means
 * PMUPROF_USTACK_COPY_DEFAULT. Every sample record grows by the full size,
 * so the ring must hold at least 4 of the largest records (else EINVAL).
 */
#define PMUPROF_USTACK_COPY_DEFAULT (8u << 10)
#define PMUPROF_USTACK_COPY_MAX	    (64u << 10)

/*
 * PMUPROF_CF_INHERIT (only with PMUPROF_TARGET_PID, else -EINVAL): a sample
 * is kept when the interrupted task's tgid is `pid` (as without the flag) or
 * when one of its ancestors' tgid is, following each task's real parent up
 * to PMUPROF_INHERIT_MAX_DEPTH levels. Ancestry is looked at sample time, not
 * fork time: children that exist before CONFIGURE are followed too, but a
 * process re-parented because its parent exited (to init or a child
 * subreaper above the target: a daemonising double fork) falls out of the
 * tree; perf's inherit, which attaches at fork, keeps it. An opener without
 * CAP_SYS_PTRACE gets a descendant's samples only while that process could
 * be ptraced by the opener (same uid/gid, dumpable: not after a setuid or
 * file-capability exec); the others are filtered, as perf drops inherited
 * events at such an exec. Samples dropped because the walk hit its depth
 * cap are counted in pmuprof_cpu_stats.inherit_capped (and in filtered).
 */
#define PMUPROF_INHERIT_MAX_DEPTH 32

struct pmuprof_config {
	__u32 size;	    /* in: sizeof(struct pmuprof_config) */
	__u32 flags;	    /* PMUPROF_CF_* */
	__u32 nr_events;    /* 1..PMUPROF_MAX_EVENTS */
	__u32 stack_depth;  /* 0 = default; max PMUPROF_MAX_DEPTH */
	__u32 ring_size;    /* bytes per CPU, 0 = default; power of two */
	__u32 wakeup_bytes; /* wake reader when this much is queued; 0 = ring/4 */
	__u32 target;	    /* enum pmuprof_target */
	__s32 pid;	    /* PMUPROF_TARGET_PID: tgid to follow (+ descendants: CF_INHERIT) */
	__u64 cpu_mask[PMUPROF_MAX_CPUS / 64]; /* TARGET_CPUS; TARGET_PID: 0 or a subset */
	__u32 ustack_copy_size; /* PMUPROF_CF_USTACK_COPY: bytes, see above; else 0 */
	__u32 __reserved32;
	__u64 __reserved[3];
	struct pmuprof_event_config events[PMUPROF_MAX_EVENTS];
};
#define PMUPROF_CONFIG_SIZE_VER0 sizeof(struct pmuprof_config)

/* ------------------------------------------------------------------ */
/* PMUPROF_IOC_GET_STATS                                               */
/* ------------------------------------------------------------------ */

/*
 * Handler time histogram: bucket b counts handler runs whose duration t (ns)
 * satisfies pmuprof_hist_bucket(t) == b: log2 with 4 linear sub-buckets,
 * exact below 8 ns, last bucket open-ended (>= ~2^17 ns).
 */
static inline unsigned int pmuprof_hist_bucket(__u64 ns)
{
	unsigned int msb, b;

	if (ns < 8)
		return (unsigned int)ns;
	msb = 63 - (unsigned int)__builtin_clzll(ns);
	b = 4 * (msb - 1) + (unsigned int)((ns >> (msb - 2)) & 3);
	return b < PMUPROF_HIST_BUCKETS ? b : PMUPROF_HIST_BUCKETS - 1;
}

/* Lower bound in ns of bucket b (inverse of pmuprof_hist_bucket). */
static inline __u64 pmuprof_hist_lower(unsigned int b)
{
	unsigned int msb;

	if (b < 8)
		return b;
	msb = b / 4 + 1;
	return ((__u64)1 << msb) | ((__u64)(b & 3) << (msb - 2));
}

struct pmuprof_cpu_stats {
	__u64 captured;		     /* samples the handler tried to write */
	__u64 samples;		     /* sample records written to the ring */
	__u64 lost;		     /* samples dropped (ring full or nested) */
	__u64 filtered;		     /* NMIs of ours dropped by pid/mode filters */
	__u64 nmis_handled;	     /* NMIs claimed (NMI_HANDLED) */
	__u64 nmis_passed;	     /* NMIs passed on (NMI_DONE) */
	__u64 ipis_sent;	     /* NMI IPIs this CPU's hrtimer sent */
	__u64 throttled;	     /* times the rate was lowered for cost */
	__u64 overflow_loops_capped; /* GLOBAL_STATUS loop hit its cap */
	__u64 handler_ns_min;
	__u64 handler_ns_max;
	__u64 handler_ns_total; /* mean = total / nmis_handled */
	__u64 read_records;	/* records read() delivered */
	__u64 read_bytes;
	__u64 hist[PMUPROF_HIST_BUCKETS]; /* handler time histogram */
	__u64 inherit_capped;	/* CF_INHERIT: ancestry walk hit its depth cap (filtered) */
	__u64 unthrottled;	/* times a throttled rate was raised back one step */
	__u64 ipis_outstanding; /* NMI-IPI samples not sent: the target had not yet
				   taken the previous NMI IPI (stalled, or in a long NMI) */
	__u64 ipis_taken;	/* NMI IPIs this CPU took (as a target): sent - taken
				   over all CPUs were merged in a target's NMI latch */
};

struct pmuprof_stats {
	__u32 size;		 /* in: sizeof(struct pmuprof_stats) */
	__u32 nr_cpus;		 /* in: entries at cpus_ptr; out: entries filled (nr_cpu_ids) */
	__u64 cpus_ptr;		 /* in: user pointer to struct pmuprof_cpu_stats[nr_cpus], or 0 */
	__u32 cpu_stats_size;	 /* in: sizeof(struct pmuprof_cpu_stats) */
	__u32 state;		 /* out: enum pmuprof_state */
	__u64 start_ns, stop_ns; /* out: session clock (same clock as samples) */
	struct pmuprof_cpu_stats total;		 /* out: sum over CPUs (min/max combined) */
	__u64 event_samples[PMUPROF_MAX_EVENTS]; /* out: per event index */
	__u64 event_lost[PMUPROF_MAX_EVENTS];
	__u64 event_period[PMUPROF_MAX_EVENTS]; /* out: current period (freq mode moves it) */
	/* added after VER0: callers passing PMUPROF_STATS_SIZE_VER0 get none of it */
	__u64 missed;		 /* out: cpu-clock samples due but never taken, the sum of:
				  * ticks_missed + total.ipis_outstanding + ipis_unanswered;
				  * invisible otherwise (neither samples nor LOST records) */
	__u64 ticks_missed;	 /* out: due samples skipped because an hrtimer fired late
				  * (its CPU did not run: a descheduled vCPU, long IRQ-off) */
	__u64 ipis_unanswered;	 /* out: NMI IPIs sent that no NMI took (total.ipis_sent -
				  * total.ipis_taken once the session is stopped) */
	__u64 replans;		 /* out: sender plans rebuilt while running (CPU hotplug);
				  * a lone online CPU captures itself (TIMER samples) */
	__u64 ustack_copy_bytes; /* out: CF_USTACK_COPY: user stack bytes copied */
	__u64 ustack_copy_short; /* out: copies that stopped before ustack_copy_size (the
				  * stack mapping's end, or a page not present) */
	/* added after PMUPROF_STATS_SIZE_VER1: PEBS records whose data address
	 * the module checked against the decoder (issue 16), summed over the
	 * CPUs; every drained record lands in exactly one of the four */
	__u64 pebs_agree;	   /* out: decoded address == PEBS data address */
	__u64 pebs_disagree;	   /* out: they differ (or no memory operand decoded) */
	__u64 pebs_not_applicable; /* out: nothing to compare: no GPRs/address/eventing IP
				    * in the record, or the instruction may write one of
				    * its own address registers (GPRs are post-retirement) */
	__u64 pebs_undecodable;	   /* out: bytes unreadable, invalid, or the address is not
				    * computable (VSIB, MPX) */
};
#define PMUPROF_STATS_SIZE_VER0 __builtin_offsetof(struct pmuprof_stats, missed)
/* up to ustack_copy_short: what GET_STATS returned before the PEBS check */
#define PMUPROF_STATS_SIZE_VER1 __builtin_offsetof(struct pmuprof_stats, pebs_agree)

enum pmuprof_state {
	PMUPROF_STATE_IDLE = 0,	      /* opened, not configured */
	PMUPROF_STATE_CONFIGURED = 1, /* configured, not running */
	PMUPROF_STATE_RUNNING = 2,
	PMUPROF_STATE_STOPPED = 3, /* stopped, rings may hold data to read */
};

#define PMUPROF_IOC_MAGIC     0xB7
#define PMUPROF_IOC_GET_INFO  _IOWR(PMUPROF_IOC_MAGIC, 1, struct pmuprof_info)
#define PMUPROF_IOC_CONFIGURE _IOW(PMUPROF_IOC_MAGIC, 2, struct pmuprof_config)
/* START: EBUSY when perf or the NMI watchdog holds the counters; EAGAIN for
 * precise (PEBS) events while VMX is on (KVM guests on this host). */
#define PMUPROF_IOC_START     _IO(PMUPROF_IOC_MAGIC, 3)
#define PMUPROF_IOC_STOP      _IO(PMUPROF_IOC_MAGIC, 4)
#define PMUPROF_IOC_GET_STATS _IOWR(PMUPROF_IOC_MAGIC, 5, struct pmuprof_stats)

/* ------------------------------------------------------------------ */
/* Records returned by read()                                          */
/* ------------------------------------------------------------------ */

/*
 * read() returns whole records only, never splitting one; a buffer smaller
 * than the session's largest possible record (PMUPROF_READ_MIN, or
 * PMUPROF_READ_MIN_COPY(size) with USTACK_COPY) gets -EINVAL. Records
 * from one CPU come
 * in the order that CPU produced them; every record names its CPU.
 * read() blocks (unless O_NONBLOCK) until data or the session stops;
 * after STOP it returns what is left and then 0 (end of stream).
 */
struct pmuprof_record_header {
	__u16 type; /* enum pmuprof_record_type */
	__u16 misc; /* PMUPROF_MISC_* */
	__u32 size; /* whole record incl. header, multiple of 8 */
};

enum pmuprof_record_type {
	PMUPROF_REC_SAMPLE = 1,	    /* struct pmuprof_sample + optional parts */
	PMUPROF_REC_LOST = 2,	    /* struct pmuprof_lost */
	PMUPROF_REC_THROTTLE = 3,   /* struct pmuprof_throttle */
	PMUPROF_REC_PERIOD = 4,	    /* struct pmuprof_throttle: freq-mode period change */
	PMUPROF_REC_UNTHROTTLE = 5, /* struct pmuprof_throttle: rate raised back (new < old) */
	PMUPROF_REC__MAX,
};

/* misc of a SAMPLE: where the IP was. */
#define PMUPROF_MISC_USER     (1u << 0) /* interrupted in user mode */
#define PMUPROF_MISC_KERNEL   (1u << 1) /* interrupted in kernel mode */
#define PMUPROF_MISC_IDLE     (1u << 2) /* interrupted the idle task */
#define PMUPROF_MISC_EXACT_IP (1u << 3) /* IP from PEBS / an NMI boundary */

/* pmuprof_sample.sample_flags: which optional parts follow, in this order. */
#define PMUPROF_SF_ADDR		(1u << 0)  /* struct pmuprof_sample_addr */
#define PMUPROF_SF_USTACK_COPY	(1u << 1)  /* struct pmuprof_sample_ustack + bytes */
#define PMUPROF_SF_KSTACK_TRUNC (1u << 8)  /* kernel stack hit depth limit */
#define PMUPROF_SF_USTACK_TRUNC (1u << 9)  /* user stack hit depth limit */
#define PMUPROF_SF_USTACK_FAULT (1u << 10) /* user stack walk stopped on a fault */

struct pmuprof_sample {
	struct pmuprof_record_header hdr;
	__u64 time_ns; /* session clock (ktime_get_mono_fast_ns on Linux) */
	__u64 ip;      /* 0 if hidden (kernel IP for unprivileged opener) */
	__u64 period;  /* events (PMU) or ns (cpu-clock) this sample stands for */
	__u32 pid;     /* tgid */
	__u32 tid;
	__u32 cpu;
	__u16 event; /* index into pmuprof_config.events */
	__u8 source; /* enum pmuprof_source */
	__u8 __pad0;
	__u32 sample_flags; /* PMUPROF_SF_* */
	__u16 nr_kstack;    /* kernel frames following, innermost first */
	__u16 nr_ustack;    /* user frames following, innermost first */
	char comm[16];
	/* then: struct pmuprof_sample_addr  if sample_flags & PMUPROF_SF_ADDR
	 *       __u64 kstack[nr_kstack]
	 *       __u64 ustack[nr_ustack]
	 *       struct pmuprof_sample_ustack + __u8 stack[size]
	 *                                    if sample_flags & PMUPROF_SF_USTACK_COPY
	 * Stacks list return addresses after the first entry; kstack[0] is the
	 * interrupted kernel IP when the sample is in kernel mode and ustack[0]
	 * the interrupted user IP (from the user regs) in either mode. */
};

enum pmuprof_page_size {
	PMUPROF_PAGE_UNKNOWN = 0, /* not mapped or walk failed */
	PMUPROF_PAGE_4K = 1,
	PMUPROF_PAGE_2M = 2,
	PMUPROF_PAGE_1G = 3,
};

enum pmuprof_addr_source {
	PMUPROF_ADDR_SRC_NONE = 0,   /* no data address */
	PMUPROF_ADDR_SRC_DECODE = 1, /* decoded from the instruction at ip */
	PMUPROF_ADDR_SRC_PEBS = 2,   /* PEBS data linear address */
};

enum pmuprof_addr_precision {
	PMUPROF_ADDR_PREC_NONE = 0,
	PMUPROF_ADDR_PREC_EXACT = 1, /* the sampled instruction's own access */
	PMUPROF_ADDR_PREC_SKID = 2,  /* decoded at a skidded PMU IP */
};

/* Why a data address is absent (pmuprof_sample_addr.addr_status). */
enum pmuprof_addr_status {
	PMUPROF_ADDR_OK = 0,
	PMUPROF_ADDR_NO_MEM_OPERAND = 1, /* instruction does not access memory */
	PMUPROF_ADDR_FETCH_FAULT = 2,	 /* could not read instruction bytes */
	PMUPROF_ADDR_UNDECODABLE = 3,	 /* decoder gave up */
	PMUPROF_ADDR_HIDDEN = 4,	 /* kernel address, unprivileged opener */
};

struct pmuprof_sample_addr {
	__u64 data_addr;  /* virtual address accessed, 0 if none */
	__u64 data_phys;  /* physical address, 0 unless PMUPROF_CF_PHYS_ADDR */
	__u64 code_phys;  /* physical address of ip, 0 unless PHYS_ADDR */
	__u8 data_page;	  /* enum pmuprof_page_size */
	__u8 code_page;	  /* enum pmuprof_page_size */
	__u8 addr_source; /* enum pmuprof_addr_source */
	__u8 precision;	  /* enum pmuprof_addr_precision */
	__u8 addr_status; /* enum pmuprof_addr_status */
	__u8 access;	  /* 1 load, 2 store, 3 both, 0 unknown */
	__u8 access_size; /* bytes, 0 unknown */
	/* NUMA node of the page data_addr hit, + 1 (0: unknown, no data access,
	 * node >= 255, or a module from before 2026-11-26, when this was
	 * padding). Given to every opener: it names a node, not an address, so
	 * a session that may not see physical addresses still learns where its
	 * data lives (docs/HUGEPAGES.md, "NUMA placement"). */
	__u8 data_node1;
};

/*
 * User registers and stack copy (PMUPROF_CF_USTACK_COPY). regs[] is indexed
 * by the DWARF register number of the x86-64 psABI (rax, rdx, rcx, rbx, rsi,
 * rdi, rbp, rsp, r8..r15, then the return address column: rip), so an
 * unwinder takes it as is. stack[0] is the byte at regs[PMUPROF_UREG_SP];
 * bytes [valid, size) are zero and were not read.
 */
enum pmuprof_ureg {
	PMUPROF_UREG_AX = 0,
	PMUPROF_UREG_DX = 1,
	PMUPROF_UREG_CX = 2,
	PMUPROF_UREG_BX = 3,
	PMUPROF_UREG_SI = 4,
	PMUPROF_UREG_DI = 5,
	PMUPROF_UREG_BP = 6,
	PMUPROF_UREG_SP = 7,
	PMUPROF_UREG_R8 = 8, /* .. R15 = 15 */
	PMUPROF_UREG_IP = 16,
	PMUPROF_NR_UREGS = 17,
};

#define PMUPROF_USTACK_COMPAT (1u << 0) /* 32-bit user code: regs are zero-extended */

struct pmuprof_sample_ustack {
	__u64 regs[PMUPROF_NR_UREGS];
	__u32 size;  /* stack bytes that follow (ustack_copy_size) */
	__u32 valid; /* of which were copied */
	__u32 flags; /* PMUPROF_USTACK_* */
	__u32 __pad0;
	/* then __u8 stack[size] */
};

struct pmuprof_lost {
	struct pmuprof_record_header hdr;
	__u32 cpu;
	__u32 __pad0;
	__u64 time_ns; /* when the loss was noticed (next successful write) */
	__u64 lost;    /* samples dropped on this CPU since the previous LOST */
};

struct pmuprof_throttle {
	struct pmuprof_record_header hdr;
	__u32 cpu;
	__u16 event;
	__u16 __pad0;
	__u64 time_ns;
	__u64 old_period;
	__u64 new_period;
};

/* Largest record the kernel can produce; read() buffers must be at least this. */
#define PMUPROF_MAX_RECORD_NO_COPY                                                                 \
	(sizeof(struct pmuprof_sample) + sizeof(struct pmuprof_sample_addr) +                      \
	 2 * PMUPROF_MAX_DEPTH * sizeof(__u64))
#define PMUPROF_MAX_RECORD                                                                         \
	(PMUPROF_MAX_RECORD_NO_COPY + sizeof(struct pmuprof_sample_ustack) +                       \
	 PMUPROF_USTACK_COPY_MAX)
/* read() takes buffers of at least the largest record the session can
 * produce: PMUPROF_READ_MIN without PMUPROF_CF_USTACK_COPY (as before the
 * copy existed), PMUPROF_READ_MIN_COPY(ustack_copy_size) with it; smaller
 * buffers get -EINVAL. PMUPROF_MAX_RECORD bytes always suffice. */
#define PMUPROF_READ_MIN PMUPROF_MAX_RECORD_NO_COPY
#define PMUPROF_READ_MIN_COPY(copy_size)                                                           \
	(PMUPROF_MAX_RECORD_NO_COPY + sizeof(struct pmuprof_sample_ustack) + (copy_size))

#endif /* _UAPI_PMUPROF_H */
