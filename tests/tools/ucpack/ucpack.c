// SPDX-License-Identifier: MIT
/*
 * ucpack: rewrite a pmuprof data file with its user stack copies packed
 * (format version 2, lib/pmufile/ucopy.c) or, with -d, unpacked back to
 * version 1. Every frame keeps its place, sequence number and record count;
 * only SAMPLES payloads (and their CRCs) and the preamble's version change,
 * so `ucpack -d` of `ucpack` of a file gives the file back byte for byte.
 * For tests and bench/ (packing a recording made before pmuctl packed, to
 * compare sizes and conversion times on the same samples); pmuctl record
 * packs as it writes.
 *
 *   ucpack [-d] IN OUT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pmufile/pmufile.h"
#include "lib/pmufile/format.h"

static int die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "ucpack: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return 1;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap = cap ? 2 * cap : 1 << 20);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	bool unpack = argc == 4 && !strcmp(argv[1], "-d");
	struct pmufile_ucopy_tab *t;
	uint8_t *rec, *d, *o;
	size_t len, off = PMUFILE_PREAMBLE_SIZE, olen = PMUFILE_PREAMBLE_SIZE, ocap;
	const char *in, *outp;
	FILE *out;

	if (argc != 3 + unpack || (!unpack && argv[1][0] == '-'))
		return die("usage: ucpack [-d] IN OUT (-d: unpack)%s%s", "", "");
	in = argv[unpack ? 2 : 1];
	outp = argv[unpack ? 3 : 2];
	t = pmufile__ucopy_tab_new();
	rec = malloc(PMUPROF_MAX_RECORD);
	if (!t || !rec)
		return die("out of memory%s%s", "", "");
	d = slurp(in, &len);
	if (!d)
		return die("cannot read %s: %s", in, strerror(errno));
	if (len < PMUFILE_PREAMBLE_SIZE || memcmp(d, PMUFILE_MAGIC, PMUFILE_MAGIC_LEN) ||
	    pf_get32(d + 16) != PMUFILE_PREAMBLE_SIZE)
		return die("%s: not a pmuprof data file%s", in, "");
	/* room for the next frame is made before each: unpacking can make a
	 * SAMPLES frame up to 64 MiB (the frame limit) */
	ocap = len + PMUFILE_FRAME_HDR_SIZE + PMUFILE_MAX_FRAME;
	o = malloc(ocap);
	if (!o)
		return die("out of memory%s%s", "", "");
	memcpy(o, d, PMUFILE_PREAMBLE_SIZE);
	pf_put32(o + 12, unpack ? PMUFILE_VERSION_PLAIN : PMUFILE_VERSION);
	pf_put32(o + 20, pmufile__crc32(0, o, 20));
	while (off + PMUFILE_FRAME_HDR_SIZE <= len) {
		const uint8_t *h = d + off, *p = h + PMUFILE_FRAME_HDR_SIZE;
		uint32_t size = pf_get32(h + 8);
		uint8_t *oh, *q;

		if (ocap - olen < PMUFILE_FRAME_HDR_SIZE + PMUFILE_MAX_FRAME) {
			uint8_t *no = realloc(o, ocap *= 2);

			if (!no)
				return die("out of memory%s%s", "", "");
			o = no;
		}
		oh = o + olen;

		if (pf_get32(h) != PMUFILE_SYNC || size > len - off - PMUFILE_FRAME_HDR_SIZE ||
		    pf_get32(h + 16) != pmufile__crc32(0, p, size))
			return die("%s: damaged frame (ucpack takes files pmuconv reads without "
				   "--salvage)%s",
				   in, "");
		memcpy(oh, h, PMUFILE_FRAME_HDR_SIZE);
		q = oh + PMUFILE_FRAME_HDR_SIZE;
		if (pf_get16(h + 4) != PMUFILE_FRAME_SAMPLES) {
			memcpy(q, p, size);
			q += size;
		} else {
			const uint8_t *r = p + PMUFILE_SAMPLES_SUBHDR, *end = p + size;

			memcpy(q, p, PMUFILE_SAMPLES_SUBHDR);
			q += PMUFILE_SAMPLES_SUBHDR;
			while (r < end) {
				const struct pmuprof_record_header *rh = (const void *)r;
				size_t n = 0;

				if (pmufile__check_record(rh, (size_t)(end - r), 0))
					return die("%s: a record crosses its frame%s", in, "");
				memcpy(rec, r, rh->size); /* aligned copy */
				rh = (const void *)rec;
				if (unpack && pmufile__ucopy_is_packed(rh)) {
					const struct pmuprof_record_header *u;
					const char *why = pmufile__ucopy_unpack(t, rh, &u);

					if (why)
						return die("%s: %s", in, why);
					n = u->size;
					memcpy(q, u, n);
				} else if (unpack) {
					pmufile__ucopy_note(t, rh);
				} else {
					n = pmufile__ucopy_pack(t, rh, q);
				}
				if (!n) {
					memcpy(q, rec, rh->size);
					n = rh->size;
				}
				if ((size_t)(q + n - oh) > PMUFILE_MAX_FRAME)
					return die("%s: an unpacked SAMPLES frame would exceed the "
						   "64 MiB frame limit%s",
						   in, "");
				q += n;
				r += ((const struct pmuprof_record_header *)(const void *)r)->size;
			}
		}
		size = (uint32_t)(q - oh - PMUFILE_FRAME_HDR_SIZE);
		pf_put32(oh + 8, size);
		pf_put32(oh + 16, pmufile__crc32(0, oh + PMUFILE_FRAME_HDR_SIZE, size));
		pf_put32(oh + 20, pmufile__crc32(0, oh, 20));
		olen += PMUFILE_FRAME_HDR_SIZE + size;
		off += PMUFILE_FRAME_HDR_SIZE + pf_get32(h + 8);
	}
	if (off != len)
		return die("%s: ends inside a frame%s", in, "");
	out = fopen(outp, "wb");
	if (!out || fwrite(o, 1, olen, out) != olen || fclose(out))
		return die("cannot write %s: %s", outp, strerror(errno));
	pmufile__ucopy_tab_free(t);
	free(rec);
	free(o);
	free(d);
	return 0;
}
