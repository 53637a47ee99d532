//! Code a Perl, Ruby or Node script finds as it runs (recheck 15, F5):
//! a plugin folder's files `do`ne or `require`d by a computed name, a
//! file's contents `eval`ed, and search folders the script itself adds
//! (`use lib`, `@INC`, `$LOAD_PATH`, `module.paths`). A computed load is
//! a refusal; a literal search folder is covered, so a module added in
//! an earlier folder (one that would shadow the reviewed one) makes the
//! consent lapse.

use super::consent_runtime::{Files, assert_edits_lapse, assert_refused};

const PLUGIN_PL: (&str, &str) = ("tools/plugins/a.pl", "1;\n");
const PLUGIN_RB: (&str, &str) = ("tools/plugins/a.rb", "X = 1\n");

#[test]
fn a_perl_script_that_loads_code_by_a_computed_name_cannot_be_trusted() {
    const CASES: &[(&str, Files)] = &[
        (
            "perl tools/s.pl",
            &[
                (
                    "tools/s.pl",
                    "for my $f (glob \"tools/plugins/*.pl\") { do \"./$f\"; }\nprint \"SUMMARY\\n\";\n",
                ),
                PLUGIN_PL,
            ],
        ),
        (
            "perl tools/s.pl",
            &[
                (
                    "tools/s.pl",
                    "opendir(my $d, \"tools/plugins\");\nfor my $f (readdir $d) {\n  \
                     next unless $f =~ /pl$/;\n  require \"./tools/plugins/$f\";\n}\n\
                     print \"SUMMARY\\n\";\n",
                ),
                PLUGIN_PL,
            ],
        ),
        (
            "perl tools/s.pl",
            &[
                (
                    "tools/s.pl",
                    "open(my $h, \"<\", \"tools/p.txt\") or die;\n\
                     my $c = do { local $/; <$h> };\neval $c;\nprint \"SUMMARY\\n\";\n",
                ),
                ("tools/p.txt", "1;\n"),
            ],
        ),
        (
            "perl tools/s.pl",
            &[(
                "tools/s.pl",
                "my $m = $ENV{PLUGIN};\nrequire $m;\nprint \"SUMMARY\\n\";\n",
            )],
        ),
        (
            "perl tools/s.pl",
            &[(
                "tools/s.pl",
                "use lib $ENV{HOME} . \"/lib\";\nuse Helper;\nprint \"SUMMARY\\n\";\n",
            )],
        ),
    ];
    assert_refused(CASES);
}

#[test]
fn perl_search_folders_a_script_adds_are_covered_whole() {
    const HELPER_B: (&str, &str) = ("tools/b/Helper.pm", "package Helper;\nsub f { 1 }\n1;\n");
    assert_edits_lapse(&[
        (
            "perl tools/s.pl",
            &[
                (
                    "tools/s.pl",
                    "use lib \"tools/a\", \"tools/b\";\nuse Helper;\nprint \"SUMMARY\\n\";\n",
                ),
                HELPER_B,
            ],
            "tools/a/Helper.pm",
        ),
        (
            "perl tools/s.pl",
            &[
                (
                    "tools/s.pl",
                    "use lib qw(tools/a tools/b);\nuse Helper;\nprint \"SUMMARY\\n\";\n",
                ),
                HELPER_B,
            ],
            "tools/a/Helper.pm",
        ),
        (
            "perl tools/s.pl",
            &[
                (
                    "tools/s.pl",
                    "BEGIN { unshift @INC, \"tools/b\"; unshift @INC, \"tools/a\"; }\n\
                     use Helper;\nprint \"SUMMARY\\n\";\n",
                ),
                HELPER_B,
            ],
            "tools/a/Helper.pm",
        ),
        (
            "perl tools/s.pl",
            &[
                (
                    "tools/s.pl",
                    "do \"./tools/conf.pl\";\nprint \"SUMMARY\\n\";\n",
                ),
                ("tools/conf.pl", "1;\n"),
            ],
            "tools/conf.pl",
        ),
        (
            "perl -Itools tools/s.pl",
            &[
                ("tools/s.pl", "do \"conf.pl\";\nprint \"SUMMARY\\n\";\n"),
                ("tools/conf.pl", "1;\n"),
            ],
            "tools/conf.pl",
        ),
    ]);
}

