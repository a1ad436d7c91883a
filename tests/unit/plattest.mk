# libplattest.a: the host implementation of platform.h (see platform_test.h).
PLATTEST_SRCS := $(sort $(wildcard tests/unit/platform_test_*.c))
PLATTEST_LIB := $(BUILD)/tests/unit/libplattest.a
$(PLATTEST_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(PLATTEST_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
