#!/bin/sh
# The file map in docs/ARCHITECTURE.md ("## File map") matches the tree:
# every tracked C source of the module, the tools and the library
# (kernel/, lib/, host/, userspace/; not their tests) is listed there, and
# every file listed exists. Run by `make lint`.
#
#   scripts/check-filemap.sh           check (exit 1 with what is missing)
#   scripts/check-filemap.sh --print   print the map's list from each file's
#                                      header comment (to paste, then edit)
cd "$(dirname "$0")/.." || exit 2
DOC=docs/ARCHITECTURE.md
sources() {
	git ls-files 'kernel/*.c' 'lib/*.c' 'host/*.c' 'userspace/*.c' | grep -v '/test/'
}
if [ "$1" = "--print" ]; then
	for f in $(sources); do
		printf -- '- `%s`: %s\n' "$f" "$(awk '
			NR == 1 && /SPDX/ { next }
			/^\/\*/ { c = 1 }
			c {
				l = $0; gsub(/^[ \/]*\*+ ?|\*\/ *$|^\/\* ?/, "", l)
				if (l == "" && b != "") exit
				if (l != "") b = b (b ? " " : "") l
				if ($0 ~ /\*\//) exit
			}
			END { n = match(b, /\. [A-Z(]|\.$/); if (n) b = substr(b, 1, n); print b }' "$f")"
	done
	exit 0
fi
listed=$(sed -n '/^## File map/,/^## /p' "$DOC" | sed -n 's/^- `\([^`]*\)`.*/\1/p')
bad=0
for f in $(sources); do
	echo "$listed" | grep -qx "$f" || { echo "check-filemap: $f is not in $DOC's file map (scripts/check-filemap.sh --print gives a line to start from)"; bad=1; }
done
for f in $listed; do
	[ -f "$f" ] || { echo "check-filemap: $DOC's file map lists $f, which does not exist"; bad=1; }
done
[ $bad = 0 ] && echo "check-filemap: $(echo "$listed" | wc -l) files, the map matches the tree"
exit $bad
