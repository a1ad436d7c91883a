# pmuctl's on-demand kernel symbols (userspace/pmuctl/ksyms.c): which
# kallsyms lines a recording carries, written through lib/pmufile and read
# back.
UNIT_TESTS += $(BUILD)/tests/unit/test_ksyms
$(BUILD)/tests/unit/test_ksyms: $(BUILD)/obj/userspace/pmuctl/ksyms.o \
	$(BUILD)/obj/userspace/pmuctl/util.o $(PMUFILE_LIB)
