//! Consent round 12, item 4: the library words a command line gives an
//! interpreter (`ruby -r`/`-I`, `RUBYLIB`, `perl -I`, `node -r`, PHP's
//! `auto_prepend_file`) are confined exactly as its script words are: one
//! that lands inside the root, however spelled (an absolute path), is
//! covered; one that leaves the root is the user's, as a script word
//! leaving it is (not listed, and its edit lapses nothing).

use super::consent::{assert_consent_lapsed, hostile};
use crate::common::{Project, stderr};

/// `{ROOT}` in a command: the project's absolute path.
fn with_root(p: &Project, command: &str) -> String {
    command.replace("{ROOT}", &p.root().display().to_string())
}

#[test]
fn a_library_named_by_its_absolute_path_inside_the_root_is_covered() {
    for (command, script, library, text) in [
        (
            "ruby -I{ROOT}/lib tools/s.rb",
            "tools/s.rb",
            "lib/helper.rb",
            "require 'helper'\n",
        ),
        (
            "RUBYLIB={ROOT}/lib ruby tools/s.rb",
            "tools/s.rb",
            "lib/helper.rb",
            "require 'helper'\n",
        ),
        (
            "perl -I{ROOT}/lib tools/s.pl",
            "tools/s.pl",
            "lib/Helper.pm",
            "use Helper;\n",
        ),
        (
            "node -r {ROOT}/tools/pre tools/s.js",
            "tools/s.js",
            "tools/pre.js",
            "1;\n",
        ),
        (
            "ruby -r{ROOT}/tools/q tools/s.rb",
            "tools/s.rb",
            "tools/q.rb",
            "1\n",
        ),
    ] {
        let p = Project::empty();
        let command = with_root(&p, command);
        hostile(&p, &command);
        p.write(script, text);
        p.write(library, "1\n");
        let shown = p.ok(&["trust", "--yes"]);
        assert!(
            shown.contains(&format!("runs {library} (content")),
            "{command}: {shown}"
        );
        p.write(library, "2\n");
        assert_consent_lapsed(&p, &format!("{command} {library}"));
    }
}

#[test]
fn a_library_leaving_the_root_is_the_users_as_a_script_word_is() {
    for (command, script, library) in [
        ("ruby -r{OUT}/lib tools/s.rb", "tools/s.rb", "lib.rb"),
        ("ruby -r{REL}/lib tools/s.rb", "tools/s.rb", "lib.rb"),
        (
            "RUBYOPT=-r{REL}/lib ruby tools/s.rb",
            "tools/s.rb",
            "lib.rb",
        ),
        ("ruby -I{REL} tools/s.rb", "tools/s.rb", "helper.rb"),
        ("perl -I{OUT} tools/s.pl", "tools/s.pl", "Helper.pm"),
        ("node -r {REL}/pre tools/s.js", "tools/s.js", "pre.js"),
        (
            "php -d auto_prepend_file={OUT}/pre.php tools/s.php",
            "tools/s.php",
            "pre.php",
        ),
        ("ruby {REL}/helper.rb", "tools/s.rb", "helper.rb"),
    ] {
        let p = Project::empty();
        let outside = tempfile::tempdir().expect("tempdir");
        let out = outside.path().display().to_string();
        let name = outside.path().file_name().expect("name").to_string_lossy();
        let rel = match outside.path().parent() == p.root().parent() {
            true => format!("../{name}"),
            false => out.clone(),
        };
        let command = command.replace("{OUT}", &out).replace("{REL}", &rel);
        hostile(&p, &command);
        p.write(script, "require 'helper'\nuse Helper;\n");
        std::fs::write(outside.path().join(library), "1\n").expect("write");
        let shown = p.ok(&["trust", "--yes"]);
        assert!(
            !shown
                .lines()
                .any(|l| l.trim_start().starts_with("runs ") && l.contains(library)),
            "{command}: {shown}"
        );
        std::fs::write(outside.path().join(library), "2\n").expect("write");
        let built = p.run(&["build"]);
        assert!(
            !stderr(&built).contains("changed since you trusted"),
            "{command}: {}",
            stderr(&built)
        );
    }
}
