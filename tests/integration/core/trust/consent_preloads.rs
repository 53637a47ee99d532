//! Files a command line loads before its script (consent round 12): what
//! Node's `-r`/`--require`/`--import`/`--loader` name (also in
//! `NODE_OPTIONS`), PHP's ini files and `auto_prepend_file`, and rake's
//! `rakelib`, `-f` and `-R` are covered, or refused when they are known
//! only as the command runs.

use super::consent_runtime::{Files, RUN_SH, assert_each_refused, assert_edits_lapse};

const S_JS: (&str, &str) = ("tools/s.js", "process.stdout.write('SUMMARY')\n");

/// Item 1: the module Node preloads, named without its extension, as a
/// bare package in `node_modules`, or in `NODE_OPTIONS`, is covered
/// (each ran edited unreviewed), with what it loads in turn.
#[test]
fn a_module_node_preloads_is_covered() {
    const PRE: Files = &[
        S_JS,
        ("tools/pre.js", "require('./h')\n"),
        ("tools/h.js", "1\n"),
    ];
    const BARE: Files = &[
        S_JS,
        ("node_modules/dotenv/config.js", "require('./lib/main')\n"),
        ("node_modules/dotenv/lib/main.js", "1\n"),
    ];
    assert_edits_lapse(&[
        ("node -r ./tools/pre tools/s.js", PRE, "tools/pre.js"),
        ("node --require=./tools/pre tools/s.js", PRE, "tools/h.js"),
        (
            "NODE_OPTIONS='--require ./tools/pre' node tools/s.js",
            PRE,
            "tools/pre.js",
        ),
        (
            "env NODE_OPTIONS=-r\\ ./tools/pre node tools/s.js",
            PRE,
            "tools/h.js",
        ),
        ("node --import ./tools/pre tools/s.js", PRE, "tools/pre.js"),
        (
            "node -r dotenv/config tools/s.js",
            BARE,
            "node_modules/dotenv/config.js",
        ),
        (
            "node --require dotenv/config tools/s.js",
            BARE,
            "node_modules/dotenv/lib/main.js",
        ),
        // A preload that is missing now: one added later runs.
        ("node -r ./tools/pre tools/s.js", &[S_JS], "tools/pre.js"),
    ]);
}

/// Item 1: a preload whose name is known only as the command runs is
/// refused, and so is a preloaded module that runs a computed program.
#[test]
fn a_computed_node_preload_is_refused() {
    const W: (&str, &str) = ("tools/w.sh", RUN_SH);
    assert_each_refused(&[
        (
            "node -r \"$(cat tools/which)\" tools/s.js",
            &[S_JS, ("tools/which", "./tools/pre\n")],
        ),
        (
            "NODE_OPTIONS=\"--require $(cat tools/which)\" node tools/s.js",
            &[S_JS, ("tools/which", "./tools/pre\n")],
        ),
        (
            "node -r ./tools/pre tools/s.js",
            &[
                S_JS,
                W,
                (
                    "tools/pre.js",
                    "const cp = require('child_process')\n\
                     cp.execSync(require('fs').readFileSync('tools/which', 'utf8'))\n",
                ),
            ],
        ),
    ]);
}
