#!/usr/bin/env bash
# Validates the GitHub Actions workflows in .github/workflows/ against the GitHub workflow JSON
# schema (SchemaStore's github-workflow.json, compiled into @action-validator/core), offline
# apart from the npm registry. Needs Node and npm; does not touch the Maven build.
#
#   .ci/validate-workflows.sh              # every *.yml / *.yaml in .github/workflows/
#   .ci/validate-workflows.sh FILE...      # just these files (e.g. a scratch copy)
#
# The validator is installed at a pinned version into a temporary folder outside the repository,
# removed on exit. Exits non-zero if any file fails (or if there is nothing to validate).
set -euo pipefail

VALIDATOR_VERSION=0.6.0   # @action-validator/cli and @action-validator/core are released together

root="$(cd "$(dirname "$0")/.." && pwd)"

if [ "$#" -gt 0 ]; then
    files=("$@")
else
    shopt -s nullglob
    files=("$root"/.github/workflows/*.yml "$root"/.github/workflows/*.yaml)
    shopt -u nullglob
fi
if [ "${#files[@]}" -eq 0 ]; then
    echo "validate-workflows: no workflow files found in $root/.github/workflows" >&2
    exit 1
fi

tool="$(mktemp -d "${TMPDIR:-/tmp}/action-validator.XXXXXX")"
trap 'rm -rf "$tool"' EXIT

npm install --prefix "$tool" --no-save --package-lock=false --no-audit --no-fund --loglevel=error \
    "@action-validator/cli@$VALIDATOR_VERSION" "@action-validator/core@$VALIDATOR_VERSION" >/dev/null
cli="$tool/node_modules/@action-validator/cli/cli.mjs"
echo "validate-workflows: @action-validator/cli@$VALIDATOR_VERSION, node $(node --version)"

failed=0
for f in "${files[@]}"; do
    if node "$cli" "$f"; then
        echo "OK    ${f#"$root"/}"
    else
        echo "FAIL  ${f#"$root"/}" >&2
        failed=$((failed + 1))
    fi
done

if [ "$failed" -gt 0 ]; then
    echo "validate-workflows: $failed of ${#files[@]} file(s) failed" >&2
    exit 1
fi
echo "validate-workflows: all ${#files[@]} file(s) valid"
