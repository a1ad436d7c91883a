// SPDX-License-Identifier: MIT
/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, initial value and
 * final xor 0xFFFFFFFF; iSCSI, ext4, btrfs use it). Chosen over the zlib CRC
 * because x86-64 computes it in hardware (SSE4.2 `crc32` instruction,
 * 8 bytes per instruction): a multi-GB recording is checked at memory
 * speed, so verifying every SAMPLES frame costs little next to reading it.
 *
 * Two implementations, same results (the unit test checks both):
 *  - hardware: SSE4.2 crc32q, selected at run time when present
 *    (cpu_sse42.h);
 *  - portable: "slice by 16", sixteen 256-entry tables (16 KiB,
 *    L1-resident) folding 16 bytes per step; table k holds the CRC
 *    contribution of a byte followed by k zero bytes.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/pmufile/cpu_sse42.h"
#include "lib/pmufile/format.h"

#define CRC32C_POLY_REFLECTED 0x82F63B78u
#define CRC32_SLICES	      16

static uint32_t crc_table[CRC32_SLICES][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;
static void crc32_shift_init(void);
static int crc_have_hw;

static void crc32_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int bit = 0; bit < 8; bit++)
			c = (c & 1) ? (c >> 1) ^ CRC32C_POLY_REFLECTED : c >> 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int k = 1; k < CRC32_SLICES; k++) {
			uint32_t prev = crc_table[k - 1][i];

			crc_table[k][i] = (prev >> 8) ^ crc_table[0][prev & 0xff];
		}
	crc32_shift_init();
#if defined(__x86_64__)
	crc_have_hw = pmuprof_cpu_sse42() && !getenv("PMUFILE_CRC_SOFT");
#endif
}

/* Portable path; crc is the raw (already inverted) register. */
static uint32_t crc32c_soft(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len >= 16) {
		uint32_t a = pf_get32(p) ^ crc;
		uint32_t b = pf_get32(p + 4);
		uint32_t c = pf_get32(p + 8);
		uint32_t d = pf_get32(p + 12);

		crc = crc_table[15][a & 0xff] ^ crc_table[14][(a >> 8) & 0xff] ^
		      crc_table[13][(a >> 16) & 0xff] ^ crc_table[12][a >> 24] ^
		      crc_table[11][b & 0xff] ^ crc_table[10][(b >> 8) & 0xff] ^
		      crc_table[9][(b >> 16) & 0xff] ^ crc_table[8][b >> 24] ^
		      crc_table[7][c & 0xff] ^ crc_table[6][(c >> 8) & 0xff] ^
		      crc_table[5][(c >> 16) & 0xff] ^ crc_table[4][c >> 24] ^
		      crc_table[3][d & 0xff] ^ crc_table[2][(d >> 8) & 0xff] ^
		      crc_table[1][(d >> 16) & 0xff] ^ crc_table[0][d >> 24];
		p += 16;
		len -= 16;
	}
	while (len--)
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

/*
 * Three-lane hardware CRC. One crc32q has a latency of 3 cycles but a
 * throughput of 1 per cycle, so a single dependent chain runs at a third of
 * the unit's speed. The buffer is taken in chunks of 3 lanes of
 * CRC32_LANE bytes, each lane's CRC computed independently (interleaved),
 * then joined. CRC registers are linear over GF(2):
 *   R(r, D1 D2 D3) = S2(R(r, D1)) ^ S1(R(0, D2)) ^ R(0, D3)
 * where Sk(c) = R(c, k * CRC32_LANE zero bytes), a linear map of the 32-bit
 * register, applied with four 256-entry tables (one per register byte).
 */
#define CRC32_LANE 256u
static uint32_t crc_shift[2][4][256]; /* [S1, S2][register byte][value] */

/* Register after `n` zero bytes from register c (portable path). */
static uint32_t crc32c_zeros(uint32_t c, size_t n)
{
	while (n--)
		c = crc_table[0][c & 0xff] ^ (c >> 8);
	return c;
}

