#!/usr/bin/env bash
# How many scripts of real packages `ctxcurate trust` refuses (consent
# round 9, the gate of issue 37: false refusals must not grow). Each
# script of a corpus becomes the summary_command of a copy of its package
# (`python3 pip/x.py`, `node lib/x.js`, `perl x.pm`) and `trust --show`
# says whether it can be trusted; one line a script goes to OUT:
# `path<TAB>ok` or `path<TAB>refused<TAB>first reason` (REASONS=FILE
# also gets every reason of each refused script, one a line).
#
#   benches/consent_refusals.sh BIN OUT [python|node|perl|ruby|php ...]
#
# Corpora: pip's sources (/usr/lib/python3/dist-packages/pip; PIP to
# change; PY_LIMIT scripts at most, every Nth file so the sample spans the
# package), npm's own files (/usr/lib/node_modules/npm without its
# node_modules: with them most reach past 512 files; NPM to change), /usr/share/perl5 (.pm and .pl; PERL5 to
# change), the `lib/` files of Debian's Ruby gems (round 10: rack, thor,
# rake, git, net-ssh, sinatra; each gem its own project, `ruby lib/x.rb`;
# GEMS for other folders, RUBY_GEMS_DIR for their parent) and PHP
# libraries under /usr/share/php (Symfony Console/Process/String,
# Composer's Pcre and XdebugHandler, Monolog; `php x.php` from
# /usr/share/php's copy; PHP_DIRS to change). Compare two binaries by
# running each and `diff`ing their OUTs.
set -uo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
langs=${*:-python node perl}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home"
: >"$out"

# measure LANG PROGRAM ROOT FILE...: each FILE (relative to ROOT) run by PROGRAM.
measure() {
  local lang=$1 program=$2 root=$3
  shift 3
  for rel in "$@"; do
    printf '[project]\nsummary_command = "%s %s"\n' "$program" "$rel" >"$root/ctxcurate.toml"
    local shown
    shown=$(cd "$root" && env -i PATH="$PATH" HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" \
      XDG_STATE_HOME="$work/home/.local/state" timeout 120 "$bin" trust --show 2>/dev/null)
    local rc=$?
    if [ $rc -eq 0 ]; then
      printf '%s\t%s\tok\n' "$lang" "${prefix:-}$rel" >>"$out"
    else
      local why
      why=$(printf '%s\n' "$shown" | grep -m1 'cannot be trusted' | sed 's/^ *//' | cut -c1-200)
      # REASONS=FILE: every reason of each refused script, one a line.
      if [ -n "${REASONS:-}" ]; then
        printf '%s\n' "$shown" | grep 'cannot be trusted' | sed "s|^ *|${prefix:-}$rel\t|" >>"$REASONS"
      fi
      printf '%s\t%s\trefused\t%s\n' "$lang" "${prefix:-}$rel" "${why:-exit $rc}" >>"$out"
    fi
  done
}

for lang in $langs; do
  case $lang in
  python)
    mkdir -p "$work/py"
    cp -r "${PIP:-/usr/lib/python3/dist-packages/pip}" "$work/py/pip"
    find "$work/py" -name __pycache__ -prune -exec rm -rf {} +
    mapfile -t all < <(cd "$work/py" && find pip -name '*.py' | sort)
    limit=${PY_LIMIT:-120}
    step=$(((${#all[@]} + limit - 1) / limit))
    files=()
    for ((i = 0; i < ${#all[@]}; i += step)); do files+=("${all[$i]}"); done
    measure python python3 "$work/py" "${files[@]}"
    ;;
  node)
    mkdir -p "$work/js"
    src=${NPM:-/usr/lib/node_modules/npm}
    cp -r "$src/." "$work/js/"
    rm -rf "$work/js/node_modules"
    mapfile -t files < <(cd "$work/js" && find . -name '*.js' | sed 's|^\./||' | sort)
    measure node node "$work/js" "${files[@]}"
    ;;
  perl)
    mkdir -p "$work/pl"
    cp -r "${PERL5:-/usr/share/perl5}/." "$work/pl/"
    mapfile -t files < <(cd "$work/pl" && find . -type f \( -name '*.pm' -o -name '*.pl' \) | sed 's|^\./||' | sort)
    measure perl perl "$work/pl" "${files[@]}"
    ;;
  ruby)
    gems_dir=${RUBY_GEMS_DIR:-/usr/share/rubygems-integration/all/gems}
    for gem in ${GEMS:-rack-2.2.22 thor-1.2.1 rake-13.0.6 git-1.13.0 net-ssh-7.0.1 sinatra-3.0.5}; do
      mkdir -p "$work/rb"
      cp -r "$gems_dir/$gem" "$work/rb/$gem"
      mapfile -t files < <(cd "$work/rb/$gem" && find lib -name '*.rb' | sort)
      prefix="$gem/" measure ruby ruby "$work/rb/$gem" "${files[@]}"
    done
    ;;
  php)
    mkdir -p "$work/php"
    dirs=${PHP_DIRS:-Symfony/Component/Console Symfony/Component/Process Symfony/Component/String Composer Monolog}
    for dir in $dirs; do
      mkdir -p "$work/php/$(dirname "$dir")"
      cp -r "/usr/share/php/$dir" "$work/php/$dir"
    done
    mapfile -t files < <(cd "$work/php" && find . -name '*.php' | sed 's|^\./||' | sort)
    measure php php "$work/php" "${files[@]}"
    ;;
  esac
done
awk -F'\t' '{n[$1]++; if ($3 == "refused") r[$1]++} END {for (l in n) printf "%s: %d of %d refused\n", l, r[l], n[l]}' "$out"
