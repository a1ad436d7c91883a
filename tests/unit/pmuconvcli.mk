# Unit tests of pmuconv's command-line argument parsers (CPU lists, time
# ranges, --sort keys, --dso/--symbol matching), table driven.
UNIT_TESTS += $(BUILD)/tests/unit/test_pmuconv_cli
$(BUILD)/tests/unit/test_pmuconv_cli: $(PMUCONV_CORE_OBJS) $(PMUFILE_LIB)
$(BUILD)/tests/unit/test_pmuconv_cli: private LDLIBS := $(PMUCONV_LIBS)
