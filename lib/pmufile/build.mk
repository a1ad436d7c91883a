# libpmufile: the pmuprof data file writer/reader (lib/pmufile).
# Other fragments link $(PMUFILE_LIB) (host) or $(PMUFILE_GUEST_LIB) (static
# guest binaries) and include "lib/pmufile/pmufile.h".
#
# The top Makefile includes fragments in sorted path order, so a fragment
# that sorts before this one (e.g. host/pmuconv/build.mk) and names
# $(PMUFILE_LIB) in a prerequisite list must `include lib/pmufile/build.mk`
# itself first; the guard makes a second inclusion harmless.
ifndef PMUFILE_MK_INCLUDED
PMUFILE_MK_INCLUDED := 1

PMUFILE_SRCS := lib/pmufile/crc32.c lib/pmufile/duration.c lib/pmufile/record.c lib/pmufile/writer.c lib/pmufile/reader.c
PMUFILE_LIB := $(BUILD)/lib/libpmufile.a
PMUFILE_GUEST_LIB := $(BUILD)/lib/libpmufile-guest.a

$(PMUFILE_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(PMUFILE_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(PMUFILE_GUEST_LIB): $(patsubst %.c,$(BUILD)/gobj/%.o,$(PMUFILE_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# pmugen lives three levels deep, below the Makefile's fragment globs.
include tests/tools/pmugen/build.mk
endif
