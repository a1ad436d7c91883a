# test_reliability: pmuctl's process table stays bounded under process churn
UNIT_TESTS += $(BUILD)/tests/unit/test_reliability
$(BUILD)/tests/unit/test_reliability: $(BUILD)/obj/userspace/pmuctl/procmaps.o \
	$(BUILD)/obj/userspace/pmuctl/util.o $(PMUFILE_LIB)
