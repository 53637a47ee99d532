//! Code a script loads by a name it computes (recheck of consent round
//! 11, F-C, F-D, F-E): the simple forms are worked out and covered
//! (`require(path.join(__dirname, "h"))`, a name bound to a literal);
//! the rest (a loop over a folder's listing, an f-string, names read
//! from a file) is known only as it runs, so the command cannot be
//! trusted.

use super::consent_runtime::{Case, Files, assert_cases_lapse, assert_refused};

/// A Node module that prints the summary when loaded.
const H_JS: &str = "process.stdout.write('SUMMARY')\n";

/// `require` of a path built from the script's folder, of
/// `require.resolve`, of a name bound to a literal; Python's
/// `import_module` of a name bound to a literal.
#[test]
fn consent_covers_what_a_script_loads_by_a_simple_computed_name() {
    let node = |script: &'static str| Case {
        command: "node tools/s.js",
        files: Box::leak(Box::new([("tools/s.js", script), ("tools/h.js", H_JS)])),
        executable: &[],
        edited: "tools/h.js",
    };
    assert_cases_lapse(&[
        node("const path = require('path')\nrequire(path.join(__dirname, 'h'))\n"),
        node("require(__dirname + '/h.js')\n"),
        node("require(require.resolve('./h'))\n"),
        node("const n = './h'\nrequire(n)\n"),
        node("const n=\"./h\";require(n);\n"),
        node(
            "const path = require('path')\nconst d = path.join(__dirname)\nrequire(path.join(d, 'h'))\n",
        ),
        Case {
            command: "python3 tools/s.py",
            files: &[
                (
                    "tools/s.py",
                    "import importlib\nname = 'helper'\nimportlib.import_module(name)\n\
                     print('SUMMARY')\n",
                ),
                ("tools/helper.py", "X = 1\n"),
            ],
            executable: &[],
            edited: "tools/helper.py",
        },
    ]);
}

/// A plugin loader over a folder's listing, an f-string or a list's
/// names, names read from json, a computed `require`: refused, and
/// nothing runs.
#[test]
fn consent_is_refused_for_code_loaded_by_a_name_known_only_as_it_runs() {
    let cases: &[(&str, Files)] = &[
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import importlib\nmods = ['helper']\n\
                     for m in mods: importlib.import_module(m)\nprint('SUMMARY')\n",
                ),
                ("tools/helper.py", "X = 1\n"),
            ],
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import importlib, sys\nsys.path.insert(0, 'tools')\nn = 'a'\n\
                     importlib.import_module(f'plug_{n}')\nprint('SUMMARY')\n",
                ),
                ("tools/plug_a.py", "X = 1\n"),
            ],
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import importlib, json, sys\nsys.path.insert(0, 'tools')\n\
                     for m in json.load(open('tools/plugins.json')):\n    \
                     importlib.import_module(m)\nprint('SUMMARY')\n",
                ),
                ("tools/plugins.json", "[\"p1\"]\n"),
                ("tools/p1.py", "X = 1\n"),
            ],
        ),
        (
            "python3 tools/s.py",
            &[
                (
                    "tools/s.py",
                    "import glob, runpy\n\
                     for f in sorted(glob.glob('tools/plugins/*.py')):\n    runpy.run_path(f)\n\
                     print('SUMMARY')\n",
                ),
                ("tools/plugins/a.py", "X = 1\n"),
            ],
        ),
        (
            "node tools/s.js",
            &[
                (
                    "tools/s.js",
                    "const fs = require('fs'), path = require('path')\n\
                     const d = path.join(__dirname, 'plugins')\n\
                     for (const f of fs.readdirSync(d)) require(path.join(d, f))\n\
                     process.stdout.write('SUMMARY')\n",
                ),
                ("tools/plugins/a.js", "1\n"),
            ],
        ),
    ];
    assert_refused(cases);
}
