# table-lib.sh: checks that a command's formats show one table (reports/table.c).
# Sourced after a lib.sh that defines fail().

# same_columns <text> <md> <csv> <first> [<keys>]: the header of the text table (the line
# whose first cell, after any indent, is <first>; cells two spaces or more apart),
# of the first markdown table whose first cell is <first>, and the first line of
# <csv> (read by python3's csv module, which must parse every line of it, each row
# as wide as the header) name the same columns in the same order; with <keys>,
# the csv's first <keys> columns (which a heading names in text and md) are
# skipped.
same_columns() {
	python3 - "$@" <<'PY' >&2 || fail "the text, md and csv tables of $1 differ in columns"
import csv, re, sys
text, md, csvf, first = sys.argv[1:5]
keys = int(sys.argv[5]) if len(sys.argv) > 5 else 0
def text_cols():
    for line in open(text, encoding="utf-8"):
        cells = re.split(r"\s{2,}", line.strip())
        if cells and cells[0] == first:
            return cells
def md_cols():
    for line in open(md, encoding="utf-8"):
        if not line.startswith("|"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        cells = [re.sub(r"\\(.)", r"\1", c) for c in cells]
        if cells and cells[0] == first:
            return cells
rows = list(csv.reader(open(csvf, encoding="utf-8", newline="")))
bad = [r for r in rows if len(r) != len(rows[0])]
t, m = text_cols(), md_cols()
print("text:", t, "\nmd:  ", m, "\ncsv: ", rows[0] if rows else None)
sys.exit(0 if rows and not bad and t == m == rows[0][keys:] else 1)
PY
}
