//! A cloned repository's `ctxcurate.toml` is data, never a command: its
//! `summary_command` runs, and its output location may leave the project,
//! only after `ctxcurate trust` (consent to exactly those values, kept in
//! the isolated state directory of the test), for `build` and for the
//! TUI alike. Also: huge timeouts and endless summarizer output, `-C` on a
//! path that is not a directory.

use crate::common;

use std::path::{Path, PathBuf};

use common::{Project, stderr, stdout};
use ctxcurate::core::project::Project as CoreProject;
use ctxcurate::core::trust::TrustStore;
use ctxcurate::tui::run::harness::Harness;

const NOTES: &str = "Some notes.\nThey go on.\nAnd on.\n";

/// A project whose file asks for `summary_command = command` and renders
/// `notes.txt` as a summary.
pub(super) fn hostile(p: &Project, command: &str) {
    p.write("notes.txt", &NOTES.repeat(20));
    p.write(
        "ctxcurate.toml",
        &format!(
            "[project]\nsummary_command = {command:?}\n\n\
             [[presets.default.files]]\npath = \"notes.txt\"\nview_mode = \"summary\"\n"
        ),
    );
}

#[test]
fn a_project_summary_command_runs_only_after_trust() {
    let p = Project::empty();
    hostile(&p, "id > pwned.txt; cat");
    let pwned = p.path("pwned.txt");

    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!pwned.exists(), "the repository's command ran on build");
    let err = stderr(&out);
    assert!(
        err.contains("ignoring summary_command (this project is not trusted")
            && err.contains("`ctxcurate trust`"),
        "{err}"
    );
    assert_eq!(err.matches("ctxcurate trust").count(), 1, "one line: {err}");
    assert!(stdout(&out).contains("### notes.txt [summary]"));

    // Consent: shown, recorded, and then the command runs.
    let out = p.run(&["trust", "--yes"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "no advice to run what is running");
    let shown = stdout(&out);
    assert!(
        shown.contains("summary_command = \"id > pwned.txt; cat\"   (runs a program)"),
        "{shown}"
    );
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(pwned.exists(), "trusted, the command runs");
    assert!(
        !stderr(&out).contains("ctxcurate trust"),
        "{}",
        stderr(&out)
    );

    // An edited command needs consent again.
    std::fs::remove_file(&pwned).unwrap();
    hostile(&p, "id > pwned2.txt; cat");
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!p.path("pwned2.txt").exists(), "a changed command ran");
    assert!(
        stderr(&out).contains("changed since you trusted this project"),
        "{}",
        stderr(&out)
    );
    p.ok(&["trust", "--yes"]);
    p.ok(&["build"]);
    assert!(p.path("pwned2.txt").exists());

    // Revoked: it no longer runs.
    std::fs::remove_file(p.path("pwned2.txt")).unwrap();
    assert!(
        p.ok(&["trust", "--revoke"])
            .starts_with("no longer trusted: ")
    );
    p.ok(&["cache", "clear"]);
    p.ok(&["build"]);
    assert!(!p.path("pwned2.txt").exists());
    assert!(
        p.ok(&["trust", "--revoke"])
            .starts_with("was not trusted: ")
    );
}