static inline uint32_t crc32c_shift(int k, uint32_t c)
{
	return crc_shift[k][0][c & 0xff] ^ crc_shift[k][1][(c >> 8) & 0xff] ^
	       crc_shift[k][2][(c >> 16) & 0xff] ^ crc_shift[k][3][c >> 24];
}

static void crc32_shift_init(void)
{
	for (int k = 0; k < 2; k++) {
		uint32_t basis[32];

		/* S2 = S1 applied twice (2 * CRC32_LANE zero bytes), so only S1's
		 * basis runs the bytewise loop */
		for (int bit = 0; bit < 32; bit++)
			basis[bit] = k ? crc32c_shift(0, crc32c_shift(0, 1u << bit))
				       : crc32c_zeros(1u << bit, CRC32_LANE);
		/* linear: the image of v is that of v without its lowest set
		 * bit, xor that bit's image */
		for (int byte = 0; byte < 4; byte++) {
			crc_shift[k][byte][0] = 0;
			for (uint32_t v = 1; v < 256; v++)
				crc_shift[k][byte][v] = crc_shift[k][byte][v & (v - 1)] ^
							basis[8 * byte + __builtin_ctz(v)];
		}
	}
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(uint32_t crc, const uint8_t *p,
							    size_t len)
{
	uint64_t c = crc;

	while (len >= 3 * CRC32_LANE) {
		uint64_t a = c, b = 0, d = 0;

		for (size_t i = 0; i < CRC32_LANE; i += 8) {
			uint64_t va, vb, vd;

			memcpy(&va, p + i, 8);
			memcpy(&vb, p + CRC32_LANE + i, 8);
			memcpy(&vd, p + 2 * CRC32_LANE + i, 8);
			a = __builtin_ia32_crc32di(a, va);
			b = __builtin_ia32_crc32di(b, vb);
			d = __builtin_ia32_crc32di(d, vd);
		}
		c = crc32c_shift(1, (uint32_t)a) ^ crc32c_shift(0, (uint32_t)b) ^ (uint32_t)d;
		p += 3 * CRC32_LANE;
		len -= 3 * CRC32_LANE;
	}
	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
		p += 8;
		len -= 8;
	}
	crc = (uint32_t)c;
	while (len--)
		crc = __builtin_ia32_crc32qi(crc, *p++);
	return crc;
}
#endif

uint32_t pmufile__crc32(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&crc_once, crc32_init);
#if defined(__x86_64__)
	if (crc_have_hw)
		return ~crc32c_hw(~crc, buf, len);
#endif
	return ~crc32c_soft(~crc, buf, len);
}

uint32_t pmufile__crc32_soft(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&crc_once, crc32_init);
	return ~crc32c_soft(~crc, buf, len);
}

void pmufile__set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

const char *pmufile__frame_name(unsigned int type)
{
	static const char *const names[PMUFILE_FRAME__MAX] = {
		[PMUFILE_FRAME_HEADER] = "HEADER",
		[PMUFILE_FRAME_EVENT] = "EVENT",
		[PMUFILE_FRAME_SAMPLES] = "SAMPLES",
		[PMUFILE_FRAME_PROCESS] = "PROCESS",
		[PMUFILE_FRAME_MMAP] = "MMAP",
		[PMUFILE_FRAME_KALLSYMS] = "KALLSYMS",
		[PMUFILE_FRAME_KBUILDID] = "KERNEL_BUILD_ID",
		[PMUFILE_FRAME_STATS] = "STATS",
		[PMUFILE_FRAME_TRAILER] = "TRAILER",
		[PMUFILE_FRAME_VDSO] = "VDSO",
		[PMUFILE_FRAME_NUMA] = "NUMA",
	};

	if (type < PMUFILE_FRAME__MAX && names[type])
		return names[type];
	return "unknown";
}
