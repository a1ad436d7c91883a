/* SPDX-License-Identifier: MIT */
/*
 * The speedscope exporter: every event's profile (profile.h) as one
 * "sampled" profile of speedscope's file format, with one frame table
 * shared by all of them, written with jansson.
 */
#ifndef PMUCONV_EXPORT_SPEEDSCOPE_H
#define PMUCONV_EXPORT_SPEEDSCOPE_H

#include <stdio.h>
#include "pcagg.h"

/* Write s's finished profiles to out. 0, -ENOMEM or -EIO. */
int speedscope_write(const struct pc_set *s, FILE *out);

#endif
