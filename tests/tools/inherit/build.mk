# tests/tools/inherit: the PMUPROF_CF_INHERIT VM scenario's tools
# (tests/vm/scenarios/inherit_tree.sh):
#   $(BUILD)/guest/inhtree  guest (static): a 4-process tree (+1 thread) with a
#                           known CPU split, frame pointers kept
#   $(BUILD)/guest/inhcfg   guest (static): CF_INHERIT through the real ioctls
#   $(BUILD)/tests/inhcheck host: checks a recording of it (lib/pmufile, tests/tools/common)
GUEST_BINS += $(BUILD)/guest/inhtree $(BUILD)/guest/inhcfg
$(BUILD)/guest/inhcfg: $(BUILD)/gobj/tests/tools/inherit/inhcfg.o
	$(link-static)
$(BUILD)/guest/inhtree: tests/tools/inherit/inhtree.c
	$(workload)
$(BUILD)/guest/inhtree: private LDLIBS := -pthread

INHCHECK := $(BUILD)/tests/inhcheck
unit guest-bins: $(INHCHECK)
$(INHCHECK): $(BUILD)/obj/tests/tools/inherit/inhcheck.o $(TT_COMMON) $(PMUFILE_LIB)
	$(link)
