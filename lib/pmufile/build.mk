# libpmufile: the pmuprof data file writer/reader (lib/pmufile).
# Other fragments link $(PMUFILE_LIB) (host) or $(PMUFILE_GUEST_LIB) (static
# guest binaries) and include "lib/pmufile/pmufile.h". The top Makefile reads
# this fragment before the others (FIRST_FRAGMENTS).
PMUFILE_SRCS := lib/pmufile/crc32.c lib/pmufile/duration.c lib/pmufile/record.c lib/pmufile/numa.c lib/pmufile/ucopy.c lib/pmufile/writer.c lib/pmufile/reader.c
PMUFILE_LIB := $(BUILD)/lib/libpmufile.a
PMUFILE_GUEST_LIB := $(BUILD)/lib/libpmufile-guest.a

$(PMUFILE_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(PMUFILE_SRCS))
	$(archive)
$(PMUFILE_GUEST_LIB): $(patsubst %.c,$(BUILD)/gobj/%.o,$(PMUFILE_SRCS))
	$(archive)
