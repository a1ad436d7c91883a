# tests/tools/kproto: raw /dev/pmuprof tools for the kernel VM scenarios
# (static, guest only). ppclient: info/record/analyze; ppfuzz: ioctl abuse;
# spin7030: 70/30 workload with frame pointers.
KPROTO_BINS := $(BUILD)/guest/ppclient $(BUILD)/guest/ppfuzz $(BUILD)/guest/spin7030
GUEST_BINS += $(KPROTO_BINS)

$(BUILD)/guest/ppclient: $(BUILD)/gobj/tests/tools/kproto/ppclient.o $(TT_COMMON_GUEST) \
	$(PMUFILE_GUEST_LIB)
	$(link-static)
$(BUILD)/guest/ppfuzz: $(BUILD)/gobj/tests/tools/kproto/ppfuzz.o $(TT_COMMON_GUEST) \
	$(PMUFILE_GUEST_LIB)
	$(link-static)
$(BUILD)/guest/ppfuzz: private LDLIBS := -pthread
$(BUILD)/guest/spin7030: tests/tools/kproto/spin7030.c
	$(workload)
