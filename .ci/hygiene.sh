#!/usr/bin/env bash
# Text hygiene of the tracked tree: our own prose cites published works by author and
# year (docs/references.md), not by the project's internal document numbers, and carries
# no tracker numbers or work-history labels (what changed when belongs in git history).
# Prints file:line:text for every offending line and exits 1 if there is any.
#
# Flagged (see the patterns below; examples would flag this file itself):
#   - an internal document number used as a citation: the word "seed", an optional
#     space and a number from 000 to 004, in prose; a path or identifier that contains
#     one (a results/ directory, a JSON field name) is not prose and passes;
#   - a tracker reference in our own words: the word "issue" or "issues", a space, an
#     optional '#' and a number (a URL path such as /issues/NNN and owner/repo#NNN
#     references to other projects pass);
#   - a work-history label: the word "session" followed by a number, or preceded by
#     this/that/previous/next/first/second/third/one/last.
# Not searched: target/, .git/, lock files, results/**/*.json and *.jsonl (measured data),
# binary files, and docs/references.md (where "seed" may have its ordinary meaning).
#
# Usage: bash .ci/hygiene.sh [FILE...]   (default: every file git tracks)
set -euo pipefail
cd "$(dirname "$0")/.."

seed='(?i)(?<![/\w-])seed ?00[0-4](?![\w/-])'
issue='(?i)\bissues? #?[0-9]+'
session='(?i)\bsession [0-9]+|\b(this|that|previous|next|first|second|third|one|last) session\b'
pattern="($seed)|($issue)|($session)"

excluded() {
    case "$1" in
        target/* | */target/* | .git/* | */.git/*) return 0 ;;
        Cargo.lock | */Cargo.lock | *.lock) return 0 ;;
        results/*.json | results/*.jsonl | results/*.json.* | results/*.jsonl.*) return 0 ;;
        docs/references.md) return 0 ;;
    esac
    return 1
}

if [ "$#" -gt 0 ]; then
    files=("$@")
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -d '' files < <(git ls-files -z)
else
    mapfile -d '' files < <(find . -type f -not -path './target/*' -not -path './.git/*' -printf '%P\0')
fi

found=0
for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    excluded "$f" && continue
    # -I skips binary files; -H keeps the file name for a single file.
    if out=$(grep -H -n -I -P -- "$pattern" "$f"); then
        printf '%s\n' "$out"
        found=$((found + $(printf '%s\n' "$out" | wc -l)))
    fi
done

if [ "$found" -gt 0 ]; then
    echo "hygiene: $found line(s) cite internal document numbers, tracker issues or work sessions;" >&2
    echo "hygiene: cite by author and year (docs/references.md) and leave history to git." >&2
    exit 1
fi
echo "hygiene: ok"
