#!/usr/bin/env bash
# docs/ci/nightly-steps.sh: the steps of docs/ci/tpsdb-nightly.yml, one
# subcommand a step, so that the workflow users copy and tests/cli/t1180 run the
# same commands. Several machines measure; one job merges, gates and reports:
#
#   collect <host> [<collect option>...]   (each machine: a matrix job)
#       a fresh store, 'tpsdb collect --host <host>', then 'tpsdb export' of
#       every run into $TPSDB_CI_DIR/tpsdb-export-<host>.jsonl, the artifact;
#       what a collect that failed half-way measured is exported too
#   import <dir>                          (the final job)
#       'tpsdb import' of every tpsdb-export-<host>.jsonl under <dir> into the
#       long-lived store $TPSDB_STORE, one transaction. A run is stored once: a
#       file already imported is skipped, and a run whose uuid the store holds
#       is skipped, so an upload that came twice, or a job run again, changes
#       nothing; an upload that never came leaves the other machines' nights
#       whole. A file import refuses (a truncated upload) is named with its
#       line, and nothing of the night is stored (exit 3)
#   gate <dir>
#       per machine that sent an export: 'tpsdb gate --host <host>' of the
#       candidate ($TPSDB_CANDIDATE, default ours) against that machine's own
#       baseline, $TPSDB_BASELINE-<host> (default nightly-<host>), frozen from the
#       machine's first night (a comparison is on one machine); exits 1 if a
#       gate failed, 3 on an error (a baseline that cannot be frozen, a gate
#       that refuses), after every machine was gated
#   report <dir>
#       per machine that sent an export: 'tpsdb report --host <host>' as HTML
#       under $TPSDB_CI_DIR/report/<host>/ and as markdown into
#       $GITHUB_STEP_SUMMARY under '## <host>' (its headings one level down);
#       $TPSDB_CI_DIR/report/index.html
#       links the machines' reports
#
# Settings (environment): TPSDB (the binary, default tpsdb on PATH), TPSDB_STORE
# (the long-lived store; import, gate, report), TPSDB_CI_DIR (default tpsdb-ci),
# TPSDB_COLLECT_ARGS (more collect options, split at blanks), TPSDB_CANDIDATE,
# TPSDB_BASELINE, TPSDB_GATE_ARGS (more gate options, split at blanks, e.g.
# '--trend --max-regress 2'). collect also reads its own variables (OURS_BIN,
# STOCK_LLAMACPP, MODELS_MANIFEST, ...: 'tpsdb collect --help').
# Exit codes: tpsdb's (0 ok, 1 a gate failed, 2 usage, 3 runtime).
set -euo pipefail

tpsdb=${TPSDB:-tpsdb}
dir=${TPSDB_CI_DIR:-tpsdb-ci}

