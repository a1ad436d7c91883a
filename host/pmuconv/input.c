// SPDX-License-Identifier: MIT
/* Input format names, autodetection and the common load entry point. */
#include "input.h"
#include "inputs.h"
#include "textparse.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const fmt_names[] = {
	[PC_FMT_AUTO] = "auto", [PC_FMT_PMUPROF] = "pmuprof", [PC_FMT_PERFSCRIPT] = "perf-script",
	[PC_FMT_STAP] = "stap", [PC_FMT_FOLDED] = "folded",
};

const char *pc_format_name(int fmt)
{
	if (fmt < 0 || (size_t)fmt >= PC_ARRAY_SIZE(fmt_names))
		return "?";
	return fmt_names[fmt];
}

int pc_format_parse(const char *s)
{
	for (size_t i = 0; i < PC_ARRAY_SIZE(fmt_names); i++)
		if (!strcmp(s, fmt_names[i]))
			return (int)i;
	if (!strcmp(s, "perf") || !strcmp(s, "perfscript"))
		return PC_FMT_PERFSCRIPT;
	if (!strcmp(s, "native"))
		return PC_FMT_PMUPROF;
	return -EINVAL;
}

/* Does the line look like a perf script sample header? Reuses the parser's
 * rules in a cheap form: some token of digits[/digits] after the first
 * token, and a later token ending in ':' that is not a time. */
static bool looks_perf_header(const char *p, const char *e)
{
	const char *q = tok_end(p, e);
	bool pid = false;

	while (q < e) {
		const char *s = skip_ws(q, e), *t = tok_end(s, e);
		if (s == t)
			break;
		if (!pid) {
			const char *x = s;
			while (x < t && (isdigit((unsigned char)*x) || *x == '/'))
				x++;
			pid = x == t && isdigit((unsigned char)*s);
		} else if (t[-1] == ':' && !isdigit((unsigned char)*s) && t - s > 1) {
			return true;
		}
		q = t;
	}
	return false;
}

int pc_detect_format(const char *buf, size_t len, char *err, size_t errlen)
{
	size_t probe = len < 4096 ? len : 4096;
	const char *p = buf, *end = buf + len;
	int lines = 0, folded_like = 0;

	for (size_t i = 0; i < probe; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t'))
			return PC_FMT_PMUPROF;
	}
	while (p < end && lines < 64) {
		size_t ll;
		const char *line = p, *le, *q;
		p = pc_next_line(p, end, &ll);
		le = line + ll;
		q = skip_ws(line, le);
		if (q == le || *line == '#')
			continue;
		lines++;
		const char *t = tok_end(q, le);
		uint64_t v;
		if (q != line) {
			/* indented: stap "0xADDR : sym" or a perf frame "ADDR sym (dso)" */
			const char *n = skip_ws(t, le);
			if (t - q > 2 && q[0] == '0' && q[1] == 'x' && n < le && *n == ':')
				return PC_FMT_STAP;
			if (looks_perf_header(q, le)) /* perf right-aligns comm */
				return PC_FMT_PERFSCRIPT;
			continue;
		}
		if (memchr(q, ';', (size_t)(le - q)))
			return PC_FMT_FOLDED;
		if (memchr(q, '!', (size_t)(le - q)))
			return PC_FMT_STAP;
		if (looks_perf_header(q, le))
			return PC_FMT_PERFSCRIPT;
		const char *cs = le;
		while (cs > q && is_ws(cs[-1]))
			cs--;
		const char *ds = cs;
		while (ds > q && isdigit((unsigned char)ds[-1]))
			ds--;
		if (ds < cs && ds > q && is_ws(ds[-1]) && parse_u64_span(ds, cs, &v))
			folded_like++;
	}
	if (folded_like)
		return PC_FMT_FOLDED;
	snprintf(err, errlen,
		 "cannot tell the input format (not a pmuprof file, perf script, stap or folded "
		 "text); choose one with --input-format");
	return -EINVAL;
}

/*
 * A pmuprof file on standard input ("-"): libpmufile maps a regular file,
 * so what was read (in) is spooled into an unlinked temporary file under
 * $TMPDIR (or /tmp) that replaces standard input and is read as /dev/stdin;
 * the disk space is freed when the process exits. The spool stays standard
 * input, so a second pass (report --sort, script) reads it again.
 */
