# test_tscconv: TSC cycles -> ns for the NMI handler's timing (kernel/nmi/tscconv.h, header only).
UNIT_TESTS += $(BUILD)/tests/unit/test_tscconv
