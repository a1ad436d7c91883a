/* SPDX-License-Identifier: MIT */
/*
 * On-disk layout of the pmuprof data file (internal to libpmufile; the
 * prose description is docs/FORMAT.md and must be kept in step).
 *
 *   file    := preamble frame* TRAILER-frame EOF
 *   preamble:= magic[8] "PMUPROF\0" | u32 byte_order 0x01020304 |
 *              u32 version | u32 preamble_size (24) | u32 crc32(bytes 0..19)
 *   frame   := header(24) payload(size bytes, size % 8 == 0)
 *   header  := u32 sync | u16 type | u16 flags | u32 size | u32 seq |
 *              u32 payload_crc | u32 header_crc (crc32 of bytes 0..19)
 *
 * Everything is little-endian. Frames start at 8-byte aligned offsets, so
 * records inside SAMPLES frames are 8-byte aligned in a mapping of the file
 * and can be used in place.
 */
#ifndef PMUFILE_FORMAT_H
#define PMUFILE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <endian.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
/* Records inside SAMPLES frames are used in place; that needs an LE host. */
#error "libpmufile supports little-endian hosts only"
#endif

#define PMUFILE_MAGIC		   "PMUPROF\0"
#define PMUFILE_MAGIC_LEN	   8
#define PMUFILE_BYTE_ORDER	   0x01020304u
#define PMUFILE_BYTE_ORDER_SWAPPED 0x04030201u
#define PMUFILE_PREAMBLE_SIZE	   24u

#define PMUFILE_SYNC	       0xF5C3A97Eu /* bytes on disk: 7e a9 c3 f5 */
#define PMUFILE_FRAME_HDR_SIZE 24u
#define PMUFILE_FRAME_ALIGN    8u
/* Largest payload a reader accepts. The writer emits frames of at most its
 * buffer size (1 MiB); anything bigger than this is damage. */
#define PMUFILE_MAX_FRAME (64u << 20)

/* Frame types (append-only; readers skip types they do not know). */
enum pmufile_frame_type {
	PMUFILE_FRAME_HEADER = 1,
	PMUFILE_FRAME_EVENT = 2,
	PMUFILE_FRAME_SAMPLES = 3,
	PMUFILE_FRAME_PROCESS = 4,
	PMUFILE_FRAME_MMAP = 5,
	PMUFILE_FRAME_KALLSYMS = 6,
	PMUFILE_FRAME_KBUILDID = 7,
	PMUFILE_FRAME_STATS = 8,
	PMUFILE_FRAME_TRAILER = 9,
	PMUFILE_FRAME_VDSO = 10,
	PMUFILE_FRAME_NUMA = 11, /* since 2026-11-26: the node map (numa.c) */
	PMUFILE_FRAME__MAX,
};

/* PROCESS frame flags word */
#define PMUFILE_PROC_EXITED (1u << 0)

/* TRAILER flags word */
#define PMUFILE_TRAILER_LOST_FROM_STATS (1u << 0) /* event_lost[] came from a STATS frame */

/* SAMPLES frame payload starts with this sub-header, then the records. */
#define PMUFILE_SAMPLES_SUBHDR 8u

/*
 * Packed stack copies (format version 2, docs/FORMAT.md "Packed stack
 * copies"): a SAMPLE's PMUPROF_SF_USTACK_COPY part whose
 * pmuprof_sample_ustack.flags has PMUFILE_USTACK_PACKED is followed, instead
 * of its `size` stack bytes, by struct pmufile_ucopy_packed, nr_runs pairs
 * of u32 {new, same}, and the literal bytes (the sum of the `new`s), zero
 * padded to the record's multiple of 8. Walking the copy from offset 0, each
 * pair takes `new` bytes from the literals, then `same` bytes equal to the
 * reference's bytes at the same addresses. The reference is the previous
 * copy of the same tid in file order (packed or not), named by its time_ns
 * and stack pointer so a reader holding another one (a frame skipped in
 * salvage) knows. Only files carry the flag: the module never sets it, and
 * readers deliver the rebuilt (unpacked) record. PMUFILE_USTACK_UNRESOLVED
 * is the reader's mark on a delivered copy it could not rebuild (valid 0).
 */
#define PMUFILE_USTACK_PACKED	  (1u << 31)
#define PMUFILE_USTACK_UNRESOLVED (1u << 30)
#define PMUFILE_UCOPY_REF	  (1u << 0) /* pmufile_ucopy_packed.flags: has a reference */
struct pmufile_ucopy_packed {
	uint64_t ref_time_ns; /* the referenced copy's sample time_ns (0: none) */
	uint64_t ref_sp;      /* its regs[PMUPROF_UREG_SP] */
	uint32_t nr_runs;     /* {new, same} u32 pairs that follow */
	uint32_t flags;	      /* PMUFILE_UCOPY_* */
};

/* Upper bounds that keep a hostile file from making the reader allocate
 * absurd amounts: each is far above what a real recording holds. */
#define PMUFILE_MAX_PROCESSES (4u << 20)
#define PMUFILE_MAX_MMAPS     (16u << 20)
#define PMUFILE_MAX_KALLSYMS  (1u << 30)
#define PMUFILE_MAX_BLOB      (64u << 10) /* size-prefixed ABI structs (info, stats) */
#define PMUFILE_MAX_VDSO      (1u << 20)  /* the vDSO image (8 KiB on x86-64 Linux 6.1) */

/* CRC-32C (Castagnoli, reflected poly 0x82F63B78), as used by iSCSI and
 * ext4: crc32c(0, "123456789", 9) == 0xE3069283. Hardware (SSE4.2) when the
 * CPU has it, else table-driven. Chainable: pass the previous result as crc.
 * pmufile__crc32_soft() always takes the portable path (for tests). */
uint32_t pmufile__crc32(uint32_t crc, const void *buf, size_t len);
uint32_t pmufile__crc32_soft(uint32_t crc, const void *buf, size_t len);
/* Format a message into the caller's err buffer (ignored when err is NULL
 * or errlen 0): the one error-message helper of the reader and the writer. */
void pmufile__set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline size_t pmufile__align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static inline uint16_t pf_get16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline uint32_t pf_get32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline uint64_t pf_get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline void pf_put16(uint8_t *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void pf_put32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void pf_put64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

const char *pmufile__frame_name(unsigned int type);

/* NUMA frame payload (numa.c): its encoded size, the encoding into p (size
 * bytes; the layout must have passed pmufile__numa_check), and the decoding
 * of a payload into out (allocated; NULL return) or what is wrong with it
 * (out is then left empty). */
struct pmufile_numa;
size_t pmufile__numa_size(const struct pmufile_numa *n);
void pmufile__numa_encode(const struct pmufile_numa *n, uint8_t *p);
const char *pmufile__numa_decode(const uint8_t *p, size_t len, struct pmufile_numa *out, char *why,
				 size_t whylen);

#endif /* PMUFILE_FORMAT_H */
