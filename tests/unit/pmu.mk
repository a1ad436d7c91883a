# kernel/pmu host unit tests: test_pmu (probe, plan, reserve, arm, NMI
# handler against tests/unit/pmu_model.c) and test_pebs (record parsing).
# Objects other fragments may link: PMU_OBJS (kernel/pmu alone: it programs
# PEBS with pebs.c; the whole core is PP_CORE_OBJS from kernel/core.mk),
# PMU_MODEL_OBJS (the register-level PMU model, needs libplattest.a).
PMU_OBJS := $(addprefix $(BUILD)/obj/kernel/,$(PP_CORE_PMU))
PMU_MODEL_OBJS := $(BUILD)/obj/tests/unit/pmu_model.o

UNIT_TESTS += $(BUILD)/tests/unit/test_pmu $(BUILD)/tests/unit/test_pebs

$(BUILD)/tests/unit/test_pmu: $(BUILD)/obj/tests/unit/test_pmu.o $(PMU_MODEL_OBJS) $(PMU_OBJS) \
		$(PLATTEST_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(CHECK_LIBS)

# test_pebs: record parsing, DS arithmetic, and PEBS end to end on the PMU
# model through kernel/nmi capture (samples, data addresses, page walks).
PEBS_TEST_OBJS := $(BUILD)/obj/tests/unit/test_pebs.o $(PMU_MODEL_OBJS) $(PP_CORE_OBJS)

$(BUILD)/tests/unit/test_pebs: $(PEBS_TEST_OBJS) $(PLATTEST_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(CHECK_LIBS)

EXTRA_CFLAGS_tests_unit_ += $(CHECK_CFLAGS)
