#!/bin/sh
# dkms-install.sh install|uninstall [DESTDIR]
# install: copy the module source to $DESTDIR/usr/src/pmuprof-VERSION with its
# dkms.conf and the udev rule; on a live system (no DESTDIR) with dkms
# present, also dkms add/build/install so the module follows kernel upgrades.
set -e
action=$1
DESTDIR=${2:-}
cd "$(dirname "$0")/.."
VER=$(cat VERSION)
SRC=$DESTDIR/usr/src/pmuprof-$VER
RULE=$DESTDIR/etc/udev/rules.d/60-pmuprof.rules
case "$action" in
install)
	rm -rf "$SRC"
	mkdir -p "$SRC"
	cp -r include kernel "$SRC/"
	find "$SRC" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o -name '*.mod*' \
		-o -name 'modules.order' -o -name 'Module.symvers' \) -delete
	sed "s/@VERSION@/$VER/" dkms.conf >"$SRC/dkms.conf"
	install -D -m 0644 scripts/udev/60-pmuprof.rules "$RULE"
	if [ -z "$DESTDIR" ] && command -v dkms >/dev/null 2>&1; then
		dkms add -m pmuprof -v "$VER" || true
		dkms build -m pmuprof -v "$VER" && dkms install -m pmuprof -v "$VER"
	elif [ -z "$DESTDIR" ]; then
		echo "install: dkms not found; module source is in $SRC (apt-get install dkms, then: dkms install -m pmuprof -v $VER)"
	fi
	;;
uninstall)
	if [ -z "$DESTDIR" ] && command -v dkms >/dev/null 2>&1; then
		dkms remove -m pmuprof -v "$VER" --all 2>/dev/null || true
	fi
	rm -rf "$SRC" "$RULE"
	;;
*)
	echo "usage: $0 install|uninstall [DESTDIR]" >&2
	exit 2
	;;
esac
