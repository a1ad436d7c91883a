// SPDX-License-Identifier: MIT
/* Embeds the renderers' script and style sheets (real .js/.css files beside
 * the sources) as NUL-terminated strings with .incbin; see build.mk. */
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
RC_EMBED(rc_report_js, "report.js");
RC_EMBED(rc_pagesize_css, "pagesize.css");
