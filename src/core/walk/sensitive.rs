//! The names of files that usually hold credentials: a glob never pulls
//! them into a composition (see `walk/glob.rs`), and an explicit entry of
//! a project file needs the user's consent (see `core::trust::entries`).
//!
//! The list follows where real tools leave secrets: dotenv files, private
//! keys and keystores, the per-tool credential files (`.npmrc`, `.pypirc`,
//! `.netrc`, `.git-credentials`, `.pgpass`, `.my.cnf`, `.vault-token`,
//! `.docker/config.json`, `.cargo/credentials`, `.gem/credentials`,
//! `.m2/settings.xml`, `.gradle/gradle.properties`, `.bundle/config`,
//! composer's `auth.json`, `pip.conf`, `.hgrc`, `rclone.conf`), other
//! environment files (`.envrc`, `.dev.vars`, `local.settings.json`,
//! `wp-config.php`), shell and REPL histories, cloud CLI folders
//! (`.aws/`, `.azure/`, `.config/gcloud/`, `.config/op/`, `.wrangler/`,
//! `.oci/`, …) and Terraform's variables, state and tokens. It
//! is matched on names only, so it never reads a file; it is checked
//! against the Python standard library, pip and `/usr/include` so that
//! ordinary source files are never flagged
//! (`tests/integration/core/walk/sensitive.rs`).
//!
//! Not on it, on purpose: a project's own main configuration, which the
//! model needs and which is committed on most projects (`gradle.properties`,
//! `wrangler.toml`, `appsettings.Production.json`), and certificates
//! (`*.crt`, public by nature). The content scan (`core::secrets`) holds
//! any of them that carries a password or a key.

/// File names (the last component) that hold credentials wherever they are.
const NAMES: &[&str] = &[
    ".netrc",
    "_netrc",
    ".pgpass",
    ".my.cnf",
    ".mylogin.cnf",
    ".git-credentials",
    ".dockercfg",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pypirc",
    ".vault-token",
    ".htpasswd",
    ".s3cfg",
    ".boto",
    ".passwd-s3fs",
    ".terraformrc",
    "terraform.rc",
    "credentials.json",
    "client_secret.json",
    "service-account.json",
    "kubeconfig",
    "kubeconfig.yaml",
    "kubeconfig.yml",
    // Service-account keys and dotenv files by another name (sweep 10).
    "gcp-key.json",
    "gcp-credentials.json",
    "sa-key.json",
    "env.production",
    "env.local",
    "secret.txt",
    "secrets.txt",
    "secrets.yml",
    "secrets.yaml",
    "secrets.json",
    "secrets.toml",
    "master.key",
    "credentials.yml.enc",
    // Rails' decrypted credentials and their likes in plain (recheck 25).
    "credentials.yml",
    "credentials.yaml",
    "credentials.toml",
    // direnv, Cloudflare Workers, Azure Functions: environment files by
    // another name.
    ".envrc",
    ".dev.vars",
    "local.settings.json",
    // Composer's tokens for private repositories (beside composer.json).
    "auth.json",
    "rclone.conf",
    "pip.conf",
    "pip.ini",
    ".hgrc",
    "wp-config.php",
    // Shell and REPL histories: passwords typed on a command line.
    ".bash_history",
    ".zsh_history",
    ".psql_history",
    ".mysql_history",
    ".python_history",
    ".sqlite_history",
    ".node_repl_history",
    ".rediscli_history",
];

/// Folders whose every file is a credential store: a cloud CLI's own
/// folder, gnupg, ssh. Matched as a component anywhere in the path.
const FOLDERS: &[&str] = &[
    ".aws",
    ".azure",
    ".gcloud",
    ".oci",
    ".gnupg",
    ".ssh",
    ".kube",
    ".doctl",
    ".wrangler",
];

/// `(folder, file)` pairs: the file is a credential store only in that
/// folder (a `config.json` elsewhere is ordinary).
const IN_FOLDER: &[(&str, &str)] = &[
    (".docker", "config.json"),
    (".cargo", "credentials"),
    (".cargo", "credentials.toml"),
    (".gem", "credentials"),
    (".m2", "settings.xml"),
    (".m2", "settings-security.xml"),
    (".config", "hub"),
    (".ivy2", ".credentials"),
    (".gradle", "gradle.properties"),
    (".bundle", "config"),
    (".terraform.d", "credentials.tfrc.json"),
];

/// Paths (from any folder, so written with their leading `/`) under which
/// every file is a credential store.
const NESTED: &[&str] = &[
    "/.config/gcloud/",
    "/.config/gh/",
    "/.config/doctl/",
    "/.config/rclone/",
    "/.config/op/",
    "/.config/pip/",
];

/// Extensions (lower case) of keys, certificates, keystores and Terraform
/// variables and state.
const EXTENSIONS: &[&str] = &[
    "pem",
    "key",
    "p12",
    "pfx",
    "jks",
    "keystore",
    "bks",
    "p8",
    "ppk",
    "kubeconfig",
    "tfvars",
    "tfstate",
    "gpg",
    "kdbx",
];

