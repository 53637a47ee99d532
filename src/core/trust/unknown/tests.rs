//! The shell reader's cases: what is refused, what is known.

use super::*;

fn refused(text: &str) -> bool {
    !shell(text).is_empty()
}

#[test]
fn a_git_that_may_run_hooks_is_refused_and_one_in_its_own_environment_more_so() {
    for text in [
        "git add x",
        "git -C d -c core.hooksPath=h status",
        "git -c core.fsmonitor=m diff",
        "git -c \"$K\" log",
        "env -i PATH=/bin git status",
        "env -u GIT_CONFIG_COUNT git branch x",
        "GIT_CONFIG_PARAMETERS= git diff",
    ] {
        assert!(refused(text), "{text}");
    }
    for text in [
        "git status",
        "git diff --stat",
        "git branch --show-current",
        "git -c color.ui=never log",
        "env -i PATH=/bin git log -1",
        "env A=1 git status",
    ] {
        assert!(!refused(text), "{text}");
    }
}

/// Round 8: a shell or interpreter run with an environment of its
/// own, and a script that sets git's settings variables itself.
#[test]
fn a_child_in_its_own_environment_and_git_s_settings_variables_are_refused() {
    for text in [
        "env -i PATH=/bin sh tools/w.sh",
        "env -i python3 tools/w.py",
        "env -i sh -c 'git status'",
        "env - bash -c \"cd x && git branch y\"",
        "export GIT_CONFIG_PARAMETERS=\"'core.hookspath'='h'\"\ngit status",
        "GIT_CONFIG_COUNT=0\ngit status",
        "unset GIT_CONFIG_COUNT; git status",
        "GIT_EXEC_PATH=tools git log",
        "export GIT_CONFIG_GLOBAL=tools/gitconfig",
        "env GIT_CONFIG_SYSTEM=x git log",
        "env -u GIT_CONFIG_KEY_0 git log",
        // Round 9: a repository or work tree named in shell text,
        // and a variable's name built as it runs.
        "GIT_DIR=other.git git log",
        "export GIT_DIR=/elsewhere/.git\ngit log",
        "env GIT_COMMON_DIR=x git status",
        "GIT_WORK_TREE=w git diff",
        "export \"$n=x\"; git log",
        "export GIT_$k=x",
        "env \"GIT_${k}=x\" git log",
        "declare -x \"$(cat tools/n)\"=x",
    ] {
        assert!(refused(text), "{text}");
    }
    for text in [
        "env -i sh -c 'git log -1'",
        "env -i PATH=/bin git log",
        "sh tools/w.sh",
        "unset GIT_DIR; git status",
        "export \"${prefix}_STUB_PLAN\"=x",
        "[ \"$a\" = \"$b\" ] && git log",
        "env -u GIT_DIR git status",
        "echo \"$GIT_DIR\"",
    ] {
        assert!(!refused(text), "{text}");
    }
}

#[test]
fn a_script_chosen_by_a_command_s_output_cannot_be_known() {
    for text in [
        "sh $(cat tools/which)",
        "python3 `cat tools/n`",
        "bash -c \"sh $(cat tools/w)\"",
        ". <(cat tools/lib)",
        "R=$(cat tools/cmd); $R",
        "R=`cat tools/cmd`\nsh \"$R\"",
        "read -r R < tools/cmd; sh $R",
        "for f in $(cat tools/list); do . \"$f\"; done",
        "$(cat tools/cmd) --flag",
        "eval \"$(cat tools/cmd)\"",
        "deno run $(cat tools/which)",
        "if true; then sh $(cat x); fi",
        "cat <<'EOS' > f\nx\nEOS\nsh $(cat tools/which)",
        "sh \"$(cd $(cat tools/d) && pwd)/w.sh\"",
        // Recheck 14, F7: a line of a list file, and xargs or find
        // handing an interpreter the names they read or find.
        "python3 \"$(head -1 tools/list.txt)\"",
        "python3 $(tail -n 1 tools/list.txt)",
        "sh $(command -v x | head -1 tools/list)",
        "xargs python3 < tools/list.txt",
        "cat tools/list.txt | xargs -n 1 python3",
        "xargs -I{} sh -c 'python3 {}' < tools/list.txt",
        "xargs -a tools/list.txt -L1 bash",
        "xargs -I % % < tools/cmds",
        "find tools -name '*.py' -exec python3 {} \\;",
        "git commit -qm summary",
        "git -C sub -c user.name=x checkout main",
        "cd tools && git push origin HEAD",
        "find . -name 'run*.sh' -execdir sh {} +",
    ] {
        assert!(refused(text), "{text}");
    }
}

