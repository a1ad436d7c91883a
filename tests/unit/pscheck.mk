# Page-size scenario tools (issue 6): tests/tools/pscheck is three levels
# deep, below the top Makefile's fragment globs, so this fragment pulls it in.
include lib/pmufile/build.mk
include tests/tools/pscheck/build.mk
