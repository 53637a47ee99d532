//! Tool arguments as engine requests: which preset (or an ad-hoc one made
//! of the files named), the overrides, the targets — each path checked to
//! stay inside the root. What a request cannot hold without the engine
//! (git's diff) is handed back for the caller to fetch.

use std::path::Path;
use std::str::FromStr;

use ctxcurate::core::engine::{BuildKind, BuildRequest};
use ctxcurate::core::model::{FileItem, Format, Preset, TreeMode, ViewMode};
use ctxcurate::core::paths;
use ctxcurate::core::project::Project;
use ctxcurate::core::trust::entries::EntryConsent;
use ctxcurate::core::walk;

use super::args::{BuildArgs, FileArg, PackArgs};
use super::error::ToolError;

/// A build as asked: the request, and the ref to diff against, if any
/// (the engine fetches it, see `Workspace::diff`).
#[derive(Debug)]
pub struct Asked {
    pub req: BuildRequest,
    pub diff: Option<String>,
}

/// The preset named (or the active one) and the consent for its explicit
/// entries; an unknown name lists the presets there are.
pub fn preset(project: &Project, name: Option<&str>) -> Result<(Preset, EntryConsent), ToolError> {
    match name {
        None => Ok((
            project.active_preset(),
            project.entry_consent(project.active_preset_name()),
        )),
        Some(name) => match project.preset(name) {
            Some((p, _)) => Ok((p.clone(), project.entry_consent(name))),
            None => {
                let names: Vec<String> =
                    project.preset_names().into_iter().map(|(n, _)| n).collect();
                Err(ToolError::new(format!(
                    "no preset named `{name}` (presets: {})",
                    names.join(", ")
                )))
            }
        },
    }
}

/// `arg` (root-relative or absolute) as a root-relative `/` path; a path
/// leading out of the root is refused.
pub fn inside(root: &Path, arg: &str) -> Result<String, ToolError> {
    match paths::normalize_rel(root, &root.join(arg)) {
        Some(rel) if !rel.is_empty() => Ok(rel),
        _ => Err(ToolError::new(format!(
            "{arg} is outside the project root {}",
            root.display()
        ))),
    }
}

/// [`inside`], and an existing file.
pub fn file(root: &Path, arg: &str) -> Result<String, ToolError> {
    let rel = inside(root, arg)?;
    let path = root.join(&rel);
    if path.is_dir() {
        return Err(ToolError::new(format!("{rel} is a folder: name a file")));
    }
    if !path.is_file() {
        return Err(ToolError::new(format!("file not found: {rel}")));
    }
    Ok(rel)
}

/// [`file`], and one the server may show on its own: not a credential
/// file (a preset a person allowed it in still builds it) nor one no
/// composition may hold.
pub fn shown_file(root: &Path, arg: &str) -> Result<String, ToolError> {
    let rel = file(root, arg)?;
    if walk::is_sensitive(&rel) || walk::is_blacklisted(&rel) {
        return Err(ToolError::new(format!(
            "{rel} is a credential or private file: not shown on its own (a preset a \
             person allowed it in still builds it)"
        )));
    }
    Ok(rel)
}

/// A value of one of the model's named enums (`full`, `markdown`, …).
pub fn named<T: FromStr<Err = String>>(what: &str, value: &str) -> Result<T, ToolError> {
    value
        .parse::<T>()
        .map_err(|why| ToolError::new(format!("{what}: {why}")))
}

/// An ad-hoc preset of the files or globs named: the client named them,
/// so no consent comes with them (credential files stay held).
fn ad_hoc(root: &Path, files: &[FileArg]) -> Result<Preset, ToolError> {
    let mut preset = Preset::default();
    for f in files {
        let mut item = FileItem::new(inside(root, &f.path)?);
        if let Some(mode) = &f.mode {
            item.view_mode = named::<ViewMode>("mode", mode)?;
        }
        preset.files.push(item);
    }
    Ok(preset)
}

/// `build`'s arguments as a request on `project`.
pub fn build(project: &Project, args: &BuildArgs) -> Result<Asked, ToolError> {
    let (preset, consent) = match &args.files {
        Some(files) => (ad_hoc(&project.root, files)?, EntryConsent::default()),
        None => preset(project, args.preset.as_deref())?,
    };
    let mut req = BuildRequest::new(preset, &project.settings);
    req.compose.consent = consent;
    if let Some(task) = &args.task {
        req.preset.task = task.clone();
    }
    if let Some(format) = &args.format {
        req.compose.format = named::<Format>("format", format)?;
    }
    if let Some(tree) = &args.tree {
        req.compose.sections.tree = named::<TreeMode>("tree", tree)?;
    }
    targets(project, &args.targets, &mut req)?;
    req.budget = args.budget;
    req.allow_partial = args.allow_partial;
    Ok(Asked {
        req,
        diff: args.diff.clone(),
    })
}

