# pmuctl: host binary (libpfm4 linked dynamically) and a static guest binary
# for the VM initramfs (libpfm.a linked statically). Both write data files
# through lib/pmufile ($(PMUFILE_LIB) / $(PMUFILE_GUEST_LIB)).
PMUCTL_SRCS := $(sort $(wildcard userspace/pmuctl/*.c))
PMUCTL_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(PMUCTL_SRCS))
PMUCTL_GOBJS := $(patsubst %.c,$(BUILD)/gobj/%.o,$(PMUCTL_SRCS))
PMUCTL_LIBPFM_STATIC ?= /usr/lib/x86_64-linux-gnu/libpfm.a
# Objects that the unit tests link (no main, no device, no file writer).
PMUCTL_TESTABLE_OBJS := $(BUILD)/obj/userspace/pmuctl/events.o $(BUILD)/obj/userspace/pmuctl/args.o

ifneq ($(PMUFILE_LIB),)
BINS += $(BUILD)/bin/pmuctl
GUEST_BINS += $(BUILD)/guest/pmuctl
MAN_PAGES += userspace/pmuctl/pmuctl.1

$(BUILD)/bin/pmuctl: $(PMUCTL_OBJS) $(PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $(PMUCTL_OBJS) $(PMUFILE_LIB) -lpfm -ljansson -lm

$(BUILD)/guest/pmuctl: $(PMUCTL_GOBJS) $(PMUFILE_GUEST_LIB)
	@mkdir -p $(dir $@)
	$(CC) -static -o $@ $(PMUCTL_GOBJS) $(PMUFILE_GUEST_LIB) $(PMUCTL_LIBPFM_STATIC) -ljansson -lm
else
$(warning pmuctl: lib/pmufile/build.mk defines no PMUFILE_LIB; pmuctl is not built)
endif

# Host-side checker used by the pmuctl VM scenarios (not installed):
# $(BUILD)/tests/pmuctl-verify, built by `make unit` and the vm targets.
ifneq ($(PMUFILE_LIB),)
PMUCTL_VERIFY := $(BUILD)/tests/pmuctl-verify

unit: $(PMUCTL_VERIFY)
guest-bins: $(PMUCTL_VERIFY)
$(PMUCTL_VERIFY): $(BUILD)/obj/userspace/pmuctl/test/pmuctl_verify.o $(TT_COMMON) $(PMUFILE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_SAN) -o $@ $^
endif

# --version prints the file VERSION (PMUPROF_VERSION, top Makefile).
$(BUILD)/obj/userspace/pmuctl/main.o $(BUILD)/gobj/userspace/pmuctl/main.o: VERSION
