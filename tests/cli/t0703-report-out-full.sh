#!/usr/bin/env bash
# t0703: 'report --out <dir>' builds the new report beside the folder and swaps
# it in whole. A write that fails for want of space (a 64 KiB file-size limit:
# EFBIG) exits 3 with one error line and leaves the previous report folder
# byte-identical and no temporary folder beside it; a success leaves only the new
# report (stale figures gone); a folder holding other files keeps them.
. "${TPSDB_SRC:?}/tests/cli/outfile-lib.sh" || exit 1
need_gnuplot

big_store 20
rep=$TMP/rep
tps report --format json --out "$rep"
expect_rc 0 "the previous report"
[ -s "$rep/report.json" ] && [ -s "$rep/trend.png" ] || fail "a report with figures"
[ "$(stat -c %s "$rep/report.json")" -gt 65536 ] || fail "report.json exceeds the limit"
cp -a "$rep" "$TMP/before"

limited 64 "$TPSDB_BIN" report --format json --no-plots --out "$rep"
expect_rc 3 "a report on a full disk"
[ "$(grep -c '^tpsdb: error: ' "$TMP/err")" = 1 ] || fail "one error line: $(cat "$TMP/err")"
grep -q "^tpsdb: error: cannot write '.*report.json': File too large" "$TMP/err" ||
	fail "names the file and EFBIG: $(cat "$TMP/err")"
diff -r "$TMP/before" "$rep" >&2 || fail "the previous report changed"
no_temps "$rep"

# Replaced whole: the figures of the previous report do not outlive it.
tps report --no-plots --out "$rep/"
expect_rc 0 "a report without figures"
[ "$(ls "$rep" | tr '\n' ' ')" = "report.md summary.txt " ] || fail "only the new report: $(ls "$rep")"
no_temps "$rep"

# A symlink to a report folder: the folder it names is replaced, the link stays.
mv "$rep" "$TMP/real"
ln -s real "$rep"
tps report --format csv --no-plots --out "$rep"
expect_rc 0 "a report through a symlink"
[ -L "$rep" ] && [ -s "$TMP/real/report.csv" ] && [ ! -e "$TMP/real/report.md" ] ||
	fail "the link's folder holds the new report"
no_temps "$TMP/real"

# A folder with the user's own files: they stay, the report files are replaced.
mkdir "$TMP/mixed"
echo mine >"$TMP/mixed/notes.txt"
echo stale >"$TMP/mixed/report.csv"
tps report --no-plots --out "$TMP/mixed"
expect_rc 0 "a report into a folder with other files"
[ "$(cat "$TMP/mixed/notes.txt")" = mine ] || fail "the user's file stays"
[ -s "$TMP/mixed/report.md" ] && [ ! -e "$TMP/mixed/report.csv" ] || fail "the report files replaced"
no_temps "$TMP/mixed"

# A failure there leaves the folder as it was too.
cp -a "$TMP/mixed" "$TMP/mixed-before"
limited 64 "$TPSDB_BIN" report --format json --no-plots --out "$TMP/mixed"
expect_rc 3 "a failed report into a folder with other files"
diff -r "$TMP/mixed-before" "$TMP/mixed" >&2 || fail "the mixed folder changed"
no_temps "$TMP/mixed"

# A file where the folder should be is refused.
echo x >"$TMP/afile"
tps report --no-plots --out "$TMP/afile"
expect_rc 3 "a report into a file"
grep -q "not a folder" "$TMP/err" || fail "says not a folder"
exit 0