die() { echo "nightly-steps: error: $*" >&2; exit "${2:-2}"; }
# blanks <var>: a setting split at blanks into the array words, never globbed.
blanks() {
	set -f
	# shellcheck disable=SC2206
	words=(${!1:-})
	set +f
}
need_store() { [ -n "${TPSDB_STORE:-}" ] || die "TPSDB_STORE must name the long-lived store"; }
# A host name becomes a file name and an artifact name: nothing that leaves the folder.
check_host() {
	case $1 in
	'' | .* | *[!A-Za-z0-9._-]*)
		die "'$1' is not a usable host name (letters, digits, '.', '_' and '-')" ;;
	esac
}
# exports <dir>: the hosts of the exports under <dir> (tpsdb-export-<host>.jsonl,
# any depth: download-artifact puts each artifact in a folder of its own), into
# the arrays hosts and files, sorted by host; a host sent twice is listed once
# per file.
exports() {
	local f h
	[ -d "$1" ] || die "no folder '$1' of exports" 3
	hosts=() files=()
	while IFS= read -r f; do
		h=${f##*/tpsdb-export-}
		h=${h%.jsonl}
		check_host "$h"
		files+=("$f")
		hosts+=("$h")
	done < <(find "$1" -type f -name 'tpsdb-export-*.jsonl' | LC_ALL=C sort)
	[ ${#files[@]} -gt 0 ] || die "no tpsdb-export-<host>.jsonl under '$1': no machine sent its night" 3
}
# The hosts once each, in order.
uniq_hosts() { printf '%s\n' "${hosts[@]}" | LC_ALL=C sort -u; }
# summary: stdin into the job's summary, where there is one (read whole either
# way: a writer must not die of a closed pipe).
summary() {
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >>"$GITHUB_STEP_SUMMARY"; else cat >/dev/null; fi
}

step_collect() {
	[ $# -ge 1 ] || die "usage: nightly-steps.sh collect <host> [<collect option>...]"
	local host=$1 store rc=0
	shift
	check_host "$host"
	mkdir -p "$dir"
	store=$dir/runner.sqlite
	# A runner's workspace may outlive the night: start from an empty store, so
	# the export holds tonight's runs only (older ones would be skipped anyway).
	rm -f "$store" "$store-wal" "$store-shm" "$dir/tpsdb-export-$host.jsonl"
	blanks TPSDB_COLLECT_ARGS
	"$tpsdb" --db "$store" collect --host "$host" --out-dir "$dir/collect-$host" --quiet \
		"$@" "${words[@]}" || rc=$?
	if [ -s "$store" ]; then
		"$tpsdb" --db "$store" export --out "$dir/tpsdb-export-$host.jsonl"
		echo "nightly-steps: $host: $(wc -l <"$dir/tpsdb-export-$host.jsonl") run(s) in $dir/tpsdb-export-$host.jsonl"
	fi
	return $rc
}

step_import() {
	[ $# -eq 1 ] || die "usage: nightly-steps.sh import <dir>"
	need_store
	exports "$1"
	mkdir -p "$(dirname "$TPSDB_STORE")"
	# One transaction for every file: all of tonight lands, or none of it.
	"$tpsdb" --db "$TPSDB_STORE" import "${files[@]}"
	echo "nightly-steps: machines tonight: $(uniq_hosts | paste -sd' ')"
}

step_gate() {
	[ $# -eq 1 ] || die "usage: nightly-steps.sh gate <dir>"
	need_store
	exports "$1"
	local host base cand=${TPSDB_CANDIDATE:-ours} worst=0 rc
	blanks TPSDB_GATE_ARGS
	mkdir -p "$dir"
	for host in $(uniq_hosts); do
		base=${TPSDB_BASELINE:-nightly}-$host
		if ! "$tpsdb" --db "$TPSDB_STORE" baseline list --format csv | cut -d, -f1 |
			grep -qxF -- "$base"; then
			# The machine's first night: its runs become its baseline.
			rc=0
			"$tpsdb" --db "$TPSDB_STORE" baseline set "$base" --engine "$cand" \
				--host "$host" || rc=$?
			if [ $rc -ne 0 ]; then
				echo "nightly-steps: $host: baseline set exit $rc"
				worst=3
				continue
			fi
			echo "::notice::tpsdb: $host: first night, baseline '$base' frozen; gated from the next night on"
			# shellcheck disable=SC2016
			printf '## %s\n\nFirst night: baseline `%s` frozen from these runs; gated from the next night on.\n\n' \
				"$host" "$base" | summary
			continue
		fi
		printf '## %s\n\n' "$host" | summary
		rc=0
		"$tpsdb" --db "$TPSDB_STORE" gate --baseline "$base" --engine "$cand" --host "$host" \
			--junit "$dir/gate-$host.xml" "${words[@]}" || rc=$?
		echo "nightly-steps: $host: gate exit $rc"
		# 3 (an error) outranks 1 (a failed gate).
		if [ $rc -ne 0 ] && { [ $worst -eq 0 ] || [ $rc -eq 3 ]; }; then
			worst=$rc
		fi
	done
	return $worst
}

step_report() {
	[ $# -eq 1 ] || die "usage: nightly-steps.sh report <dir>"
	need_store
	exports "$1"
	local host rc worst=0
	mkdir -p "$dir/report"
	# One report per machine: a report of every machine at once would pool each
	# cell's newest batch, one machine's, and hide the others' night.
	{
		printf '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
		printf '<title>tpsdb nightly</title></head><body>\n'
		printf '<h1>tpsdb nightly</h1>\n<p>One report per machine: a comparison '
		printf 'pairs the runs of one machine.</p>\n<ul>\n'
	} >"$dir/report/index.html"
	for host in $(uniq_hosts); do
		rc=0
		"$tpsdb" --db "$TPSDB_STORE" report --host "$host" --format html \
			--out "$dir/report/$host" || rc=$?
		if [ $rc -ne 0 ]; then
			echo "nightly-steps: $host: report exit $rc"
			worst=3
			continue
		fi
		printf '<li><a href="%s/index.html">%s</a></li>\n' "$host" "$host" >>"$dir/report/index.html"
		{
			# The machine's name is the section's heading, in place of the
			# report's title; the report's own headings one level under it.
			printf '## %s\n' "$host"
			"$tpsdb" --db "$TPSDB_STORE" report --host "$host" --format md |
				sed -e '1{/^# tpsdb report$/d;}' -e 's/^\(#\{1,5\}\) /#\1 /'
			echo
		} | summary
	done
	printf '</ul>\n</body></html>\n' >>"$dir/report/index.html"
	return $worst
}

[ $# -ge 1 ] || die "usage: nightly-steps.sh collect|import|gate|report ..."
what=$1
shift
case $what in
-h | --help) sed -n '2,/^# Exit codes/p' "$0" | sed 's/^# \{0,1\}//' ;;
collect | import | gate | report) "step_$what" "$@" ;;
*) die "unknown step '$what' (collect, import, gate, report)" ;;
esac
