//! Node runners read in round 8 (item 3): execa's `$(options)` and
//! `$.sync` templates, execa reached through a project file that
//! re-exports it, `import * as cs from "cross-spawn"`, shelljs's
//! `shelljs.exec` and its `cmd`, and the globals of
//! `require("shelljs/global")`: a computed program refused, a re-export
//! of a runner refused (its importers' calls are not read across files).

use super::consent_runtime::{Case, Files, RUN_SH, assert_cases_lapse, assert_each_refused, leak};

const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
const W: (&str, &str) = ("tools/w.sh", RUN_SH);
const JS_READ: &str =
    "const fs = require('fs')\nconst w = fs.readFileSync('tools/which', 'utf8').trim()\n";

fn node(text: &str) -> (&'static str, Files) {
    let text = leak(format!("{JS_READ}{text}"));
    (
        "node tools/s.js",
        Box::leak(Box::new([("tools/s.js", text), WHICH, W])),
    )
}

fn node_with(text: &str, other: (&'static str, &'static str)) -> (&'static str, Files) {
    let text = leak(format!("{JS_READ}{text}"));
    (
        "node tools/s.js",
        Box::leak(Box::new([("tools/s.js", text), other, WHICH, W])),
    )
}

#[test]
fn a_node_runner_read_in_round_8_given_a_computed_program_is_refused() {
    assert_each_refused(&[
        node("import { $ } from 'execa'\nawait $({ stdio: 'inherit' })`sh ${w}`\n"),
        node("const { $ } = require('execa')\n$.sync`sh ${w}`\n"),
        node("import { $ } from 'execa'\nconst $$ = $({ stdio: 'inherit' })\nawait $$`sh ${w}`\n"),
        node("import { $ } from 'execa'\nawait $`git -C .none commit -qm x`\n"),
        node_with(
            "const run = require('./run')\nrun('sh', [w])\n",
            ("tools/run.js", "module.exports = require('execa')\n"),
        ),
        node_with(
            "const { execa } = require('./run')\nexeca('sh', [w])\n",
            ("tools/run.js", "export * from 'execa'\n"),
        ),
        node_with(
            "const { go } = require('./run')\ngo('sh ' + w)\n",
            (
                "tools/run.js",
                "const cp = require('child_process')\nmodule.exports = { go: cp.execSync }\n",
            ),
        ),
        node("import * as cs from 'cross-spawn'\ncs.sync('sh', [w], { stdio: 'inherit' })\n"),
        node("import * as cs from 'cross-spawn'\ncs.default('sh', [w])\n"),
        node("const shelljs = require('shelljs')\nshelljs.exec('sh ' + w)\n"),
        node("const shell = require('shelljs')\nshell.cmd('sh', w)\n"),
        node("require('shelljs/global')\nexec('sh ' + w)\n"),
        node("require('shelljs/global')\ncmd('sh', w)\n"),
        node("const shell = require('shelljs')\nshell.cmd('git', '-C', '.none', 'push')\n"),
    ]);
}

/// A literal run through shelljs's `cmd` stays covered: its script's
/// edit lapses the consent.
#[test]
fn a_node_runner_read_in_round_8_given_a_literal_is_covered() {
    let case = |text: &'static str| Case {
        command: "node tools/s.js",
        files: Box::leak(Box::new([
            ("tools/s.js", text),
            W,
            // A stand-in for shelljs (none installed here): prints.
            (
                "node_modules/shelljs/index.js",
                "module.exports = { cmd: () => process.stdout.write('SUMMARY\\n') }\n",
            ),
        ])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[case(
        "const shell = require('shelljs')\nshell.cmd('sh', 'tools/w.sh')\n",
    )]);
}

/// Round 9, item 3: a re-export of a project module (`export * from
/// './x.mjs'`, `export { a } from './y.mjs'`, over lines, `export * as
/// n from`) is read as an import: the file it names is covered (an edit
/// lapses the consent), not refused; a re-export of a runner stays
/// refused (above).
#[test]
fn a_re_export_of_a_project_module_is_covered_as_an_import() {
    const S: &str = "export * from './x.mjs'\nexport {\n  b,\n} from './y.mjs';\n\
                     export * as n from \"./z.mjs\"\nconsole.log('SUMMARY')\n";
    let files: Files = &[
        ("tools/s.mjs", S),
        ("tools/x.mjs", "export const a = 1\n"),
        ("tools/y.mjs", "export const b = 1\n"),
        ("tools/z.mjs", "export const c = 1\n"),
    ];
    super::consent_runtime::assert_edits_lapse(&[
        ("node tools/s.mjs", files, "tools/x.mjs"),
        ("node tools/s.mjs", files, "tools/y.mjs"),
        ("node tools/s.mjs", files, "tools/z.mjs"),
    ]);
}
