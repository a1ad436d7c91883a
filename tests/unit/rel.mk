# Reliability tools (issue 8): tests/tools/relfuzz is three levels deep, below
# the top Makefile's fragment globs, so this fragment pulls it in.
include lib/pmufile/build.mk
include tests/tools/relfuzz/build.mk
