# Unit tests of the perf.data writer (host/pmuconv/perfdata.c): file layout
# against perf.data-file-format.txt, record layouts, error paths. perf itself
# reads the exports in tests/suites/perfdata.sh.
UNIT_TESTS += $(BUILD)/tests/unit/test_perfdata
$(BUILD)/tests/unit/test_perfdata: $(PMUCONV_CORE_OBJS) $(PMUFILE_LIB)
$(BUILD)/tests/unit/test_perfdata: private LDLIBS := $(PMUCONV_LIBS)
