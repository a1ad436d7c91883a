// SPDX-License-Identifier: MIT
/*
 * The one definition of a recording's duration (docs/FORMAT.md, "Duration"):
 * the module's session time, from the START ioctl to the STOP ioctl, as
 * GET_STATS reports it (start_ns, stop_ns: the session clock of the sample
 * times). pmuctl's summary and pmuconv's report both print this.
 */
#include "lib/pmufile/pmufile.h"

uint64_t pmufile__session_duration_ns(const struct pmuprof_stats *st)
{
	return st && st->stop_ns > st->start_ns ? st->stop_ns - st->start_ns : 0;
}

bool pmufile__duration_ns(const struct pmufile *f, uint64_t *ns)
{
	uint64_t d = f->has_stats ? pmufile__session_duration_ns(&f->stats) : 0;

	/* no STATS frame (a file cut short, or GET_STATS failed): the file's
	 * own clock, from opening to closing it (it also counts pmuctl's set-up) */
	if (!d && f->has_trailer && f->trailer.end_session_ns > f->hdr.start_session_ns)
		d = f->trailer.end_session_ns - f->hdr.start_session_ns;
	*ns = d;
	return d != 0;
}
