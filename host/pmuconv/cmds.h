/* SPDX-License-Identifier: MIT */
/* The subcommands' entry points (cmd_<name>.c each), dispatched by main.c. */
#ifndef PMUCONV_CMDS_H
#define PMUCONV_CMDS_H

int cmd_folded(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_pagesize(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_html(int argc, char **argv);

#endif
