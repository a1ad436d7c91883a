/* SPDX-License-Identifier: MIT */
/* The folded-stack writer: the collapse stage's output format. */
#ifndef PMUCONV_FOLDED_H
#define PMUCONV_FOLDED_H

#include <stdio.h>
#include "profile.h"

/* Write one profile as folded text (root;...;leaf COUNT, one line per
 * unique stack); annotate: add "_[k]" to kernel frames; by_samples: print
 * sample counts instead of weights. Skips zero counts. */
int folded_write(FILE *out, const struct pc_profile *p, int annotate, int by_samples);

#endif