/// `true` for files that usually hold credentials: `.env`, `.env.*` and
/// `.env-*`,
/// private keys, certificates and keystores, SSH keys and their `.pub`
/// siblings, the credential files of package managers, databases and
/// cloud CLIs, Terraform variables and state (`*.tfvars`, `*.tfstate`,
/// `*.tfstate.backup`). A glob never pulls them in; an explicit entry
/// of a project file needs consent.
pub fn is_sensitive(rel: &str) -> bool {
    // Names are matched in any case: on a case-insensitive file system
    // (macOS, Windows) `.ENV` and `ID_RSA` are the same files as `.env` and
    // `id_rsa`, and a glob spelled so should not take them either.
    let rel = rel.to_ascii_lowercase();
    let name = rel.rsplit('/').next().unwrap_or(&rel);
    let ext = name.rsplit_once('.').map(|(_, e)| e);
    // The folders on the way, and the last of them.
    let dirs = rel.rsplit_once('/').map_or("", |(dirs, _)| dirs);
    let parent = dirs.rsplit('/').next().filter(|d| !d.is_empty());
    name == ".env"
        || name.starts_with(".env.")
        // `.env-production`, `.env_local`: the same file, another spelling.
        || name.starts_with(".env-")
        || name.starts_with(".env_")
        // `.npmrc.ci`, and `docker/npmrc` copied into an image as `.npmrc`.
        || name.starts_with(".npmrc.")
        || name == "npmrc"
        || name.ends_with(".env")
        // `.dev.vars.staging`: Wrangler's per-environment variant.
        || name.starts_with(".dev.vars.")
        || NAMES.contains(&name)
        || ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"]
            .iter()
            .any(|k| name.starts_with(k))
        || ext.is_some_and(|e| EXTENSIONS.contains(&e))
        || name.ends_with(".tfstate.backup")
        || name.ends_with(".tfvars.json")
        || dirs.split('/').any(|f| FOLDERS.contains(&f))
        || IN_FOLDER
            .iter()
            .any(|(dir, file)| name == *file && parent == Some(*dir))
        || NESTED
            .iter()
            .any(|n| rel.starts_with(&n[1..]) || rel.contains(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_stores_of_real_tools_are_sensitive() {
        for rel in [
            ".env",
            "app/.env.local",
            ".env-production",
            "deploy/kubeconfig.yaml",
            "env.production",
            "keys/gcp-key.json",
            "secret.txt",
            "deploy/.env_staging",
            "prod.env",
            ".npmrc",
            ".npmrc.ci",
            "docker/npmrc",
            "web/.npmrc",
            ".pypirc",
            "infra/prod.tfvars",
            "infra/prod.auto.tfvars.json",
            "terraform.tfstate",
            "infra/terraform.tfstate.backup",
            ".docker/config.json",
            "home/.docker/config.json",
            ".vault-token",
            "site/.htpasswd",
            ".netrc",
            ".aws/credentials",
            ".aws/config",
            "ci/.azure/accessTokens.json",
            ".config/gcloud/application_default_credentials.json",
            "x/.config/gcloud/credentials.db",
            ".gcloud/key.json",
            ".oci/config",
            ".gem/credentials",
            ".cargo/credentials",
            ".cargo/credentials.toml",
            "config/credentials.yml",
            ".m2/settings.xml",
            ".git-credentials",
            ".pgpass",
            ".my.cnf",
            "release.keystore",
            "android/upload.jks",
            "certs/server.pem",
            "tls.KEY",
            // Any case: on macOS and Windows these are the same files.
            ".ENV",
            ".Env.Local",
            "keys/ID_RSA",
            ".NPMRC",
            "Secrets.Yml",
            ".AWS/credentials",
            ".Docker/Config.json",
            "deploy/id_ed25519.pub",
            ".ssh/config",
            ".kube/config",
            "ops/prod.kubeconfig",
            "config/master.key",
            "AuthKey_ABC123.p8",
            ".envrc",
            "services/api/.envrc",
            ".dev.vars",
            "worker/.dev.vars.staging",
            "func/local.settings.json",
            "auth.json",
            "php/app/auth.json",
            ".gradle/gradle.properties",
            "home/.gradle/gradle.properties",
            ".config/rclone/rclone.conf",
            "rclone.conf",
            ".terraform.d/credentials.tfrc.json",
            ".bash_history",
            "home/u/.zsh_history",
            ".psql_history",
            ".mysql_history",
            ".python_history",
            ".bundle/config",
            "app/.bundle/config",
            "pip.conf",
            ".config/pip/pip.conf",
            "pip.ini",
            ".hgrc",
            ".config/op/config",
            ".wrangler/state/v3/d1/db.sqlite",
            "wordpress/wp-config.php",
        ] {
            assert!(is_sensitive(rel), "{rel} should be sensitive");
        }
    }

    #[test]
    fn ordinary_source_files_are_not() {
        for rel in [
            "src/env.py",
            "src/keys.py",
            "environment.yml",
            "config.json",
            "settings.xml",
            "src/credentials.py",
            "docs/npmrc.md",
            "Cargo.toml",
            ".cargo/config.toml",
            "tf/main.tf",
            "tf/variables.tf",
            "keyboard.c",
            "src/docker/config.json",
            ".docker/Dockerfile",
            "KEYS.asc",
            "aws/credentials.py",
            "include/openssl/pem.h",
            "lib/python3/email/_header_value_parser.py",
            "envrc.md",
            "gradle.properties",
            "src/bundle/config",
            ".bundle/config.rb",
            "src/auth.py",
            "auth.json.example",
            "wp-config-sample.php",
            "docs/history.md",
            "credentials.tfrc.json.md",
            "pip/_internal/configuration.py",
            "config/op.yml",
        ] {
            assert!(!is_sensitive(rel), "{rel} should not be sensitive");
        }
    }
}
