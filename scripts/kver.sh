#!/bin/sh
# Print the kernel release of the Debian kernel whose headers are installed
# (the guest kernel for VM tests, and the default module build target).
# Derived from the linux-headers-amd64 metapackage, never hard-coded.
set -e
dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null | sed -n 's/.*linux-headers-\([^ ,]*-amd64\).*/\1/p')
if [ -z "$dep" ]; then
	echo "kver: linux-headers-amd64 is not installed; run 'make deps'" >&2
	exit 1
fi
echo "$dep"