#[test]
fn what_names_the_script_s_own_folder_or_is_data_is_known() {
    for text in [
        "sh \"$(dirname \"$0\")\"/w.sh",
        "HERE=$(cd \"$(dirname \"$0\")\" && pwd)\n. \"$HERE/lib.sh\"",
        "ROOT=$(git rev-parse --show-toplevel); python3 \"$ROOT/tools/s.py\"",
        "echo $(date) > out.txt",
        "python3 tools/s.py --since \"$(date)\"",
        "V=$(git describe); echo $V",
        "R=\"sh tools/w.sh\"; $R",
        "echo '$(cat x)'; sh tools/w.sh # $(cat y)",
        "x=$((1 + 2)); sh tools/w.sh",
        "exec \"$@\"",
        "${PYTHON:-python3} tools/s.py",
        "$(MAKE) -C sub",
        "if [[ -z \"$v\" || \"$v\" == x ]]; then echo; fi",
        "read -r v < f; if [[ -z \"$v\" || \"$v\" == \\#* ]]; then :; fi",
        "IFS=: vs=(${V:-$(pyenv-version-name -f)})\nfor v in \"${vs[@]}\"; do echo \"$v\"; done",
        "R=$(type -P readlink)\n$R -f x",
        "p=$(command -v \"tool-$1\" || true)\nexec \"$p\" \"$@\"",
        "for i in $(names); do seen[\"$i\"]=1; done",
        "make_shims $(list --executables)",
        "cat <<EOS\n( (\"$(x)\" -split ' ') )\nEOS\nsh tools/w.sh",
        "P=$(command -v python3 | head -n 1); $P tools/s.py",
        "git ls-files | xargs wc -l",
        "xargs -0 rm -f < tools/stale",
        "find . -name '*.pyc' -exec rm {} +",
        "find tools -exec python3 tools/s.py {} \\;",
        "xargs python3 tools/s.py < tools/list.txt",
        "git log --oneline -5",
        "git -C sub diff --stat HEAD~1",
        "git branch --show-current; git status --short",
        "xargs -I{} python3 tools/s.py --file {} < tools/list.txt",
    ] {
        assert!(!refused(text), "{text}: {:?}", shell(text));
    }
}

/// Recheck 25: a variable the text never sets, or any expansion inside
/// the file's own name, in the word naming a script: the file is decided
/// where it runs.
#[test]
fn a_script_named_through_a_variable_set_where_it_runs_is_refused() {
    for text in [
        "python3 tools/summ${NOPE}arize.py",
        "python3 tools/summarize$*.py",
        "python3 tools/summarize\"$@\".py",
        "python3${IFS}tools/summarize.py",
        "python3 \"$SCRIPT\"",
        "python3 tools/$X/lib.py",
        ". tools/li${NOPE}b.sh",
        "f=lib; . \"./tools/$f.sh\"",
        "sh tools/$1.sh",
        "bash \"tools/${1}\"",
    ] {
        assert!(refused(text), "{text}");
    }
    for text in [
        "python3 $PWD/tools/summarize.py",
        "python3 \"${PWD}/tools/summarize.py\"",
        "python3 \"$(pwd)/tools/summarize.py\"",
        "python3 $HOME/bin/tool.py",
        ". \"$(dirname \"$0\")/lib.sh\"",
        ". \"${BASH_SOURCE%/*}/lib.sh\"",
        ". \"$ROOT/lib/common.sh\"",
        "f=tools/lib.sh; . \"./$f\"",
        "exec python3 \"$@\"",
        ". \"$1\"",
        "$PYTHON tools/s.py",
        "\"${EDITOR}\" notes.txt",
        "sh \"${S:-tools/w.sh}\"",
        "python3 tools/s.py --since \"$X\"",
    ] {
        assert!(!refused(text), "{text}: {:?}", shell(text));
    }
}

