# test_capture: kernel/nmi/session.c (GET_INFO, CONFIGURE validation, state
# machine) and kernel/nmi/capture.c (samples, filters, stack walks, lost
# accounting, throttling) on the host test platform (libplattest.a).
UNIT_TESTS += $(BUILD)/tests/unit/test_capture

CAPTURE_TEST_OBJS := $(BUILD)/obj/tests/unit/test_capture.o \
	$(PP_CORE_OBJS) \
	$(BUILD)/obj/tests/unit/pmu_model.o

$(BUILD)/obj/tests/unit/test_capture.o: USER_CFLAGS += $(CHECK_CFLAGS)

$(BUILD)/tests/unit/test_capture: $(CAPTURE_TEST_OBJS) $(BUILD)/tests/unit/libplattest.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(CHECK_LIBS)

# The kproto guest tools the kernel VM scenarios need (see that file).
include tests/tools/kproto/build.mk
