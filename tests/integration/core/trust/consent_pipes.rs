//! Perl, Ruby and PHP pipes and spawners read in round 8 (item 4):
//! Perl's `open` of a command (`'-|'`/`'|-'` with a list, `"cmd |"`,
//! `"| cmd"`), `IPC::Open3`, `IPC::Run`; Ruby's `` Kernel.`( ``,
//! `IO.popen([…])`, `open("|cmd")`; PHP's `proc_open([…])`, `popen`,
//! each call's first argument only. A computed program refused, a
//! literal covered.

use super::consent::hostile;
use super::consent_runtime::{Case, Files, RUN_SH, assert_cases_lapse, assert_each_refused, leak};
use crate::common::Project;

const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
const W: (&str, &str) = ("tools/w.sh", RUN_SH);

fn script(
    command: &'static str,
    path: &'static str,
    read: &str,
    text: &str,
) -> (&'static str, Files) {
    let text = leak(format!("{read}{text}"));
    (command, Box::leak(Box::new([(path, text), WHICH, W])))
}

fn perl(text: &str) -> (&'static str, Files) {
    let read = "open(my $r, '<', 'tools/which') or die;\nmy $w = <$r>;\nchomp $w;\n";
    script("perl tools/s.pl", "tools/s.pl", read, text)
}

fn ruby(text: &str) -> (&'static str, Files) {
    script(
        "ruby tools/s.rb",
        "tools/s.rb",
        "w = File.read('tools/which').strip\n",
        text,
    )
}

fn php(text: &str) -> (&'static str, Files) {
    let read = "<?php\n$w = trim(file_get_contents('tools/which'));\n";
    script("php tools/s.php", "tools/s.php", read, text)
}

#[test]
fn a_perl_ruby_or_php_pipe_of_a_computed_program_is_refused() {
    assert_each_refused(&[
        perl("open(my $fh, '-|', 'sh', $w) or die;\nprint <$fh>;\n"),
        perl("open(FH, \"sh $w |\") or die;\nprint <FH>;\n"),
        perl("open(FH, \"| sh $w\") or die;\nclose FH;\n"),
        perl("open(FH, \"|$w\") or die;\n"),
        perl("use IPC::Open3;\nmy $pid = open3(my $i, my $o, undef, 'sh', $w);\n"),
        perl("use IPC::Run qw(run);\nrun [ 'sh', $w ];\n"),
        perl("use IPC::Run qw(run);\nmy @cmd = ('sh', $w);\nrun \\@cmd;\n"),
        perl("open(my $fh, '-|', 'git', '-C', '.none', 'commit', '-qm', 'x') or die;\n"),
        perl("open(FH, 'git -C .none push |') or die;\n"),
        perl("my $o = qx{sh $w};\nprint $o;\n"),
        ruby("puts Kernel.`(\"sh #{w}\")\n"),
        ruby("IO.popen([\"sh\", w]) { |f| puts f.read }\n"),
        ruby("open(\"|sh #{w}\") { |f| puts f.read }\n"),
        ruby("IO.popen(['git', '-C', '.none', 'push']) { |f| f.read }\n"),
        ruby("out, _ = Open3.capture2('sh', w)\n"),
        ruby("puts %x{sh #{w}}\n"),
        php("$p = proc_open(['sh', $w], [1 => ['pipe', 'w']], $pipes);\n"),
        php("$p = proc_open(['git', '-C', '.none', 'push'], [], $pipes);\n"),
        php("$h = popen(\"sh $w\", 'r');\n"),
        php("echo shell_exec(\"sh $w\");\n"),
        php("echo `sh $w`;\n"),
    ]);
}

/// Literal pipes stay covered: Perl's `open` of `'-|'` with a list and
/// of `"cmd |"` runs tools/w.sh (an edit lapses the consent); Ruby's and
/// PHP's array forms of a literal are trusted (decision only: no ruby or
/// php here; round 7 refused `proc_open([…], $d, $p)` by taking its
/// descriptors for argv words).
#[test]
fn a_literal_pipe_is_covered() {
    let case = |text: &'static str| Case {
        command: "perl tools/s.pl",
        files: Box::leak(Box::new([("tools/s.pl", text), W])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[
        case("open(my $fh, '-|', 'sh', 'tools/w.sh') or die;\nprint <$fh>;\n"),
        case("open(FH, 'sh tools/w.sh |') or die;\nprint <FH>;\n"),
    ]);
    for (command, path, text) in [
        (
            "php tools/s.php",
            "tools/s.php",
            "<?php\n$p = proc_open(['sh', 'tools/w.sh'], [1 => ['pipe', 'w']], $pipes);\n\
             $h = popen('git log -1', 'r');\n",
        ),
        (
            "ruby tools/s.rb",
            "tools/s.rb",
            "IO.popen(['sh', 'tools/w.sh']) { |f| puts f.read }\nputs Kernel.`('git log -1')\n",
        ),
    ] {
        let p = Project::empty();
        hostile(&p, command);
        p.write(path, text);
        p.write("tools/w.sh", RUN_SH);
        let shown = p.ok(&["trust", "--yes"]);
        assert!(shown.contains("tools/w.sh"), "{command}: {shown}");
    }
}

