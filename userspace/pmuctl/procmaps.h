/* SPDX-License-Identifier: MIT */
/*
 * Process table, memory maps and build-ids for the data file, captured while
 * processes are alive: pmuctl calls procmaps__see() for every sample's pid as
 * it drains the rings (new pids are snapshot at once, known ones refreshed at
 * most once per refresh interval if their maps changed), and
 * procmaps__snapshot() at exec/exit stops of the traced COMMAND.
 */
#ifndef PMUCTL_PROCMAPS_H
#define PMUCTL_PROCMAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/pmufile/pmufile.h"

#define BUILD_ID_MAX 20

struct procmaps;

struct procmaps *procmaps__new(struct pmufile_writer *w, const char *proc_root);
void procmaps__free(struct procmaps *pm);

/* A sample of pid (with comm from the sample) at session time now_ns. */
int procmaps__see(struct procmaps *pm, int pid, const char *comm, uint64_t now_ns);
/* Snapshot pid now (exited: the last look before it goes away). */
int procmaps__snapshot(struct procmaps *pm, int pid, bool exited, uint64_t now_ns);
size_t procmaps__nr_processes(const struct procmaps *pm);
/* Pids the table holds now: live ones and those gone less than 30 s ago
 * (memory is bounded by that, not by every pid ever seen). */
size_t procmaps__nr_tracked(const struct procmaps *pm);

/* ELF build-id helpers (own small note parser). Return the id length (> 0),
 * 0 when there is no build-id note, or -errno. */
int buildid__parse_notes(const void *notes, size_t len, size_t align, uint8_t *id);
int buildid__from_path(const char *path, uint8_t *id);

/* The running kernel's build-id (/sys/kernel/notes) into w (the kernel
 * symbols are written on demand: ksyms.h). */
int kbuildid__write(struct pmufile_writer *w, const char *sys_root);

/* This process's [vdso] image (the one the kernel maps into every 64-bit
 * process) into w, for unwinding through it (docs/FORMAT.md, VDSO). 0 also
 * when there is none to write. */
int vdso__write(struct pmufile_writer *w);

/* One /proc/PID/maps line -> m (pid/time/build-id untouched). 0 or -EINVAL. */
int procmaps__parse_line(const char *line, struct pmufile_mmap *m);

#endif
