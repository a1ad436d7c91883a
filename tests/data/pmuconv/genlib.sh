# What the native_* gen.sh scripts share (sourced: . "$SRC_ROOT/tests/data/pmuconv/genlib.sh"):
#   need TOOL...          exit 1 with a message when a tool is not installed
#   bid FILE              FILE's GNU build-id
#   maps FILE BASE PID PATH BUILDID
#                         "mmap PID START END PGOFF PATH BUILDID" spec lines for
#                         every PT_LOAD of FILE mapped at BASE, page-aligned as
#                         the kernel maps them
#   a BASE SYM OFF        the address BASE + SYM + OFF in hex
#   syms FILE VAR=SYM...  set each VAR to SYM's link-time address (0x..., from
#                         `nm FILE`); exit 1 naming a symbol FILE lacks
need() {
	for _t in "$@"; do
		command -v "$_t" >/dev/null ||
			{ echo "gen.sh: $_t is not installed (apt-get install binutils gcc g++)"; exit 1; }
	done
}
bid() { readelf -n "$1" | awk '/Build ID/ { print $3 }'; }
maps() {
	readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $3, $6 }' |
		while read -r off va memsz; do
			start=$(($2 + va - va % 4096))
			end=$(($2 + va + memsz))
			end=$((end + (4096 - end % 4096) % 4096))
			printf 'mmap %d 0x%x 0x%x 0x%x %s %s\n' "$3" $start $end $((off - off % 4096)) "$4" "$5"
		done
}
a() { printf '0x%x' $(($1 + $2 + $3)); }
syms() {
	_f=$1
	shift
	for _p in "$@"; do
		_v=$(nm "$_f" | awk -v s="${_p#*=}" '$3 == s { print "0x" $1; exit }')
		[ -n "$_v" ] || { echo "gen.sh: no symbol ${_p#*=} in $_f"; exit 1; }
		eval "${_p%%=*}=$_v"
	done
}
