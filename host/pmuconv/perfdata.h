/* SPDX-License-Identifier: MIT */
/*
 * The perf.data (PERFILE2) writer: the file layout of Linux perf's
 * tools/perf/Documentation/perf.data-file-format.txt, written from that
 * document; the record layouts are those of <linux/perf_event.h> (UAPI).
 *
 *   file := header(104) | attrs: (perf_event_attr, ids section)* | ids (u64)*
 *           | data: records | feature section table | feature payloads
 *
 * The writer streams records into the data section through a buffer, then
 * appends the feature sections (HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS,
 * CMDLINE, EVENT_DESC, BUILD_ID, SAMPLE_TIME) and writes the header last. It
 * writes to a temporary name beside the destination and renames it on
 * success, so a failed export leaves no file behind.
 *
 * Every attr shares one sample_type that includes PERF_SAMPLE_IDENTIFIER and
 * sample_id_all, so perf can tell the events apart in every record; event i
 * has id i + 1. This header knows nothing of pmuprof (export_perfdata.c
 * translates).
 */
#ifndef PMUCONV_PERFDATA_H
#define PMUCONV_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* Facts of the file format (perf.data-file-format.txt). */
#define PD_MAGIC	 "PERFILE2"
#define PD_HEADER_SIZE	 104u		     /* magic, size, attr_size, 3 sections, flags[4] */
#define PD_ATTR_SIZE	 PERF_ATTR_SIZE_VER7 /* what perf 5.13+ reads (sig_data last) */
#define PD_NAME_ALIGN	 64u		     /* perf_header_string padding */
#define PD_BUILD_ID_SIZE 20u
/* Feature bits (HEADER_*), in the order their sections follow the data. */
enum pd_feature {
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_SAMPLE_TIME = 21,
	PD_FEAT__MAX = 256,
};
/* The build-id record inside HEADER_BUILD_ID: the size byte after the 20
 * id bytes is valid (perf 5.11+). */
#define PD_MISC_BUILD_ID_SIZE (1u << 15)
/* perf's pid for kernel records (machine pid of the host). */
#define PD_KERNEL_PID (-1)

struct pd_event {
	const char *name; /* EVENT_DESC string: what perf report prints (kept by pointer) */
	uint32_t type;	  /* PERF_TYPE_* */
	uint64_t config;
	uint64_t period; /* sample_period, or sample_freq (Hz) with freq */
	bool freq;
	bool exclude_user, exclude_kernel;
	uint8_t precise_ip;
};

/* What the feature sections say about the recording. */
struct pd_meta {
	const char *hostname, *osrelease, *version, *arch;
	const char *cmdline; /* one string: perf prints it after "# cmdline :" */
	uint32_t nr_cpus_avail, nr_cpus_online;
};

/* sample_id_all fields of a non-sample record, and the event it names. */
struct pd_sid {
	uint32_t pid, tid, cpu, event;
	uint64_t time;
};

struct pd_sample {
	uint32_t event; /* index into the writer's events */
	uint16_t misc;	/* PERF_RECORD_MISC_* */
	uint32_t pid, tid, cpu;
	uint64_t ip, time, period;
	uint64_t addr, phys_addr, data_page_size, code_page_size;
	const uint64_t *kstack, *ustack; /* innermost first */
	uint32_t nr_kstack, nr_ustack;
};

struct pd_writer;

/* Create a temporary file beside path for nr events sharing sample_type
 * (PERF_SAMPLE_IDENTIFIER and the sample_id_all fields are added). NULL with
 * errno and err filled on failure. */
struct pd_writer *pd_writer__open(const char *path, const struct pd_event *ev, uint32_t nr,
				  uint64_t sample_type, char *err, size_t errlen);
/* Records of the data section; each 0 or the sticky negative errno. */
int pd_writer__sample(struct pd_writer *w, const struct pd_sample *s);
int pd_writer__comm(struct pd_writer *w, const struct pd_sid *id, const char *comm, bool exec);
int pd_writer__fork(struct pd_writer *w, const struct pd_sid *id, uint32_t ppid);
/* A user mapping (MMAP2, with the build-id when bid_len > 0; a data
 * mapping when prot lacks PROT_EXEC). */
int pd_writer__mmap2(struct pd_writer *w, const struct pd_sid *id, uint64_t start, uint64_t len,
		     uint64_t pgoff, uint32_t prot, const char *path, const uint8_t *bid,
		     uint32_t bid_len);
/* A kernel mapping (MMAP, pid -1): the kernel image "[kernel.kallsyms]_SYM"
 * with pgoff the address of SYM, or a module "[name]". */
int pd_writer__kernel_mmap(struct pd_writer *w, const struct pd_sid *id, uint64_t start,
			   uint64_t len, uint64_t pgoff, const char *name);
int pd_writer__lost(struct pd_writer *w, const struct pd_sid *id, uint64_t lost);
int pd_writer__lost_samples(struct pd_writer *w, const struct pd_sid *id, uint64_t lost);
/* An entry of HEADER_BUILD_ID (kernel: pid PD_KERNEL_PID, misc KERNEL). */
int pd_writer__build_id(struct pd_writer *w, int32_t pid, bool kernel, const uint8_t *bid,
			uint32_t len, const char *path);
/* Features, header, rename to the destination. 0 or a negative errno (err
 * filled); w is freed and, on failure, the temporary file removed. */
int pd_writer__close(struct pd_writer *w, const struct pd_meta *m, char *err, size_t errlen);
/* Give up: remove the temporary file, free w (accepts NULL). */
void pd_writer__abort(struct pd_writer *w);
/* Samples written so far. */
uint64_t pd_writer__samples(const struct pd_writer *w);
/* What the first failure was ("" if none). */
const char *pd_writer__error(const struct pd_writer *w);

#endif
