# test_inherit: PMUPROF_CF_INHERIT, CONFIGURE validation (kernel/nmi/session.c)
# and the process-tree filter of kernel/nmi/capture.c on the host test
# platform's scripted ancestry (libplattest.a).
UNIT_TESTS += $(BUILD)/tests/unit/test_inherit
$(BUILD)/tests/unit/test_inherit: $(PP_CORE_OBJS) $(PLATTEST_LIB)
