# Unit tests of pmuconv's command-line argument parsers (CPU lists, time
# ranges, --sort keys, --dso/--symbol matching), table driven.
UNIT_TESTS += $(BUILD)/tests/unit/test_pmuconv_cli
$(BUILD)/tests/unit/test_pmuconv_cli: $(BUILD)/obj/tests/unit/test_pmuconv_cli.o \
		$(PMUCONV_CORE_OBJS) $(PMUCONV_PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(PMUCONV_LIBS) $(CHECK_LIBS)