int pc_stdin_spool(const struct pc_input_buf *in, char *path, size_t pathlen, char *err,
		   size_t errlen)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char tmpl[4096];
	size_t done = 0;
	int fd, r;

	snprintf(tmpl, sizeof(tmpl), "%s/pmuconv-stdin.XXXXXX", dir);
	fd = mkstemp(tmpl);
	if (fd < 0) {
		r = -errno;
		snprintf(err, errlen,
			 "-: cannot keep standard input in a temporary file in %s: %s (set TMPDIR "
			 "to a writable directory, or name the file instead of -)",
			 dir, strerror(-r));
		return r;
	}
	unlink(tmpl);
	while (done < in->len) {
		ssize_t n = write(fd, in->data + done, in->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			close(fd);
			snprintf(err, errlen,
				 "-: cannot keep standard input in a temporary file in %s: %s (set "
				 "TMPDIR to a directory with %zu bytes free, or name the file)",
				 dir, strerror(-r), in->len);
			return r;
		}
		done += (size_t)n;
	}
	/* the spool becomes standard input, so messages name /dev/stdin */
	if (dup2(fd, 0) == 0) {
		close(fd);
		snprintf(path, pathlen, "/dev/stdin");
	} else {
		snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	}
	return 0;
}

/* A text input (perf script, stap, folded) from its bytes in `in`. */
static int load_text(struct pc_set *s, const char *path, const struct pc_input_buf *in, int fmt,
		     const struct pc_load_opts *o, const struct pc_stream *out, char *err,
		     size_t errlen)
{
	struct pc_filter f = o->filter;
	int r;

	if (f.has_time || f.dso || f.symbol) {
		snprintf(err, errlen,
			 "%s: --time/--dso/--symbol need the recorded sample times and addresses "
			 "of a pmuprof file; %s input does not carry them (filter with grep, or "
			 "convert the pmuprof recording)",
			 path, pc_format_name(fmt));
		return -EINVAL;
	}
	if (fmt != PC_FMT_PERFSCRIPT) {
		if (f.has_pid || f.comm || f.has_cpu) {
			snprintf(err, errlen,
				 "%s: --pid/--comm/--cpu need per-sample process and CPU data, "
				 "which %s input does not carry",
				 path, pc_format_name(fmt));
			return -EINVAL;
		}
		/* stap/folded have one unnamed event: -e names it */
		if (!f.event)
			f.event = o->event_name;
	}
	switch (fmt) {
	case PC_FMT_PERFSCRIPT:
		r = input_perfscript_parse(s, in->data, in->len, &f, out);
		break;
	case PC_FMT_STAP:
		r = input_stap_parse(s, in->data, in->len, &f, out);
		break;
	default:
		r = input_folded_parse(s, in->data, in->len, &f, out);
		break;
	}
	if (r) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	if (s->acct.skipped)
		pc_warn("%s: skipped %llu line(s) that did not parse as %s; first: %s", path,
			(unsigned long long)s->acct.skipped, s->acct.format, s->acct.first_skip);
	return pc_set__finish(s);
}

/* Text is read whole (and its format detected); a named pmuprof file is
 * opened by libpmufile itself, one on standard input spooled first. */
int pc_load(struct pc_set *s, const char *path, const struct pc_load_opts *o, char *err,
	    size_t errlen)
{
	struct pc_input_buf in = {0};
	struct pc_stream out;
	char spool[64];
	const char *file = path;
	int fmt = o->format, r = 0;

	pc_set__stream(s, &o->filter, &out);
	pc_stream__add(&out, o->also);
	snprintf(s->acct.source, sizeof(s->acct.source), "%s", path);
	if (fmt != PC_FMT_PMUPROF || !strcmp(path, "-")) {
		r = pc_input_buf__open(&in, path, err, errlen);
		if (r)
			return r;
		if (in.len == 0 && fmt != PC_FMT_FOLDED) {
			snprintf(err, errlen, "%s: the file is empty (no samples to convert)",
				 path);
			r = -ENODATA;
		} else if (fmt == PC_FMT_AUTO &&
			   (fmt = pc_detect_format(in.data, in.len, err, errlen)) < 0) {
			r = fmt;
		} else if (fmt != PC_FMT_PMUPROF) {
			r = load_text(s, path, &in, fmt, o, &out, err, errlen);
		} else if (!strcmp(path, "-")) {
			r = pc_stdin_spool(&in, spool, sizeof(spool), err, errlen);
			file = spool;
		}
		pc_input_buf__close(&in);
		if (r || fmt != PC_FMT_PMUPROF)
			return r;
	}
	r = input_pmufile_load(s, file, &o->filter, &o->sym, &out, err, errlen);
	snprintf(s->acct.source, sizeof(s->acct.source), "%s", path); /* not the spool's name */
	return r;
}
