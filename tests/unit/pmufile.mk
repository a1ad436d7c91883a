# Unit tests of libpmufile (writer/reader round trips, damage handling).
UNIT_TESTS += $(BUILD)/tests/unit/test_pmufile
$(BUILD)/tests/unit/test_pmufile: $(BUILD)/obj/tests/unit/test_pmufile.o $(PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(CHECK_LIBS)
EXTRA_CFLAGS_tests_unit_ += $(CHECK_CFLAGS)
# test_pmufile reads a real recording from the source tree (tests/data/pmufile/)
EXTRA_CFLAGS_tests_unit_ += -DPMUPROF_SRC_ROOT='"$(CURDIR)"'
