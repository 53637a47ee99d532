//! The names of files that usually hold credentials: a glob never pulls
//! them into a composition (see `walk/glob.rs`).

/// `true` for files that usually hold credentials: `.env` and `.env.*`,
/// private keys and certificates (`*.pem`, `*.key`, `*.p12`, `*.pfx`,
/// `id_rsa`, `id_ed25519`, … and their `.pub` siblings, PuTTY `*.ppk`),
/// kubeconfigs (`kubeconfig`, `*.kubeconfig`, `.kube/config`), `.netrc`,
/// `.pgpass`, `.git-credentials`. A glob never pulls them in; naming one
/// explicitly does.
pub fn is_sensitive(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    name == ".env"
        || name.starts_with(".env.")
        || name.ends_with(".env")
        || matches!(
            name,
            ".netrc"
                | "_netrc"
                | ".pgpass"
                | "credentials.json"
                | ".git-credentials"
                | "kubeconfig"
        )
        || rel == ".kube/config"
        || rel.ends_with("/.kube/config")
        || ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"]
            .iter()
            .any(|k| name.starts_with(k))
        || matches!(
            ext.as_deref(),
            Some("pem" | "key" | "p12" | "pfx" | "jks" | "keystore" | "ppk" | "kubeconfig")
        )
}
