# test_inherit: PMUPROF_CF_INHERIT, CONFIGURE validation (kernel/nmi/session.c)
# and the process-tree filter of kernel/nmi/capture.c on the host test
# platform's scripted ancestry (libplattest.a).
UNIT_TESTS += $(BUILD)/tests/unit/test_inherit

INHERIT_TEST_OBJS := $(BUILD)/obj/tests/unit/test_inherit.o $(PP_CORE_OBJS)

$(BUILD)/obj/tests/unit/test_inherit.o: USER_CFLAGS += $(CHECK_CFLAGS)

$(BUILD)/tests/unit/test_inherit: $(INHERIT_TEST_OBJS) $(BUILD)/tests/unit/libplattest.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(CHECK_LIBS)