/// Consent to `python3 tools/summarize.py` covers what the script runs
/// inside the project (issue 37): editing `tools/helper.py` that it
/// imports, or adding `tools/json.py` that shadows the standard library,
/// needs consent again; a command naming its script by a pattern the
/// shell expands cannot be trusted at all.
#[test]
fn consent_covers_what_the_script_imports_and_no_pattern() {
    let p = Project::empty();
    hostile(&p, "python3 tools/summarize.py");
    p.write(
        "tools/summarize.py",
        "import json\nimport sys\nimport helper\nprint(helper.first(sys.stdin.read()))\n",
    );
    p.write(
        "tools/helper.py",
        "def first(text):\n    return 'SUMMARY ' + text.split()[0]\n",
    );
    let shown = p.ok(&["trust", "--yes"]);
    assert!(
        shown.contains("runs tools/helper.py (content sha256"),
        "{shown}"
    );
    assert!(
        shown.contains("where a new file would shadow a module"),
        "{shown}"
    );
    let out = p.run(&["build"]);
    assert!(stdout(&out).contains("SUMMARY Some"), "{}", stderr(&out));

    // The imported module changes: the command no longer runs.
    p.write(
        "tools/helper.py",
        "open('pwned.txt', 'w').write('x')\ndef first(text):\n    return 'SUMMARY'\n",
    );
    p.ok(&["cache", "clear"]);
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !p.path("pwned.txt").exists(),
        "an edited import ran unreviewed"
    );
    assert!(
        stderr(&out).contains("changed since you trusted this project"),
        "{}",
        stderr(&out)
    );
    p.write(
        "tools/helper.py",
        "def first(text):\n    return 'SUMMARY ' + text.split()[0]\n",
    );
    p.ok(&["cache", "clear"]);
    assert!(
        stdout(&p.run(&["build"])).contains("SUMMARY Some"),
        "trusted again as it was"
    );

    // A new module beside the script shadows the standard library's.
    p.write("tools/json.py", "open('pwned2.txt', 'w').write('x')\n");
    p.ok(&["cache", "clear"]);
    let out = p.run(&["build"]);
    assert!(
        !p.path("pwned2.txt").exists(),
        "a shadowing module ran unreviewed"
    );
    assert!(
        stderr(&out).contains("changed since you trusted this project"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_file(p.path("tools/json.py")).unwrap();

    // A pattern the shell expands is never consented to.
    hostile(&p, "python3 tools/summ?rize.py");
    let out = p.run(&["trust", "--yes"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "summary_command names files by a pattern (`tools/summ?rize.py`) that the shell \
             expands when it runs"
        ),
        "{}",
        stderr(&out)
    );
    p.ok(&["cache", "clear"]);
    let out = p.run(&["build"]);
    assert!(!stdout(&out).contains("SUMMARY"), "a pattern's command ran");
    assert!(
        stderr(&out).contains("names files by a pattern"),
        "{}",
        stderr(&out)
    );
}

/// A `make` whose recipes run past what can be read for review (here more
/// recipe lines than the bound, the last running a script) cannot be
/// trusted, and `trust` says why (issue 37): the script past the bound
/// would run unreviewed.
#[test]
fn a_make_past_the_review_bounds_cannot_be_trusted() {
    let p = Project::empty();
    hostile(&p, "make -s summary");
    let mut makefile = "summary:\n".to_string();
    for i in 0..300 {
        makefile.push_str(&format!("\t@true step {i}\n"));
    }
    makefile.push_str("\t@sh tools/summarize.sh\n");
    p.write("Makefile", &makefile);
    p.write("tools/summarize.sh", "echo SUMMARY\n");
    let out = p.run(&["trust", "--yes"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("summary_command runs tasks past what can be read for review (more than 256"),
        "{err}"
    );
    let out = p.run(&["build"]);
    assert!(
        !stdout(&out).contains("SUMMARY"),
        "the command ran untrusted"
    );
}

/// The same for scripts of the other languages a command runs through an
/// interpreter (issue 37, round four): what a JavaScript, Ruby, PHP, Lua
/// or Perl summarizer loads from the project is covered — an edit to it,
/// or a new file where the interpreter would look first, needs consent
/// again. Node runs on this machine, so its summarizer is run too.
/// A summarizer command, its files (path, text), the file it loads that
/// is edited, and where a new file would be loaded first.
type Case = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    &'static str,
);

#[test]
fn consent_covers_what_other_interpreters_load() {
    let cases: [Case; 6] = [
        (
            "node tools/sum.js",
            &[
                (
                    "tools/sum.js",
                    "const h = require('./helper');\nlet t = '';\nprocess.stdin.on('data', d => t += d);\n\
                     process.stdin.on('end', () => console.log(h.first(t)));\n",
                ),
                (
                    "tools/helper.js",
                    "exports.first = t => 'SUMMARY ' + t.split(/\\s/)[0];\n",
                ),
            ],
            "tools/helper.js",
            "tools/helper",
        ),
        (
            "node tools/sum.mjs",
            &[
                (
                    "tools/sum.mjs",
                    "import { first } from './lib/index.mjs';\n",
                ),
                ("tools/lib/index.mjs", "export const first = t => t;\n"),
            ],
            "tools/lib/index.mjs",
            "tools/lib/index.mjs",
        ),
        (
            "ruby tools/sum.rb",
            &[
                (
                    "tools/sum.rb",
                    "require 'json'\nrequire_relative 'helper'\n",
                ),
                ("tools/helper.rb", "def first(t) t end\n"),
            ],
            "tools/helper.rb",
            "tools/helper.rb",
        ),
        (
            "php tools/sum.php",
            &[
                (
                    "tools/sum.php",
                    "<?php\nrequire __DIR__ . '/helper.php';\ninclude 'conf.php';\n",
                ),
                (
                    "tools/helper.php",
                    "<?php function first($t) { return $t; }\n",
                ),
            ],
            "tools/helper.php",
            "conf.php",
        ),
        (
            "lua tools/sum.lua",
            &[
                (
                    "tools/sum.lua",
                    "local h = require('tools.helper')\nlocal j = require 'json'\n",
                ),
                ("tools/helper.lua", "return {}\n"),
            ],
            "tools/helper.lua",
            "json.lua",
        ),
        (
            "perl tools/sum.pl",
            &[
                (
                    "tools/sum.pl",
                    "use strict;\nuse FindBin;\nuse lib \"$FindBin::Bin/lib\";\nuse Sum::Helper;\n",
                ),
                ("tools/lib/Sum/Helper.pm", "package Sum::Helper; 1;\n"),
            ],
            "tools/lib/Sum/Helper.pm",
            "tools/lib/strict.pm",
        ),
    ];
    for (command, files, loaded, shadow) in cases {
        let p = Project::empty();
        hostile(&p, command);
        for (path, text) in files {
            p.write(path, text);
        }
        let shown = p.ok(&["trust", "--yes"]);
        assert!(
            shown.contains(&format!("runs {loaded} (content sha256")),
            "{command}: {shown}"
        );
        let out = p.run(&["build"]);
        assert!(
            !stderr(&out).contains("ignoring summary_command"),
            "{command}: {}",
            stderr(&out)
        );
        if command == "node tools/sum.js" {
            assert!(stdout(&out).contains("SUMMARY Some"), "{}", stderr(&out));
        }
        // What the script loads is edited: consent is asked again.
        let before = p.read(loaded);
        p.write(loaded, &format!("{before}\n// edited\n"));
        let out = p.run(&["build"]);
        assert!(
            stderr(&out).contains("changed since you trusted this project"),
            "{command}: an edit to {loaded} kept the consent: {}",
            stderr(&out)
        );
        p.write(loaded, &before);
        assert!(
            !stderr(&p.run(&["build"])).contains("ignoring summary_command"),
            "{command}: trusted again as it was"
        );
        // A new file where the interpreter looks first.
        if shadow != loaded {
            p.write(shadow, "os.execute('id > pwned')\n");
            let out = p.run(&["build"]);
            assert!(
                stderr(&out).contains("changed since you trusted this project"),
                "{command}: a new {shadow} kept the consent: {}",
                stderr(&out)
            );
        }
    }
}

/// What a project's own configuration maps, and the folders a command
/// adds to an interpreter's search, lead to project files too (issue 37,
/// third round): a `tsconfig.json` `paths` pattern and `baseUrl`, a
/// `package.json` `imports` (`#internal`) and `exports` (the package's
/// own name, and a workspace package linked into `node_modules`),
/// composer's PSR-4 autoload map, Ruby's `-Idir` and `$LOAD_PATH`,
/// Perl's `-Idir` and `@INC`; a task runner's file (`deno task`,
/// `make`, `npm run`) and what its task runs (make's pattern rules, its
/// variables, `SHELL`, a recipe's `$(MAKE) -C sub`). Each file reached only through that
/// mapping is covered: after `trust`, an edit to it needs consent again
/// and the build says why.
#[test]
fn consent_covers_what_mapped_imports_load() {
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 30] = [
        (
            "deno run tools/sum.ts",
            &[
                (
                    "deno.json",
                    "{ // Deno's own config\n \"imports\": { \"@/\": \"./src/\", \"@std/fmt\": \"jsr:@std/fmt@1\" } }",
                ),
                ("tools/sum.ts", "import { first } from '@/text/first.ts';\n"),
                ("src/text/first.ts", "export const first = 1;\n"),
            ],
            "src/text/first.ts",
        ),
        (
            "deno run tools/sum.ts",
            &[
                ("tools/deno.jsonc", "{ \"importMap\": \"./maps/im.json\" }"),
                (
                    "tools/maps/im.json",
                    "{ \"imports\": { \"fmt\": \"../../lib/fmt.ts\" } }",
                ),
                ("tools/sum.ts", "import f from 'fmt';\n"),
                ("lib/fmt.ts", "export default 1;\n"),
            ],
            "lib/fmt.ts",
        ),
        (
            "deno run --import-map=import_map.json tools/sum.ts",
            &[
                (
                    "import_map.json",
                    "{ \"imports\": { \"helpers/\": \"./vendor/helpers/\" } }",
                ),
                ("tools/sum.ts", "import h from \"helpers/h.ts\";\n"),
                ("vendor/helpers/h.ts", "export default 1;\n"),
            ],
            "vendor/helpers/h.ts",
        ),
        (
            // A scope's mapping wins for the files under it.
            "deno run tools/sum.ts",
            &[
                (
                    "deno.json",
                    "{ \"imports\": { \"fmt\": \"./lib/fmt.ts\" }, \"scopes\": { \"./tools/\": { \"fmt\": \"./tools/vendor/fmt.ts\" } } }",
                ),
                ("tools/sum.ts", "import f from 'fmt';\n"),
                ("lib/fmt.ts", "export default 1;\n"),
                ("tools/vendor/fmt.ts", "export default 2;\n"),
            ],
            "tools/vendor/fmt.ts",
        ),
        (
            "deno run --import-map maps/dev.json tools/sum.ts",
            &[
                (
                    "maps/dev.json",
                    "{ \"imports\": { \"fmt\": \"../lib/fmt.ts\" } }",
                ),
                ("tools/sum.ts", "import f from 'fmt';\n"),
                ("lib/fmt.ts", "export default 1;\n"),
            ],
            "lib/fmt.ts",
        ),
        (
            "deno run -A --import-map=cfg/im.json tools/sum.ts",
            &[
                (
                    "cfg/im.json",
                    "{ \"scopes\": { \"../tools/\": { \"@x/\": \"../vendor/x/\" } } }",
                ),
                ("tools/sum.ts", "import y from '@x/y.ts';\n"),
                ("vendor/x/y.ts", "export default 1;\n"),
            ],
            "vendor/x/y.ts",
        ),
        (
            "deno task sum",
            &[
                (
                    "deno.json",
                    "{ \"tasks\": { \"sum\": \"deno run --import-map=maps/m.json tools/sum.ts\" } }",
                ),
                (
                    "maps/m.json",
                    "{ \"imports\": { \"fmt\": \"../lib/fmt.ts\" } }",
                ),
                ("tools/sum.ts", "import f from 'fmt';\n"),
                ("lib/fmt.ts", "export default 1;\n"),
            ],
            "lib/fmt.ts",
        ),
        (
            "deno task sum",
            &[
                (
                    "deno.jsonc",
                    "{ // tasks\n \"tasks\": { \"sum\": { \"description\": \"sum\", \"command\": \"deno run tools/sum.ts\" } } }",
                ),
                ("tools/sum.ts", "console.log(1);\n"),
            ],
            "tools/sum.ts",
        ),
        // A package `-m` imports first, a file sourced by the script's
        // folder (round 8).
        (
            "python3 -m tools.summarize",
            &[
                ("tools/__init__.py", "X = 1\n"),
                ("tools/summarize.py", "import sys\n"),
            ],
            "tools/__init__.py",
        ),
        (
            "bash tools/run.sh",
            &[
                ("tools/run.sh", ". \"$(dirname \"$0\")/lib.sh\"\nfirst\n"),
                ("tools/lib.sh", "first() { head -c 20; }\n"),
            ],
            "tools/lib.sh",
        ),
        // A task runner's file, and what the task runs (round 8).
        (
            "make -s summary",
            &[
                (
                    "Makefile",
                    "all:\n\techo all\n\nsummary: gen\n\t@python3 tools/sum.py\n",
                ),
                ("mk/gen.mk", "gen:\n\tsh tools/gen.sh\n"),
                ("tools/sum.py", "import sys\n"),
                ("tools/gen.sh", "true\n"),
            ],
            "Makefile",
        ),
        (
            "make -s summary",
            &[
                (
                    "Makefile",
                    "include mk/gen.mk\nsummary: gen\n\t@python3 tools/sum.py\n",
                ),
                ("mk/gen.mk", "gen:\n\tsh tools/gen.sh\n"),
                ("tools/sum.py", "import sys\n"),
                ("tools/gen.sh", "true\n"),
            ],
            "tools/gen.sh",
        ),
        // Make's pattern rules, variables and recursion into sub-folders
        // (round 9).
        (
            "make -s summary",
            &[
                (
                    "Makefile",
                    "summary: out/sum.txt\n\t@cat out/sum.txt\n\nout/%.txt: notes/%.md\n\t@python3 tools/render.py $< > $@\n",
                ),
                ("tools/render.py", "import sys\n"),
            ],
            "tools/render.py",
        ),
        (
            "make -s summary",
            &[
                (
                    "Makefile",
                    "GEN := out/gen.txt\nsummary: $(GEN)\n\t@cat $(GEN)\n\nout/gen.txt:\n\t@sh tools/gen.sh > $@\n",
                ),
                ("tools/gen.sh", "true\n"),
            ],
            "tools/gen.sh",
        ),
        (
            "make -s summary",
            &[
                (
                    "Makefile",
                    "GEN = python3 tools/gen.py\nsummary:\n\t@$(GEN) > /dev/null\n",
                ),
                ("tools/gen.py", "print(1)\n"),
            ],
            "tools/gen.py",
        ),
        (
            "make -s summary",
            &[
                (
                    "Makefile",
                    "SHELL := tools/sh.sh\nsummary:\n\t@head -c 100\n",
                ),
                ("tools/sh.sh", "#!/bin/sh\nexec /bin/sh \"$@\"\n"),
            ],
            "tools/sh.sh",
        ),
        (
            "make -s summary",
            &[
                ("Makefile", "summary:\n\t@$(MAKE) -s -C docs summary\n"),
                ("docs/Makefile", "summary:\n\t@python3 ../tools/sum.py\n"),
                ("tools/sum.py", "import sys\n"),
            ],
            "tools/sum.py",
        ),
        (
            "make -s summary",
            &[
                ("Makefile", "summary:\n\t@cd docs && make -s summary\n"),
                ("docs/Makefile", "summary:\n\t@python3 ../tools/sum.py\n"),
                ("tools/sum.py", "import sys\n"),
            ],
            "tools/sum.py",
        ),
        (
            "npm run -s sum",
            &[
                (
                    "package.json",
                    "{ \"scripts\": { \"sum\": \"node tools/sum.js\" } }",
                ),
                ("tools/sum.js", "process.stdin.pipe(process.stdout);\n"),
            ],
            "package.json",
        ),
        (
            "yarn sum",
            &[
                (
                    "package.json",
                    "{ \"scripts\": { \"presum\": \"node tools/pre.js\", \"sum\": \"cat\" } }",
                ),
                ("tools/pre.js", "console.log(1);\n"),
            ],
            "tools/pre.js",
        ),
        (
            "tsx tools/sum.ts",
            &[
                (
                    "tsconfig.json",
                    "{ // paths\n \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@lib/*\": [\"src/lib/*\"] }, } }",
                ),
                ("tools/sum.ts", "import { first } from '@lib/first';\n"),
                (
                    "src/lib/first.ts",
                    "export const first = (t: string) => t;\n",
                ),
            ],
            "src/lib/first.ts",
        ),
        (
            "tsx tools/sum.ts",
            &[
                (
                    "tools/tsconfig.json",
                    "{ \"compilerOptions\": { \"baseUrl\": \"../src\" } }",
                ),
                ("tools/sum.ts", "import h from 'helpers/h';\n"),
                ("src/helpers/h.ts", "export default 1;\n"),
            ],
            "src/helpers/h.ts",
        ),
        (
            "node tools/sum.js",
            &[
                (
                    "package.json",
                    "{ \"name\": \"app\", \"imports\": { \"#internal/*\": \"./src/internal/*.js\" } }",
                ),
                ("tools/sum.js", "const f = require('#internal/fmt');\n"),
                ("src/internal/fmt.js", "module.exports = 1;\n"),
            ],
            "src/internal/fmt.js",
        ),
        (
            "node tools/sum.mjs",
            &[
                (
                    "package.json",
                    "{ \"name\": \"@acme/tool\", \"exports\": { \"./fmt\": { \"import\": \"./lib/fmt.mjs\" } } }",
                ),
                ("tools/sum.mjs", "import f from '@acme/tool/fmt';\n"),
                ("lib/fmt.mjs", "export default 1;\n"),
            ],
            "lib/fmt.mjs",
        ),
        (
            "node tools/sum.js",
            &[
                (
                    "packages/core/package.json",
                    "{ \"name\": \"@acme/core\", \"exports\": { \"./x\": \"./src/x.js\" } }",
                ),
                ("tools/sum.js", "require('@acme/core/x');\n"),
                ("packages/core/src/x.js", "module.exports = 1;\n"),
            ],
            "packages/core/src/x.js",
        ),
        (
            "php tools/sum.php",
            &[
                (
                    "composer.json",
                    "{ \"autoload\": { \"psr-4\": { \"App\\\\\": \"src/\" } } }",
                ),
                (
                    "tools/sum.php",
                    "<?php\nrequire __DIR__ . '/../vendor/autoload.php';\nuse App\\Text\\Fmt;\necho Fmt::first(stream_get_contents(STDIN));\n",
                ),
                (
                    "src/Text/Fmt.php",
                    "<?php\nnamespace App\\Text;\nclass Fmt {}\n",
                ),
            ],
            "src/Text/Fmt.php",
        ),
        (
            "ruby -Ivendor/rb tools/sum.rb",
            &[
                ("tools/sum.rb", "require 'json'\nrequire 'sumlib/fmt'\n"),
                ("vendor/rb/sumlib/fmt.rb", "def first(t) t end\n"),
            ],
            "vendor/rb/sumlib/fmt.rb",
        ),
        (
            "ruby tools/sum.rb",
            &[
                (
                    "tools/sum.rb",
                    "$LOAD_PATH.unshift File.expand_path('../rblib', __dir__)\nrequire 'fmt'\n",
                ),
                ("rblib/fmt.rb", "def first(t) t end\n"),
            ],
            "rblib/fmt.rb",
        ),
        (
            "perl -Ivendor/pl tools/sum.pl",
            &[
                ("tools/sum.pl", "use strict;\nuse Fmt::Util;\n"),
                ("vendor/pl/Fmt/Util.pm", "package Fmt::Util; 1;\n"),
            ],
            "vendor/pl/Fmt/Util.pm",
        ),
        (
            "perl tools/sum.pl",
            &[
                (
                    "tools/sum.pl",
                    "use File::Basename;\nBEGIN { unshift @INC, dirname(__FILE__) . '/plib' }\nuse Sum::Fmt;\n",
                ),
                ("tools/plib/Sum/Fmt.pm", "package Sum::Fmt; 1;\n"),
            ],
            "tools/plib/Sum/Fmt.pm",
        ),
    ];
    // Every case is tried, and every one that fails is told.
    let mut failures = Vec::new();
    for (command, files, loaded) in cases {
        let p = Project::empty();
        hostile(&p, command);
        for (path, text) in files {
            p.write(path, text);
        }
        if loaded.starts_with("packages/core/") {
            std::fs::create_dir_all(p.path("node_modules/@acme")).unwrap();
            std::os::unix::fs::symlink("../../packages/core", p.path("node_modules/@acme/core"))
                .unwrap();
        }
        let shown = p.ok(&["trust", "--yes"]);
        if !shown.contains(&format!("runs {loaded} (content sha256")) {
            failures.push(format!(
                "{command}: the review does not show {loaded}: {shown}"
            ));
            continue;
        }
        let out = p.run(&["build"]);
        assert!(
            !stderr(&out).contains("ignoring summary_command"),
            "{command}: {}",
            stderr(&out)
        );
        let before = p.read(loaded);
        p.write(loaded, &format!("{before}\n# edited\n"));
        let out = p.run(&["build"]);
        if !stderr(&out)
            .contains("ignoring summary_command (changed since you trusted this project")
        {
            failures.push(format!(
                "{command}: an edit to {loaded} kept the consent: {}",
                stderr(&out)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn trust_shows_hostile_settings_escaped() {
    let p = Project::empty();
    p.write("notes.txt", NOTES);
    p.write(
        "ctxcurate.toml",
        "[project]\nsummary_command = \"echo \\u001b]52;c;cHduZWQ=\\u0007 \\u202egnp.exe; cat\"\n",
    );
    let shown = p.ok(&["trust", "--yes"]);
    assert!(
        !shown.contains(['\u{1b}', '\u{7}', '\u{202e}']),
        "raw control or bidi characters printed: {shown:?}"
    );
    assert!(shown.contains("summary_command"), "{shown}");
    // A project with nothing guarded has nothing to trust.
    let plain = Project::empty();
    plain.write("ctxcurate.toml", "[project]\noutput_dir = \"out\"\n");
    assert!(plain.ok(&["trust"]).starts_with("nothing to trust"));
}

#[test]
fn opening_the_tui_runs_a_project_command_only_after_trust() {
    let p = Project::empty();
    let pwned = p.path("pwned.txt");
    // The harness runs in the test's directory: an absolute target.
    hostile(&p, &format!("id > '{}'; cat", pwned.display()));
    let h = Harness::open(p.root(), None, 120, 30).expect("open the TUI");
    assert!(h.composed_text().contains("### notes.txt [summary]"));
    assert!(
        !pwned.exists(),
        "opening the TUI ran the repository's command"
    );
    let (status, _) = h.state.status.clone().expect("a warning");
    assert!(status.contains("ctxcurate trust"), "{status}");

    // The same consent the CLI records, read the way the TUI reads it.
    p.ok(&["trust", "--yes"]);
    let store = TrustStore::at(p.config_home.path().join("state/ctxcurate/trust"));
    let project = CoreProject::open_with(p.root(), None, Some(&store)).unwrap();
    let h = Harness::open_project(project, 120, 30).expect("open the TUI");
    assert!(pwned.exists(), "trusted, the command runs");
    assert!(h.composed_text().contains("They go on."));

    // An edit to the command withdraws it.
    std::fs::remove_file(&pwned).unwrap();
    hostile(&p, &format!("id > '{}'; cat; true", pwned.display()));
    let project = CoreProject::open_with(p.root(), None, Some(&store)).unwrap();
    let _h = Harness::open_project(project, 120, 30).expect("open the TUI");
    assert!(!pwned.exists(), "a changed command ran in the TUI");
}

/// A project nested two folders deep in a temp dir, so `../..` stays in
/// the temp dir.
fn nested(toml: &str) -> (Project, PathBuf) {
    let p = Project::empty();
    p.write("a/b/proj/notes.txt", NOTES);
    p.write(
        "a/b/proj/ctxcurate.toml",
        &format!("{toml}\n[presets.default]\nfiles = [\"notes.txt\"]\n"),
    );
    let root = p.path("a/b/proj");
    (p, root)
}

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            } else {
                out.push(
                    path.strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out.sort();
    out
}

#[test]
fn untrusted_output_locations_stay_inside_the_root() {
    for toml in [
        "[project]\noutput_dir = \"../../escape\"\n",
        "[project]\nnamespace = \"../../../../x\"\n",
        "[project]\noutput_dir = \"/tmp/ctxcurate-escape-test\"\n",
    ] {
        let (p, root) = nested(toml);
        let out = p.run_in(&root, &["build", "--save"]);
        assert!(out.status.success(), "{toml}: {}", stderr(&out));
        assert!(stderr(&out).contains("ctxcurate trust"), "{}", stderr(&out));
        let written: Vec<String> = files_under(p.root())
            .into_iter()
            .filter(|f| !f.starts_with("a/b/proj/notes.txt"))
            .filter(|f| !f.starts_with("a/b/proj/ctxcurate.toml"))
            .filter(|f| !f.starts_with("a/b/proj/.ctxcurate/cache"))
            .filter(|f| f != "a/b/proj/.ctxcurate/.gitignore")
            .collect();
        assert_eq!(
            written,
            ["a/b/proj/.ctxcurate/out/context_001.md"],
            "{toml}"
        );
        assert!(!Path::new("/tmp/ctxcurate-escape-test").exists());
    }

    // Trusted, the project's location is honoured.
    let (p, root) = nested("[project]\noutput_dir = \"../../escape\"\n");
    let shown = String::from_utf8(p.run_in(&root, &["trust", "--yes"]).stdout).unwrap();
    assert!(shown.contains("output_dir = \"../../escape\""), "{shown}");
    let out = p.run_in(&root, &["build", "--save"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(p.path("a/escape/context_001.md").is_file());
}

#[cfg(unix)]
#[test]
fn a_symlinked_output_folder_out_of_the_root_is_refused() {
    let p = Project::fixture();
    let outside = tempfile::tempdir().unwrap();
    // (A `.ctxcurate` linked out is the disk cache's business: here only
    // the output folder leads out.)
    std::fs::create_dir_all(p.path(".ctxcurate")).unwrap();
    std::os::unix::fs::symlink(outside.path(), p.path(".ctxcurate/out")).unwrap();
    p.ok(&["add", "src/app.py"]);
    let out = p.run(&["build", "--save"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is a symlink that leads outside the project root"),
        "{}",
        stderr(&out)
    );
    assert_eq!(files_under(outside.path()), Vec::<String>::new());
    // The TUI's `w` refuses the same way.
    let mut h = Harness::open(p.root(), None, 120, 30).unwrap();
    h.keys("w");
    let (status, _) = h.state.status.clone().unwrap();
    assert!(status.contains("not written"), "{status}");
    assert_eq!(files_under(outside.path()), Vec::<String>::new());
}

#[test]
fn the_output_file_name_follows_the_format() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    p.ok(&["build", "--save", "--format", "xml"]);
    p.ok(&["build", "--save"]);
    p.write(
        "ctxcurate.toml",
        &p.read("ctxcurate.toml")
            .replacen("[project]", "[project]\nformat = \"xml\"", 1),
    );
    if !p.read("ctxcurate.toml").contains("format = \"xml\"") {
        let with = format!("[project]\nformat = \"xml\"\n{}", p.read("ctxcurate.toml"));
        p.write("ctxcurate.toml", &with);
    }
    let mut h = Harness::open(p.root(), None, 120, 30).unwrap();
    h.keys("w");
    let out = files_under(&p.path(".ctxcurate/out"));
    assert_eq!(
        out,
        ["context_001.xml", "context_002.md", "context_003.xml"]
    );
    let xml = p.read(".ctxcurate/out/context_003.xml");
    assert!(xml.starts_with("<documents>"), "{xml}");
}

#[test]
fn parallel_saves_give_distinct_files() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py", "docs/guide.md"]);
    let expected = p.ok(&["build"]);
    let children: Vec<_> = (0..40)
        .map(|_| {
            p.cmd(&["build", "--save"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let files = files_under(&p.path(".ctxcurate/out"));
    let wanted: Vec<String> = (1..=40).map(|n| format!("context_{n:03}.md")).collect();
    assert_eq!(files, wanted);
    for f in files {
        assert_eq!(p.read(&format!(".ctxcurate/out/{f}")), expected, "{f}");
    }
}

#[test]
fn directory_flag_must_name_a_directory() {
    let p = Project::fixture();
    for (dir, why) in [
        ("/nonexistent/ctxcurate-test", "no such directory"),
        (
            &*p.path("src/app.py").display().to_string(),
            "not a directory",
        ),
    ] {
        for args in [&["-C", dir, "build"][..], &["-C", dir][..]] {
            let out = p.run(args);
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            assert!(stderr(&out).contains(why), "{args:?}: {}", stderr(&out));
            assert!(stdout(&out).is_empty());
        }
    }
    // A relative directory works from where the command runs.
    p.ok(&["add", "src/app.py"]);
    assert!(p.ok(&["-C", "src", "build"]).contains("### src/app.py"));
}

#[test]
fn huge_timeouts_and_endless_output_from_the_global_summarizer() {
    let p = Project::empty();
    p.write("notes.txt", &NOTES.repeat(20));
    p.write(
        "ctxcurate.toml",
        "[[presets.default.files]]\npath = \"notes.txt\"\nview_mode = \"summary\"\n",
    );
    std::fs::create_dir_all(p.global_config().parent().unwrap()).unwrap();
    // The largest TOML integer as a timeout: once a panic (Instant overflow).
    std::fs::write(
        p.global_config(),
        "[project]\nsummary_command = \"cat\"\nsummary_timeout = 9223372036854775807\n",
    )
    .unwrap();
    let out = p.ok(&["build"]);
    assert!(out.contains("They go on."), "{out}");

    // `yes` never stops: the summary is cut at max_file_size, with a note.
    std::fs::write(
        p.global_config(),
        "[project]\nsummary_command = \"yes\"\nmax_file_size = 5000\n",
    )
    .unwrap();
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("[summary cut: summary_command printed more than 5000 bytes]"),
        "{}",
        &text[..text.len().min(500)]
    );
    assert!(text.len() < 20_000, "{}", text.len());
    assert!(
        stderr(&out).contains("summary_command printed more than 5000 bytes"),
        "{}",
        stderr(&out)
    );
}

/// When a consent lapses, the warning names what changed: the imported
/// file that was edited, the module that appeared where an import is
/// looked for, the command's value; a record from before this was kept
/// still gets the plain warning.
#[test]
fn a_lapsed_consent_names_the_file_that_changed() {
    let p = Project::empty();
    hostile(&p, "python3 tools/summarize.py");
    p.write(
        "tools/summarize.py",
        "import sys\nimport helper\nprint(helper.first(sys.stdin.read()))\n",
    );
    p.write(
        "tools/helper.py",
        "def first(text):\n    return 'SUMMARY ' + text.split()[0]\n",
    );
    p.ok(&["trust", "--yes"]);
    p.write(
        "tools/helper.py",
        "def first(text):\n    return 'SUMMARY'\n",
    );
    let err = stderr(&p.run(&["build"]));
    assert!(
        err.contains(
            "ignoring summary_command (changed since you trusted this project: \
             tools/helper.py changed; built-in summaries"
        ),
        "{err}"
    );
    p.write(
        "tools/helper.py",
        "def first(text):\n    return 'SUMMARY ' + text.split()[0]\n",
    );
    p.write("tools/sys.py", "x = 1\n");
    let err = stderr(&p.run(&["build"]));
    assert!(
        err.contains("changed since you trusted this project: tools/sys was nothing, now"),
        "{err}"
    );
    std::fs::remove_file(p.path("tools/sys.py")).unwrap();
    hostile(&p, "python3 tools/summarize.py --short");
    let err = stderr(&p.run(&["build"]));
    assert!(
        err.contains(
            "changed since you trusted this project: the value of summary_command changed"
        ),
        "{err}"
    );
}

/// A consent recorded by an earlier ctxcurate keeps no list of what it
/// covered. When it lapses the warning says so and what to do (run
/// `ctxcurate trust` again), and names what changed where that can be
/// known: a consent to the command's value alone (the first records)
/// now also covers the script it names.
#[test]
fn a_lapsed_consent_from_an_earlier_version_says_what_to_do() {
    let p = Project::empty();
    hostile(&p, "python3 tools/summarize.py");
    p.write("tools/summarize.py", "import helper\nprint(helper.X)\n");
    p.write("tools/helper.py", "X = 1\n");
    p.ok(&["trust", "--yes"]);
    let dir = p.config_home.path().join("state/ctxcurate/trust");
    let records: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    let record = &records[0];
    // The record as the stop before the last wrote it: no `covers` lines.
    let text = std::fs::read_to_string(record).unwrap();
    let old: String = text
        .lines()
        .filter(|l| !l.starts_with("covers "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(record, &old).unwrap();
    p.write("tools/helper.py", "X = 2\n");
    let err = stderr(&p.run(&["build"]));
    assert!(
        err.contains(
            "ignoring summary_command (changed since you trusted this project; \
             your consent was recorded by an earlier ctxcurate, which kept no list \
             of what it covered; built-in summaries"
        ) && err.contains("run `ctxcurate trust` again to review what it covers now"),
        "{err}"
    );
    // The first records: the fingerprint of the value alone.
    let mut table = toml::Table::new();
    table.insert(
        "summary_command".into(),
        toml::Value::String("python3 tools/summarize.py".into()),
    );
    let values_only = ctxcurate::core::trust::fingerprint(
        &ctxcurate::core::model::SettingsLayer::from_table(table),
    );
    let hex: String = values_only.iter().map(|b| format!("{b:02x}")).collect();
    let rest: Vec<&str> = old.lines().skip(1).collect();
    std::fs::write(record, format!("{hex}\n{}\n", rest.join("\n"))).unwrap();
    let err = stderr(&p.run(&["build"]));
    assert!(
        err.contains(
            "ignoring summary_command (your consent covered the value of summary_command \
             alone; consent now also covers the files it runs: tools/helper.py, \
             tools/summarize.py; built-in summaries"
        ) && err.contains("run `ctxcurate trust` again to review what it covers now"),
        "{err}"
    );
}

/// What make runs beyond a rule's own lines is covered: a script a
/// `define` block names, the script either branch of a conditional would
/// run, one a `$(shell …)` runs as make reads, and the prerequisite a
/// recipe runs as `$<`. Editing any of them
/// needs consent again (each ran unreviewed before).
#[test]
fn consent_covers_what_make_runs_through_define_conditionals_and_shell() {
    for (makefile, edited) in [
        (
            "define RUN\n\tsh tools/summarize.sh\nendef\nsummary:\n\t@$(RUN)\n",
            "tools/summarize.sh",
        ),
        (
            "ifeq ($(FAST),1)\nTOOL = tools/fast.sh\nelse\nTOOL = tools/summarize.sh\nendif\n\
             ifdef NEVER\nTOOL = tools/other.sh\nendif\nsummary:\n\t@sh $(TOOL)\n",
            "tools/other.sh",
        ),
        (
            "STAMP := $(shell sh tools/stamp.sh)\nsummary:\n\t@sh tools/summarize.sh\n",
            "tools/stamp.sh",
        ),
        (
            "summary: tools/summarize.sh\n\t@sh $<\n",
            "tools/summarize.sh",
        ),
    ] {
        let p = Project::empty();
        hostile(&p, "make -s summary");
        p.write("Makefile", makefile);
        p.write("tools/summarize.sh", "cat >/dev/null; echo SUMMARY\n");
        for helper in ["tools/fast.sh", "tools/other.sh", "tools/stamp.sh"] {
            p.write(helper, "echo 1\n");
        }
        let shown = p.ok(&["trust", "--yes"]);
        assert!(
            shown.contains(&format!("runs {edited} (content sha256")),
            "{shown}"
        );
        assert!(stdout(&p.run(&["build"])).contains("SUMMARY"), "{makefile}");
        p.write(edited, "touch pwned.txt\necho SUMMARY\n");
        assert_consent_lapsed(&p, makefile);
    }
}

/// What make's functions make a recipe run is covered: a script
/// `$(call RUN,…)` makes, each one `$(foreach …)` runs, the recipe of a
/// rule `$(eval $(call TEMPLATE,…))` makes, a prerequisite `$<` finds
/// through `vpath`, and a makefile included by a name to expand. Editing
/// any of them needs consent again (each ran unreviewed before), and a
/// script added where `vpath` looks first does too.
#[test]
fn consent_covers_what_make_functions_run_and_vpath_finds() {
    for (makefile, edited) in [
        (
            "RUN = sh $(1)\nsummary:\n\t@$(call RUN,tools/summarize.sh)\n",
            "tools/summarize.sh",
        ),
        (
            "STEPS = tools/fast.sh tools/summarize.sh\nsummary:\n\
             \t@$(foreach s,$(STEPS),sh $(s);)\n",
            "tools/fast.sh",
        ),
        (
            "define RULE\n$(1):\n\t@sh tools/$(1)ize.sh\nendef\n\
             $(foreach g,summar,$(eval $(call RULE,$(g))))\nsummary: summar\n",
            "tools/summarize.sh",
        ),
        (
            "vpath %.sh tools\nsummary: summarize.sh\n\t@sh $<\n",
            "tools/summarize.sh",
        ),
        (
            "VPATH = new:tools\nsummary: summarize.sh\n\t@sh $<\n",
            "new/summarize.sh",
        ),
        ("MK = mk\ninclude $(MK)/rules.mk\n", "mk/rules.mk"),
        // Which branch make takes hangs on a file appearing: the script
        // of either is covered, inside a word too.
        (
            "ifeq ($(wildcard tools/flag),)\nS = summarize\nelse\nS = fast\nendif\n\
             summary:\n\t@sh tools/$(S).sh\n",
            "tools/fast.sh",
        ),
        // Bash reads BASH_ENV before each recipe line.
        (
            "export BASH_ENV = tools/fast.sh\nSHELL = /bin/bash\n\
             summary:\n\t@sh tools/summarize.sh\n",
            "tools/fast.sh",
        ),
    ] {
        let p = Project::empty();
        hostile(&p, "make -s summary");
        p.write("Makefile", makefile);
        p.write("tools/summarize.sh", "cat >/dev/null; echo SUMMARY\n");
        p.write("tools/fast.sh", "true\n");
        p.write("mk/rules.mk", "summary:\n\t@sh tools/summarize.sh\n");
        let shown = p.ok(&["trust", "--yes"]);
        assert!(
            shown.contains("runs tools/summarize.sh (content sha256"),
            "{shown}"
        );
        assert!(stdout(&p.run(&["build"])).contains("SUMMARY"), "{makefile}");
        p.write(edited, "cat >/dev/null; touch pwned.txt; echo SUMMARY\n");
        assert_consent_lapsed(&p, makefile);
    }
}

/// A consented script's own commands are covered: a shell script's `sh
/// tools/w.sh`, `"$(dirname "$0")"/w.sh` and `LIB=…; . "$LIB"`; a
/// Python script's `exec(open("tools/conf.py").read())` and
/// `os.system("sh tools/w.sh")`; and a module added to the script's
/// folder that a standard library module imports (`argparse` imports
/// `gettext`). Each ran edited or new code unreviewed (sweep round 10).
#[test]
fn consent_covers_what_a_script_runs_by_name_and_its_folder() {
    let run = "cat >/dev/null; echo SUMMARY\n";
    for (command, script, script_text, edited) in [
        (
            "sh tools/s.sh",
            "tools/s.sh",
            "sh tools/w.sh\n",
            "tools/w.sh",
        ),
        (
            "sh tools/s.sh",
            "tools/s.sh",
            "sh \"$(dirname \"$0\")\"/w.sh\n",
            "tools/w.sh",
        ),
        (
            "sh tools/s.sh",
            "tools/s.sh",
            "LIB=tools/lib.sh; . \"$LIB\"\nsh tools/w.sh\n",
            "tools/lib.sh",
        ),
        (
            "python3 tools/s.py",
            "tools/s.py",
            "import os\nexec(open('tools/conf.py').read())\nos.system('sh tools/w.sh')\n",
            "tools/conf.py",
        ),
        (
            "python3 tools/s.py",
            "tools/s.py",
            "import argparse, os\nos.system('sh tools/w.sh')\n",
            "tools/gettext.py",
        ),
    ] {
        let p = Project::empty();
        hostile(&p, command);
        p.write(script, script_text);
        p.write("tools/w.sh", run);
        p.write("tools/lib.sh", "true\n");
        p.write("tools/conf.py", "X = 1\n");
        p.ok(&["trust", "--yes"]);
        assert!(
            stdout(&p.run(&["build"])).contains("SUMMARY"),
            "{script_text}"
        );
        let payload = match edited.ends_with(".py") {
            true => "open('pwned.txt', 'w')\n",
            false => "touch pwned.txt\n",
        };
        p.write(edited, payload);
        assert_consent_lapsed(&p, script_text);
    }
}

/// A shell script that runs scripts by a pattern (`for f in
/// tools/conf.d/*.sh; do . "$f"; done`) cannot be consented to: one
/// added later would run unreviewed. A pattern of other files (`rm -f
/// *.o`) is no such pattern.
#[test]
fn a_script_running_scripts_by_a_pattern_cannot_be_trusted() {
    let p = Project::empty();
    hostile(&p, "sh tools/s.sh");
    p.write(
        "tools/s.sh",
        "for f in tools/conf.d/*.sh; do . \"$f\"; done\ncat >/dev/null; echo SUMMARY\n",
    );
    let out = p.run(&["trust", "--yes"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("tools/conf.d/*.sh"),
        "{}",
        stderr(&out)
    );
    p.write("tools/s.sh", "rm -f *.o\ncat >/dev/null; echo SUMMARY\n");
    p.ok(&["trust", "--yes"]);
}

/// A compiled module Python runs without checking it against its source
/// (an unchecked-hash `.pyc`, PEP 552) is covered: replacing it alone
/// ran new code unreviewed. The `.pyc` files Python writes itself are
/// not, so running the command keeps the consent.
#[test]
fn consent_covers_a_compiled_module_python_runs_unchecked() {
    let p = Project::empty();
    hostile(&p, "python3 tools/s.py");
    p.write(
        "tools/s.py",
        "import sys, helper\nsys.stdin.read()\nprint(helper.X)\n",
    );
    p.write("tools/helper.py", "X = 'SUMMARY'\n");
    let compile = |text: &str| {
        let code = format!(
            "import importlib.util, py_compile, pathlib\n\
             src = pathlib.Path('tools/helper.py')\n\
             src.write_text({text:?})\n\
             py_compile.compile(str(src), cfile=importlib.util.cache_from_source(str(src)),\n\
                 invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)\n\
             src.write_text(\"X = 'SUMMARY'\\n\")\n"
        );
        let status = std::process::Command::new("python3")
            .args(["-c", &code])
            .current_dir(p.root())
            .status()
            .expect("python3");
        assert!(status.success());
    };
    compile("X = 'SUMMARY'\n");
    p.ok(&["trust", "--yes"]);
    for _ in 0..2 {
        let out = p.run(&["build"]);
        assert!(stdout(&out).contains("SUMMARY"), "{}", stderr(&out));
    }
    compile("open('pwned.txt', 'w')\nX = 'SUMMARY'\n");
    assert_consent_lapsed(&p, "the compiled module");
}

/// What npm reads besides `package.json` that runs code is covered: a
/// project `.npmrc` (`node-options=--require …`, `script-shell`), added
/// or edited after consent, and the program a script names by a bare
/// name in `node_modules/.bin`, as `npx` does. Each ran new code with no
/// new review (sweep round 10).
#[test]
fn consent_covers_what_npm_reads_and_runs_from_its_bins() {
    for (command, edited, text) in [
        (
            "npm run -s summary",
            ".npmrc",
            "node-options=--require ./tools/evil.js\n",
        ),
        (
            "npm run -s summary",
            "tools/evil.js",
            "require('fs').writeFileSync('pwned.txt', '')\n",
        ),
        (
            "npm run -s tool",
            "node_modules/.bin/mytool",
            "#!/bin/sh\ntouch pwned.txt\n",
        ),
        (
            "npx --no-install mytool",
            "node_modules/.bin/mytool",
            "#!/bin/sh\ntouch pwned.txt\n",
        ),
    ] {
        let p = Project::empty();
        hostile(&p, command);
        p.write(
            "package.json",
            r#"{"scripts": {"summary": "node tools/s.js", "tool": "mytool"}}"#,
        );
        p.write("tools/s.js", "process.stdout.write('SUMMARY')\n");
        p.write("tools/evil.js", "\n");
        p.write("node_modules/.bin/mytool", "#!/bin/sh\necho SUMMARY\n");
        if edited == "tools/evil.js" {
            p.write(".npmrc", "node-options=--require ./tools/evil.js\n");
        }
        let shown = p.ok(&["trust", "--yes"]);
        if edited != ".npmrc" {
            assert!(
                shown.contains(&format!("runs {edited} (content")),
                "{shown}"
            );
        }
        p.write(edited, text);
        assert_consent_lapsed(&p, &format!("{command} {edited}"));
    }
}

/// A script whose path holds a blank, quoted or escaped as the shell
/// reads it, is covered with what it imports: split at the blank, it
/// named no file, and the consent covered nothing (sweep round 10).
#[test]
fn a_script_path_with_a_blank_is_covered() {
    for command in ["python3 'tools/my s.py'", "python3 tools/my\\ s.py"] {
        let p = Project::empty();
        hostile(&p, command);
        p.write(
            "tools/my s.py",
            "import sys, helper\nsys.stdin.read()\nprint('SUMMARY')\n",
        );
        p.write("tools/helper.py", "X = 1\n");
        let shown = p.ok(&["trust", "--yes"]);
        assert!(
            shown.contains("runs tools/my s.py (content"),
            "{command}: {shown}"
        );
        p.write("tools/helper.py", "open('pwned.txt', 'w')\n");
        assert_consent_lapsed(&p, command);
    }
}

/// A command run by the Python of a virtual environment inside the
/// project covers what the script imports from its `site-packages` and
/// the `.pth` files that Python runs as it starts (a repository can ship
/// a venv; sweep round 10).
#[test]
fn consent_covers_a_project_virtualenv_the_command_runs() {
    for (edited, text) in [
        (
            "venv/lib/python3.11/site-packages/dep.py",
            "open('pwned.txt', 'w')\n",
        ),
        (
            "venv/lib/python3.11/site-packages/zz.pth",
            "import os; open('pwned.txt', 'w')\n",
        ),
    ] {
        let p = Project::empty();
        hostile(&p, "venv/bin/python tools/s.py");
        p.write("venv/pyvenv.cfg", "home = /usr/bin\n");
        p.write("venv/bin/python", "#!/bin/sh\nexec python3 \"$@\"\n");
        p.write("venv/lib/python3.11/site-packages/dep.py", "X = 1\n");
        p.write("tools/s.py", "import dep\nprint('SUMMARY')\n");
        let shown = p.ok(&["trust", "--yes"]);
        assert!(
            shown.contains("runs venv/lib/python3.11/site-packages/dep.py (content"),
            "{shown}"
        );
        p.write(edited, text);
        let out = p.run(&["build"]);
        assert!(
            stderr(&out).contains("changed since you trusted this project"),
            "{edited}: {}",
            stderr(&out)
        );
    }
}

/// After an edit to what a consented command runs (`what`): the next
/// build runs none of it (no `pwned.txt`) and says the consent lapsed.
pub(super) fn assert_consent_lapsed(p: &Project, what: &str) {
    p.ok(&["cache", "clear"]);
    let out = p.run(&["build"]);
    assert!(!p.path("pwned.txt").exists(), "{what}: ran unreviewed");
    assert!(
        stderr(&out).contains("changed since you trusted this project"),
        "{what}: {}",
        stderr(&out)
    );
}
