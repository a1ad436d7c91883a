# Unit tests of pmuconv's renderers (flamegraph, diff, page-size chart, HTML):
# escaping, tree merge, determinism, elision, diff colours, chart numbers.
# The renderers are linked directly (their objects), with pmuconv's core
# objects from host/pmuconv/build.mk. `test_render --emit DIR` also writes
# the hostile-name files that tests/suites/render_xml.sh checks with xmllint.
RENDER_TEST_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(sort $(wildcard host/pmuconv/render_*.c)))
UNIT_TESTS += $(BUILD)/tests/unit/test_render
$(BUILD)/tests/unit/test_render: $(BUILD)/obj/tests/unit/test_render.o $(RENDER_TEST_OBJS) \
		$(PMUCONV_CORE_OBJS) $(PMUCONV_PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(PMUCONV_LIBS) $(CHECK_LIBS)
EXTRA_CFLAGS_tests_unit_ += $(CHECK_CFLAGS)
