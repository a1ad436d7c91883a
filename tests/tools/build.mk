# tests/tools/common.{c,h}: what the test tools share (errno names, record
# checks and counts against GET_STATS, ELF symbols). Host checkers link
# $(TT_COMMON), static guest tools $(TT_COMMON_GUEST); both with lib/pmufile.
TT_COMMON := $(BUILD)/obj/tests/tools/common.o
TT_COMMON_GUEST := $(BUILD)/gobj/tests/tools/common.o
