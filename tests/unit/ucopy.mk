# Unit tests of packed user stack copies (lib/pmufile/ucopy.c, format version 2).
UNIT_TESTS += $(BUILD)/tests/unit/test_ucopy
$(BUILD)/tests/unit/test_ucopy: $(PMUFILE_LIB)
