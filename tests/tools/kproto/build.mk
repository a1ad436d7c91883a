# tests/tools/kproto: raw /dev/pmuprof tools for the kernel VM scenarios
# (static, guest only). ppclient: info/record/analyze; ppfuzz: ioctl abuse;
# spin7030: 70/30 workload with frame pointers.
# The top Makefile includes only */build.mk and */*/build.mk, so
# tests/unit/capture.mk includes this file too; the guard makes a second
# inclusion (once the top Makefile globs deeper) harmless.
ifndef KPROTO_BUILD_MK
KPROTO_BUILD_MK := 1
KPROTO_BINS := $(BUILD)/guest/ppclient $(BUILD)/guest/ppfuzz
GUEST_BINS += $(KPROTO_BINS)

$(BUILD)/guest/ppclient: $(BUILD)/gobj/tests/tools/kproto/ppclient.o $(TT_COMMON_GUEST) \
		$(PMUFILE_GUEST_LIB)
	@mkdir -p $(dir $@)
	$(CC) -static -o $@ $^

$(BUILD)/guest/ppfuzz: $(BUILD)/gobj/tests/tools/kproto/ppfuzz.o $(TT_COMMON_GUEST) \
		$(PMUFILE_GUEST_LIB)
	@mkdir -p $(dir $@)
	$(CC) -static -pthread -o $@ $^

# spin7030: 70/30 workload with guaranteed frame pointers (see its header).
KPROTO_BINS += $(BUILD)/guest/spin7030
GUEST_BINS += $(BUILD)/guest/spin7030
$(BUILD)/guest/spin7030: tests/tools/kproto/spin7030.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -fno-omit-frame-pointer -std=gnu11 $(WARN) -static -o $@ $<

endif
