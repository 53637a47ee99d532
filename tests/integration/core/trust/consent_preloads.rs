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
        ("bun --preload ./tools/pre tools/s.js", PRE, "tools/pre.js"),
        ("ts-node -r ./tools/pre tools/s.js", PRE, "tools/h.js"),
        // Node 20 honours `NODE_OPTIONS` in the file `--env-file` names.
        (
            "node --env-file=tools/node.env tools/s.js",
            &[
                S_JS,
                ("tools/node.env", "NODE_OPTIONS=\"--require ./tools/pre\"\n"),
                ("tools/pre.js", "1\n"),
            ],
            "tools/pre.js",
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

const S_PHP: (&str, &str) = ("tools/s.php", "<?php echo 'SUMMARY';\n");
const PRE_PHP: (&str, &str) = ("tools/pre.php", "<?php echo '';\n");

/// Item 2: what PHP's configuration runs before or after the script (a
/// `-d auto_prepend_file=`, an ini file `-c` or `PHPRC` names, each ini
/// of a `PHP_INI_SCAN_DIR`, and the files those set) is covered.
#[test]
fn what_php_configuration_runs_is_covered() {
    const INI: Files = &[
        S_PHP,
        PRE_PHP,
        (
            "conf/php.ini",
            "[PHP]\nauto_prepend_file = \"tools/pre.php\"\n",
        ),
    ];
    const SCAN: Files = &[
        S_PHP,
        PRE_PHP,
        ("conf.d/10-a.ini", "auto_append_file=tools/pre.php ; x\n"),
    ];
    assert_edits_lapse(&[
        (
            "php -d auto_prepend_file=tools/pre.php tools/s.php",
            &[S_PHP, PRE_PHP],
            "tools/pre.php",
        ),
        ("php -c conf/php.ini tools/s.php", INI, "tools/pre.php"),
        ("php -c conf tools/s.php", INI, "conf/php.ini"),
        ("php -c conf tools/s.php", INI, "conf/php-cli.ini"),
        ("PHPRC=conf php tools/s.php", INI, "tools/pre.php"),
        (
            "PHP_INI_SCAN_DIR=conf.d php tools/s.php",
            SCAN,
            "tools/pre.php",
        ),
        // A new ini in the scan folder runs too.
        (
            "PHP_INI_SCAN_DIR=conf.d php tools/s.php",
            SCAN,
            "conf.d/20-b.ini",
        ),
    ]);
}

/// Item 2: a PHP setting known only as it runs (`${VAR}` in an ini, a
/// computed `-d` value, a computed `PHPRC`), or a prepended file that
/// runs a computed program, is refused.
#[test]
fn a_computed_php_configuration_is_refused() {
    const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
    assert_each_refused(&[
        ("php -d 'auto_prepend_file=${PF}' tools/s.php", &[S_PHP]),
        (
            "php -d auto_prepend_file=\"$(cat tools/which)\" tools/s.php",
            &[S_PHP, WHICH],
        ),
        ("PHPRC=$(cat tools/which) php tools/s.php", &[S_PHP, WHICH]),
        (
            "php -c conf tools/s.php",
            &[S_PHP, ("conf/php.ini", "auto_prepend_file=${PF}\n")],
        ),
        (
            "php -d auto_prepend_file=tools/pre.php tools/s.php",
            &[
                S_PHP,
                WHICH,
                ("tools/w.sh", RUN_SH),
                (
                    "tools/pre.php",
                    "<?php\nsystem(trim(file_get_contents('tools/which')));\n",
                ),
            ],
        ),
    ]);
}

const WHICH_RB: (&str, &str) = ("tools/which", "tools/w.sh\n");
const RUNS_WHICH: &str = "task :summary do\n  sh File.read('tools/which').strip\nend\n";

/// Item 3: what `rake` loads besides its Rakefile (each `rakelib/*.rake`,
/// a `-f`/`--rakefile` file, a `-R` folder's) and the Gemfile
/// `BUNDLE_GEMFILE` names are covered; a `.rake` added later lapses.
#[test]
fn what_rake_and_bundler_load_is_covered() {
    const RAKELIB: Files = &[
        ("Rakefile", "task :x\n"),
        (
            "rakelib/a.rake",
            "task :summary do\n  puts 'SUMMARY'\nend\n",
        ),
    ];
    const CONFIGURED: Files = &[
        ("tools/s.rb", "require 'bundler/setup'\nputs 'SUMMARY'\n"),
        (
            ".bundle/config",
            "---\nBUNDLE_GEMFILE: \"tools/Gemfile.ci\"\n",
        ),
        ("tools/Gemfile.ci", "source 'https://rubygems.org'\n"),
    ];
    assert_edits_lapse(&[
        ("ruby tools/s.rb", CONFIGURED, "tools/Gemfile.ci"),
        ("ruby tools/s.rb", CONFIGURED, ".bundle/config"),
        ("rake summary", RAKELIB, "rakelib/a.rake"),
        ("rake summary", RAKELIB, "rakelib/b.rake"),
        (
            "rake summary",
            &[("Rakefile", "task :x\n")],
            "rakelib/a.rake",
        ),
        (
            "rake -f tools/Buildfile summary",
            &[("tools/Buildfile", "task :summary\n")],
            "tools/Buildfile",
        ),
        (
            "rake -R tools/tasks summary",
            &[("Rakefile", "task :x\n")],
            "tools/tasks/a.rake",
        ),
        (
            "BUNDLE_GEMFILE=tools/Gemfile.ci ruby tools/s.rb",
            &[
                ("tools/s.rb", "require 'bundler/setup'\nputs 'SUMMARY'\n"),
                ("tools/Gemfile.ci", "source 'https://rubygems.org'\n"),
            ],
            "tools/Gemfile.ci",
        ),
    ]);
}

/// Item 3: the Rakefile, the `rakelib` files and the Gemfile are read
/// as the Ruby they are: one that runs a computed program is refused.
#[test]
fn a_rakefile_or_gemfile_running_a_computed_program_is_refused() {
    assert_each_refused(&[
        ("rake summary", &[("Rakefile", RUNS_WHICH), WHICH_RB]),
        (
            "rake summary",
            &[
                ("Rakefile", "task :x\n"),
                ("rakelib/a.rake", RUNS_WHICH),
                WHICH_RB,
            ],
        ),
        (
            "rake -f tools/Buildfile summary",
            &[("tools/Buildfile", RUNS_WHICH), WHICH_RB],
        ),
        (
            "bundle exec ruby tools/s.rb",
            &[
                ("tools/s.rb", "puts 'SUMMARY'\n"),
                ("Gemfile", "system(File.read('tools/which').strip)\n"),
                WHICH_RB,
            ],
        ),
        (
            "BUNDLE_GEMFILE=tools/Gemfile.ci ruby tools/s.rb",
            &[
                ("tools/s.rb", "require 'bundler/setup'\nputs 'SUMMARY'\n"),
                (
                    "tools/Gemfile.ci",
                    "system(File.read('tools/which').strip)\n",
                ),
                WHICH_RB,
            ],
        ),
        (
            "bundle exec ruby tools/s.rb",
            &[
                ("tools/s.rb", "puts 'SUMMARY'\n"),
                (
                    ".bundle/config",
                    "---\nBUNDLE_GEMFILE: \"tools/Gemfile.ci\"\n",
                ),
                (
                    "tools/Gemfile.ci",
                    "system(File.read('tools/which').strip)\n",
                ),
                WHICH_RB,
            ],
        ),
        (
            "rake -f \"$(cat tools/which)\" summary",
            &[("Rakefile", "task :x\n"), WHICH_RB],
        ),
        (
            "rake -R \"$(cat tools/which)\" summary",
            &[("Rakefile", "task :x\n"), WHICH_RB],
        ),
        (
            "BUNDLE_GEMFILE=$(cat tools/which) bundle exec ruby tools/s.rb",
            &[("tools/s.rb", "puts 1\n"), WHICH_RB],
        ),
    ]);
}
