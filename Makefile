# pmuprof top-level Makefile.
#
#   make            module + pmuctl + pmuconv
#   make deps       install build/test dependencies (apt-get), fetch guest kernel
#   make check      deps, format-check, build, lint, unit tests, VM tests; ends
#                   "N passed, N failed"
#   make demo       deps + build + profile the demo workload in a VM -> out/demo/
#   make vm-test T=NAME   one VM scenario;  make vm-shell   interactive guest
#   make qemu-pmu   build (once, cached) QEMU with the emulated-PMU series
#   make bench      benchmarks -> out/bench/;  make soak   long reliability runs
#   make install / uninstall  (PREFIX, DESTDIR)
#   make lint       no include/call circles in host/ and userspace/ (scripts/check-cycles.py),
#                   file map, no x86_pmu_regs.h name that Linux defines too
#
# Components add themselves through build.mk fragments (one per directory,
# owned by that component): they append to BINS, GUEST_BINS, UNIT_TESTS and
# define the rules for what they add. Conventions for fragments:
#   - host binaries go to $(BUILD)/bin/, static guest binaries to $(BUILD)/guest/
#   - a unit test is a Check program $(BUILD)/tests/unit/test_NAME, appended to
#     UNIT_TESTS; tests/run-all.sh runs each one and reads Check's summary line
#   - objects go under $(BUILD)/obj/<source path>.o (pattern rules below)

BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=

KVER := $(shell sh scripts/kver.sh 2>/dev/null)
ifneq ($(wildcard /lib/modules/$(shell uname -r)/build),)
KDIR ?= /lib/modules/$(shell uname -r)/build
else
KDIR ?= /usr/src/linux-headers-$(KVER)
endif

CC ?= gcc
WARN := -Wall -Wextra -Werror
CPPFLAGS_COMMON := -I$(CURDIR)/include -I$(CURDIR)/kernel/include -I$(CURDIR) -D_GNU_SOURCE
# The release (file VERSION) that pmuctl --version and pmuconv --version print.
PMUPROF_VERSION := $(shell cat $(CURDIR)/VERSION 2>/dev/null)
CPPFLAGS_COMMON += -DPMUPROF_VERSION='"$(PMUPROF_VERSION)"'
CFLAGS ?= -O2 -g
USER_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 $(CPPFLAGS_COMMON)
# Sanitizer builds: make SAN=1 (used by the fuzz/replay tests)
ifeq ($(SAN),1)
USER_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer
LDFLAGS_SAN := -fsanitize=address,undefined
endif

CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)

BINS :=
GUEST_BINS :=
UNIT_TESTS :=
MAN_PAGES :=

.PHONY: all module guest-module guest-bins userspace deps check unit vm-tests demo vm-test vm-shell qemu-pmu deb install-tools \
	bench soak install uninstall clean format format-check

all: module userspace

# Pattern rule for every userspace/host object.
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(EXTRA_CFLAGS_$(subst /,_,$(dir $<))) -MMD -MP -c $< -o $@

# Static guest objects (same sources, built for static linking).
$(BUILD)/gobj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@

# Canned recipes: a fragment's rule names the output and its inputs, and
# says $(link) (host program), $(link-static) (static guest program) or
# $(archive); libraries come from the rule's private LDLIBS.
define link
@mkdir -p $(dir $@)
$(CC) $(LDFLAGS_SAN) -o $@ $(filter %.o %.a,$^) $(LDLIBS)
endef
define link-static
@mkdir -p $(dir $@)
$(CC) -static -o $@ $(filter %.o %.a,$^) $(LDLIBS)
endef
define archive
@mkdir -p $(dir $@)
rm -f $@ && ar rcs $@ $^
endef

# A unit test is the Check program $(BUILD)/tests/unit/test_NAME from
# tests/unit/test_NAME.c; its fragment adds it to UNIT_TESTS and lists the
# objects it links as prerequisites (and LDLIBS, if any).
EXTRA_CFLAGS_tests_unit_ += $(CHECK_CFLAGS)
$(BUILD)/tests/unit/test_%: $(BUILD)/obj/tests/unit/test_%.o
	$(link) $(CHECK_LIBS)

# Static one-file guest workloads: frame pointers everywhere and -O1 so user
# stacks walk and hot functions stay recognisable.
WORKLOAD_CFLAGS := -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-std=gnu11 -D_GNU_SOURCE $(WARN) -I$(CURDIR)
define workload
@mkdir -p $(dir $@)
$(CC) $(WORKLOAD_CFLAGS) -static -o $@ $< $(LDLIBS)
endef

# Fragments that define what others link are read first, the rest in path
# order (each once: no include guards).
FIRST_FRAGMENTS := kernel/core.mk lib/pmufile/build.mk tests/tools/build.mk tests/unit/plattest.mk \
	host/pmuconv/build.mk
