/* SPDX-License-Identifier: MIT */
/* pmuctl's subcommands: main.c's cmds[] dispatches to these. */
#ifndef PMUCTL_H
#define PMUCTL_H

#define PMUCTL_VERSION PMUPROF_VERSION /* the file VERSION (Makefile) */

struct pmuctl_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_info(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_record(int argc, char **argv);

#endif