/// `pack`'s arguments as a request on `project`: always packed.
pub fn pack(project: &Project, args: &PackArgs) -> Result<Asked, ToolError> {
    let (preset, consent) = preset(project, args.preset.as_deref())?;
    let mut req = BuildRequest::new(preset, &project.settings);
    req.compose.consent = consent;
    req.kind = BuildKind::Pack;
    if let Some(task) = &args.task {
        req.preset.task = task.clone();
    }
    if let Some(format) = &args.format {
        req.compose.format = named::<Format>("format", format)?;
    }
    targets(project, &args.targets, &mut req)?;
    req.budget = args.budget;
    req.allow_partial = args.allow_partial;
    Ok(Asked { req, diff: None })
}

/// The targets named, each an existing file inside the root, once.
fn targets(project: &Project, named: &[String], req: &mut BuildRequest) -> Result<(), ToolError> {
    for t in named {
        let rel = file(&project.root, t)?;
        if !req.targets.contains(&rel) {
            req.targets.push(rel);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> (tempfile::TempDir, Project) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("ctxcurate.toml"),
            "[presets.api]\ndescription = \"the API\"\nfiles = [\"a.py\"]\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("a.py"), "def f():\n    return 1\n").unwrap();
        std::fs::write(dir.path().join("b.py"), "import a\n").unwrap();
        let project = Project::open_at(dir.path(), None).unwrap();
        (dir, project)
    }

    fn args(json: serde_json::Value) -> BuildArgs {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_named_preset_with_overrides_becomes_its_request() {
        let (_dir, project) = project();
        let asked = build(
            &project,
            &args(serde_json::json!({
                "preset": "api", "format": "xml", "tree": "none",
                "task": "fix f", "budget": 500, "targets": ["b.py", "./b.py"],
                "diff": "HEAD"
            })),
        )
        .unwrap();
        let req = asked.req;
        assert_eq!(req.preset.files[0].path, "a.py");
        assert_eq!(req.preset.task, "fix f");
        assert_eq!(req.compose.format, Format::Xml);
        assert_eq!(req.compose.sections.tree, TreeMode::None);
        assert_eq!(req.budget, Some(500));
        assert_eq!(req.targets, vec!["b.py".to_string()]);
        assert_eq!(req.kind, BuildKind::Auto);
        assert_eq!(asked.diff.as_deref(), Some("HEAD"));
    }

    #[test]
    fn files_make_an_ad_hoc_preset_without_consent() {
        let (_dir, project) = project();
        let asked = build(
            &project,
            &args(serde_json::json!({
                "preset": "ignored", "files": [{"path": "b.py", "mode": "skeleton"}, {"path": "*.py"}]
            })),
        )
        .unwrap();
        let files = &asked.req.preset.files;
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].view_mode, ViewMode::Skeleton);
        assert_eq!(files[1].path, "*.py");
        assert_eq!(asked.req.compose.consent, EntryConsent::default());
    }

    #[test]
    fn bad_arguments_are_tool_errors() {
        let (_dir, project) = project();
        let err = |j| build(&project, &args(j)).unwrap_err().to_string();
        assert!(err(serde_json::json!({"preset": "nope"})).contains("presets: api"));
        assert!(
            err(serde_json::json!({"targets": ["../x.py"]})).contains("outside the project root")
        );
        assert!(err(serde_json::json!({"targets": ["/etc/passwd"]})).contains("outside"));
        assert!(err(serde_json::json!({"targets": ["gone.py"]})).contains("not found"));
        assert!(err(serde_json::json!({"format": "html"})).starts_with("format:"));
        std::fs::write(project.root.join(".env"), "A=1\n").unwrap();
        assert!(shown_file(&project.root, ".env").is_err());
        assert_eq!(shown_file(&project.root, "a.py").unwrap(), "a.py");
        let files = serde_json::json!({"files": [{"path": "a.py", "mode": "loud"}]});
        assert!(err(files).starts_with("mode:"));
    }

    #[test]
    fn unknown_or_mistyped_fields_do_not_parse() {
        let typed: Result<BuildArgs, _> =
            serde_json::from_value(serde_json::json!({"budget": "lots"}));
        assert!(typed.is_err());
        let unknown: Result<BuildArgs, _> =
            serde_json::from_value(serde_json::json!({"budjet": 5}));
        assert!(unknown.is_err());
    }

    #[test]
    fn a_pack_always_packs() {
        let (_dir, project) = project();
        let args: PackArgs =
            serde_json::from_value(serde_json::json!({"targets": ["a.py"]})).unwrap();
        let asked = pack(&project, &args).unwrap();
        assert_eq!(asked.req.kind, BuildKind::Pack);
        assert_eq!(asked.req.targets, vec!["a.py".to_string()]);
    }
}
