# test_ring: the per-CPU ring (kernel/nmi/ring.c) on the host.
# ring.c is compiled here with -DRING_TEST_HOOKS (nested-producer injection
# points); the module and bench/ring use it without hooks.
#   make ring-tsan   same test under ThreadSanitizer (not part of `unit`)
UNIT_TESTS += $(BUILD)/tests/unit/test_ring

RING_DEPS := kernel/nmi/ring.c kernel/nmi/ring.h kernel/include/pmuprof/barrier.h \
	kernel/include/pmuprof/types.h include/uapi/pmuprof.h

$(BUILD)/obj/tests/unit/ring_hooked.o: $(RING_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -DRING_TEST_HOOKS -c $< -o $@

$(BUILD)/obj/tests/unit/test_ring.o: USER_CFLAGS += -DRING_TEST_HOOKS
$(BUILD)/tests/unit/test_ring: $(BUILD)/obj/tests/unit/ring_hooked.o
$(BUILD)/tests/unit/test_ring: private LDLIBS := -lpthread -lrt

.PHONY: ring-tsan
ring-tsan: $(BUILD)/tests/unit/test_ring_tsan
$(BUILD)/tests/unit/test_ring_tsan: tests/unit/test_ring.c $(RING_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(CHECK_CFLAGS) -DRING_TEST_HOOKS -fsanitize=thread -O1 -g \
		-o $@ tests/unit/test_ring.c kernel/nmi/ring.c $(CHECK_LIBS) -lpthread -lrt
