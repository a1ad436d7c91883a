# test_ipiplan: the cpu-clock sender plan and pacing (kernel/nmi/ipiplan.c).
UNIT_TESTS += $(BUILD)/tests/unit/test_ipiplan

$(BUILD)/obj/tests/unit/test_ipiplan.o: USER_CFLAGS += $(CHECK_CFLAGS)

$(BUILD)/tests/unit/test_ipiplan: $(BUILD)/obj/tests/unit/test_ipiplan.o \
		$(BUILD)/obj/kernel/nmi/ipiplan.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(CHECK_LIBS)
