//! A project's tests and documentation, where a finding of some rules is
//! a fixture or an example rather than a leak: a password hash there is
//! what a test of hashing checks against or what a page shows (passlib's
//! and Django's test suites, Ansible's `test/`), and a hash needs cracking
//! before it is of any use. The rules that say so carry `in_tests =
//! "fixture"`; the rest report a test file's secrets as any other's.

use crate::core::discovery::graph::test_files;

/// Folders whose files document the project.
const DOC_DIRS: &[&str] = &["doc", "docs"];

/// Whether `path` (relative, `/`-separated) is a test or a document of
/// the project: a test by the graph's reading of test paths
/// ([`test_files::is_test`]: `test/`, `tests/`, `FooTest.java`, …), a
/// Python test module (`test_x.py`, `x_test.py`, `tests.py`,
/// `tests-cookbook.py`, `conftest.py`), or a file under `doc/` or `docs/`.
pub fn is_test_or_doc(path: &str) -> bool {
    let (dirs, name) = path.rsplit_once('/').unwrap_or(("", path));
    let python_test = name.strip_suffix(".py").is_some_and(|stem| {
        stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem == "tests"
            || stem.starts_with("tests-")
            || stem == "conftest"
    });
    python_test || test_files::is_test(path) || dirs.split('/').any(|d| DOC_DIRS.contains(&d))
}

#[cfg(test)]
mod tests {
    use super::is_test_or_doc;

    #[test]
    fn tests_and_documents_are_told_by_their_paths() {
        for path in [
            "tests/auth_tests/fixtures/regular.json",
            "docs/topics/auth/customizing.txt",
            "passlib/tests/test_handlers_bcrypt.py",
            "jwcrypto/tests-cookbook.py",
            "test/units/utils/test_encrypt.py",
            "pkg/hash_test.go",
        ] {
            assert!(is_test_or_doc(path), "{path}");
        }
        for path in [
            "fixture.json",
            "users.ldif",
            "app/fixtures/users.json",
            "lib/ansible/plugins/filter/password_hash.yml",
            "contest.py",
            "latest_docs.py",
        ] {
            assert!(!is_test_or_doc(path), "{path}");
        }
    }
}
