//! PHP imports: the class names of `use` statements, resolved through
//! the autoload maps of the project's `composer.json` files (both read by
//! `core::module_maps::composer`, which consent's reader shares).

use super::Resolution;
use crate::core::discovery::graph::resolve::FileSet;

pub(super) use crate::core::module_maps::composer::{Autoload, use_names as encode};

/// A class name: the first of its autoload candidates that is a project
/// file. A name under a prefix of the project whose file is not there is
/// unresolved; any other is external (a dependency, PHP's own classes).
pub(super) fn resolve<'a>(autoload: &Autoload, set: &FileSet<'a>, class: &str) -> Resolution<'a> {
    let (candidates, named) = autoload.candidates(class);
    match candidates.iter().find_map(|c| set.get(c)) {
        Some(f) => Resolution::Files(vec![(f, 1.0)]),
        None if named => Resolution::Unresolved,
        None => Resolution::External,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::discovery::graph::modules::testing::{files, set, targets};

    #[test]
    fn composer_autoload_maps_resolve_classes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("composer.json"),
            r#"{ "autoload": { "psr-4": { "App\\": "src/", "App\\Extra\\": ["extra", "../../etc"] },
                               "psr-0": { "Legacy_": "lib/" } },
                 "autoload-dev": { "psr-4": { "App\\Tests\\": "tests/" } } }"#,
        )
        .unwrap();
        let list = files(&[
            "composer.json",
            "src/Model/User.php",
            "extra/Thing.php",
            "tests/UserTest.php",
            "lib/Legacy/Old/Class.php",
        ]);
        let set = set(&list);
        let a = Autoload::read(dir.path(), &list);
        let r = |c: &str| targets(resolve(&a, &set, c));
        assert_eq!(r("App\\Model\\User"), Some(vec!["src/Model/User.php"]));
        assert_eq!(r("App\\Extra\\Thing"), Some(vec!["extra/Thing.php"]));
        assert_eq!(r("App\\Tests\\UserTest"), Some(vec!["tests/UserTest.php"]));
        assert_eq!(
            r("Legacy_Old_Class"),
            Some(vec!["lib/Legacy/Old/Class.php"])
        );
        assert!(matches!(
            resolve(&a, &set, "App\\Model\\Gone"),
            Resolution::Unresolved
        ));
        assert!(matches!(
            resolve(&a, &set, "Psr\\Log\\LoggerInterface"),
            Resolution::External
        ));
        std::fs::write(dir.path().join("composer.json"), "{ broken").unwrap();
        let a = Autoload::read(dir.path(), &list);
        assert!(matches!(
            resolve(&a, &set, "App\\Model\\User"),
            Resolution::External
        ));
    }
}