/// Perl loads `Helper.pmc` before `Helper.pm`, and `use lib`/`-I`-style
/// folders' version and architecture folders before the folder: a new
/// file at any of them runs instead of what was consented to (recheck 16
/// F-PMC: each ran unreviewed).
#[test]
fn perl_module_files_that_would_load_first_lapse_the_consent() {
    const SCRIPT: (&str, &str) = (
        "tools/s.pl",
        "use lib \"tools\";\nuse Helper;\nprint \"SUMMARY\\n\";\n",
    );
    const HELPER: (&str, &str) = ("tools/Helper.pm", "package Helper;\n1;\n");
    let mut cases: Vec<(&str, Files, String)> = vec![
        (
            "perl tools/s.pl",
            &[SCRIPT, HELPER],
            "tools/Helper.pmc".into(),
        ),
        (
            "perl -Itools tools/s2.pl",
            &[
                ("tools/s2.pl", "use Helper;\nprint \"SUMMARY\\n\";\n"),
                HELPER,
            ],
            "tools/Helper.pmc".into(),
        ),
    ];
    // The folder names lib.pm adds are this machine's perl's.
    let config = std::process::Command::new("perl")
        .args([
            "-MConfig",
            "-e",
            "print \"$Config{archname} $Config{version}\"",
        ])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok());
    if let Some((arch, version)) = config.as_deref().and_then(|c| c.split_once(' ')) {
        cases.push((
            "perl tools/s.pl",
            &[SCRIPT, HELPER],
            format!("tools/{version}/Helper.pm"),
        ));
        cases.push((
            "perl tools/s.pl",
            &[SCRIPT, HELPER],
            format!("tools/{arch}/Helper.pm"),
        ));
    }
    let cases: Vec<(&str, Files, &str)> =
        cases.iter().map(|(c, f, n)| (*c, *f, n.as_str())).collect();
    assert_edits_lapse(&cases);
}

#[test]
fn a_node_script_s_module_paths_are_covered_or_refused() {
    assert_edits_lapse(&[(
        "node tools/s.js",
        &[
            (
                "tools/s.js",
                "module.paths.unshift(__dirname + \"/a\");\n\
                 module.paths.push(require(\"path\").join(__dirname, \"b\"));\n\
                 const h = require(\"helper\");\nconsole.log(\"SUMMARY\");\n",
            ),
            ("tools/b/helper.js", "module.exports = 1;\n"),
        ],
        "tools/a/helper.js",
    )]);
    assert_refused(&[
        (
            "node tools/s.js",
            &[(
                "tools/s.js",
                "module.paths.unshift(process.env.HOME + \"/a\");\nrequire(\"helper\");\n",
            )],
        ),
        (
            "node tools/s.js",
            &[(
                "tools/s.js",
                "require.main.paths.push(require(\"fs\").readFileSync(\"tools/d.txt\", \"utf8\"));\n\
                 require(\"helper\");\n",
            )],
        ),
        (
            "node tools/s.js",
            &[(
                "tools/s.js",
                "const Module = require(\"module\");\nconst old = Module._nodeModulePaths;\n\
                 Module._nodeModulePaths = (d) => [\"tools/x\"].concat(old(d));\nrequire(\"helper\");\n",
            )],
        ),
    ]);
}

#[test]
fn a_ruby_script_that_loads_code_by_a_computed_name_cannot_be_trusted() {
    assert_refused(&[
        (
            "ruby tools/s.rb",
            &[
                (
                    "tools/s.rb",
                    "Dir.glob(File.join(__dir__, \"plugins\", \"*.rb\")).each { |f| require f }\n",
                ),
                PLUGIN_RB,
            ],
        ),
        (
            "ruby tools/s.rb",
            &[
                (
                    "tools/s.rb",
                    "Dir[\"tools/plugins/*.rb\"].each do |f|\n  load f\nend\n",
                ),
                PLUGIN_RB,
            ],
        ),
        (
            "ruby tools/s.rb",
            &[("tools/s.rb", "require_relative ENV[\"PLUGIN\"]\n")],
        ),
        (
            "ruby tools/s.rb",
            &[(
                "tools/s.rb",
                "$LOAD_PATH.unshift ENV[\"LIB\"]\nrequire \"helper\"\n",
            )],
        ),
    ]);
}

#[test]
fn ruby_load_path_folders_a_script_adds_are_covered_whole() {
    assert_edits_lapse(&[
        (
            "ruby tools/s.rb",
            &[
                (
                    "tools/s.rb",
                    "$LOAD_PATH.unshift File.join(__dir__, \"b\")\n\
                     $LOAD_PATH.unshift File.join(__dir__, \"a\")\nrequire \"helper\"\n",
                ),
                ("tools/b/helper.rb", "X = 1\n"),
            ],
            "tools/a/helper.rb",
        ),
        (
            "ruby tools/s.rb",
            &[
                ("tools/s.rb", "require_relative \"conf\"\n"),
                ("tools/conf.rb", "X = 1\n"),
            ],
            "tools/conf.rb",
        ),
    ]);
}
