# pmuctl: host binary (libpfm4 linked dynamically) and a static guest binary
# for the VM initramfs (libpfm.a linked statically). Both write data files
# through lib/pmufile ($(PMUFILE_LIB) / $(PMUFILE_GUEST_LIB)).
PMUCTL_SRCS := $(sort $(wildcard userspace/pmuctl/*.c))
PMUCTL_LIBPFM_STATIC ?= /usr/lib/x86_64-linux-gnu/libpfm.a
BINS += $(BUILD)/bin/pmuctl
GUEST_BINS += $(BUILD)/guest/pmuctl
MAN_PAGES += userspace/pmuctl/pmuctl.1

$(BUILD)/bin/pmuctl: $(patsubst %.c,$(BUILD)/obj/%.o,$(PMUCTL_SRCS)) $(PMUFILE_LIB)
	$(link)
$(BUILD)/bin/pmuctl: private LDLIBS := -lpfm -ljansson -lm
$(BUILD)/guest/pmuctl: $(patsubst %.c,$(BUILD)/gobj/%.o,$(PMUCTL_SRCS)) $(PMUFILE_GUEST_LIB)
	$(link-static)
$(BUILD)/guest/pmuctl: private LDLIBS := $(PMUCTL_LIBPFM_STATIC) -ljansson -lm

# Host-side checker used by the pmuctl VM scenarios (not installed):
# $(BUILD)/tests/pmuctl-verify, built by `make unit` and the vm targets.
PMUCTL_VERIFY := $(BUILD)/tests/pmuctl-verify
unit guest-bins: $(PMUCTL_VERIFY)
$(PMUCTL_VERIFY): $(BUILD)/obj/userspace/pmuctl/test/pmuctl_verify.o $(TT_COMMON) $(PMUFILE_LIB)
	$(link)

# --version prints the file VERSION (PMUPROF_VERSION, top Makefile).
$(BUILD)/obj/userspace/pmuctl/main.o $(BUILD)/gobj/userspace/pmuctl/main.o: VERSION
