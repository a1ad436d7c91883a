// SPDX-License-Identifier: MIT
/* Parsing CPU lists, time ranges and event names for the --cpu, --time and
 * --event filters. */
#include "filterspec.h"
#include "lib/pmufile/pmufile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A decimal number at *p (digits only), advancing *p; false if none or it
 * exceeds max. */
static bool parse_uint(const char **p, uint64_t max, uint64_t *v)
{
	const char *s = *p;

	*v = 0;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		*v = *v * 10 + (uint64_t)(*s - '0');
		if (*v > max)
			return false;
	}
	*p = s;
	return true;
}

int pc_cpuset__parse(struct pc_cpuset *s, const char *text, char *err, size_t errlen)
{
	const char *p = text;

	memset(s, 0, sizeof(*s));
	if (!*p)
		goto bad;
	for (;;) {
		uint64_t lo, hi;
		const char *start = p;

		if (!parse_uint(&p, PC_MAX_CPUS - 1, &lo))
			goto bad_item;
		hi = lo;
		if (*p == '-') {
			p++;
			if (!parse_uint(&p, PC_MAX_CPUS - 1, &hi))
				goto bad_item;
			if (hi < lo) {
				snprintf(
					err, errlen,
					"CPU range '%.*s' runs backwards; write LOW-HIGH, e.g. 0-3",
					(int)(p - start), start);
				return -EINVAL;
			}
		}
		for (uint64_t c = lo; c <= hi; c++)
			s->bits[c / 64] |= 1ull << (c % 64);
		if (!*p)
			return 0;
		if (*p != ',')
			goto bad_item;
		p++;
		continue;
	bad_item:
		if (*p >= '0' && *p <= '9') {
			snprintf(err, errlen, "CPU number in '%s' is above %d", text,
				 PC_MAX_CPUS - 1);
			return -EINVAL;
		}
		goto bad;
	}
bad:
	snprintf(err, errlen,
		 "'%s' is not a CPU list; write CPU numbers and ranges separated by commas, "
		 "e.g. 0-3,7",
		 text);
	return -EINVAL;
}

/* Seconds with up to 9 decimals at *p, as nanoseconds; *unit: the last
 * digit's value in ns (an END covers every time printed as it). */
static bool parse_seconds(const char **p, uint64_t *ns, uint64_t *unit)
{
	uint64_t sec, frac = 0;
	int digits = 0;

	if (!parse_uint(p, UINT64_MAX / 1000000000ull - 1, &sec))
		return false;
	if (**p == '.') {
		(*p)++;
		for (; **p >= '0' && **p <= '9'; (*p)++) {
			if (++digits > 9)
				return false;
			frac = frac * 10 + (uint64_t)(**p - '0');
		}
		if (!digits)
			return false;
	}
	for (*unit = 1; digits < 9; digits++) {
		frac *= 10;
		*unit *= 10;
	}
	*ns = sec * 1000000000ull + frac;
	return true;
}

int pc_time_range__parse(const char *text, uint64_t *start_ns, uint64_t *end_ns, char *err,
			 size_t errlen)
{
	const char *p = text;
	uint64_t unit = 1;

	*start_ns = 0;
	*end_ns = UINT64_MAX;
	if (!strchr(text, ',') || !strcmp(text, ","))
		goto bad;
	if (*p != ',' && !parse_seconds(&p, start_ns, &unit))
		goto bad;
	if (*p++ != ',')
		goto bad;
	if (*p && !parse_seconds(&p, end_ns, &unit))
		goto bad;
	if (*p)
		goto bad;
	/* END covers the times printed as it ('pmuconv script' prints
	 * microseconds): "2.5" and "2.500000" end at 2.500000999 */
	if (*end_ns != UINT64_MAX)
		*end_ns += (unit < 1000 ? unit : 1000) - 1;
	if (*end_ns < *start_ns) {
		snprintf(err, errlen, "time range '%s' ends before it starts", text);
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "'%s' is not a time range; write START,END in seconds as 'pmuconv script' "
		 "prints sample times (e.g. 1054.5,1056), or START, / ,END for an open end",
		 text);
	return -EINVAL;
}

/* A modifier token of an event name: only the letters perf's privilege and
 * precision modifiers use (u, k, h, p), as in ":u", ":pp", ":upp". */
static bool is_modifier(const char *t, size_t n)
{
	if (n == 0 || n > 5)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("ukhp", t[i]))
			return false;
	return true;
}

/* Event name -> "event:umask" in lower case, separators ':', without a PMU
 * prefix, attribute settings or modifiers (pc_event__matches). */
static void event_key(const char *in, char *out, size_t outlen)
{
	const char *pmu = strstr(in, "::");
	size_t o = 0;

	if (pmu)
		in = pmu + 2;
	out[0] = '\0';
	while (*in) {
		size_t n = strcspn(in, ".:"), i;
		char tok[128];

		for (i = 0; i < n && i < sizeof(tok) - 1; i++)
			tok[i] = (char)tolower((unsigned char)in[i]);
		tok[i] = '\0';
		if (i && !strchr(tok, '=') && !(o && is_modifier(tok, i)) && o + i + 2 < outlen) {
			if (o)
				out[o++] = ':';
			memcpy(out + o, tok, i + 1);
			o += i;
		}
		in += n;
		if (*in)
			in++;
	}
}

bool pc_event__matches(const char *want, const char *name, const char *resolved)
{
	char w[256], k[256];

	event_key(want, w, sizeof(w));
	if (!w[0])
		return false;
	event_key(name, k, sizeof(k));
	if (!strcmp(w, k))
		return true;
	if (!resolved || !resolved[0])
		return false;
	event_key(resolved, k, sizeof(k));
	return !strcmp(w, k);
}

bool pc_event__wanted(const struct pmufile *f, const struct pmufile_event *ev, const char *want)
{
	if (!want || !strcmp(want, ev->name[0] ? ev->name : "event"))
		return true;
	for (uint32_t i = 0; i < f->nr_events && i < PMUPROF_MAX_EVENTS; i++)
		if (!strcmp(want, f->events[i].name))
			return false; /* an exact match exists: only it */
	return pc_event__matches(want, ev->name, ev->resolved);
}
