//! setuptools' distutils shim in a project's virtual environment
//! (`distutils-precedence.pth` and `_distutils_hack`), recognized by its
//! bytes among setuptools' releases and read as what it does at start.
//!
//! Every environment `python3 -m venv` makes with Python 3.11 or older
//! holds it. Read as any Python file, its module's function-level
//! imports lead into setuptools, from there into pip (`python -m pip`
//! in a function), and pip changes `sys.path` by values known only as
//! it runs: a command running `.venv/bin/python tools/s.py` was refused
//! (session 27). As a release ships them, the `.pth` line only puts a
//! finder first on the import path, which acts when a program imports
//! `distutils` (it loads `setuptools._distutils` then) or `pip` (it
//! forgets a loaded `distutils`). Both files are covered; what the
//! finder loads is followed where a read file imports `distutils`. Any
//! other bytes are read as before.

use super::Reached;
use super::places::rel_of;
use std::fs;
use std::path::{Path, PathBuf};

/// The `.pth` file's name.
const PTH_NAME: &str = "distutils-precedence.pth";

/// sha256 of `distutils-precedence.pth` in every setuptools release
/// that ships it, 49.3.0 to 84.2.1 (PyPI's wheels; Debian's
/// `python3-setuptools-whl` 66.1.1 has the same bytes). In each, the
/// line only calls `add_shim` or `ensure_shim`, which put the finder
/// first on `sys.meta_path`.
const PTH: &[&str] = &[
    "f1701c42efb4c8e791fbb314ed0843c7f83744e70167d2475e752889b7862d8b",
    "2638ce9e2500e572a5e0de7faed6661eb569d1b696fcba07b0dd223da5f5d224",
    "7ea7ffef3fe2a117ee12c68ed6553617f0d7fd2f0590257c25c484959a3b7373",
    "da22a871960ee4f77f5a72c3e8fe48ab4255cc0c12d924451685b07100f1d33d",
];

/// sha256 of `_distutils_hack/__init__.py` in the same releases: at its
/// top level each imports only the standard library, and its finder
/// loads only `setuptools._distutils` (for `distutils`).
const MODULE: &[&str] = &[
    "03b38d1d8d6e9e14d4f12116683368d472a943c75ffe99986304b7b8bba0189c",
    "870c6f4869d409d7434c7ef7b99175568095b5541ac621538e5d8145fd01194f",
    "870913c1cb82e84d190b5b700c4cc71af16ace684b88e19b5f6149af7b833435",
    "e1d21987df00de20d4729c8afacee31bec8bcd6d799092908249a6e3d6a5e3b2",
    "9bc5b111a0a9cfbe403c5ca562f18a715571dfc12f7577a5123a4a32427112dc",
    "ccb3a83ef896531388f58fec08c15ee7998fa0a36b83196c374b74a7ca93022f",
    "c05b8045c9a51ed915db41df44195068c3d8ee1431f93104b670695decac8b02",
    "322f93bf23a7b8ccd421cfeeb68129e66dccfc363a40b2d2917aa0e9ef30848f",
    "5f7454880e8a04fa0499ca3f0a3002ca5b7241b15119552965101b4a43c6c0cb",
    "4c2531daa12158dcabb8bce3e03386640407dfd866d9f27fc0377dd2894d3a6a",
    "7688a23bb369b867ca503635e94c625981671c1e01adf621da6c59d2d07d5114",
    "f0016db17603c3430ca7a444e28b1577445d9da7f7f32f746ed6820c3442a07d",
    "a390f4d5ada584de84c5fed69fffd50fe43393401438d1615cdb9fd07e03c34a",
    "fcc99a0fb405120ec879fd8f8d35f974134d4c88e5ec814d42cbb06442b22f17",
    "026d425507ed93f30700abdf25056940cc15c7796b01b2863e1288520c1ac036",
    "600ff3472bad5c46ee6438a9516e844282c2e8fb946ef62c1b2060f9a2fe3c2b",
    "52c30c27c38334fa426ba8d8784f7bb5e15df8511387ec0d0fbca8772fa224c1",
    "e4a51d09fa11eb20b12a2861f82c5c5587ae4d3d096cf2d3246109b60991818d",
    "4513b154dbf2fa7776a1d0812e6d4396770a8e6f286000d30bf6694ff3294dd5",
    "06c27ded9e7642a2d5d5ea432989050e91987b2d00cfdc5c0477f23cffda06b4",
    "228181f268b46192561e7b9a3c57ff31483e10b2584f6494e5256feb86d5e674",
    "4d27a48545b57dd137ae35376fcf326d2064271084a487960686f8704b94de4a",
    "46849a60a7cc85189cf6b5ac62b3f135004862ce6a96540a81c95ef6fbc4dc3e",
    "4bf5b0bc8f8af7ce7096e96f7167cf4f776f2cc0983f5c8f876ca780b3a67781",
    "1542e30b6d07156f447ab4bcaec4a3a330feb93167d5dcaf548f6d6b2cdb852c",
    "9b737c2ccce2dad2e896acfb6285c708419121078c00231a5439a7647cdd72e4",
    "a325c4f62f92a19daaa558088e4339afd78e14df40c20a7d51c9dc3a714dc237",
    "df81e6bcba34ee3e3952f776551fb669143b9490fdd6c4caeb32609f97e985b4",
    "ced72e54431ecf2d8d7dbd8a1e27724f1b171af3ca1503c304bf11c59a7fe861",
];

