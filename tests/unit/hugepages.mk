# Unit tests of the huge-page answer (issue 17): mapping attribution of data
# accesses (edges, unmapped, exec), the distinct-page estimate, the verdict.
UNIT_TESTS += $(BUILD)/tests/unit/test_hugepages
$(BUILD)/tests/unit/test_hugepages: $(PMUCONV_CORE_OBJS) $(PMUFILE_LIB)
$(BUILD)/tests/unit/test_hugepages: private LDLIBS := $(PMUCONV_LIBS) -ldl
