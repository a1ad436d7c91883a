#!/bin/sh
# After `make module`: say which kernel the module was built for, and when
# that is not the running kernel, a one-line notice that it will not load
# here and what to do (a host without headers for its own kernel builds for
# the installed Debian headers instead, silently until now).
#   scripts/kmod-notice.sh MODULE.ko KDIR
# PMUPROF_RUNNING_KERNEL overrides `uname -r` (tests).
ko=$1 kdir=$2
built=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
[ -n "$built" ] || built=$(strings "$ko" 2>/dev/null | sed -n 's/^vermagic=\([^ ]*\).*/\1/p' | head -n 1)
running=${PMUPROF_RUNNING_KERNEL:-$(uname -r)}
if [ -z "$built" ]; then
	echo "module: built $ko (KDIR=$kdir; its kernel release could not be read)"
	exit 0
fi
echo "module: built $ko for Linux $built (KDIR=$kdir)"
if [ "$built" != "$running" ]; then
	echo "module: notice: this module is for Linux $built, not the running kernel $running, so it will not load here; to use pmuprof on this machine install linux-headers-$running and run make again (or pass KDIR=its build tree)"
fi
exit 0
