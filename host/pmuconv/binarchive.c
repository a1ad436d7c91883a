// SPDX-License-Identifier: MIT
/* Collects the binaries a recording's samples hit into a tar; see binarchive.h. */
#include "binarchive.h"
#include "libarchive_dl.h"
#include "textparse.h"
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "lib/pmufile/pmufile.h"
#include "unwind.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUILD_ID_MAX 20
#define UNW_MAX_USER 1024 /* user frames kept from an unwind */

struct hits {
	struct pmufile *f;
	uint64_t *samples; /* per mapping in f->mmaps */
	/* --call-graph dwarf recordings: the binaries of the unwound frames
	 * (the ones a reader unwinding elsewhere needs: their CFI), NULL with
	 * --call-graph fp */
	struct unwinder *unw;
	uint64_t *ubuf;
};

static void hit(struct hits *h, int32_t pid, uint64_t addr, uint64_t t)
{
	const struct pmufile_mmap *m;

	if (addr >= KERNEL_ADDR_MIN || !(m = pmufile__find_mmap(h->f, pid, addr, t)))
		return;
	h->samples[m - h->f->mmaps]++;
}

static int on_record(void *ctx, const struct pmuprof_record_header *rec)
{
	struct hits *h = ctx;
	struct pmufile_sample_view v;

	if (rec->type != PMUPROF_REC_SAMPLE || pmufile__sample_view_inline(rec, &v))
		return 0; /* the other commands report malformed records */
	const struct pmuprof_sample *s = v.s;
	if (!(s->hdr.misc & PMUPROF_MISC_KERNEL))
		hit(h, (int32_t)s->pid, s->ip, s->time_ns);
	const uint64_t *us = v.ustack;
	uint32_t nu = s->nr_ustack;
	if (v.ucopy && h->unw) {
		enum unw_outcome oc;
		nu = unw__sample(h->unw, &v, h->ubuf, UNW_MAX_USER, &oc);
		us = h->ubuf;
	}
	/* a return address: its call instruction is one byte back */
	for (uint32_t i = 0; i < nu; i++)
		if (us[i] != UNW_TRUNCATED_ADDR)
			hit(h, (int32_t)s->pid, us[i] - (i ? 1 : 0), s->time_ns);
	return 0;
}

static void hex_id(char *out, const uint8_t *id, size_t n)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
	out[2 * n] = 0;
}

/* Add the file at `src` to the tar as `name`. */
static int add_file(struct archive *a, const char *src, const char *name, char *err, size_t errlen)
{
	struct archive_entry *e;
	struct stat st;
	char buf[65536];
	ssize_t n;
	int fd = open(src, O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0 || fstat(fd, &st)) {
		r = -errno;
		snprintf(err, errlen, "cannot read %s: %s", src, strerror(errno));
		if (fd >= 0)
			close(fd);
		return r;
	}
	e = larc.archive_entry_new();
	if (!e) {
		close(fd);
		return -ENOMEM;
	}
	larc.archive_entry_set_pathname(e, name);
	larc.archive_entry_set_filetype(e, AE_IFREG);
	larc.archive_entry_set_perm(e, st.st_mode & 0777);
	larc.archive_entry_set_size(e, st.st_size);
	larc.archive_entry_set_mtime(e, st.st_mtime, 0);
	if (larc.archive_write_header(a, e) != ARCHIVE_OK)
		r = -EIO;
	while (!r && (n = read(fd, buf, sizeof(buf))) > 0)
		if (larc.archive_write_data(a, buf, (size_t)n) != n)
			r = -EIO;
	if (!r && n < 0)
		r = -errno;
	if (r)
		snprintf(err, errlen, "adding %s: %s", src,
			 r == -EIO ? larc.archive_error_string(a) : strerror(-r));
	larc.archive_entry_free(e);
	close(fd);
	return r;
}

static int add_link(struct archive *a, const char *name, const char *target)
{
	struct archive_entry *e = larc.archive_entry_new();
	int r;

	if (!e)
		return -ENOMEM;
	larc.archive_entry_set_pathname(e, name);
	larc.archive_entry_set_filetype(e, AE_IFREG);
	larc.archive_entry_set_perm(e, 0644);
	larc.archive_entry_set_size(e, 0);
	larc.archive_entry_set_hardlink(e, target);
	r = larc.archive_write_header(a, e) == ARCHIVE_OK ? 0 : -EIO;
	larc.archive_entry_free(e);
	return r;
}

/* Was (path, build-id) archived already (several mappings, one file)? */
static bool seen(const struct pmufile *f, const uint64_t *samples, size_t upto,
		 const struct pmufile_mmap *m)
{
	for (size_t i = 0; i < upto; i++) {
		const struct pmufile_mmap *o = &f->mmaps[i];
		if (samples[i] && !strcmp(o->path, m->path) &&
		    o->build_id_size == m->build_id_size &&
		    !memcmp(o->build_id, m->build_id, m->build_id_size))
			return true;
	}
	return false;
}

/* One binary (and its debug file) into the tar; 1 if archived, 0 if it was
 * not found, or a negative errno. */
