/* SPDX-License-Identifier: MIT */
/*
 * pmuctl record: the kernel symbols a recording needs, written on demand.
 *
 * /proc/kallsyms of a distribution kernel is about 4 MB; a recording used to
 * carry all of it, so a 20-sample recording was 3.8 MiB. Instead the text
 * symbols (types t, T, w, W: the ones pmuconv resolves with) are read once at
 * start and indexed by address; every SAMPLE record's addresses (ip, kernel
 * and user stack entries, each also minus one as pmuconv looks up return
 * addresses) are looked up, and the first time a symbol is hit its lines
 * (every name at its address) and the next symbol's line (which bounds it)
 * are queued and then written as KALLSYMS frames before the records that need
 * them. pmuconv's lookup (the last symbol at or below an address, bounded by
 * the next one) then gives exactly what the whole snapshot would give, and a
 * file cut short still holds the symbols of every sample before the cut.
 * `_text`, `_stext` and `_etext` are always written (pmuconv --vmlinux uses
 * `_stext` to find the KASLR slide).
 */
#ifndef PMUCTL_KSYMS_H
#define PMUCTL_KSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/pmufile/pmufile.h"

struct ksyms;

/* Read and index PROC_ROOT/kallsyms (NULL: /proc). A missing or unreadable
 * file, or one whose addresses are all 0 (unprivileged), gives an empty
 * table that writes nothing. NULL with errno = ENOMEM on allocation failure. */
struct ksyms *ksyms__open(const char *proc_root);
void ksyms__free(struct ksyms *ks);

/* Queue the lines the SAMPLE records in buf[len] (whole records, as read()
 * returned them) need and that were not written yet. 0 or -ENOMEM. */
int ksyms__see(struct ksyms *ks, const void *buf, size_t len);
/* Queue the lines of the symbol covering addr (and of the next symbol). */
int ksyms__see_addr(struct ksyms *ks, uint64_t addr);
/* Write the queued lines as KALLSYMS frames; 0 or the writer's -errno. */
int ksyms__flush(struct ksyms *ks, struct pmufile_writer *w);

/* Indexed text symbols; lines written so far. */
size_t ksyms__nr_symbols(const struct ksyms *ks);
size_t ksyms__nr_written(const struct ksyms *ks);

#endif
