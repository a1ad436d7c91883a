# Unit tests of the perf.data writer (host/pmuconv/perfdata.c): file layout
# against perf.data-file-format.txt, record layouts, error paths. perf itself
# reads the exports in tests/suites/perfdata.sh.
UNIT_TESTS += $(BUILD)/tests/unit/test_perfdata
$(BUILD)/tests/unit/test_perfdata: $(BUILD)/obj/tests/unit/test_perfdata.o $(PMUCONV_CORE_OBJS) \
		$(PMUCONV_PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(PMUCONV_LIBS) $(CHECK_LIBS)