static int add_binary(struct archive *a, struct symbolizer *sym, const struct pmufile_mmap *m,
		      FILE *log, char *err, size_t errlen)
{
	size_t bl = m->build_id_size < BUILD_ID_MAX ? m->build_id_size : BUILD_ID_MAX;
	char hex[2 * BUILD_ID_MAX + 1] = "", name[4200], link[128], dname[128];
	const char *bin, *dbg;
	int r, n = 0;

	if ((r = sym__files(sym, m->path, m->build_id, bl, &bin, &dbg)) < 0)
		return r;
	if (bl)
		hex_id(hex, m->build_id, bl);
	if (r == 1) { /* storing it under the recorded build-id would be a lie */
		pc_warn("archive: %s on this host is not the recorded build (build-id %s): not "
			"archived",
			bin, hex);
		return 0;
	}
	if (!bin && !dbg) {
		pc_warn("archive: %s (build-id %s) is not on this host: not archived", m->path,
			bl ? hex : "none recorded");
		return 0;
	}
	if (bin) {
		snprintf(name, sizeof(name), "%s", m->path[0] == '/' ? m->path + 1 : m->path);
		if ((r = add_file(a, bin, name, err, errlen)))
			return r;
		n++;
		if (bl >= 2) {
			snprintf(link, sizeof(link), ".build-id/%.2s/%s", hex, hex + 2);
			if ((r = add_link(a, link, name)))
				goto io;
		}
	}
	if (dbg && bl >= 2) {
		snprintf(dname, sizeof(dname), "usr/lib/debug/.build-id/%.2s/%s.debug", hex,
			 hex + 2);
		if ((r = add_file(a, dbg, dname, err, errlen)))
			return r;
		snprintf(link, sizeof(link), ".build-id/%.2s/%s.debug", hex, hex + 2);
		if ((r = add_link(a, link, dname)))
			goto io;
		n++;
	}
	if (log)
		fprintf(log, "  %s (build-id %s)%s%s\n", m->path, bl ? hex : "none recorded",
			bin ? "" : " [debug file only]", dbg && bl >= 2 ? " + debug file" : "");
	return n;
io:
	snprintf(err, errlen, "writing the archive: %s", larc.archive_error_string(a));
	return r;
}

long pc_archive_write(const char *in, const char *out, const struct archive_opts *o, char *err,
		      size_t errlen)
{
	struct hits h = {0};
	struct symbolizer *sym = NULL;
	struct archive *a = NULL;
	const char *bin, *dbg;
	long files = 0;
	int r;

	h.f = pmufile__open(in, PMUFILE_OPEN_STREAM | (o->salvage ? PMUFILE_OPEN_SALVAGE : 0), err,
			    errlen);
	if (!h.f) {
		r = errno ? -errno : -EINVAL;
		if (!err[0])
			snprintf(err, errlen, "%s: not a readable pmuprof file", in);
		return r;
	}
	h.samples = calloc(h.f->nr_mmaps ? h.f->nr_mmaps : 1, sizeof(*h.samples));
	sym = sym__new(&o->sym);
	if (!h.samples || !sym) {
		r = -ENOMEM;
		goto out;
	}
	if (!o->call_graph_fp) { /* cheap until a sample carries a stack copy */
		h.unw = unw__new(h.f, sym);
		h.ubuf = malloc(UNW_MAX_USER * sizeof(*h.ubuf));
		if (!h.unw || !h.ubuf) {
			r = -ENOMEM;
			goto out;
		}
	}
	if ((r = pmufile__for_each_record(h.f, on_record, &h, err, errlen)))
		goto out;
	if ((r = larc__load(err, errlen)))
		goto out;
	a = larc.archive_write_new();
	if (!a) {
		r = -ENOMEM;
		goto out;
	}
	/* the format (and compression) from the name; plain tar otherwise */
	if (larc.archive_write_set_format_filter_by_ext(a, out) != ARCHIVE_OK &&
	    larc.archive_write_set_format_pax_restricted(a) != ARCHIVE_OK) {
		r = -EINVAL;
		snprintf(err, errlen, "%s: %s", out, larc.archive_error_string(a));
		goto out;
	}
	if (larc.archive_write_open_filename(a, out) != ARCHIVE_OK) {
		r = -EIO;
		snprintf(err, errlen, "cannot write %s: %s", out, larc.archive_error_string(a));
		goto out;
	}
	for (size_t i = 0; i < h.f->nr_mmaps; i++) {
		const struct pmufile_mmap *m = &h.f->mmaps[i];
		if (!h.samples[i] || !m->path[0] || m->path[0] == '[' || seen(h.f, h.samples, i, m))
			continue;
		if (!files && o->log &&
		    sym__files(sym, m->path, m->build_id,
			       m->build_id_size < BUILD_ID_MAX ? m->build_id_size : BUILD_ID_MAX,
			       &bin, &dbg) == 0 &&
		    (bin || dbg))
			fprintf(o->log, "pmuconv archive: binaries hit by samples of %s:\n", in);
		if ((r = add_binary(a, sym, m, o->log, err, errlen)) < 0)
			goto out;
		files += r;
	}
	if (!files) {
		r = -ENOENT;
		snprintf(err, errlen,
			 "%s: none of the binaries its samples hit is on this host (see above); "
			 "nothing archived. Run it where %s was recorded, or give --symfs/"
			 "--buildid-dir",
			 in, in);
		goto out;
	}
	if (larc.archive_write_close(a) != ARCHIVE_OK) {
		r = -EIO;
		snprintf(err, errlen, "writing %s: %s", out, larc.archive_error_string(a));
		goto out;
	}
	r = 0;
out:
	if (a)
		larc.archive_write_free(a);
	if (r && a)
		unlink(out); /* no half-written archive left behind */
	unw__free(h.unw);
	free(h.ubuf);
	sym__free(sym);
	free(h.samples);
	pmufile__close(h.f);
	return r ? r : files;
}
