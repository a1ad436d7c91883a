# test_ipiplan: the cpu-clock sender plan and pacing (kernel/nmi/ipiplan.c).
UNIT_TESTS += $(BUILD)/tests/unit/test_ipiplan
$(BUILD)/tests/unit/test_ipiplan: $(BUILD)/obj/kernel/nmi/ipiplan.o
