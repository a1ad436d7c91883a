# Reliability tools (issue 8): tests/tools/relfuzz is three levels deep, below
# the top Makefile's fragment globs, so this fragment pulls it in.
include lib/pmufile/build.mk
include tests/tools/relfuzz/build.mk

# test_reliability: pmuctl's process table stays bounded under process churn
UNIT_TESTS += $(BUILD)/tests/unit/test_reliability
$(BUILD)/obj/tests/unit/test_reliability.o: USER_CFLAGS += $(CHECK_CFLAGS)
$(BUILD)/tests/unit/test_reliability: $(BUILD)/obj/tests/unit/test_reliability.o \
		$(BUILD)/obj/userspace/pmuctl/procmaps.o $(BUILD)/obj/userspace/pmuctl/util.o $(PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(CHECK_LIBS)