/// Round 9, item 4: a two-argument Perl `open` of what may start or end
/// with `|` once filled in, and Ruby's `open` of what may start with `|`
/// (`"|" + cmd`, a variable, `"#{x}"`), run a command known only as
/// they run: refused. A mode or a written start that is no `|` names a
/// file and stays trusted.
#[test]
fn a_pipe_open_of_a_computed_line_is_refused() {
    assert_each_refused(&[
        perl("open(FH, $w) or die;\nprint <FH>;\n"),
        perl("open FH, \"$w\" or die;\nprint <FH>;\n"),
        perl("my $c = \"sh $w |\";\nopen(FH, $c) or die;\nprint <FH>;\n"),
        perl("open FH, \"| sh $w\" or die;\nclose FH;\n"),
        ruby("open(\"|\" + \"sh \" + w) { |f| puts f.read }\n"),
        ruby("open(\"|sh \" + w) { |f| puts f.read }\n"),
        ruby("c = \"|sh #{w}\"\nopen(c) { |f| puts f.read }\n"),
        ruby("Kernel.open(w) { |f| puts f.read }\n"),
        ruby("puts IO.read(w)\n"),
    ]);
    for (command, path, text) in [
        (
            "perl tools/s.pl",
            "tools/s.pl",
            "my $f = 'tools/which';\nopen(FH, \"<$f\") or die;\nopen(P, \"/proc/$$/stat\");\n\
             open(FH, 'tools/which') or die;\nsystem('sh', 'tools/w.sh');\n",
        ),
        (
            "ruby tools/s.rb",
            "tools/s.rb",
            "d = 'tools'\nopen(\"/proc/#{d}\") rescue nil\nFile.open(d + '/which') { |f| f.read }\n\
             system('sh', 'tools/w.sh')\n",
        ),
    ] {
        let p = Project::empty();
        hostile(&p, command);
        p.write(path, text);
        p.write(WHICH.0, WHICH.1);
        p.write("tools/w.sh", RUN_SH);
        let shown = p.ok(&["trust", "--yes"]);
        assert!(shown.contains("tools/w.sh"), "{command}: {shown}");
    }
}

/// Round 8, item 5: a Perl array bound only to written lists is read as
/// the argvs it holds (`my @argv = ('sh', 'tools/w.sh'); system @argv`:
/// trusted, lapses on an edit of w.sh; round 7 refused it), as is `$^X`
/// running a written script; an array given a computed script, changed
/// at its front or bound otherwise stays refused.
#[test]
fn a_perl_array_bound_to_a_written_list_is_read() {
    let case = |text: &'static str, edited: &'static str| Case {
        command: "perl tools/s.pl",
        files: Box::leak(Box::new([
            ("tools/s.pl", text),
            W,
            ("tools/w.pl", "print \"SUMMARY\\n\";\n"),
        ])),
        executable: &[],
        edited,
    };
    assert_cases_lapse(&[
        case(
            "my @argv = ('sh', 'tools/w.sh');\nsystem @argv;\n",
            "tools/w.sh",
        ),
        case(
            "my @cmd = qw(sh tools/w.sh);\npush @cmd, '-v';\nsystem(@cmd) == 0 or die;\n",
            "tools/w.sh",
        ),
        case("system($^X, 'tools/w.pl') == 0 or die;\n", "tools/w.pl"),
    ]);
    assert_each_refused(&[
        perl("my @cmd = ('sh', $w);\nsystem @cmd;\n"),
        perl("my @cmd = ('ls');\nunshift @cmd, 'sh', $w;\nsystem @cmd;\n"),
        perl("my @cmd = ('ls');\n$cmd[0] = $w;\nsystem(@cmd);\n"),
        perl("my @cmd = split / /, $w;\nexec @cmd;\n"),
        perl("my @a = ('sh', 'tools/w.sh');\nsub f { my @a = ($w); system @a; }\nf();\n"),
        perl("system($^X, $w);\n"),
        perl("my @cmd;\nif ($ENV{X}) { @cmd = ('ls'); }\nsystem(@cmd, $w);\n"),
        perl("my @cmd = ('git', '-C', '.none', 'commit', '-qm', 'x');\nsystem @cmd;\n"),
    ]);
}
