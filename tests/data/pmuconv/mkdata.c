// SPDX-License-Identifier: MIT
/*
 * mkdata: write a pmuprof data file from a small text spec, through the
 * lib/pmufile writer API, for pmuconv's expected-output tests. Every value
 * comes from the spec (numbers, not symbols), so the file is byte-for-byte
 * reproducible and the expected outputs can be checked by hand.
 *
 *   header KEY=VALUE...   host= kernel= cpus= flags=kstack,ustack,data_addr,code_page,
 *                         phys_addr
 *                         start=NS (session clock at start)
 *                         vendor=intel|amd family=N model=N (the CPU's identity)
 *   event NAME SOURCE PERIOD UNIT [freq] [config=HEX] [resolved=LIBPFM-NAME]
 *                         SOURCE: pmu|nmi-ipi; config: the raw encoding
 *   process PID PPID COMM EXE [BUILDID-HEX]
 *   kallsyms FILE
 *   sample EV PID TID CPU TIME PERIOD user|kernel COMM [k=A,B,...] [u=A,B,...]
 *          [addr=DATA:DPAGE:CPAGE:STATUS] [phys=PA] [knode=N] [ip=A] [repeat=N]
 *          [astep=S]   (knode: the node the module put in the sample)
 *          [src=pmu|nmi-ipi|timer]
 *          (stacks innermost first; pages 0 unknown 1 4K 2 2M 3 1G; astep: each
 *          repeat's data address, and physical address, is S bytes past the
 *          previous one's)
 *   numa NODE [cpus=A,B,...] [ranges=START-END,...] [block=BYTES]
 *                         one node of the NUMA frame (physical [START, END) in
 *                         hex); every numa line writes the frame again with
 *                         all nodes so far (the reader keeps the last)
 *   mmap PID START END PGOFF PATH [BUILDID-HEX] [time=NS]   (PATH - : anonymous;
 *                         r-x; anonymous, [stack], [heap]: rw-)
 *   lost CPU TIME N
 *   throttle CPU EV TIME OLD NEW
 *   unthrottle CPU EV TIME OLD NEW   (the rate raised back)
 *   stats missed=N ticks=N outstanding=N unanswered=N start=NS stop=NS
 *                   a STATS frame (GET_STATS at the end) with these missed-
 *                   sample counts (sum them into missed= yourself) and the
 *                   session's START and STOP times (session clock);
 *                   also pebs=AGREE,DISAGREE,NA,UNDECODABLE (the PEBS check)
 *   end TIME        close with a trailer (session clock)
 *   truncate        flush and abandon: no trailer
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pmufile/pmufile.h"

static int hexid(const char *s, uint8_t *out)
{
	size_t n = strlen(s) / 2;

	if (n > 20)
		n = 20;
	for (size_t i = 0; i < n; i++)
		sscanf(s + 2 * i, "%2hhx", &out[i]);
	return (int)n;
}

static int parse_list(char *s, uint64_t *v, int max)
{
	int n = 0;

	for (char *t = strtok(s, ","); t && n < max; t = strtok(NULL, ","))
		v[n++] = strtoull(t, NULL, 0);
	return n;
}

static void die(int line, const char *what)
{
	fprintf(stderr, "mkdata: spec line %d: %s\n", line, what);
	exit(2);
}

int main(int argc, char **argv)
{
	static struct pmufile_header hdr;
	struct pmufile_writer *w = NULL;
	char line[8192], err[512];
	int ln = 0;
	FILE *in;

	if (argc != 3) {
		fprintf(stderr, "usage: mkdata SPEC OUT\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 2;
	}
	hdr.pid = -1;
	hdr.page_size = 4096;
	hdr.stack_depth = 64;
	while (fgets(line, sizeof(line), in)) {
		char *cmd, *save = NULL;
		ln++;
		line[strcspn(line, "\n")] = 0;
		cmd = strtok_r(line, " \t", &save);
		if (!cmd || *cmd == '#')
			continue;
		if (!strcmp(cmd, "header")) {
			for (char *kv; (kv = strtok_r(NULL, " \t", &save));) {
				char *v = strchr(kv, '=');
				if (!v)
					die(ln, "header wants KEY=VALUE");
				*v++ = 0;
				if (!strcmp(kv, "host"))
					snprintf(hdr.hostname, sizeof(hdr.hostname), "%s", v);
				else if (!strcmp(kv, "kernel"))
					snprintf(hdr.kernel_release, sizeof(hdr.kernel_release),
						 "%s", v);
				else if (!strcmp(kv, "cpus"))
					hdr.nr_cpus = (uint32_t)atoi(v);
				else if (!strcmp(kv, "vendor"))
					hdr.cpu_vendor = !strcmp(v, "intel") ? PMUPROF_VENDOR_INTEL
							 : !strcmp(v, "amd") ? PMUPROF_VENDOR_AMD
									     : PMUPROF_VENDOR_OTHER;
				else if (!strcmp(kv, "family"))
					hdr.cpu_family = (uint32_t)atoi(v);
				else if (!strcmp(kv, "model"))
					hdr.cpu_model = (uint32_t)atoi(v);
				else if (!strcmp(kv, "start"))
					hdr.start_session_ns = strtoull(v, NULL, 0);
				else if (!strcmp(kv, "flags")) {
					if (strstr(v, "kstack"))
						hdr.config_flags |= PMUPROF_CF_KSTACK;
					if (strstr(v, "ustack"))
						hdr.config_flags |= PMUPROF_CF_USTACK;
					if (strstr(v, "data_addr"))
						hdr.config_flags |= PMUPROF_CF_DATA_ADDR;
					if (strstr(v, "code_page"))
						hdr.config_flags |= PMUPROF_CF_CODE_PAGE;
					if (strstr(v, "phys_addr"))
						hdr.config_flags |= PMUPROF_CF_PHYS_ADDR;
				} else
					die(ln, "unknown header key");
			}
			snprintf(hdr.cmdline, sizeof(hdr.cmdline), "mkdata %s", argv[1]);
			w = pmufile_writer__open(argv[2], &hdr, err, sizeof(err));
			if (!w) {
				fprintf(stderr, "mkdata: %s\n", err);
				return 1;
			}
			continue;
		}
		if (!w)
			die(ln, "header must come first");
		if (!strcmp(cmd, "numa")) {
			static int32_t nodes[64], cpu_node[64];
			static struct pmufile_numa_range ranges[256];
			static struct pmufile_numa nm = {
				.nodes = nodes, .cpu_node = cpu_node, .ranges = ranges};
			int32_t node = atoi(strtok_r(NULL, " \t", &save));
			const char *bad;

			if (nm.nr_nodes == 64)
				die(ln, "numa: at most 64 nodes");
			nodes[nm.nr_nodes++] = node;
			for (char *kv; (kv = strtok_r(NULL, " \t", &save));) {
				if (!strncmp(kv, "cpus=", 5)) {
					for (char *t = strtok(kv + 5, ","); t;
					     t = strtok(NULL, ",")) {
						unsigned c = (unsigned)atoi(t);
						if (c >= 64)
							die(ln, "numa: CPU beyond 63");
						for (unsigned x = nm.nr_cpus; x <= c; x++)
							cpu_node[x] = -1;
						if (c + 1 > nm.nr_cpus)
							nm.nr_cpus = c + 1;
						cpu_node[c] = node;
					}
				} else if (!strncmp(kv, "ranges=", 7)) {
					for (char *t = strtok(kv + 7, ","); t;
					     t = strtok(NULL, ",")) {
						unsigned long long a, b;
						if (sscanf(t, "%llx-%llx", &a, &b) != 2 ||
						    nm.nr_ranges == 256)
							die(ln, "numa: ranges=START-END,... (hex)");
						ranges[nm.nr_ranges++] =
							(struct pmufile_numa_range){
								.start = a, .end = b, .node = node};
					}
				} else if (!strncmp(kv, "block=", 6)) {
					nm.block_size = strtoull(kv + 6, NULL, 0);
				} else {
					die(ln, "numa: unknown KEY=VALUE");
				}
			}
			/* ranges in address order, as the writer wants them */
			for (uint32_t i = 1; i < nm.nr_ranges; i++)
				for (uint32_t j = i; j && ranges[j].start < ranges[j - 1].start;
				     j--) {
					struct pmufile_numa_range x = ranges[j];
					ranges[j] = ranges[j - 1];
					ranges[j - 1] = x;
				}
			if ((bad = pmufile__numa_check(&nm)))
				die(ln, bad);
			if (pmufile_writer__numa(w, &nm))
				die(ln, "writer rejected numa");
		} else if (!strcmp(cmd, "event")) {
			static uint32_t idx;
			struct pmufile_event ev = {0};
			char *name = strtok_r(NULL, " \t", &save),
			     *src = strtok_r(NULL, " \t", &save);
			char *per = strtok_r(NULL, " \t", &save),
			     *unit = strtok_r(NULL, " \t", &save);
			if (!unit)
				die(ln, "event NAME SOURCE PERIOD UNIT");
			for (char *t; (t = strtok_r(NULL, " \t", &save));) {
				if (!strcmp(t, "freq"))
					ev.flags |= PMUPROF_EVF_FREQ;
				else if (!strncmp(t, "config=", 7))
					ev.config = strtoull(t + 7, NULL, 16);
				else if (!strncmp(t, "resolved=", 9))
					snprintf(ev.resolved, sizeof(ev.resolved), "%s", t + 9);
				else
					die(ln, "event: unknown option (freq, config=, resolved=)");
			}
			ev.index = idx++;
			ev.source =
				!strcmp(src, "pmu") ? PMUPROF_SOURCE_PMU : PMUPROF_SOURCE_NMI_IPI;
			ev.period = strtoull(per, NULL, 0);
			snprintf(ev.name, sizeof(ev.name), "%s", name);
			snprintf(ev.unit, sizeof(ev.unit), "%s", unit);
			if (pmufile_writer__event(w, &ev))
				die(ln, "writer rejected event");
		} else if (!strcmp(cmd, "process")) {
			static struct pmufile_process p;
			memset(&p, 0, sizeof(p));
			p.pid = atoi(strtok_r(NULL, " \t", &save));
			p.ppid = atoi(strtok_r(NULL, " \t", &save));
			snprintf(p.comm, sizeof(p.comm), "%s", strtok_r(NULL, " \t", &save));
			snprintf(p.exe, sizeof(p.exe), "%s", strtok_r(NULL, " \t", &save));
			char *b = strtok_r(NULL, " \t", &save);
			if (b)
				p.build_id_size = (uint32_t)hexid(b, p.build_id);
			if (pmufile_writer__process(w, &p))
				die(ln, "writer rejected process");
		} else if (!strcmp(cmd, "mmap")) {
			static struct pmufile_mmap m;
			memset(&m, 0, sizeof(m));
			m.pid = atoi(strtok_r(NULL, " \t", &save));
			m.start = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			m.end = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			m.pgoff = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			const char *mp = strtok_r(NULL, " \t", &save);
			snprintf(m.path, sizeof(m.path), "%s", strcmp(mp, "-") ? mp : "");
			/* r-x, but anonymous memory, [stack], [heap] and the like are rw-
			 * as in /proc */
			m.prot = !m.path[0] || (m.path[0] == '[' && strcmp(m.path, "[vdso]")) ? 3
											      : 5;
			for (char *b; (b = strtok_r(NULL, " \t", &save));)
				if (!strncmp(b, "time=", 5))
					m.time_ns = strtoull(b + 5, NULL, 0);
				else
					m.build_id_size = (uint32_t)hexid(b, m.build_id);
			if (pmufile_writer__mmap(w, &m))
				die(ln, "writer rejected mmap");
		} else if (!strcmp(cmd, "kallsyms")) {
			FILE *k = fopen(strtok_r(NULL, " \t", &save), "r");
			static char buf[1 << 20];
			size_t n;
			if (!k)
				die(ln, "cannot open kallsyms file");
			n = fread(buf, 1, sizeof(buf), k);
			fclose(k);
			if (pmufile_writer__kallsyms(w, buf, n))
				die(ln, "writer rejected kallsyms");
		} else if (!strcmp(cmd, "sample")) {
			static uint64_t rec[4096];
			struct pmuprof_sample *s = (void *)rec;
			uint64_t k[256], u[256], repeat = 1, ip = 0, astep = 0;
			int nk = 0, nu = 0, has_addr = 0;
			struct pmuprof_sample_addr ad = {0};
			memset(rec, 0, sizeof(*s));
			s->event = (uint16_t)atoi(strtok_r(NULL, " \t", &save));
			s->pid = (uint32_t)atoi(strtok_r(NULL, " \t", &save));
			s->tid = (uint32_t)atoi(strtok_r(NULL, " \t", &save));
			s->cpu = (uint32_t)atoi(strtok_r(NULL, " \t", &save));
			s->time_ns = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			s->period = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			char *mode = strtok_r(NULL, " \t", &save);
			s->hdr.misc =
				!strcmp(mode, "kernel") ? PMUPROF_MISC_KERNEL : PMUPROF_MISC_USER;
			snprintf(s->comm, sizeof(s->comm), "%s", strtok_r(NULL, " \t", &save));
			s->source = PMUPROF_SOURCE_PMU;
			for (char *t; (t = strtok_r(NULL, " \t", &save));) {
				if (!strncmp(t, "k=", 2))
					nk = parse_list(t + 2, k, 256);
				else if (!strncmp(t, "u=", 2))
					nu = parse_list(t + 2, u, 256);
				else if (!strncmp(t, "ip=", 3))
					ip = strtoull(t + 3, NULL, 0);
				else if (!strncmp(t, "repeat=", 7))
					repeat = strtoull(t + 7, NULL, 0);
				else if (!strncmp(t, "astep=", 6))
					astep = strtoull(t + 6, NULL, 0);
				else if (!strncmp(t, "phys=", 5))
					ad.data_phys = strtoull(t + 5, NULL, 16);
				else if (!strncmp(t, "knode=", 6))
					ad.data_node1 = (uint8_t)(atoi(t + 6) + 1);
				else if (!strcmp(t, "src=pmu"))
					s->source = PMUPROF_SOURCE_PMU;
				else if (!strcmp(t, "src=nmi-ipi"))
					s->source = PMUPROF_SOURCE_NMI_IPI;
				else if (!strcmp(t, "src=timer"))
					s->source = PMUPROF_SOURCE_TIMER;
				else if (!strncmp(t, "addr=", 5)) {
					unsigned dp, cp, st;
					unsigned long long da;
					if (sscanf(t + 5, "%llx:%u:%u:%u", &da, &dp, &cp, &st) != 4)
						die(ln, "addr=DATA:DPAGE:CPAGE:STATUS");
					ad.data_addr = da;
					ad.data_page = (uint8_t)dp;
					ad.code_page = (uint8_t)cp;
					ad.addr_status = (uint8_t)st;
					ad.addr_source = PMUPROF_ADDR_SRC_DECODE;
					has_addr = 1;
				} else
					die(ln, "unknown sample field");
			}
			s->ip = ip					   ? ip
				: nk && s->hdr.misc == PMUPROF_MISC_KERNEL ? k[0]
				: nu					   ? u[0]
									   : 0;
			s->nr_kstack = (uint16_t)nk;
			s->nr_ustack = (uint16_t)nu;
			uint8_t *p = (uint8_t *)(s + 1);
			if (has_addr) {
				s->sample_flags |= PMUPROF_SF_ADDR;
				memcpy(p, &ad, sizeof(ad));
				p += sizeof(ad);
			}
			memcpy(p, k, (size_t)nk * 8);
			p += nk * 8;
			memcpy(p, u, (size_t)nu * 8);
			p += nu * 8;
			s->hdr.type = PMUPROF_REC_SAMPLE;
			s->hdr.size = (uint32_t)(p - (uint8_t *)rec);
			for (uint64_t i = 0; i < repeat; i++) {
				if (pmufile_writer__records(w, rec, s->hdr.size))
					die(ln, "writer rejected sample");
				if (has_addr) {
					struct pmuprof_sample_addr *a = (void *)(s + 1);

					a->data_addr += astep;
					if (a->data_phys)
						a->data_phys += astep;
				}
			}
		} else if (!strcmp(cmd, "lost")) {
			struct pmuprof_lost l = {0};
			l.hdr.type = PMUPROF_REC_LOST;
			l.hdr.size = sizeof(l);
			l.cpu = (uint32_t)atoi(strtok_r(NULL, " \t", &save));
			l.time_ns = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			l.lost = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			if (pmufile_writer__records(w, &l, sizeof(l)))
				die(ln, "writer rejected lost");
		} else if (!strcmp(cmd, "throttle") || !strcmp(cmd, "unthrottle")) {
			struct pmuprof_throttle t = {0};
			t.hdr.type = !strcmp(cmd, "throttle") ? PMUPROF_REC_THROTTLE
							      : PMUPROF_REC_UNTHROTTLE;
			t.hdr.size = sizeof(t);
			t.cpu = (uint32_t)atoi(strtok_r(NULL, " \t", &save));
			t.event = (uint16_t)atoi(strtok_r(NULL, " \t", &save));
			t.time_ns = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			t.old_period = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			t.new_period = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			if (pmufile_writer__records(w, &t, sizeof(t)))
				die(ln, "writer rejected throttle");
		} else if (!strcmp(cmd, "stats")) {
			struct pmuprof_stats st = {.size = sizeof(st),
						   .state = PMUPROF_STATE_STOPPED};
			unsigned long long pc[4];
			char *kv;

			while ((kv = strtok_r(NULL, " \t", &save))) {
				char *eq = strchr(kv, '=');
				uint64_t v = eq ? strtoull(eq + 1, NULL, 0) : 0;

				if (eq && !strncmp(kv, "missed=", 7))
					st.missed = v;
				else if (eq && !strncmp(kv, "ticks=", 6))
					st.ticks_missed = v;
				else if (eq && !strncmp(kv, "outstanding=", 12))
					st.total.ipis_outstanding = v;
				else if (eq && !strncmp(kv, "unanswered=", 11))
					st.ipis_unanswered = v;
				else if (eq && !strncmp(kv, "start=", 6))
					st.start_ns = v;
				else if (eq && !strncmp(kv, "stop=", 5))
					st.stop_ns = v;
				else if (eq && !strncmp(kv, "pebs=", 5) &&
					 sscanf(eq + 1, "%llu,%llu,%llu,%llu", &pc[0], &pc[1],
						&pc[2], &pc[3]) == 4) {
					st.pebs_agree = pc[0];
					st.pebs_disagree = pc[1];
					st.pebs_not_applicable = pc[2];
					st.pebs_undecodable = pc[3];
				} else
					die(ln, "stats: unknown KEY=VALUE");
			}
			if (pmufile_writer__stats(w, &st))
				die(ln, "writer rejected stats");
		} else if (!strcmp(cmd, "end")) {
			uint64_t t = strtoull(strtok_r(NULL, " \t", &save), NULL, 0);
			fclose(in);
			if (pmufile_writer__close(w, 0, t, err, sizeof(err))) {
				fprintf(stderr, "mkdata: %s\n", err);
				return 1;
			}
			return 0;
		} else if (!strcmp(cmd, "truncate")) {
			fclose(in);
			pmufile_writer__flush(w);
			pmufile_writer__abort(w);
			return 0;
		} else {
			die(ln, "unknown command");
		}
	}
	die(ln, "spec must end with 'end TIME' or 'truncate'");
	return 2;
}
