# Unit tests of pmuconv's renderers (flamegraph, diff, page-size chart, HTML):
# escaping, tree merge, determinism, elision, diff colours, chart numbers.
# The renderers are linked directly (their objects), with pmuconv's core
# objects from host/pmuconv/build.mk. `test_render --emit DIR` also writes
# the hostile-name files that tests/suites/render_xml.sh checks with xmllint.
UNIT_TESTS += $(BUILD)/tests/unit/test_render
$(BUILD)/tests/unit/test_render: $(patsubst %.c,$(BUILD)/obj/%.o,$(PMUCONV_RENDER_SRCS)) \
	$(PMUCONV_CORE_OBJS) $(PMUFILE_LIB)
$(BUILD)/tests/unit/test_render: private LDLIBS := $(PMUCONV_LIBS)
