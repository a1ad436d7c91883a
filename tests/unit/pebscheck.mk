# The PEBS-vs-decoder check (issue 16, kernel/nmi/pebscheck.c): format-3
# and adaptive records with known instruction bytes and GPRs, classified
# against the decoder; the per-CPU counts in kernel/nmi/capture.c.
UNIT_TESTS += $(BUILD)/tests/unit/test_pebscheck
$(BUILD)/tests/unit/test_pebscheck: $(PP_CORE_OBJS) $(PLATTEST_LIB)
