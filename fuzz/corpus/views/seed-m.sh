
#!/usr/bin/env bash
# Build helpers.

set -euo pipefail

# Print a message in bold.
say() {
  printf '\033[1m%s\033[0m\n' "$*"
}

function build {
  say "building"
  cargo build --release
}

clean() (
  rm -rf target
)

build
