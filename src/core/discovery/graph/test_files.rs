//! Whether a file is a test by its path, as the languages that import
//! whole packages lay tests out: Go's `_test.go`, `FooTest.java`,
//! `FooTests.kt`, `TestFoo.java`, and anything under a `test`, `tests`,
//! `__tests__`, `testdata`, `androidTest` or `*.Tests` folder. The graph
//! never makes such a file a package import of a file that is not one.

/// Folders whose files are tests.
const TEST_DIRS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "testdata",
    "androidTest",
    "testFixtures",
];

/// Whether `path` (relative, `/`-separated) is a test file.
pub(super) fn is_test(path: &str) -> bool {
    let (dirs, name) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = name.split('.').next().unwrap_or(name);
    let named = |suffix: &str| stem.len() > suffix.len() && stem.ends_with(suffix);
    name.ends_with("_test.go")
        || named("Test")
        || named("Tests")
        || stem
            .strip_prefix("Test")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_uppercase()))
        || dirs
            .split('/')
            .any(|d| TEST_DIRS.contains(&d) || d.ends_with(".Tests") || d.ends_with(".Test"))
}

#[cfg(test)]
mod tests {
    use super::is_test;

    #[test]
    fn tests_by_name_and_folder() {
        for path in [
            "flag_test.go",
            "pkg/flag_test.go",
            "src/main/java/p/FooTest.java",
            "p/FooTests.kt",
            "p/TestFoo.java",
            "src/test/java/p/Helper.java",
            "Acme.Core.Tests/Helper.cs",
            "x/testdata/input.go",
        ] {
            assert!(is_test(path), "{path}");
        }
        for path in [
            "flag.go",
            "test.go",
            "p/Test.java",
            "p/Testing.java",
            "p/Latest.java",
            "src/main/java/p/Contest.java",
            "testing/quick/quick.go",
        ] {
            assert!(!is_test(path), "{path}");
        }
    }
}
