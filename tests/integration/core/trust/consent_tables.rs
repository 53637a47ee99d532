//! Program-running calls reached through a module's table or another
//! spelling (consent round 8, item 2): `vars(subprocess)["run"]`,
//! `subprocess.__dict__["run"]`, `getattr(sys.modules["subprocess"],
//! "run")`, `operator.methodcaller("system", …)(os)`, a module bound by
//! tuple unpacking, a `partial` of a `partial`: read as the call they
//! name (a computed program refused, a literal covered); a function
//! taken by a key or name known only as it runs: refused.

use super::consent_runtime::{Case, Files, RUN_SH, assert_cases_lapse, assert_each_refused, leak};

const WHICH: (&str, &str) = ("tools/which", "tools/w.sh\n");
const W: (&str, &str) = ("tools/w.sh", RUN_SH);
const READ: &str = "w = open('tools/which').read().strip()\n";

fn python(text: &str) -> (&'static str, Files) {
    let text = leak(format!("{READ}{text}"));
    (
        "python3 tools/s.py",
        Box::leak(Box::new([("tools/s.py", text), WHICH, W])),
    )
}

#[test]
fn a_python_sink_taken_from_a_table_with_a_computed_argv_or_key_is_refused() {
    assert_each_refused(&[
        python("import subprocess\nvars(subprocess)[\"run\"](['sh', w])\n"),
        python("import subprocess\nsubprocess.__dict__['check_call'](['sh', w])\n"),
        python("import os\nos.__dict__.get('system')('sh ' + w)\n"),
        python("import subprocess\nd = vars(subprocess)\nd['run'](['sh', w])\n"),
        python(
            "import sys, subprocess\ngetattr(sys.modules[\"subprocess\"], \"run\")(['sh', w])\n",
        ),
        python("import sys, subprocess\nsys.modules['subprocess'].run(['sh', w])\n"),
        python("import operator, os\noperator.methodcaller('system', 'sh ' + w)(os)\n"),
        python(
            "from operator import methodcaller\nimport os\nm = methodcaller('system', 'sh ' + w)\nm(os)\n",
        ),
        python("import subprocess, os\nsp, o = subprocess, os\no.system('sh ' + w)\n"),
        python("import subprocess, os\n(sp, o) = (subprocess, os)\nsp.run(['sh', w])\n"),
        python(
            "import subprocess\nfrom functools import partial\n\
             p = partial(subprocess.run, shell=True)\nq = partial(p, 'sh ' + w)\nq()\n",
        ),
        python(
            "import subprocess\nfrom functools import partial\n\
             p = partial(subprocess.check_call, shell=True)\nq = partial(p)\nq('sh ' + w)\n",
        ),
        python("import subprocess\nvars(subprocess)[w.strip()](['sh', 'tools/w.sh'])\n"),
        python("import sys\ngetattr(sys.modules[w.strip()], 'run')(['sh', 'tools/w.sh'])\n"),
        python("import operator, os\noperator.methodcaller(w.strip(), 'sh tools/w.sh')(os)\n"),
    ]);
}

/// The same spellings with a literal argv: trusted, and an edit of the
/// script they run lapses the consent.
#[test]
fn a_python_sink_taken_from_a_table_with_a_literal_argv_is_covered() {
    let case = |text: &'static str| Case {
        command: "python3 tools/s.py",
        files: Box::leak(Box::new([("tools/s.py", text), W])),
        executable: &[],
        edited: "tools/w.sh",
    };
    assert_cases_lapse(&[
        case(
            "import subprocess\nvars(subprocess)['run'](['sh', 'tools/w.sh'], stdin=subprocess.DEVNULL)\n",
        ),
        case(
            "import operator, os\nimport sys\nsys.stdout.flush()\n\
             operator.methodcaller('system', 'sh tools/w.sh </dev/null')(os)\n",
        ),
        case(
            "import subprocess\nfrom functools import partial\n\
             p = partial(subprocess.run, stdin=subprocess.DEVNULL)\nq = partial(p, ['sh', 'tools/w.sh'])\nq()\n",
        ),
    ]);
}
