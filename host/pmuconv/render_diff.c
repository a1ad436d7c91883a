// SPDX-License-Identifier: MIT
/*
 * Differential flamegraph: the frame tree of `after` (widths from after),
 * each frame coloured by how its share of the total changed since `before`
 * (red: grew, blue: shrank, white: same). Shares, not counts, are compared,
 * so recordings of different lengths or rates compare fairly. A path that
 * exists only in `before` cannot be drawn at an `after` width; its share is
 * reported in the status line instead.
 */
#include "render_common.h"

#include <errno.h>

int render_diff_flamegraph_svg(FILE *out, const struct pc_profile *before,
			       const struct pc_profile *after, const struct render_opts *o)
{
	struct rc_tree t;
	char sub[512], b1[32], b2[32];
	struct rc_svg_opts so = {.ro = o, .standalone = 1, .diff = 1, .extra_subtitle = sub};
	int err;

	if (!out || !before || !after || !o)
		return -EINVAL;
	if ((err = rc_tree__build(&t, after, o->by_samples)) ||
	    (err = rc_tree__add_before(&t, before)) || (err = rc_tree__layout(&t))) {
		rc_tree__free(&t);
		return err;
	}
	snprintf(sub, sizeof(sub),
		 "colour = change of the frame's share from before (%s, %s samples) to after "
		 "(%s samples): red grew, blue shrank",
		 before->event, rc_fmt_u64(b1, before->total_samples),
		 rc_fmt_u64(b2, after->total_samples));
	err = rc_flamegraph_write(out, &t, &so, NULL);
	rc_tree__free(&t);
	return err;
}
