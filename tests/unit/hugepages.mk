# Unit tests of the huge-page answer (issue 17): mapping attribution of data
# accesses (edges, unmapped, exec), the distinct-page estimate, the verdict.
UNIT_TESTS += $(BUILD)/tests/unit/test_hugepages
$(BUILD)/tests/unit/test_hugepages: $(BUILD)/obj/tests/unit/test_hugepages.o $(PMUCONV_CORE_OBJS) \
		$(PMUCONV_PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(PMUCONV_LIBS) $(CHECK_LIBS) -ldl