/// Recheck 25: a pattern without a script's extension that names what a
/// script runs, directly or through a loop's variable.
#[test]
fn a_script_run_from_a_pattern_is_refused_extension_or_not() {
    for text in [
        "for f in tools/conf.d/*; do . \"$f\"; done",
        "for f in tools/conf.d/[a-z]*; do sh \"$f\"; done",
        "set -- tools/conf.d/*\nfor f; do . \"$f\"; done",
        "sh tools/conf.d/*",
        ". tools/l*",
        "python3 tools/lib*",
        "node --test",
        "node --test --test-reporter=tap",
    ] {
        assert!(refused(text), "{text}");
    }
    for text in [
        "for f in tools/conf.d/*; do echo \"$f\"; done",
        "for f in docs/*; do wc -l \"$f\"; done\nsh tools/w.sh",
        "set -- a b\nfor f; do . \"tools/$f\"; done",
        "rm -f build/*",
        "node --test tools/",
        "node --test tools/a.test.js",
    ] {
        assert!(!refused(text), "{text}: {:?}", shell(text));
    }
}

/// Recheck 26: a shell or interpreter given no script on the command's
/// line reads its program from its input: the file summarized, or what a
/// pipe hands it.
#[test]
fn a_program_read_from_the_input_is_refused() {
    for text in [
        "sh",
        "python3",
        "cat notes.txt | python3",
        "perl -w",
        "sh -e",
        "bash -s",
        "node",
        "python3 -",
        "python3 -u",
        "sed 's/^#//' | bash -x",
        // Its input by a name, or inside a shell's line (recheck 26).
        "sh /dev/stdin",
        "bash /proc/self/fd/0",
        "python3 /dev/stdin",
        "awk -f -",
        "gawk -f /dev/stdin",
        "sh -c sh",
        "sh -c \"exec python3\"",
        "xargs -0 sh -c",
        // Redirected from its own input (session 27).
        "sh < /dev/stdin",
        "python3 - 0</dev/stdin",
        // Recheck 28: option values, other descriptors, spellings of the
        // input, wrappers, code that runs its input, programs whose
        // commands run programs.
        "sh -o errexit",
        "bash +e",
        "bash -O extglob",
        "python3 -W ignore",
        "python3 -X utf8",
        "sh 9<Makefile",
        "sh 2</dev/null",
        "sh >/dev/null",
        "sh /dev//stdin",
        "sh /proc/thread-self/fd/0",
        "sh /proc/$$/fd/0",
        "stdbuf -oL sh",
        "setsid sh",
        "/usr/bin/env sh",
        "python3 -c 'import sys; exec(sys.stdin.read())'",
        "sqlite3 notes.db",
        "psql -d x",
        "ed notes.txt",
    ] {
        assert!(program_read_from_input(text).is_some(), "{text}");
    }
    for text in [
        "sh -c 'echo hi'",
        "python3 -c 'print(1)'",
        "python3 -m json.tool",
        "perl -ne 'print'",
        "node -e 'x'",
        "python3 tools/s.py",
        "sh < tools/w.sh",
        "python3 <<EOF\nprint(1)\nEOF",
        "bash -ec 'echo'",
        "ruby -e 'p 1'",
        "php -r 'echo 1;'",
        "make -s summary",
        "python3.11 -I tools/s.py",
        "sh -c 'sh tools/s.sh'",
        "awk -f tools/p.awk -",
        "xargs -0 sh -c 'echo \"$1\"' _",
        "python3 - < tools/s.py",
        "bash -s 0<tools/s.sh",
        "bash -o pipefail tools/s.sh",
        "python3 -W ignore tools/s.py",
        "sh tools/s.sh 2>/dev/null",
        "sqlite3 notes.db 'select 1'",
        "psql -c 'select 1'",
        "gdb -batch -ex run ./a.out",
        "stdbuf -oL python3 tools/s.py",
    ] {
        assert!(program_read_from_input(text).is_none(), "{text}");
    }
    // A line handed in from code (an argv rebuilt) is not the command's;
    // a script the command runs is: its input is the command's.
    assert!(!refused("cat notes.txt | python3"));
    assert!(!script("exec python3\n").is_empty());
    assert!(script("python3 <<EOF\nprint(1)\nEOF\nsh tools/w.sh\n").is_empty());
}
