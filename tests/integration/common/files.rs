//! Fixture files beyond plain text: FIFOs, executables, copied trees, a
//! held project lock, a project file written by hand.

use std::ffi::CString;
use std::fs::File;
use std::path::{Path, PathBuf};

/// A FIFO at `path` (its folders made first).
pub fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    let c = CString::new(path.as_os_str().as_encoded_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

/// Mode 0755: a script the tests run as a program.
pub fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A copy of the regular files and folders under `from` at `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let kind = entry.file_type().expect("file type");
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The project's lock (`.ctxcurate/lock`), held as another ctxcurate
/// would hold it until the returned guard is dropped.
pub fn hold_lock(p: &super::Project) -> HeldLock {
    std::fs::create_dir_all(p.path(".ctxcurate")).unwrap();
    let lock = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(p.path(".ctxcurate/lock"))
        .unwrap();
    lock.lock().unwrap();
    HeldLock(lock)
}

/// The project lock held by a test, unlocked when dropped (not just
/// closed: a process another test is starting holds a copy of the file
/// until it runs its program, and with it the lock).
pub struct HeldLock(File);

impl Drop for HeldLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// `text` as the project file in `root`; returns its path.
pub fn write_project(root: &Path, text: &str) -> PathBuf {
    let path = root.join(ctxcurate::core::paths::PROJECT_FILE);
    std::fs::write(&path, text).unwrap();
    path
}

/// 40 nested folders under `src/`, each with a `.gitignore` of 50 globs
/// and a file `f{i}.py`: the walk stops under the 32nd (the bound on
/// folders with ignore files above a path).
pub fn nested_ignore_files(p: &super::Project) {
    let globs: String = (0..50)
        .map(|i| format!("**/zz{i}*/**/*q{i}.py\n"))
        .collect();
    let mut dir = String::from("src");
    for i in 0..40 {
        dir.push_str("/d");
        p.write(&format!("{dir}/.gitignore"), &globs);
        p.write(&format!("{dir}/f{i}.py"), &format!("x = {i}\n"));
    }
}
