# NUMA placement (issue 20): the node-map lookup (lib/pmufile/numa.c,
# host/pmuconv/nodemap.c), the NUMA frame round trip, and pmuctl's sysfs
# reader (userspace/pmuctl/numa.c) on a fake tree.
ifneq ($(PMUFILE_LIB),)
UNIT_TESTS += $(BUILD)/tests/unit/test_numa
$(BUILD)/tests/unit/test_numa: $(BUILD)/obj/tests/unit/test_numa.o \
		$(BUILD)/obj/userspace/pmuctl/numa.o $(BUILD)/obj/host/pmuconv/nodemap.o $(PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^ $(CHECK_LIBS)
endif
