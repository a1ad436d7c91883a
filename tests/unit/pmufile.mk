# Unit tests of libpmufile (writer/reader round trips, damage handling).
UNIT_TESTS += $(BUILD)/tests/unit/test_pmufile
$(BUILD)/tests/unit/test_pmufile: $(PMUFILE_LIB)
# test_pmufile reads a real recording from the source tree (tests/data/pmufile/)
EXTRA_CFLAGS_tests_unit_ += -DPMUPROF_SRC_ROOT='"$(CURDIR)"'