include $(FIRST_FRAGMENTS) $(filter-out $(FIRST_FRAGMENTS),\
	$(sort $(wildcard */build.mk */*/build.mk */*/*/build.mk tests/unit/*.mk)))
# Unit-test objects are kept (not intermediate files for make to delete).
.SECONDARY: $(patsubst $(BUILD)/tests/unit/%,$(BUILD)/obj/tests/unit/%.o,$(UNIT_TESTS))
-include $(shell find $(BUILD)/obj $(BUILD)/gobj -name '*.d' 2>/dev/null)

userspace: $(BINS)
guest-bins: $(GUEST_BINS) guest-module

module:
	@if [ ! -d "$(KDIR)" ]; then \
		echo "module: kernel headers not found at KDIR=$(KDIR); run 'make deps' or pass KDIR=" >&2; exit 1; fi
	@mkdir -p $(BUILD)
	@$(MAKE) -C $(KDIR) M=$(CURDIR)/kernel modules > $(BUILD)/module-build.log 2>&1; rc=$$?; \
		cat $(BUILD)/module-build.log; test $$rc -eq 0
	@if grep -q "warning:" $(BUILD)/module-build.log; then \
		echo "module: the module build printed warnings (see above); they are errors here" >&2; exit 1; fi
	@sh scripts/kmod-notice.sh kernel/pmuprof.ko $(KDIR)

# The VM tests boot Debian's kernel $(KVER). When KDIR is another kernel (a
# machine with headers for its own running kernel), build a second copy of
# the module for the guest in $(BUILD)/guest-kmod/.
GUEST_KDIR := /usr/src/linux-headers-$(KVER)
guest-module:
	@if [ "$(realpath $(KDIR))" != "$(realpath $(GUEST_KDIR))" ] && [ -d "$(GUEST_KDIR)" ]; then \
		rm -rf $(BUILD)/guest-kmod && mkdir -p $(BUILD)/guest-kmod && \
		cp -r include kernel $(BUILD)/guest-kmod/ && \
		find $(BUILD)/guest-kmod -name '*.o' -o -name '*.ko' -o -name '.*.cmd' | xargs rm -f && \
		$(MAKE) -C $(GUEST_KDIR) M=$(CURDIR)/$(BUILD)/guest-kmod/kernel modules >$(BUILD)/guest-module.log 2>&1 || \
		{ cat $(BUILD)/guest-module.log; exit 1; }; fi

deps:
	@sh scripts/deps.sh

unit: $(UNIT_TESTS)

# QEMU 7.2 (Debian's source) with tests/vm/qemu-pmu/series, cached by the
# series' hash; the VM harness uses it for every boot (tests/vm/README.md).
qemu-pmu:
	@sh tests/vm/qemu-pmu/build.sh >/dev/null

# The cheap static checks first: clang-format, then (once objects exist) circles.
check: deps
	@$(MAKE) --no-print-directory format-check
	@$(MAKE) --no-print-directory all guest-bins unit qemu-pmu
	@$(MAKE) --no-print-directory lint
	@sh tests/run-all.sh

demo: deps
	@$(MAKE) --no-print-directory all guest-bins qemu-pmu
	@sh tests/vm/demo.sh

vm-test: all guest-bins qemu-pmu
	@sh tests/vm/run.sh $(T)

vm-shell: all guest-bins qemu-pmu
	@sh tests/vm/run.sh --shell

bench: all guest-bins qemu-pmu
	@sh bench/run.sh $(if $(QUICK),--quick)

soak: all guest-bins qemu-pmu
	@sh scripts/deps.sh soak
	@sh tests/soak.sh

# No include or symbol-reference circles among host/ and userspace/ files
# (scripts/check-cycles.py; also run by make check, tests/suites/lint.sh).
.PHONY: lint
lint: userspace
	@python3 scripts/check-cycles.py --objs $(BUILD)/obj host userspace
	@sh scripts/check-filemap.sh
	@sh scripts/check-linux-names.sh $(KDIR)

# Only tracked sources (generated files such as kernel/*.mod.c are not ours).
format:
	@git ls-files '*.[ch]' | xargs clang-format -i

format-check:
	@git ls-files '*.[ch]' | xargs clang-format --dry-run --Werror

install: install-tools
	sh scripts/dkms-install.sh install "$(DESTDIR)"

# The tools alone (the pmuprof-tools package; make deb).
install-tools: userspace
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	$(if $(MAN_PAGES),install -m 0644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/)
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 0644 scripts/completion/pmuctl scripts/completion/pmuconv \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/

# Debian packages (Debian's tooling: dpkg-buildpackage, debhelper, dh-dkms)
# from a copy of the tracked files in $(BUILD)/deb/pmuprof-VERSION/:
# pmuprof-dkms_VERSION_all.deb and pmuprof-tools_VERSION_amd64.deb there.
deb:
	@sh scripts/mkdeb.sh "$(BUILD)/deb"

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(notdir $(BINS)))
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/man/man1/,$(notdir $(MAN_PAGES)))
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/pmuctl \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/pmuconv
	sh scripts/dkms-install.sh uninstall "$(DESTDIR)"

clean:
	rm -rf $(BUILD)/obj $(BUILD)/gobj $(BUILD)/bin $(BUILD)/guest $(BUILD)/tests $(BUILD)/vm \
		$(BUILD)/lib $(BUILD)/bench $(BUILD)/soak $(BUILD)/guest-kmod $(BUILD)/gen $(BUILD)/gen-obj
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/kernel clean >/dev/null 2>&1
