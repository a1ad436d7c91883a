# pmugen: synthetic pmuprof recordings for pmuconv tests and benchmarks.
# A test tool (TOOLS), not installed; built with the unit tests.
PMUGEN := $(BUILD)/bin/pmugen
TOOLS += $(PMUGEN)
$(PMUGEN): $(BUILD)/obj/tests/tools/pmugen/pmugen.o $(TT_COMMON) $(PMUFILE_LIB)
	$(link)
unit: $(PMUGEN)
