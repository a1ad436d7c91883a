// SPDX-License-Identifier: MIT
/*
 * The renderers' script and style sheets, kept as real files beside the
 * sources (flame.js, flame.css, report.css, pagesize.css) so they can be
 * read, linted and tested as JavaScript and CSS, and embedded here at build
 * time with the assembler's .incbin as NUL-terminated strings. build.mk
 * makes this object depend on the files and adds the tree's top to the
 * assembler's search path.
 */
#include "render_common.h"

#define RC_EMBED(sym, file)                                                                        \
	__asm__(".pushsection .rodata\n"                                                           \
		".globl " #sym "\n"                                                                \
		".type " #sym ", @object\n" #sym ":\n"                                             \
		".incbin \"host/pmuconv/" file "\"\n"                                              \
		".byte 0\n"                                                                        \
		".size " #sym ", . - " #sym "\n"                                                   \
		".popsection\n")

RC_EMBED(rc_flame_js, "flame.js");
RC_EMBED(rc_flame_css, "flame.css");
RC_EMBED(rc_report_css, "report.css");
RC_EMBED(rc_pagesize_css, "pagesize.css");
