# kernel/pmu host unit tests: test_pmu (probe, plan, reserve, arm, NMI
# handler against tests/unit/pmu_model.c) and test_pebs (record parsing,
# DS arithmetic, and PEBS end to end on the PMU model through kernel/nmi
# capture: samples, data addresses, page walks). test_pmu links kernel/pmu
# alone (it programs PEBS with pebs.c); the whole core is PP_CORE_OBJS.
UNIT_TESTS += $(BUILD)/tests/unit/test_pmu $(BUILD)/tests/unit/test_pebs
$(BUILD)/tests/unit/test_pmu: $(PMU_MODEL_OBJS) $(addprefix $(BUILD)/obj/kernel/,$(PP_CORE_PMU)) \
	$(PLATTEST_LIB)
$(BUILD)/tests/unit/test_pebs: $(PMU_MODEL_OBJS) $(PP_CORE_OBJS) $(PLATTEST_LIB)
