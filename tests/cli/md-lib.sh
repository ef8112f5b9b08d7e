# md-lib.sh: checks shared by the markdown CLI tests (t051x). Sourced after a
# lib.sh that defines fail().

# md_rows <file> <ncols>: every table line of <file> (a line starting with '|')
# has exactly ncols + 1 pipes once the escaped ones ("\|") are taken out, and the
# file holds at least one table row besides the header and rule.
md_rows() {
	awk -v want="$2" '
		/^\|/ {
			line = $0
			gsub(/\\\|/, "", line)
			n = gsub(/\|/, "", line)
			if (n != want + 1) { print "bad row (" n - 1 " columns): " $0; bad = 1 }
			rows++
		}
		END { if (rows < 3) { print "no table rows"; bad = 1 }; exit bad }
	' "$1" >&2 || fail "markdown table of $2 columns in $1"
}
