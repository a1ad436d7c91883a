/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stand-in for QEMU's qemu/osdep.h: what the series' pmu_dtlb.c uses of it
 * (fixed-width types, bool, string functions, glib's g_new0/g_free/MIN/MAX),
 * so that the model compiles on the host alone (check.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <glib.h>
