/* SPDX-License-Identifier: MIT */
/* Small argument parsers for pmuctl record (args.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "args.h"

int args__u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v == 0)
		return -EINVAL;
	*out = v;
	return 0;
}

int args__size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case '\0':
		break;
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (shift && end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B"))
		return -EINVAL;
	if (v > (~0ull >> shift))
		return -EINVAL;
	*out = v << shift;
	return 0;
}

int args__duration(const char *s, uint64_t *ns)
{
	char *end;
	double v;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v > 0) || v > 1e7 || isnan(v))
		return -EINVAL;
	*ns = (uint64_t)(v * 1e9);
	return *ns ? 0 : -EINVAL;
}

int args__cpulist(const char *s, unsigned long long *mask, unsigned int nwords,
		  unsigned int max_cpus)
{
	const char *p = s;
	int count = 0;

	memset(mask, 0, nwords * sizeof(*mask));
	if (!s || !*s)
		return -EINVAL;
	if (max_cpus > nwords * 64)
		max_cpus = nwords * 64;
	while (*p) {
		char *end;
		unsigned long a, b, c;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			b = strtoul(p, &end, 10);
			p = end;
			if (b < a)
				return -EINVAL;
		}
		if (*p == ',') {
			p++;
			if (!*p)
				return -EINVAL;
		} else if (*p) {
			return -EINVAL;
		}
		if (b >= max_cpus)
			return -ERANGE;
		for (c = a; c <= b; c++) {
			if (!(mask[c / 64] & (1ull << (c % 64))))
				count++;
			mask[c / 64] |= 1ull << (c % 64);
		}
	}
	return count;
}