/// The shims recognized in one command's environments.
#[derive(Debug, Default)]
pub(super) struct Shims {
    /// The `site-packages` folders holding one.
    sites: Vec<PathBuf>,
    /// Its two files in each (root-relative, canonical): covered, not
    /// read, unless a file imports the module by name.
    files: Vec<(String, PathBuf)>,
}

impl Shims {
    /// Whether `.pth` file `name` of `site` is the shim as a release ships
    /// it (the module beside it too): then both are recorded, and the
    /// `.pth` file is not to be read.
    pub(super) fn recognized(&mut self, real_root: &Path, site: &Path, name: &str) -> bool {
        if name != PTH_NAME {
            return false;
        }
        let pth = site.join(PTH_NAME);
        let module = site.join("_distutils_hack").join("__init__.py");
        let ours = |path: &Path| {
            fs::canonicalize(path)
                .ok()
                .filter(|real| real.starts_with(real_root))
        };
        let (Some(pth), Some(module)) = (ours(&pth), ours(&module)) else {
            return false;
        };
        if !(released(&pth, PTH) && released(&module, MODULE)) {
            return false;
        }
        self.sites.push(site.to_path_buf());
        for real in [pth, module] {
            self.files.push((rel_of(real_root, &real), real));
        }
        true
    }

    /// Where `import distutils…` (`parts`) is looked for besides the
    /// search path: `setuptools._distutils…` in each environment with a
    /// shim, which its finder loads instead.
    pub(super) fn distutils(&self, parts: &[String]) -> Vec<(PathBuf, Vec<String>)> {
        if parts.first().is_none_or(|p| p != "distutils") {
            return Vec::new();
        }
        let under: Vec<String> = ["setuptools", "_distutils"]
            .iter()
            .map(|s| s.to_string())
            .chain(parts[1..].iter().cloned())
            .collect();
        self.sites
            .iter()
            .map(|site| (site.clone(), under.clone()))
            .collect()
    }

    /// The shims' files, covered: those no file imported by name (that
    /// one was read as any other).
    pub(super) fn cover(self, real_root: &Path, out: &mut Reached) {
        for (rel, real) in self.files {
            out.files.entry(rel).or_insert(real);
        }
        // What Python would load for the module instead of its source
        // (recheck 28): an `__init__` extension beside it, a hash-based
        // compiled file.
        for site in &self.sites {
            let package = site.join("_distutils_hack");
            let names = |dir: &Path| -> Vec<String> {
                let mut names: Vec<String> = fs::read_dir(dir)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .take(super::MAX_ENTRIES)
                    .filter_map(|e| e.file_name().to_str().map(String::from))
                    .filter(|n| n.starts_with("__init__.") && n != "__init__.py")
                    .collect();
                names.sort();
                names
            };
            let cache = package.join("__pycache__");
            let compiled: Vec<String> = names(&cache)
                .into_iter()
                .filter(|n| super::python_runs::hash_based_pyc(&cache.join(n)))
                .collect();
            let shown = rel_of(real_root, &package);
            out.places
                .insert(format!("{shown}/__init__.*: {}", names(&package).join(" ")));
            out.places.insert(format!(
                "{shown}/__pycache__/__init__.*.pyc (hash-based): {}",
                compiled.join(" ")
            ));
            for name in compiled {
                let real = cache.join(&name);
                out.files.insert(rel_of(real_root, &real), real);
            }
        }
    }
}

/// Whether the regular file at `real` (at most 64 KiB) has one of `known`
/// sha256s.
fn released(real: &Path, known: &[&str]) -> bool {
    let Ok((file, meta)) = crate::core::io_bounds::open_regular(real) else {
        return false;
    };
    if meta.len() > 64 << 10 {
        return false;
    }
    let mut bytes = Vec::new();
    use std::io::Read;
    if file.take(64 << 10).read_to_end(&mut bytes).is_err() {
        return false;
    }
    let sum = crate::core::tokens::sha256_hex(&bytes);
    known.contains(&sum.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distutils_is_looked_for_under_setuptools_where_a_shim_is() {
        let mut shims = Shims::default();
        let parts = |s: &str| s.split('.').map(String::from).collect::<Vec<_>>();
        assert!(shims.distutils(&parts("distutils.core")).is_empty());
        shims
            .sites
            .push(PathBuf::from("/p/.venv/lib/python3.11/site-packages"));
        let found = shims.distutils(&parts("distutils.core"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, parts("setuptools._distutils.core"));
        assert!(shims.distutils(&parts("distutilsx")).is_empty());
        assert!(shims.distutils(&parts("json")).is_empty());
    }
}
