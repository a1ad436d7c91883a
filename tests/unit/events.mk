# pmuctl event resolution/encoding tables (LIBPFM_FORCE_PMU per model), its
# argument parsers and the process-map/build-id capture (round trip through
# lib/pmufile).
UNIT_TESTS += $(BUILD)/tests/unit/test_events
$(BUILD)/tests/unit/test_events: $(BUILD)/obj/userspace/pmuctl/events.o \
	$(BUILD)/obj/userspace/pmuctl/events_list.o \
	$(BUILD)/obj/userspace/pmuctl/args.o $(BUILD)/obj/userspace/pmuctl/procmaps.o \
	$(BUILD)/obj/userspace/pmuctl/util.o $(PMUFILE_LIB)
$(BUILD)/tests/unit/test_events: private LDLIBS := -lpfm -lm
