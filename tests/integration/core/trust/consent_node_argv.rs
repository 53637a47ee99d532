//! What a Node script runs itself (consent round 6, items 2 and 3): a
//! program `execFile`, `spawn` or `fork` is handed that is known only as
//! it runs, or an interpreter's script that is, a computed
//! `execSync(`${x}`)` line, and a git command that runs the
//! repository's hooks, are refused, as Python's are since round 5;
//! literals and `process.execPath` stay covered. A project folder that
//! `process.env.PATH = …` puts in `PATH` has its programs covered, and
//! a `PATH` known only as it runs is refused.

use super::consent_runtime::{Case, Files, RUN_SH, assert_cases_lapse, assert_each_refused, leak};

const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
const W: (&str, &str) = ("tools/w.sh", RUN_SH);
const READ: &str =
    "const fs = require('fs')\nconst w = fs.readFileSync('tools/which', 'utf8').trim()\n";

fn script(text: &'static str) -> (&'static str, Files) {
    (
        "node tools/s.js",
        Box::leak(Box::new([("tools/s.js", text), WHICH, W])),
    )
}

#[test]
fn a_node_script_running_a_computed_program_or_script_is_refused() {
    let with_read = |rest: &str| script(leak(format!("{READ}{rest}")));
    assert_each_refused(&[
        with_read(
            "const { execFileSync } = require('child_process')\nexecFileSync(w, [], { stdio: 'inherit' })\n",
        ),
        with_read(
            "const cp = require('child_process')\ncp.spawnSync('sh', [w], { stdio: 'inherit' })\n",
        ),
        with_read("const { fork } = require('child_process')\nfork(w)\n"),
        with_read(
            "const { execSync } = require('child_process')\nexecSync(`${w}`, { stdio: 'inherit' })\n",
        ),
        with_read(
            "const child_process = require('node:child_process')\nchild_process.spawn(w, { stdio: 'inherit' })\n",
        ),
        with_read("import { execFile as run } from 'child_process'\nrun('bash', [w])\n"),
        with_read(
            "const cp = require('child_process')\n\
             cp.spawnSync('sh', [`${w}`], { stdio: 'inherit' })\n",
        ),
        with_read(
            "const cp = require('child_process')\nprocess.env.PATH = w + ':' + process.env.PATH\n\
             cp.execFileSync('app', { stdio: 'inherit' })\n",
        ),
    ]);
}

#[test]
fn a_node_script_running_a_git_command_that_runs_hooks_is_refused() {
    assert_each_refused(&[
        script("const cp = require('child_process')\ncp.execSync('git -C .none commit -qm x')\n"),
        script(
            "const { spawn } = require('child_process')\nspawn('git', ['-C', '.none', 'push'])\n",
        ),
        script(leak(format!(
            "{READ}const {{ execFile }} = require('child_process')\n\
             execFile('git', ['-C', '.none', 'checkout', w])\n"
        ))),
    ]);
}

#[test]
fn a_node_script_running_literal_programs_is_covered() {
    let case = |files: Files, edited: &'static str| Case {
        command: "node tools/s.js",
        files,
        executable: match edited {
            "bin/app" => &["bin/app"],
            _ => &[],
        },
        edited,
    };
    assert_cases_lapse(&[
        case(
            &[
                (
                    "tools/s.js",
                    "const cp = require('child_process')\nconst re = /abc/;\nre.exec('abc')\n\
                     cp.execSync('git log -1 >/dev/null 2>&1; git status >/dev/null 2>&1; true')\n\
                     cp.spawnSync('git', ['diff', '--stat'])\n\
                     cp.execFileSync('sh', ['tools/w.sh'], { stdio: 'inherit' })\n",
                ),
                W,
            ],
            "tools/w.sh",
        ),
        case(
            &[
                (
                    "tools/s.js",
                    "const { spawnSync } = require('child_process')\n\
                     spawnSync(process.execPath, ['tools/w.js'], { stdio: 'inherit' })\n",
                ),
                ("tools/w.js", "console.log('SUMMARY')\n"),
            ],
            "tools/w.js",
        ),
        case(
            &[
                (
                    "tools/s.js",
                    "const cp = require('child_process')\n\
                     process.env.PATH = 'bin:' + process.env.PATH\n\
                     cp.execFileSync('app', { stdio: 'inherit' })\n",
                ),
                ("bin/app", RUN_SH),
            ],
            "bin/app",
        ),
    ]);
}
