# libplattest.a: the host implementation of platform.h (see platform_test.h)
# and of the PMU layer's link-time glue (pmu_glue_test.c).
PLATTEST_SRCS := $(sort $(wildcard tests/unit/platform_test_*.c)) tests/unit/pmu_glue_test.c
PLATTEST_LIB := $(BUILD)/tests/unit/libplattest.a
$(PLATTEST_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(PLATTEST_SRCS))
	$(archive)
# The register-level PMU model (tests/unit/pmu_model.c), with libplattest.a.
PMU_MODEL_OBJS := $(BUILD)/obj/tests/unit/pmu_model.o
