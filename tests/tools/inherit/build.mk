# tests/tools/inherit: the PMUPROF_CF_INHERIT VM scenario's tools
# (tests/vm/scenarios/inherit_tree.sh):
#   $(BUILD)/guest/inhtree  guest (static): a 4-process tree (+1 thread) with a
#                           known CPU split, frame pointers kept
#   $(BUILD)/guest/inhcfg   guest (static): CF_INHERIT through the real ioctls
#   $(BUILD)/tests/inhcheck host: checks a recording of it (lib/pmufile, tests/tools/common)
ifndef INHERIT_BUILD_MK
INHERIT_BUILD_MK := 1
GUEST_BINS += $(BUILD)/guest/inhtree $(BUILD)/guest/inhcfg

$(BUILD)/guest/inhcfg: $(BUILD)/gobj/tests/tools/inherit/inhcfg.o
	@mkdir -p $(dir $@)
	$(CC) -static -o $@ $^

$(BUILD)/guest/inhtree: tests/tools/inherit/inhtree.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -std=gnu11 \
		-D_GNU_SOURCE $(WARN) -static -pthread -o $@ $<

ifneq ($(PMUFILE_LIB),)
INHCHECK := $(BUILD)/tests/inhcheck
unit: $(INHCHECK)
guest-bins: $(INHCHECK)
$(INHCHECK): $(BUILD)/obj/tests/tools/inherit/inhcheck.o $(TT_COMMON) $(PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^
endif
endif
