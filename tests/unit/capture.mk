# test_capture: kernel/nmi/session.c (GET_INFO, CONFIGURE validation, state
# machine) and kernel/nmi/capture.c (samples, filters, stack walks, lost
# accounting, throttling) on the host test platform (libplattest.a).
UNIT_TESTS += $(BUILD)/tests/unit/test_capture
$(BUILD)/tests/unit/test_capture: $(PP_CORE_OBJS) $(PMU_MODEL_OBJS) $(PLATTEST_LIB)
